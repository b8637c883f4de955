"""What a campaign found, written out: reproducer files, the summary for a terminal, the JSON report.

In: a campaign's ``Outcome`` (the failures and warnings it kept, each with its case and run) and
the ``Setting`` it ran with. Out: files under the campaign directory, text lines, a JSON
document. Each writer reads the same kept findings; none is built from another's output.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path

from mcpref.fuzz.campaign.outcome import Failure, Outcome
from mcpref.fuzz.judge.oracle import Profile, Status
from mcpref.fuzz.report import statuses
from mcpref.fuzz.report.notes import citation
from mcpref.fuzz.report.reproducer import finding_json, reproducer_json, shell_line, table, transcript, write_atomic
from mcpref.reference.rules import BY_ID
from mcpref.reference.versions import Era


@dataclass(frozen=True)
class Setting:
    """What a campaign ran with, as its reports tell it."""

    command: list[str]
    profile: Profile
    seed: int | None
    jobs: int
    directory: Path  # the campaign directory: its reproducers go under repro/
    era: Era
    max_cases: int | None


def kept(outcome: Outcome) -> list[Failure]:
    return [*outcome.failures, *outcome.warnings.values()]


def reproducer_path(failure: Failure, setting: Setting) -> Path:
    """``repro/RULE.json`` for a failure, ``repro/warn/RULE.json`` for a warning (a rule may have both)."""
    folder = setting.directory / "repro"
    failed = failure.finding.status(setting.profile) is Status.FAIL
    return (folder if failed else folder / "warn") / f"{failure.rule}.json"


def _shell(failure: Failure, setting: Setting) -> str | None:
    case = failure.case
    return None if failure.needs_timing else shell_line(setting.command, case.stream, probed=not case.eof, era=setting.era)


def save_reproducers(outcome: Outcome, setting: Setting) -> None:
    for failure in kept(outcome):
        case, seen = failure.case, finding_json(failure.finding, setting.profile)
        document = reproducer_json(
            failure.rule, setting.profile, setting.command, case.chunks, case.settle, setting.era, seen, eof=case.eof
        )
        write_atomic(reproducer_path(failure, setting), document)


def summary(outcome: Outcome, setting: Setting) -> list[str]:
    stats = outcome.stats
    elapsed = max(time.monotonic() - stats.started, 1e-9)
    lines = [
        f"mcpref fuzz: {stats.cases} cases, {stats.messages} messages in {elapsed:.1f}s "
        f"({stats.messages / elapsed:.0f} msg/s), profile {setting.profile.value}, seed {setting.seed}"
        + (f", {setting.jobs} jobs" if setting.jobs > 1 else "")
    ]
    wanted = None if setting.max_cases is None else setting.max_cases * setting.jobs
    if wanted is not None and stats.out_of_time and stats.cases < wanted:
        lines.append(f"stopped before its {wanted} cases: the time budget ran out")
    if stats.serves_no_legacy:
        lines.append(f"{statuses.UNSERVED}: nothing is claimed")
        return lines
    if setting.era is Era.LEGACY and stats.cases and not stats.legacy_session:
        lines.append(
            "the server accepted no initialize in any case: no legacy session was exercised"
            " (a server of the modern era alone is fuzzed with --protocol-version 2026-07-28)"
        )
    found = kept(outcome)
    if not found:
        # A target that holds every wait to the end of the budget lets no case end: nothing is claimed.
        lines.append("no divergence found" if stats.cases else "no case ran to its end within the budget: nothing is claimed")
        return lines
    profile = setting.profile
    rows = [
        (f.rule, BY_ID[f.rule].level.value, f.finding.status(profile).value, f"{f.finding.message}; see {citation(f.rule)}")
        for f in found
    ]
    lines.append(table(["ID", "LEVEL", "STATUS", "FINDING"], rows))
    for failure in found:
        lines += [
            f"\n{failure.rule} ({failure.finding.status(profile).value}): {failure.finding.message}; see {citation(failure.rule)}",
            f"  expected: {failure.finding.expected}",
            f"  actual:   {failure.finding.actual}",
            f"  reproducer: mcpref replay {reproducer_path(failure, setting)}",
        ]
        shell = _shell(failure, setting)
        if shell is not None:
            lines.append(f"  shell: {shell}")
    return lines


def _kept_json(failure: Failure, setting: Setting) -> dict[str, object]:
    return {
        **finding_json(failure.finding, setting.profile),
        "input": [chunk.decode("utf-8", "backslashreplace") for chunk in failure.case.chunks],
        "transcript": transcript(failure.case.chunks, failure.run),
        "all_findings": [finding_json(f, setting.profile) for f in failure.findings],
        "reproducer": str(reproducer_path(failure, setting)),
        "shell": _shell(failure, setting),
    }


def document(outcome: Outcome, setting: Setting) -> dict[str, object]:
    """The JSON report (``--report``), which ``merge``, baselines and JUnit read."""
    stats = outcome.stats
    return {
        "command": setting.command,
        "profile": setting.profile.value,
        "era": setting.era.value,
        "seed": setting.seed,
        "jobs": setting.jobs,
        "cases": stats.cases,
        "messages": stats.messages,
        "processes": stats.processes,
        "kept_runs": stats.kept,
        "unconfirmed_in_kept_processes": stats.unconfirmed,
        "fresh_only_from_case": stats.fresh_only_from,
        "seconds": round(time.monotonic() - stats.started, 3),
        "target_seconds": round(stats.target_seconds, 3),
        "oracle_seconds": round(stats.oracle_seconds, 3),
        "first_failure_at_case": stats.first_failure,
        "failures": [_kept_json(failure, setting) for failure in outcome.failures],
        "warnings": [_kept_json(failure, setting) for failure in outcome.warnings.values()],
    }
