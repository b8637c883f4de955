"""``check`` follows up on what the server itself announced and listed (``generate.follow_ups``): it
reads the first resource listed, gets the first prompt listed, completes a listed argument, lists the
tasks, and judges those results under RESOURCES-SHAPE, PROMPTS-SHAPE, COMPLETION-SHAPE and TASKS-SHAPE;
what the answers do not support is not asked, and a refusal claims nothing."""

from __future__ import annotations

import base64
import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from mcpref.fuzz.drive.timing import Timing
from mcpref.fuzz.generate.follow_ups import Shown, follow_ups
from mcpref.fuzz.integrate.check import check_rows
from mcpref.fuzz.judge.oracle import Profile
from mcpref.reference.versions import Era

BUGGY = Path(__file__).resolve().parents[2] / "examples" / "buggy"
SHAPES = frozenset({"RESOURCES-SHAPE", "PROMPTS-SHAPE", "COMPLETION-SHAPE", "TASKS-SHAPE"})
EVERYTHING: dict[str, Any] = {"resources": {}, "prompts": {}, "completions": {}, "tasks": {"list": {}}}
LISTED: dict[str, Any] = {
    "resources/list": {"resources": [{"name": "no uri"}, {"uri": "file:///a", "name": "a"}]},
    "prompts/list": {"prompts": [{"name": "plain"}, {"name": "p", "arguments": [{"name": "x", "required": True}, {"name": "y"}, 5]}]},
    "resources/templates/list": {"resourceTemplates": [{"uriTemplate": "file:///fixed", "name": "f"}, {"uriTemplate": "file:///{+path}", "name": "t"}]},
    "tasks/list": {"tasks": [{"taskId": "t-1"}]},
}


def asked(era: Era, shown: Shown) -> dict[str, object]:
    """The follow-ups of ``shown``: each scenario's name, and the params of its one request."""
    return {s.name: json.loads(s.case.lines[-1])["params"] for s in follow_ups(era, shown)}


@pytest.mark.spec(*SHAPES)
def test_each_follow_up_asks_for_what_the_server_listed() -> None:
    found = asked(Era.LEGACY, Shown(EVERYTHING, "2025-11-25", LISTED))
    assert found == {
        "list the resource templates": {},
        "read the first resource listed": {"uri": "file:///a"},
        "get the first prompt listed": {"name": "plain"},
        "complete an argument of a prompt listed": {"ref": {"type": "ref/prompt", "name": "p"}, "argument": {"name": "x", "value": ""}},
        "complete a variable of a template listed": {"ref": {"type": "ref/resource", "uri": "file:///{+path}"}, "argument": {"name": "path", "value": ""}},
        "list the tasks": {},
        "get the first task listed": {"taskId": "t-1"},
    }
    # Each required argument of the prompt got is given a string; an optional one is left out.
    prompts = {"prompts/list": {"prompts": LISTED["prompts/list"]["prompts"][1:]}}
    assert asked(Era.LEGACY, Shown(EVERYTHING, "2025-11-25", prompts))["get the first prompt listed"] == {"name": "p", "arguments": {"x": "x"}}


@pytest.mark.spec(*SHAPES)
def test_no_follow_up_that_the_answers_do_not_support() -> None:
    # Nothing announced, nothing listed: nothing asked.
    assert follow_ups(Era.LEGACY, Shown()) == ()
    # Resources announced but none listed: the templates are asked for, no resource is read.
    assert list(asked(Era.LEGACY, Shown({"resources": {}}, "2025-11-25", {"resources/list": {"resources": []}}))) == ["list the resource templates"]
    # Lists without completions announced: nothing completed; a list result that is no list: nothing read.
    malformed = {"resources/list": {"resources": {}}, "prompts/list": {"prompts": "p"}}
    assert list(asked(Era.LEGACY, Shown({"prompts": {}}, "2025-11-25", {**LISTED, **malformed}))) == []
    no_completions = {k: v for k, v in EVERYTHING.items() if k != "completions"}
    assert not any(name.startswith("complete") for name in asked(Era.LEGACY, Shown(no_completions, "2025-11-25", LISTED)))
    # Completions announced, but no prompt with an argument nor template with a variable: nothing completed.
    bare = {"prompts/list": {"prompts": [{"name": "plain", "arguments": "x"}]}, "resources/templates/list": {"resourceTemplates": [{"uriTemplate": "file:///fixed"}]}}
    assert not any(name.startswith("complete") for name in asked(Era.LEGACY, Shown(EVERYTHING, "2025-11-25", bare)))
    # Tasks are 2025-11-25's, and listed only where tasks.list is announced.
    assert "list the tasks" not in asked(Era.LEGACY, Shown(EVERYTHING, "2025-06-18", LISTED))
    assert "list the tasks" not in asked(Era.LEGACY, Shown({"tasks": {"cancel": {}}}, "2025-11-25", LISTED))
    assert not any("task" in name for name in asked(Era.MODERN, Shown(EVERYTHING, None, LISTED)))


