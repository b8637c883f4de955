"""One finding per cause in ``check``: a server with one bug gets one finding, its smallest case
first, the other sightings counted; its reproducer files, JUnit file and HTML page stay small, and
each failure line in the terminal carries the rule's citation."""

from __future__ import annotations

import json
import subprocess
import sys
import xml.etree.ElementTree as ElementTree
from pathlib import Path

import pytest

from mcpref.fuzz.report import causes
from mcpref.fuzz.report.junit import describe
from mcpref.fuzz.report.notes import entry

ROOT = Path(__file__).resolve().parents[2]
LOGS = [sys.executable, str(ROOT / "examples" / "buggy" / "log_to_stdout.py")]
RULE = "STDIO-STDOUT-MESSAGES-ONLY"
URL = entry(RULE).sources[0]


def seen(scenario: str, message: str, status: str = "fail", rule: str = RULE) -> dict[str, object]:
    return {"id": rule, "status": status, "scenario": scenario, "message": message}


def test_sightings_of_one_cause_are_one_finding_shown_by_the_smallest_case() -> None:
    shown = causes.grouped([
        ((559, 2), seen("handshake", "stdout carried a line that is not a message")),
        ((149, 2), seen("initialized early", "stdout carried a line that is not a message")),
        ((1143, 1), seen("at EOF", "stdout carried a line that is not a message")),
        ((149, 2), seen("initialized early", "stdout carried a line that is not a message")),
    ])  # fmt: skip
    assert len(shown) == 1
    assert shown[0]["scenario"] == "initialized early"
    assert (shown[0]["more"], shown[0]["also_in"]) == (3, ["handshake", "at EOF"])


def test_figures_do_not_split_a_cause_and_failures_come_before_warnings() -> None:
    shown = causes.grouped([
        ((10, 1), seen("small", "the server took 2.5 s to answer", "warn", "STDIO-LATENCY")),
        ((90, 1), seen("large", "the server answered request 3 twice")),
        ((50, 1), seen("medium", "the server answered request 7 twice")),
        ((70, 1), seen("other", "the server answered with a bad id")),
    ])  # fmt: skip
    assert [(f["scenario"], f["more"]) for f in shown] == [("medium", 1), ("other", 0), ("small", 0)]


def test_the_terminal_note_counts_the_sightings_and_cites_the_rule() -> None:
    row = {"id": RULE, "status": "fail", "findings": [{**seen("early", "stdout carried a line"), "more": 34}]}
    assert causes.note(row) == f"early: stdout carried a line (and 34 more like it); see {URL}"
    two = {**row, "findings": [seen("a", "one"), seen("b", "two"), seen("c", "three")]}
    assert causes.note(two) == f"a: one; 2 other causes; see {URL}"
    untested = {"id": RULE, "status": "untested", "findings": [], "reason": "why"}
    assert causes.note(untested) == "why"


def test_junit_text_says_how_many_more_share_the_cause() -> None:
    finding = {**seen("early", "not a message"), "expected": "x", "actual": "y", "more": 2, "also_in": ["a, b", "c"]}
    assert 'and 2 more like it (also in "a, b", "c")' in describe([finding])


@pytest.fixture(scope="module")
def one_bug(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("one-bug")
    done = subprocess.run(
        [sys.executable, "-m", "mcpref", "check", "--junit-xml", "check.xml", "--html", "check.html", "--", *LOGS],
        cwd=folder, capture_output=True, text=True, timeout=600,
    )  # fmt: skip
    assert done.returncode == 1, done.stderr
    (folder / "stdout.txt").write_text(done.stdout)
    return folder


@pytest.mark.spec(RULE)
def test_a_server_with_one_bug_gets_one_finding_and_small_reports(one_bug: Path) -> None:
    failing = [line for line in (one_bug / "stdout.txt").read_text().splitlines() if "  fail  " in line]
    assert len(failing) == 1 and failing[0].startswith(RULE)
    assert "more like it" in failing[0] and failing[0].endswith(f"; see {URL}")
    assert [path.name for path in (one_bug / "check-reproducers").iterdir()] == [f"{RULE}-0.json"]
    reproducer = json.loads((one_bug / "check-reproducers" / f"{RULE}-0.json").read_text())
    assert len(reproducer["chunks"]) <= 2  # the smallest scenario: a few lines, not the handshake tour
    junit = ElementTree.parse(one_bug / "check.xml").getroot()
    failures = [case for case in junit.iter("testcase") if case.find("failure") is not None]
    assert [case.get("name") for case in failures] == [RULE]
    text = failures[0].findtext("failure") or ""
    assert text.count("reproducer: mcpref replay") == 1 and "more like it" in text and URL in text
    # Kilobytes, where each sighting used to be listed: 300 KB of XML, 670 KB of HTML.
    assert (one_bug / "check.xml").stat().st_size < 20_000
    assert (one_bug / "check.html").stat().st_size < 80_000
    assert (one_bug / "check.html").read_text().count("<section class=\"finding\"") == 1


@pytest.mark.spec(RULE)
def test_each_failure_line_of_a_campaign_cites_its_rule(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "mcpref", "fuzz", "--max-cases", "10", "--seed", "1", "--campaign-dir", str(tmp_path), "--", *LOGS],
        cwd=tmp_path, capture_output=True, text=True, timeout=600,
    )  # fmt: skip
    assert done.returncode == 1, done.stderr
    failing = [line for line in done.stdout.splitlines() if "  fail  " in line or " (fail): " in line]
    assert len(failing) == 2, done.stdout  # the table's row and the finding's heading
    assert all(line.startswith(RULE) and line.endswith(f"; see {URL}") for line in failing), failing
