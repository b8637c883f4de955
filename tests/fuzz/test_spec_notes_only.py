"""Under ``spec``, a warning says a SHOULD of the specification's text was not met; a reference
decision the peer took otherwise, as the text permits, is a note: its row reads ``pass`` with the
note saying what the peer did, and ``strict`` fails it as before."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from mcpref.fuzz.drive.timing import Timing
from mcpref.fuzz.integrate.check import check_rows
from mcpref.fuzz.judge.findings import Finding, Profile, Status
from mcpref.fuzz.report import statuses
from mcpref.reference.rules import EVERY_RULE, Level

LAWFUL = Path(__file__).resolve().parents[2] / "examples" / "lawful"
DECISIONS = sorted(rule.id for rule in EVERY_RULE if rule.level is Level.DECISION)


def _finding(rule: str, mandatory: bool = False) -> Finding:
    return Finding(rule, mandatory, 1, "did otherwise", "the reference's choice", "another")


@pytest.mark.spec("FRAME-OUTPUT-ASCII", "LIFE-SECOND-INIT", "CAP-UNANNOUNCED-METHOD", "TOOLS-UNKNOWN")
@pytest.mark.parametrize("rule", DECISIONS)
def test_a_reference_decision_taken_otherwise_is_a_note_under_spec_and_fails_strict(rule: str) -> None:
    finding = _finding(rule)
    assert finding.status(Profile.SPEC) is Status.NOTE
    assert finding.status(Profile.STRICT) is Status.FAIL
    assert _finding(rule, mandatory=True).status(Profile.SPEC) is Status.FAIL  # a MUST it breaks too


@pytest.mark.spec("TOOLS-ARGS-INVALID", "STDIO-LATENCY")
def test_a_should_still_warns_under_spec_and_a_measurement_in_every_profile() -> None:
    assert _finding("TOOLS-ARGS-INVALID").status(Profile.SPEC) is Status.WARN
    assert _finding("STDIO-LATENCY").status(Profile.STRICT) is Status.WARN


def test_a_row_of_notes_alone_passes_where_seen_and_a_warning_or_failure_beside_them_counts() -> None:
    assert statuses.of([Status.NOTE], seen=True, exercised=True) == statuses.PASS
    # Notes of a server never seen answering in the situation (an echo, a silence) claim nothing.
    assert statuses.of([Status.NOTE], seen=False, exercised=True) == statuses.UNTESTED
    # Notes from scenarios that judge other rules claim nothing of a rule none judges: n/a.
    assert statuses.of([Status.NOTE], seen=False, exercised=False) == statuses.NOT_APPLICABLE
    assert statuses.of([Status.NOTE, Status.WARN], seen=True, exercised=True) == statuses.WARN
    assert statuses.of([Status.NOTE, Status.FAIL], seen=True, exercised=True) == statuses.FAIL


@pytest.mark.spec("FRAME-OUTPUT-ASCII", "LIFE-SECOND-INIT")
@pytest.mark.parametrize(
    ("example", "rule"), [("raw_utf8_output", "FRAME-OUTPUT-ASCII"), ("second_initialize_answered", "LIFE-SECOND-INIT")]
)
def test_check_shows_a_lawful_alternative_as_a_pass_with_its_note_under_spec(example: str, rule: str) -> None:
    target = [sys.executable, str(LAWFUL / f"{example}.py")]
    (spec,) = check_rows(target, Profile.SPEC, Timing(), only=frozenset({rule}))
    assert spec["status"] == "pass" and spec["findings"], spec
    assert {finding["status"] for finding in spec["findings"]} == {"note"}  # type: ignore[union-attr]
    assert statuses.note(spec)
    (strict,) = check_rows(target, Profile.STRICT, Timing(), only=frozenset({rule}))
    assert strict["status"] == "fail", strict