@pytest.mark.spec("RESOURCES-SHAPE", "PROMPTS-SHAPE")
def test_the_modern_era_lists_what_a_discover_result_announced_first() -> None:
    found = follow_ups(Era.MODERN, Shown({"resources": {}, "prompts": {}}))
    assert [s.name for s in found] == ["list the resources (modern)", "list the prompts (modern)", "list the resource templates (modern)"]
    assert all(s.era is Era.MODERN and json.loads(s.case.lines[0])["params"]["_meta"] for s in found)


def server(tmp_path: Path, results: dict[str, Any]) -> list[str]:
    """The example server of examples/buggy/malformed_resource_read.py, serving ``results``."""
    script = tmp_path / "serves.py"
    script.write_text(
        f"import json, sys\nsys.path.insert(0, {str(BUGGY)!r})\nfrom malformed_resource_read import serve\n"
        f"raise SystemExit(serve(json.loads({json.dumps(results)!r})))\n"
    )
    return [sys.executable, str(script)]


def lawful() -> dict[str, Any]:
    sys.path.insert(0, str(BUGGY))
    from malformed_resource_read import RESULTS

    results: dict[str, Any] = RESULTS
    return results


def statuses(rows: list[dict[str, object]]) -> dict[str, object]:
    return {str(row["id"]): row["status"] for row in rows}


# (method, malformed result, rule): each served by a server that serves the others lawfully.
MALFORMED = [
    ("prompts/get", {"messages": [{"role": "narrator", "content": {"type": "text", "text": "x"}}]}, "PROMPTS-SHAPE"),
    ("completion/complete", {"completion": {"values": [1]}}, "COMPLETION-SHAPE"),
    ("tasks/list", {"tasks": [{"taskId": "t-1", "status": "done"}]}, "TASKS-SHAPE"),
    ("resources/templates/list", {"resourceTemplates": [{"name": "recette"}]}, "RESOURCES-SHAPE"),
]


@pytest.mark.spec(*(rule for _, _, rule in MALFORMED))
@pytest.mark.parametrize(("method", "result", "rule"), MALFORMED, ids=[method for method, _, _ in MALFORMED])
def test_check_fails_a_malformed_result_of_a_follow_up_under_its_rule(tmp_path: Path, method: str, result: Any, rule: str) -> None:
    rows = check_rows(server(tmp_path, {**lawful(), method: result}), Profile.SPEC, Timing(), Era.LEGACY, SHAPES)
    assert statuses(rows) == {**dict.fromkeys(SHAPES, "pass"), rule: "fail"}
    (row,) = (row for row in rows if row["id"] == rule)
    findings = row["findings"]
    assert isinstance(findings, list)
    assert f"{method} answered with" in str(findings[0]["message"]) and findings[0]["shell"]


@pytest.mark.spec(*SHAPES)
def test_check_passes_lawful_reads_in_both_eras_with_their_situations_seen(tmp_path: Path) -> None:
    argv = server(tmp_path, lawful())
    rows = check_rows(argv, Profile.SPEC, Timing(), Era.LEGACY, SHAPES)
    assert statuses(rows) == dict.fromkeys(SHAPES, "pass")
    scenarios = {str(row["id"]): row["scenarios"] for row in rows}
    assert scenarios["COMPLETION-SHAPE"] == ["complete an argument of a prompt listed", "complete a variable of a template listed"]
    assert scenarios["TASKS-SHAPE"] == ["list the tasks", "get the first task listed"]
    modern = check_rows(argv, Profile.SPEC, Timing(), Era.MODERN, SHAPES)
    assert statuses(modern) == {**dict.fromkeys(SHAPES, "pass"), "TASKS-SHAPE": "n/a"}
    # Selected alone, a rule still gets the follow-ups of others that make its own: the prompts listed.
    (alone,) = check_rows(argv, Profile.SPEC, Timing(), Era.MODERN, frozenset({"COMPLETION-SHAPE"}))
    assert alone["status"] == "pass" and alone["scenarios"] == [
        "complete an argument of a prompt listed (modern)",
        "complete a variable of a template listed (modern)",
    ]


