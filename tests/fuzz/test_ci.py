"""mcpref in other projects' CI: baselines of expected failures, and JUnit XML.

A baseline holds a run both ways: a failure it does not list is new (exit 1), a rule it
lists that no longer fails must come off it (exit 1); only then is the run clean (exit 0).
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
import xml.etree.ElementTree as ElementTree
from pathlib import Path

import pytest

from mcpref.fuzz.judge.oracle import Profile
from mcpref.fuzz.report.baseline import Baseline, BaselineError, dump, hold, load
from mcpref.reference.rules import RULES

ROOT = Path(__file__).resolve().parents[2]
SILENT = [sys.executable, str(ROOT / "examples" / "buggy" / "silent_on_parse_error.py")]
REFERENCE = [sys.executable, "-m", "mcpref.reference"]
FOUND = ["FRAME-UTF8", "RPC-PARSE-ERROR"]  # what check finds in SILENT
CLASS = "mcpref.silent_on_parse_error_py"  # its test cases' class name


def mcpref(*argv: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "mcpref", *argv], cwd=ROOT, capture_output=True, text=True, timeout=600, check=False
    )


def test_a_run_is_held_to_its_baseline_both_ways() -> None:
    baseline = Baseline(Profile.SPEC, {"target": frozenset({"RPC-PARSE-ERROR", "RPC-BATCH"})})
    verdict = hold(baseline, {"target": {"RPC-PARSE-ERROR", "FRAME-UTF8"}})
    assert (verdict.expected, verdict.new, verdict.fixed) == (
        {"target": ["RPC-PARSE-ERROR"]},
        {"target": ["FRAME-UTF8"]},
        {"target": ["RPC-BATCH"]},
    )
    assert not verdict.held
    assert "baseline target: now passing: RPC-BATCH" in verdict.lines()
    assert hold(baseline, {"target": {"RPC-PARSE-ERROR", "RPC-BATCH"}}).held


def test_a_baseline_file_round_trips_and_a_bad_one_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "baseline.json"
    path.write_text(dump(Profile.SPEC, {"a": {"RPC-BATCH"}, "b": set()}))
    assert load(path, Profile.SPEC) == Baseline(Profile.SPEC, {"a": frozenset({"RPC-BATCH"}), "b": frozenset()})
    with pytest.raises(BaselineError, match="profile 'spec', not 'strict'"):
        load(path, Profile.STRICT)
    for text, problem in (
        ("{", "is not JSON"),
        ('{"format": "other"}', "is not a mcpref-baseline/1 file"),
        ('{"format": "mcpref-baseline/1", "profile": "spec", "expected_failures": ["X"]}', "must map each target"),
        ('{"format": "mcpref-baseline/1", "profile": "spec", "expected_failures": {"t": ["NOPE-1"]}}', "NOPE-1"),
    ):
        path.write_text(text)
        with pytest.raises(BaselineError, match=problem):
            load(path, Profile.SPEC)
    with pytest.raises(BaselineError, match="cannot read"):
        load(tmp_path / "missing.json", Profile.SPEC)


@pytest.mark.spec("RPC-PARSE-ERROR", "FRAME-UTF8")
def test_check_writes_a_baseline_then_holds_to_it(tmp_path: Path) -> None:
    written = tmp_path / "baseline.json"
    # The corpus of the rules at stake is enough to hold a run to a baseline, and quicker.
    check = ("check", "--select", ",".join([*FOUND, "RPC-ID-ECHO"]))
    assert mcpref(*check, "--write-baseline", str(written), "--", *SILENT).returncode == 1
    assert json.loads(written.read_text())["expected_failures"] == {"target": FOUND}
    assert mcpref(*check, "--baseline", str(written), "--", *SILENT).returncode == 0
    # The list only shrinks: the reference passes both rules, which must come off it.
    fixed = mcpref(*check, "--baseline", str(written), "--", *REFERENCE)
    assert fixed.returncode == 1
    assert "baseline target: now passing: FRAME-UTF8, RPC-PARSE-ERROR" in fixed.stderr
    # A failure the baseline does not list is new.
    written.write_text(dump(Profile.SPEC, {"target": {"RPC-PARSE-ERROR"}}))
    new = mcpref(*check, "--baseline", str(written), "--", *SILENT)
    assert (new.returncode, "baseline target: new: FRAME-UTF8" in new.stderr) == (1, True)
    written.write_text("{")
    assert mcpref(*check, "--baseline", str(written), "--", *SILENT).returncode == 2


# What junit-10.xsd allows, the schema most CI systems read JUnit XML by (https://github.com/jenkinsci/
# xunit-plugin/blob/master/src/main/resources/org/jenkinsci/plugins/xunit/types/model/xsd/junit-10.xsd):
# element -> (children allowed, attributes allowed, attributes required).
_OUTCOME = (set[str](), {"type", "message"}, set[str]())
_TEXT = (set[str](), set[str](), set[str]())
JUNIT_10: dict[str, tuple[set[str], set[str], set[str]]] = {
    "testsuites": ({"testsuite"}, {"name", "time", "tests", "failures", "errors"}, set()),
    "testsuite": (
        {"testsuite", "properties", "testcase", "system-out", "system-err"},
        {"name", "tests", "failures", "errors", "group", "time", "skipped", "timestamp", "hostname", "id", "package",
         "file", "log", "url"},
        {"name", "tests", "failures", "errors"},
    ),
    "properties": ({"property"}, set(), set()),
    "property": (set(), {"name", "value"}, {"name", "value"}),
    "testcase": (
        {"skipped", "error", "failure", "rerunFailure", "rerunError", "flakyFailure", "flakyError", "system-out",
         "system-err"},
        {"name", "time", "classname", "group"},
        {"name"},
    ),
    "failure": _OUTCOME,
    "error": _OUTCOME,
    "skipped": _OUTCOME,
    "system-out": _TEXT,
    "system-err": _TEXT,
}
SUREFIRE_TIME = re.compile(r"(([0-9]{0,3},)*[0-9]{3}|[0-9]{0,3})*(\.[0-9]*)?")


def assert_junit_10(element: ElementTree.Element) -> None:
    children, allowed, required = JUNIT_10[element.tag]
    assert {child.tag for child in element} <= children, (element.tag, [child.tag for child in element])
    assert required <= set(element.attrib) <= allowed, (element.tag, element.attrib)
    if element.tag in ("testsuites", "testsuite") and "time" in element.attrib:
        assert SUREFIRE_TIME.fullmatch(element.get("time", "")), element.get("time")
    for child in element:
        assert_junit_10(child)


def cases(path: Path) -> dict[str, ElementTree.Element]:
    root = ElementTree.parse(path).getroot()
    assert root.tag == "testsuites"
    assert_junit_10(root)
    return {f"{case.get('classname')}/{case.get('name')}": case for case in root.iter("testcase")}


@pytest.mark.spec("RPC-PARSE-ERROR", "FRAME-UTF8")
def test_junit_xml_has_a_test_case_per_rule_with_the_reproducer_in_each_failure(tmp_path: Path) -> None:
    report = tmp_path / "check.xml"
    assert mcpref("check", "--junit-xml", str(report), "--", *SILENT).returncode == 1
    found = cases(report)
    assert len(found) == len(RULES)
    failed = {name for name, case in found.items() if case.find("failure") is not None}
    assert failed == {f"{CLASS}/{rule}" for rule in FOUND}  # named after the server: two servers stay apart
    failure = found[f"{CLASS}/RPC-PARSE-ERROR"].find("failure")
    assert failure is not None and failure.text is not None
    assert failure.get("type") == "MUST" and "shell: { printf " in failure.text and "-> pas du json" in failure.text
    replay = [line for line in failure.text.splitlines() if line.startswith("reproducer: mcpref replay ")]
    saved = Path(replay[0].split()[-1])  # one a finding
    assert saved.parent == tmp_path / "check-reproducers" and saved.exists()
    assert "fail RPC-PARSE-ERROR:" in mcpref("replay", str(saved)).stdout
    skipped = {name for name, case in found.items() if case.find("skipped") is not None}
    assert f"{CLASS}/STDIO-SIGNALS" in skipped  # not exercised by the corpus
    root = ElementTree.parse(report).getroot()
    assert (root.get("tests"), root.get("failures")) == (str(len(RULES)), "2")
    assert float(root.get("time", "0")) > 0 and root.find("testsuite/testcase[@time]") is None

    # Held to a baseline that lists them, they are expected failures: skipped, saying so.
    baseline = tmp_path / "baseline.json"
    baseline.write_text(dump(Profile.SPEC, {"target": set(FOUND)}))
    assert mcpref("check", "--baseline", str(baseline), "--junit-xml", str(report), "--", *SILENT).returncode == 0
    expected = cases(report)[f"{CLASS}/RPC-PARSE-ERROR"].find("skipped")
    assert expected is not None and expected.get("message") == "expected failure (baseline)"


@pytest.mark.spec("RPC-PARSE-ERROR")
def test_compare_holds_each_column_to_its_own_list(tmp_path: Path) -> None:
    baseline = tmp_path / "baseline.json"
    baseline.write_text(dump(Profile.SPEC, {"ref": set(), "silent": set(FOUND)}))
    report = tmp_path / "compare.xml"
    argv = ["compare", "--baseline", str(baseline), "--junit-xml", str(report), "--label", "ref", "--label", "silent"]
    assert mcpref(*argv, "--", *REFERENCE, "---", *SILENT).returncode == 0
    assert {name.split("/")[0] for name in cases(report)} == {"mcpref.ref", "mcpref.silent"}


@pytest.mark.spec("RPC-PARSE-ERROR")
def test_a_fuzz_campaign_is_held_to_a_baseline(tmp_path: Path) -> None:
    baseline = tmp_path / "baseline.json"
    report = tmp_path / "fuzz.xml"
    argv = ["fuzz", "--seed", "1", "--max-cases", "10", "--campaign-dir", str(tmp_path / "c"), "--junit-xml", str(report)]
    assert mcpref(*argv, "--write-baseline", str(baseline), "--", *SILENT).returncode == 1
    # Seed 1 finds it at case 4 of 10. The same seed, cases and database (a fresh one, as in CI) give
    # the same campaign; a rerun on this one's database would replay it and search on from there.
    listed = json.loads(baseline.read_text())["expected_failures"]["target"]
    assert "RPC-PARSE-ERROR" in listed and set(listed) <= set(FOUND)  # its search on may find FRAME-UTF8
    failure = cases(report)[f"{CLASS}/RPC-PARSE-ERROR"].find("failure")
    assert failure is not None and failure.text is not None and "reproducer: " in failure.text
    again = [*argv[: argv.index("--campaign-dir")], "--campaign-dir", str(tmp_path / "again"), "--junit-xml", str(report)]
    assert mcpref(*again, "--baseline", str(baseline), "--", *SILENT).returncode == 0


def test_junit_xml_carries_what_a_server_wrote_even_where_xml_cannot() -> None:
    from mcpref.fuzz.report.junit import document

    finding = {"message": "answered \x00\x1b[31m", "expected": "nothing", "actual": "\ud800\x7f", "scenario": "s"}
    rows = [{"id": "RPC-PARSE-ERROR", "level": "MUST", "status": "fail", "findings": [finding]}]
    root = ElementTree.fromstring(document("mcpref check", {"target": rows}).encode())
    failure = root.find("testsuite/testcase/failure")
    assert failure is not None and failure.text is not None
    assert "answered \\x00\\x1b[31m" in failure.text and "\\xd800" in failure.text


def test_junit_xml_gives_a_cause_once_with_its_count_and_the_rule_s_citation() -> None:
    from mcpref.fuzz.report.junit import document
    from mcpref.fuzz.report.notes import entry

    finding = {"message": "no answer", "expected": "e", "actual": "nothing", "scenario": "not JSON", "more": 3}
    rows = [{"id": "RPC-PARSE-ERROR", "level": "MUST", "status": "fail", "findings": [{**finding, "also_in": ["x"]}]}]
    root = ElementTree.fromstring(document("mcpref check", {"target": rows}).encode())
    failure = root.find("testsuite/testcase/failure")
    assert failure is not None and failure.text is not None
    assert 'and 3 more like it (also in "x")' in failure.text
    assert failure.text.endswith(f"see {entry('RPC-PARSE-ERROR').sources[0]}")
