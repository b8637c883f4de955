"""``pass`` is a claim that the server was seen keeping the rule; a rule whose scenarios lost the
server first is ``untested``, shown as such everywhere a verdict is shown, and never counted as pass."""

from __future__ import annotations

import json
import subprocess
import sys
import xml.etree.ElementTree as ElementTree
from pathlib import Path

import pytest
from test_oracle_initiative import UNASKED

from mcpref.fuzz.integrate import action
from mcpref.fuzz.judge.oracle import Profile
from mcpref.fuzz.report import statuses
from mcpref.fuzz.report.baseline import Baseline, hold
from mcpref.fuzz.report.ci import fuzz_rows
from mcpref.reference.rules import RULES

ROOT = Path(__file__).resolve().parents[2]
EXITS_3 = [sys.executable, "-c", "import sys; sys.exit(3)"]
DIES_MID_SESSION = [sys.executable, str(ROOT / "tests" / "hostile" / "dies_mid_session.py")]


def check(*argv: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "mcpref", "check", *argv], cwd=ROOT, capture_output=True, text=True, timeout=600
    )


@pytest.fixture(scope="module")
def dead_on_arrival() -> dict[str, object]:
    done = check("--json", "--", *EXITS_3)
    assert done.returncode == 1, done.stderr
    document: dict[str, object] = json.loads(done.stdout)
    return document


@pytest.mark.spec("STDIO-SURVIVE")
def test_a_server_that_exits_at_once_passes_nothing_and_fails_once(dead_on_arrival: dict[str, object]) -> None:
    rows = dead_on_arrival["rules"]
    assert isinstance(rows, list)
    by_status = statuses.counts(rows)
    assert by_status[statuses.PASS] == 0
    assert [row["id"] for row in rows if row["status"] in (statuses.FAIL, statuses.WARN)] == ["STDIO-SURVIVE"]
    assert by_status[statuses.UNTESTED] > 40
    assert dead_on_arrival["cause"] == "the server exited with status 3 before answering"
    untested = next(row for row in rows if row["id"] == "RPC-PARSE-ERROR")
    assert untested["status"] == statuses.UNTESTED
    # A rule of some versions is not n/a for a server that never said which version it follows.
    limited = {row["id"]: row["status"] for row in rows if row["id"] in ("FRAME-UTF8", "CAP-ELICIT-COMPLETE", "RPC-BATCH")}
    assert set(limited.values()) == {statuses.UNTESTED}, limited
    assert "exited with status 3" in str(untested["reason"])


def test_the_table_leads_its_summary_with_the_cause() -> None:
    done = check("--", *EXITS_3)
    last = done.stdout.strip().splitlines()[-1]
    assert last.startswith("the server exited with status 3 before answering: 1 fail, "), last
    assert " pass" not in last and "untested" in last


@pytest.mark.spec("STDIO-SURVIVE")
def test_a_selection_of_rules_does_not_turn_a_server_that_answers_nothing_into_a_clean_run() -> None:
    # With --select LIFE-PING alone, the rule was untested and the run exited 0: a CI gate passed a
    # server that never answered. Its one cause is reported whatever the selection.
    done = check("--select", "LIFE-PING", "--", *EXITS_3)
    assert done.returncode == 1, done.stdout
    rows = done.stdout.strip().splitlines()
    assert rows[-1] == "the server exited with status 3 before answering: 1 fail, 1 untested", rows
    assert [row.split()[0] for row in rows[1:-1]] == ["STDIO-SURVIVE", "LIFE-PING"]


@pytest.mark.spec("RPC-PARSE-ERROR", "RPC-BATCH")
def test_a_server_that_dies_after_two_lines_passes_none_of_the_rules_it_never_reached() -> None:
    rows = json.loads(check("--json", "--", *DIES_MID_SESSION).stdout)["rules"]
    by_id = {row["id"]: row for row in rows}
    for rule in ("RPC-PARSE-ERROR", "RPC-INVALID-REQUEST", "RPC-BATCH", "TOOLS-CALL-RESULT"):
        assert by_id[rule]["status"] == statuses.UNTESTED, (rule, by_id[rule])
    assert by_id["STDIO-SURVIVE"]["status"] == statuses.FAIL


@pytest.mark.spec("RESOURCES-SHAPE", "PROMPTS-SHAPE", "SERVER-MESSAGE-SHAPE", *UNASKED)
def test_the_reference_has_no_untested_rule_but_those_of_what_it_never_writes() -> None:
    rows = json.loads(check("--json").stdout)["rules"]
    # It announces neither resources nor prompts, and writes no message on its own: no scenario shows them.
    untested = {"RESOURCES-SHAPE", "PROMPTS-SHAPE", "SERVER-MESSAGE-SHAPE", *UNASKED}
    assert {row["id"] for row in rows if row["status"] == statuses.UNTESTED} == untested
    assert statuses.counts(rows)[statuses.PASS] > 40


def test_junit_skips_an_untested_rule_with_its_reason(tmp_path: Path) -> None:
    path = tmp_path / "junit.xml"
    check("--junit-xml", str(path), "--", *EXITS_3)
    cases = {case.get("name"): case for case in ElementTree.parse(path).iter("testcase")}
    skipped = cases["RPC-PARSE-ERROR"].find("skipped")
    assert skipped is not None and "could not be judged: the server exited with status 3" in str(skipped.get("message"))
    assert cases["STDIO-SURVIVE"].find("failure") is not None
    assert not [name for name, case in cases.items() if len(case) == 0 or case.find("properties") is not None]


def test_a_listed_rule_left_untested_stays_on_the_baseline() -> None:
    baseline = Baseline(Profile.SPEC, {"target": frozenset({"RPC-PARSE-ERROR", "RPC-BATCH"})})
    verdict = hold(baseline, {"target": set()}, {"target": {"RPC-PARSE-ERROR"}})
    assert verdict.fixed == {"target": ["RPC-BATCH"]}
    assert verdict.untested == {"target": ["RPC-PARSE-ERROR"]}
    assert "baseline target: untested: RPC-PARSE-ERROR" in verdict.lines()


def test_the_action_summary_says_untested_and_leads_with_the_cause(dead_on_arrival: dict[str, object]) -> None:
    text = action.summary(EXITS_3, "spec", dead_on_arrival, None)
    assert "the server exited with status 3 before answering: 1 fail, " in text
    assert " pass" not in text.split("### check")[0]


def test_a_campaign_lists_only_the_rules_it_found_broken() -> None:
    rows = fuzz_rows(
        {"failures": [{"id": "RPC-PARSE-ERROR", "message": "no answer"}], "warnings": [{"id": "FRAME-BOM"}]}
    )
    expected = {"FRAME-BOM": statuses.WARN, "RPC-PARSE-ERROR": statuses.FAIL}
    assert [(row["id"], row["status"]) for row in rows] == [(r.id, expected[r.id]) for r in RULES if r.id in expected]


def test_a_campaign_entry_is_counted_by_its_own_status() -> None:
    # Filed among the failures by earlier versions, though attribution had made it a warning.
    cut = {"id": "FRAME-LF-ONLY", "status": "warn", "message": "no answer (RPC-ONE-ANSWER), only with a raw line separator"}
    rows = fuzz_rows({"failures": [cut], "warnings": []})
    assert [(row["id"], row["status"]) for row in rows] == [("FRAME-LF-ONLY", statuses.WARN)]