@pytest.mark.spec("RESOURCES-SHAPE", "COMPLETION-SHAPE")
def test_a_server_that_lists_nothing_gets_no_follow_up_and_a_refusal_claims_nothing(tmp_path: Path) -> None:
    # Resources announced but none listed: no read. Completion refused: untested, not pass.
    results = {k: v for k, v in lawful().items() if k != "completion/complete"} | {"resources/list": {"resources": []}}
    rows = check_rows(server(tmp_path, results), Profile.SPEC, Timing(), Era.LEGACY, SHAPES)
    by_id = {str(row["id"]): row for row in rows}
    assert "read the first resource listed" not in by_id["RESOURCES-SHAPE"]["scenarios"]
    assert by_id["RESOURCES-SHAPE"]["status"] == "pass"  # its lists were seen, lawful
    assert by_id["COMPLETION-SHAPE"]["status"] == "untested"
    assert str(by_id["COMPLETION-SHAPE"]["reason"]).startswith("no scenario showed a completion/complete result")


@pytest.mark.spec(*SHAPES)
def test_the_reference_draws_no_follow_up() -> None:
    # It announces neither resources nor prompts nor completions nor tasks: the rules stay as the corpus leaves them.
    rows = check_rows([sys.executable, "-m", "mcpref", "serve"], Profile.SPEC, Timing(), Era.LEGACY, SHAPES)
    assert statuses(rows) == {"RESOURCES-SHAPE": "untested", "PROMPTS-SHAPE": "untested", "COMPLETION-SHAPE": "n/a", "TASKS-SHAPE": "n/a"}
    assert all(row["scenarios"] in ([], ["unannounced capabilities"]) and not row["findings"] for row in rows)


def mcpref(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "mcpref", *args], capture_output=True, text=True, timeout=600)


@pytest.mark.spec("RESOURCES-SHAPE")
def test_a_follow_up_finding_has_its_reproducer_file_in_every_report_and_replays_under_its_rule(tmp_path: Path) -> None:
    # A follow-up is built from the server's answers, no scenario of the fixed corpus: the reports
    # carry the case check ran, as they do the corpus's.
    argv = [sys.executable, str(BUGGY / "malformed_resource_read.py")]
    junit, page = tmp_path / "check.xml", tmp_path / "check.html"
    done = mcpref("check", "--select", "RESOURCES-SHAPE", "--junit-xml", str(junit), "--html", str(page), "--", *argv)
    assert done.returncode == 1, done.stderr
    rule = "RESOURCES-SHAPE"
    saved = tmp_path / "check-reproducers" / f"{rule}-0.json"
    written = json.loads(saved.read_text())
    assert written["rule"] == "RESOURCES-SHAPE" and '"method":"resources/read"' in written["preview"][-1]
    assert f"mcpref replay --transcript {saved}" in junit.read_text()
    carried = re.search(r'<a download="RESOURCES-SHAPE.json" href="data:application/json;base64,([^"]+)"', page.read_text())
    assert carried is not None
    embedded = tmp_path / "RESOURCES-SHAPE.json"
    embedded.write_bytes(base64.b64decode(carried.group(1)))
    assert json.loads(embedded.read_text())["chunks"] == written["chunks"]
    for reproducer in (saved, embedded):
        replayed = mcpref("replay", "--transcript", str(reproducer))
        assert replayed.returncode == 1, replayed.stdout + replayed.stderr
        assert "fail RESOURCES-SHAPE: resources/read answered with" in replayed.stdout


@pytest.mark.spec("RESOURCES-SHAPE")
def test_compare_saves_each_column_s_follow_up_reproducers(tmp_path: Path) -> None:
    buggy = [sys.executable, str(BUGGY / "malformed_resource_read.py")]
    junit, page = tmp_path / "compare.xml", tmp_path / "compare.html"
    labels = ["--label", "buggy", "--label", "reference"]
    options = ["--select", "RESOURCES-SHAPE", "--junit-xml", str(junit), "--html", str(page), *labels]
    done = mcpref("compare", *options, "--", *buggy, "---", sys.executable, "-m", "mcpref", "serve")
    assert done.returncode == 1, done.stderr
    rule = "RESOURCES-SHAPE"
    assert [path.name for path in (tmp_path / "compare-reproducers" / "buggy").iterdir()] == [f"{rule}-0.json"]
    assert not (tmp_path / "compare-reproducers" / "reference").exists()
    assert page.read_text().count(f'<a download="{rule}.json"') == 1
