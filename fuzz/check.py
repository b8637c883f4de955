"""``mcpref check``: the fixed corpus run against a target, one verdict per rule.

Each scenario (``fuzz.corpus``) runs in a fresh process, as many side by side as ``WORKERS``.
Unlike ``fuzz``'s cases, they do not run in processes kept across scenarios: a kept process
has had its handshake written as a chunk of its own, and the corpus writes each scenario in
one chunk, so a kept run would cut the bytes otherwise than the scenario (a server that reads
them otherwise could be cleared by it).
"""

from __future__ import annotations

import contextlib
import math
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor

from mcpref.fuzz.oracle import Finding, Observation, Profile, Status, judge
from mcpref.fuzz.oracle_modern import speaks_modern
from mcpref.reference.rules import RULES
from mcpref.reference.versions import Era

from . import statuses
from .campaign import relabel_carried_state, relabel_false_line_ends
from .corpus import Scenario
from .corpus_modern import BY_ERA
from .report import finding_json, session_transcript, shell_line
from .strategies import Case
from .target import OutOfTime, Run, Timing, run_case, within

WORKERS = 4  # scenarios run side by side: the target's work and the waits overlap
OUTLASTED = "outlasted the time limit"  # how a scenario cut short by check's time limit ended


def run_scenario(scenario: Scenario, command: list[str], timing: Timing) -> tuple[Run, list[Finding]]:
    """Run ``scenario`` in a fresh process and judge it: the verdict's own run."""

    def execute(case: Case) -> tuple[list[Finding], tuple[bytes, ...]]:
        run = run_case(command, case.chunks, timing, settle=case.settle, eof=scenario.eof, era=scenario.era)
        return judge(case.stream, run.observation), run.observation.output

    run = run_case(
        command,
        scenario.case.chunks,
        timing,
        settle=scenario.case.settle,
        eof=scenario.eof,
        record=True,
        era=scenario.era,
    )
    findings = judge(scenario.case.stream, run.observation)
    if "FRAME-LF-ONLY" in scenario.rules:
        findings = relabel_false_line_ends(findings, scenario.case, run.observation.output, execute, Profile.SPEC)
    findings = relabel_carried_state(findings, scenario.case, execute, Profile.SPEC)
    if scenario.eof and run.exit_status != 0:
        findings.append(
            Finding(
                "STDIO-EOF-DRAIN", False, None, "did not exit 0 after stdin EOF", "exit status 0", str(run.exit_status)
            )
        )
    return run, findings


def _shell(command: list[str], scenario: Scenario) -> str | None:
    """A pasteable shell line for the scenario, if one reproduces it: a pipe writes the bytes as they
    come, so only a case of one chunk, and only a short one (``shell_line``)."""
    if len(scenario.case.chunks) > 1:
        return None
    return shell_line(command, scenario.case.stream, probed=not scenario.eof, era=scenario.era)


def _seen(scenario: Scenario, run: Run) -> bool:
    """Whether the server was seen through the scenario, so that silence on a rule is evidence: it
    answered the liveness probe after the case, or, where the case ends at EOF, answered anything."""
    return bool(run.observation.output) if scenario.eof else run.observation.survived


def _bounded(scenario: Scenario, command: list[str], timing: Timing) -> tuple[Run, list[Finding]]:
    """``run_scenario``, or, when the time limit ran out during it, a run that saw nothing."""
    try:
        return run_scenario(scenario, command, timing)
    except OutOfTime:
        return Run(Observation((), survived=False, ending=OUTLASTED), None, b"", ()), []


def check_rows(
    command: list[str],
    profile: Profile,
    timing: Timing,
    era: Era = Era.LEGACY,
    only: frozenset[str] | None = None,
    limit: float = math.inf,
) -> list[dict[str, object]]:
    """One row per requirement: fail, warn, pass, untested, or n/a (``statuses``).

    A rule passes only where one of its scenarios was seen through (``_seen``) and none found it
    broken; a rule whose scenarios all lost the server first is untested, with the reason. A server
    that answered nothing in any scenario is reported for that alone (STDIO-SURVIVE): what follows
    from its silence is one cause, not a finding per rule. A rule of the modern era alone is
    exercised only by scenarios where the server showed it speaks that era: a legacy server has
    none of its rules to keep. With ``only``, just the scenarios that exercise one of those rules run.
    No wait lasts past ``limit`` seconds from now: a scenario it cuts short is no verdict, and
    the rules only it exercises are untested.
    """
    timing = within(timing, limit)
    with contextlib.suppress(OutOfTime):  # TargetError when the command cannot start at all
        run_case(command, [], timing, era=era)
    scenarios = tuple(s for s in BY_ERA[era] if only is None or only & set(s.rules))
    with ThreadPoolExecutor(max_workers=WORKERS) as pool:
        results = list(pool.map(lambda s: _bounded(s, command, timing), scenarios))
    if not any(run.observation.output for run, _ in results):
        results = [(run, [f for f in findings if f.rule == "STDIO-SURVIVE"]) for run, findings in results]
    # One transcript per scenario, however many of its findings carry it.
    transcripts = [session_transcript(run.events, run.observation.trailing) for run, _ in results]
    modern = [speaks_modern(run.observation.output) for run, _ in results]
    rows: list[dict[str, object]] = []
    for rule in RULES:
        modern_only = {version.era for version in rule.versions} == {Era.MODERN}
        exercised = [
            (s, run)
            for s, speaks, (run, _) in zip(scenarios, modern, results, strict=True)
            if rule.id in s.rules and (speaks or not modern_only)
        ]
        seen = any(_seen(s, run) for s, run in exercised)
        hits = [
            (s, transcript, f)
            for s, transcript, (_, findings) in zip(scenarios, transcripts, results, strict=True)
            for f in findings
            if f.rule == rule.id
        ]
        if hits:
            failing = any(f.status(profile) is Status.FAIL for _, _, f in hits)
            status = statuses.FAIL if failing else statuses.WARN
        elif seen:
            status = statuses.PASS
        else:
            status = statuses.UNTESTED if exercised else statuses.NOT_APPLICABLE
        row: dict[str, object] = {
            "id": rule.id,
            "level": rule.level.value,
            "status": status,
            "scenarios": [s.name for s, _ in exercised],
            "findings": [
                {
                    "scenario": s.name,
                    **finding_json(f, profile),
                    "transcript": transcript,
                    "shell": _shell(command, s),
                }
                for s, transcript, f in hits
            ],
        }
        if status == statuses.UNTESTED:
            s, run = exercised[0]
            row["reason"] = (
                f'the server {run.observation.ending or "exited"} before the scenario "{s.name}" could be judged'
            )
        rows.append(row)
    return rows


def check_cause(rows: Sequence[dict[str, object]]) -> str | None:
    """Why nothing could be judged, when nothing could: the first line of a summary."""
    if any(row["status"] == statuses.PASS for row in rows) or not any(
        row["status"] == statuses.UNTESTED for row in rows
    ):
        return None
    survive = next(row for row in rows if row["id"] == "STDIO-SURVIVE")
    findings = survive["findings"]
    assert isinstance(findings, list)
    reasons = [str(row.get("reason", "")) for row in rows]
    ending = (
        str(findings[0]["actual"])
        if findings
        else OUTLASTED
        if any(OUTLASTED in reason for reason in reasons)
        else "stopped answering"
    )
    return f"the server {ending} before answering"
