"""``check-client`` fails each buggy example client (``examples/buggy_clients/``) under its rule and in
its profile, with the scenario that shows the bug (the plain tool call always runs too); and it
passes the reference client on every rule, under the strict profile."""

from __future__ import annotations

import json
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

from mcpref.fuzz.integrate.cli import main
from mcpref.fuzz.report.notes import citation
from mcpref.reference.rules import CLIENT_RULES

BUGGY = Path(__file__).resolve().parents[2] / "examples" / "buggy_clients"
PLAIN = "a plain tool call"


@dataclass(frozen=True)
class Case:
    name: str  # the example's file name, without .py
    profile: str  # the weakest profile that fails it
    scenario: str = PLAIN  # the scenario that shows the bug
    options: tuple[str, ...] = ()  # more options for check-client
    client: tuple[str, ...] = ()  # more options for the example


# A client that loses what it waits for is told to give up after 3 s (--timeout, as mcpref
# client); the one that hangs on is killed at check-client's --limit, past the 10 s it is given.
GIVES_UP = ("--timeout", "3")
DUAL_ERA = ("--protocol-version", "2026-07-28", *GIVES_UP)  # asks server/discover first, falls back
FOUND = [
    pytest.param(Case("pipelines_before_answer", "strict"), marks=pytest.mark.spec("CLIENT-INIT-ALONE")),
    pytest.param(Case("no_initialized", "spec"), marks=pytest.mark.spec("CLIENT-INITIALIZED")),
    pytest.param(Case("reuses_ids", "spec"), marks=pytest.mark.spec("CLIENT-ID-UNIQUE")),
    pytest.param(Case("null_ids", "spec"), marks=pytest.mark.spec("CLIENT-ID-TYPE")),
    pytest.param(
        Case("ignores_ping", "spec", "server requests before the answer"), marks=pytest.mark.spec("CLIENT-PING")
    ),
    pytest.param(
        Case("ignores_roots_list", "spec", client=("--root", "file:///tmp", *GIVES_UP)),
        marks=pytest.mark.spec("CLIENT-ANSWERS-REQUESTS"),
    ),
    pytest.param(
        Case("answers_notifications", "spec", "unknown notifications and fields"),
        marks=pytest.mark.spec("CLIENT-NOTIFICATION-SILENT"),
    ),
    pytest.param(Case("pretty_prints", "spec", client=GIVES_UP), marks=pytest.mark.spec("CLIENT-STDIN-MESSAGES-ONLY")),
    pytest.param(
        Case("reads_per_chunk", "spec", "an answer cut into pieces", client=GIVES_UP),
        marks=pytest.mark.spec("CLIENT-READ-CHUNKS"),
    ),
    pytest.param(
        Case("splitlines_on_u2028", "spec", "raw U+2028 and U+2029 in the answer", client=GIVES_UP),
        marks=pytest.mark.spec("CLIENT-READ-LF-ONLY"),
    ),
    pytest.param(
        Case("hangs_on_dead_server", "strict", "a server that exits before answering", options=("--limit", "12")),
        marks=pytest.mark.spec("CLIENT-SERVER-GONE"),
    ),
    pytest.param(Case("kills_server", "strict"), marks=pytest.mark.spec("CLIENT-SHUTDOWN")),
    pytest.param(
        Case("keeps_unsupported_version", "strict", "an initialize answered with an unsupported version"),
        marks=pytest.mark.spec("CLIENT-VERSION-UNSUPPORTED"),
    ),
    pytest.param(
        Case("calls_unannounced", "spec", "a server that announces no capability"),
        marks=pytest.mark.spec("CLIENT-CAP-ANNOUNCED"),
    ),
    pytest.param(
        Case("roots_result_undeclared", "strict", "requests for undeclared capabilities"),
        marks=pytest.mark.spec("CLIENT-UNDECLARED-REFUSED"),
    ),
    pytest.param(Case("mangles_text", "strict"), marks=pytest.mark.spec("CLIENT-RESULT-SHOWN")),
    pytest.param(
        Case("never_cancels", "strict", "a server that never answers the call", client=GIVES_UP),
        marks=pytest.mark.spec("CLIENT-CANCEL"),
    ),
    pytest.param(Case("drops_meta", "spec", "a modern server", client=DUAL_ERA), marks=pytest.mark.spec("CLIENT-MOD-META")),
    pytest.param(
        Case("initializes_after_discover", "strict", "a modern server", client=DUAL_ERA),
        marks=pytest.mark.spec("CLIENT-MOD-STAYS-MODERN"),
    ),
    pytest.param(
        Case("retries_unlisted_version", "strict", "a modern server of another version only", client=DUAL_ERA),
        marks=pytest.mark.spec("CLIENT-MOD-VERSION-RETRY"),
    ),
    pytest.param(
        Case("forgets_request_state", "spec", "a modern server asking for input", client=DUAL_ERA),
        marks=pytest.mark.spec("CLIENT-MOD-INPUT-RETRY"),
    ),
    pytest.param(
        Case("falls_back_on_32601_only", "strict", "a legacy server refusing server/discover with -32603", client=DUAL_ERA),
        marks=pytest.mark.spec("CLIENT-MOD-FALLBACK"),
    ),
    *(
        # The wait for a call that never times out is the same in either era: make test waits in the legacy one.
        pytest.param(Case(name, profile, f"{prefix}{scenario}", options, client),
                     marks=(mark, pytest.mark.slow) if (name, era) == ("never_times_out", DUAL_ERA) else mark)
        for prefix, era in (("", GIVES_UP), ("a modern server: ", DUAL_ERA))
        for name, profile, scenario, mark, options, client in (
            ("decodes_each_read", "spec", "an answer cut into pieces", pytest.mark.spec("CLIENT-READ-CHUNKS"), (), era),
            ("truncates_at_64k", "strict", "a 4 MiB answer", pytest.mark.spec("CLIENT-READ-LONG-LINE"), (), era),
            ("splits_at_cr", "strict", "raw CR between tokens", pytest.mark.spec("CLIENT-READ-LF-ONLY"), (), era),
            ("matches_by_position", "strict", "a late answer to an earlier request first", pytest.mark.spec("CLIENT-ANSWER-BY-ID"), (), era),
            # Killed at the limit: the call came 1 or 2 s in, so it waited more than half of the 10 s.
            ("never_times_out", "strict", "a server that never answers the call", pytest.mark.spec("CLIENT-TIMEOUT"),
             ("--limit", "10", "--endless-wait", "10"), era),
        )
    ),
]  # fmt: skip


def check_client(
    profile: str, options: list[str], client: list[str], capsys: pytest.CaptureFixture[str]
) -> tuple[int, dict[str, dict[str, object]]]:
    status = main(["check-client", "--json", "--profile", profile, *options, "--", *client])
    rows = {row["id"]: row for row in json.loads(capsys.readouterr().out)["rules"]}
    return status, rows


@pytest.mark.parametrize("case", FOUND, ids=lambda case: case.name)
def test_check_client_fails_each_example_under_its_rule_in_its_profile(
    case: Case, request: pytest.FixtureRequest, capsys: pytest.CaptureFixture[str]
) -> None:
    marker = request.node.get_closest_marker("spec")  # the rule, named once: in the case's mark
    assert marker is not None
    (rule,) = marker.args
    example = [sys.executable, str(BUGGY / f"{case.name}.py"), "--tool", "echo", *case.client, "--", "{server}"]
    status, rows = check_client(case.profile, ["--scenario", case.scenario, *case.options], example, capsys)
    assert status == 1 and rows[rule]["status"] == "fail", rows[rule]
    failed = {rule_id for rule_id, row in rows.items() if row["status"] == "fail"}
    assert failed == {rule}, failed  # the bug, and nothing that is not its doing


@pytest.mark.spec(*(rule.id for rule in CLIENT_RULES))
def test_the_dual_era_reference_client_passes_every_rule_under_the_strict_profile(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # It waits 4 s for an answer, not its 10: the silent scenario costs that.
    reference = [sys.executable, "-m", "mcpref", "client", "--timeout", "4", "--protocol-version", "2026-07-28", "--root", "file:///tmp",
                 "--tool", "echo", "--", "{server}"]  # fmt: skip
    status, rows = check_client("strict", [], reference, capsys)
    assert list(rows) == [rule.id for rule in CLIENT_RULES]
    assert {rule_id: row["status"] for rule_id, row in rows.items() if row["status"] != "pass"} == {}
    assert status == 0


def test_the_legacy_reference_client_passes_the_rest_and_leaves_the_modern_ones_untested(
    capsys: pytest.CaptureFixture[str],
) -> None:
    reference = [sys.executable, "-m", "mcpref", "client", "--timeout", "4", "--tool", "echo", "--", "{server}"]
    status, rows = check_client("strict", [], reference, capsys)
    modern = ("CLIENT-MOD-META", "CLIENT-MOD-STAYS-MODERN", "CLIENT-MOD-VERSION-RETRY", "CLIENT-MOD-INPUT-RETRY",
              "CLIENT-MOD-FALLBACK")
    assert {rule_id: row["status"] for rule_id, row in rows.items() if row["status"] != "pass"} == dict.fromkeys(
        modern, "untested"
    )
    assert status == 0


@pytest.mark.spec("CLIENT-READ-CHUNKS", "CLIENT-READ-CRLF")
def test_a_client_never_written_its_answer_leaves_the_read_path_untested(capsys: pytest.CaptureFixture[str]) -> None:
    """Its plain call got no answer either: alike in both, it was seen reading no answer at all."""
    example = [sys.executable, str(BUGGY / "ignores_roots_list.py"), "--root", "file:///tmp", "--tool", "echo", *GIVES_UP,
               "--", "{server}"]  # fmt: skip
    scenarios = ["--scenario", "an answer cut into pieces", "--scenario", "CRLF line ends"]
    status, rows = check_client("spec", scenarios, example, capsys)
    assert status == 1 and rows["CLIENT-ANSWERS-REQUESTS"]["status"] == "fail"
    for rule, scenario in (("CLIENT-READ-CHUNKS", "an answer cut into pieces"), ("CLIENT-READ-CRLF", "CRLF line ends")):
        assert rows[rule]["status"] == "untested"
        assert rows[rule]["reason"] == (f'in "{scenario}", the client was never written the plain tool call\'s answer: '
                                        "the server held it while its roots/list request went unanswered")  # fmt: skip


def test_each_example_client_is_tested_and_listed_in_the_readme() -> None:
    examples = {path.stem for path in BUGGY.glob("*.py") if not path.name.startswith("_")}
    assert examples == {case.name for param in FOUND for case in param.values if isinstance(case, Case)}
    readme = (BUGGY / "README.md").read_text(encoding="utf-8")
    assert [name for name in sorted(examples) if f"`{name}.py`" not in readme] == []


@pytest.mark.spec("CLIENT-ID-TYPE")
def test_a_failure_line_in_the_terminal_cites_the_rule(capsys: pytest.CaptureFixture[str]) -> None:
    example = [sys.executable, str(BUGGY / "null_ids.py"), "--tool", "echo", "--", "{server}"]
    assert main(["check-client", "--scenario", PLAIN, "--", *example]) == 1
    (line,) = [line for line in capsys.readouterr().out.splitlines() if line.startswith("CLIENT-ID-TYPE")]
    assert " fail " in line and line.endswith(f"; see {citation('CLIENT-ID-TYPE')}"), line
