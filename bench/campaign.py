"""Items 3 and 4: what a fuzz campaign achieves, run as ``mcpref fuzz`` runs it (``fuzz.jobs``).

Item 3, throughput: a campaign against ``mcpref serve`` for ``THROUGHPUT_BUDGET``
seconds, with one job and then with a job per core (``mcpref fuzz --jobs``); checked
messages per second (every line written to the target and judged); and, for one job,
the fresh processes it started per second, and the split of its time between the
target (``stats.target_seconds``: starting processes, writing each chunk and waiting
until it is read, waiting for the probe's answer, stopping the process) and the rest
(generation, shrinking, the oracle). Most cases run in kept processes; the reference
point for fresh ones is the rate of bare sessions: start ``mcpref serve`` (or the bare
loop), write one ping, read its answer, stop it.

Item 4, time to detection: for each bundled buggy example and seeds 1 to 5, the time
from the campaign's start to the end of the first case the oracle fails (every failure
of these servers is their bug); the campaign then stops at its next case, attributes
what it found (so the rule it reports can be checked) and skips shrinking, which is not
part of finding the bug.
"""

from __future__ import annotations

import os
import statistics
import sys
import time

from mcpref.fuzz.campaign.jobs import run_jobs
from mcpref.fuzz.campaign.outcome import Outcome
from mcpref.fuzz.campaign.runner import Campaign, _BudgetSpent
from mcpref.fuzz.drive.target import Run
from mcpref.fuzz.drive.timing import Timing
from mcpref.fuzz.generate.case import Case
from mcpref.fuzz.judge.oracle import Finding, Profile, Status

from .client import Server, ping
from .common import ROOT, SERVE, Row, progress
from .serve import BARE

THROUGHPUT_BUDGET = 20.0
TARGET_MESSAGES_PER_SECOND = 2000
SPAWNS = 30
JOBS = os.cpu_count() or 1  # mcpref fuzz --jobs: a campaign per core
DETECTION_BUDGET = 30.0  # a campaign that finds nothing by then is reported as "> 30 s"
DETECTION_TARGET = 10.0
SEEDS = (1, 2, 3, 4, 5)
BUGGY = ROOT / "examples" / "buggy"

# example -> (profile, the rules its finding may name), as tests/fuzz/test_campaign.py
# and examples/buggy/README.md state them.
EXPECTED: dict[str, tuple[Profile, tuple[str, ...]]] = {
    "utf8_per_chunk": (Profile.SPEC, ("FRAME-CHUNK-INVARIANT", "RPC-ID-ECHO")),
    "log_to_stdout": (Profile.SPEC, ("STDIO-STDOUT-MESSAGES-ONLY",)),
    "answers_notification": (Profile.SPEC, ("RPC-NOTIFICATION-SILENT",)),
    "silent_on_parse_error": (Profile.SPEC, ("RPC-PARSE-ERROR",)),
    "silent_on_invalid_request": (Profile.SPEC, ("RPC-INVALID-REQUEST",)),
    "id_type_change": (Profile.SPEC, ("RPC-ID-ECHO",)),
    "dies_on_deep_nesting": (Profile.SPEC, ("STDIO-SURVIVE",)),
    "dies_on_long_line": (Profile.SPEC, ("STDIO-SURVIVE",)),
    "first_message_only": (Profile.SPEC, ("FRAME-CHUNK-INVARIANT",)),
    "splits_on_cr": (Profile.SPEC, ("FRAME-LF-ONLY",)),
    "splits_on_u2028": (Profile.SPEC, ("FRAME-LF-ONLY",)),
    "double_answer": (Profile.SPEC, ("RPC-ONE-ANSWER",)),
    "second_initialize": (Profile.STRICT, ("LIFE-SECOND-INIT",)),
    "capability_lie": (Profile.SPEC, ("CAP-ANNOUNCED-METHODS",)),
    "bogus_version": (Profile.SPEC, ("LIFE-VERSION-KNOWN",)),
}


def session_rate(argv: list[str], sessions: int = SPAWNS) -> float:
    """Bare sessions per second: start ``argv``, one ping answered, stop it."""
    started = time.perf_counter()
    for index in range(sessions):
        with Server(argv) as server:
            server.send(ping(f"probe-{index}"))
            server.lines(1, 30.0)
    return sessions / (time.perf_counter() - started)


def _campaign(jobs: int) -> tuple[Outcome, float]:
    progress(f"3 campaign: {THROUGHPUT_BUDGET:.0f} s of mcpref fuzz --seed 1 --jobs {jobs} against mcpref serve")
    started = time.monotonic()
    outcome = run_jobs(jobs, Campaign(SERVE, budget=THROUGHPUT_BUDGET, seed=1))
    return outcome, time.monotonic() - started


def _throughput_row(jobs: int, outcome: Outcome, wall: float) -> Row:
    stats = outcome.stats
    messages_per_second = stats.messages / wall
    failures = ", ".join(f.rule for f in outcome.failures) or "none"
    return Row(
        "3",
        f"fuzz --jobs {jobs} → mcpref serve: checked messages per second"
        + (f" (a job per core, {JOBS} cores)" if jobs == JOBS else ""),
        messages_per_second / TARGET_MESSAGES_PER_SECOND,
        "the target, 2,000 messages/s",
        ">= 1",
        messages_per_second >= TARGET_MESSAGES_PER_SECOND,
        f"{messages_per_second:,.0f} msg/s: {stats.messages} messages in {stats.cases} cases, {wall:.1f} s; "
        f"failures: {failures}",
    )


def throughput() -> list[Row]:
    outcome, wall = _campaign(1)
    parallel = [_throughput_row(JOBS, *_campaign(JOBS))] if JOBS > 1 else []
    stats = outcome.stats
    progress(f"3 campaign: {SPAWNS} bare sessions each of mcpref serve and of the bare loop")
    serve_sessions = session_rate(SERVE)
    bare_sessions = session_rate(BARE)
    processes_per_second = stats.processes / wall
    per_case = stats.messages / max(stats.cases, 1)
    own = wall - stats.target_seconds
    ceiling = serve_sessions * per_case
    fresh_cases = stats.cases - stats.kept
    return [
        _throughput_row(1, outcome, wall),
        *parallel,
        Row(
            "3",
            "fuzz --jobs 1 → mcpref serve: fresh processes per second",
            processes_per_second / serve_sessions,
            "bare sessions of mcpref serve (start, 1 ping, stop)",
            "",
            None,
            f"{processes_per_second:.1f} processes/s vs {serve_sessions:.1f} bare sessions/s; "
            f"{fresh_cases} of {stats.cases} cases ran in a fresh process, {stats.kept} in a kept one; "
            f"kept-only failures: {sum(stats.unconfirmed.values())}",
        ),
        Row(
            "3",
            "fuzz --jobs 1: generation + oracle time ÷ target time",
            own / stats.target_seconds,
            "the target's own time in the same campaign",
            "< 1",
            own < stats.target_seconds,
            f"{own:.2f} s vs {stats.target_seconds:.2f} s; of these, the oracle {stats.oracle_seconds:.2f} s, "
            f"fresh runs {stats.fresh_seconds:.2f} s, so generation and the rest "
            f"{(own - stats.oracle_seconds) / max(stats.cases, 1) * 1000:.1f} ms a case",
        ),
        Row(
            "3",
            "a fresh process for every case, at most: bare sessions/s x messages per case",
            ceiling / TARGET_MESSAGES_PER_SECOND,
            "the target, 2,000 messages/s",
            "",
            None,
            f"{serve_sessions:.1f}/s x {per_case:.1f} = {ceiling:,.0f} msg/s at most",
        ),
        Row(
            "3",
            "bare sessions: mcpref serve",
            serve_sessions / bare_sessions,
            "bare sessions of the bare Python loop",
            "",
            None,
            f"{serve_sessions:.1f}/s vs {bare_sessions:.1f}/s (the cost of Python's start is shared)",
        ),
    ]


class _Detecting(Campaign):
    """A Campaign that notes its first failing case and stops at the case after it."""

    found_after: float | None = None
    cases_to_find = 0
    _stopped = False

    def execute(self, case: Case, timing: Timing | None = None) -> tuple[Run, list[Finding]]:
        if self.found_after is not None and not self._stopped:
            self._stopped = True  # attribution, after the run, still executes its cases
            raise _BudgetSpent
        run, findings = super().execute(case, timing)
        if self.found_after is None and any(f.status(self.profile) is Status.FAIL for f in findings):
            self.found_after = time.monotonic() - self.stats.started
            self.cases_to_find = self.stats.cases + 1
        return run, findings


def detection() -> list[Row]:
    rows: list[Row] = []
    for name, (profile, rules) in EXPECTED.items():
        progress(f"4 detection: {name}, seeds {SEEDS[0]}-{SEEDS[-1]}")
        times: list[float] = []
        cases: list[int] = []
        found: set[str] = set()
        for seed in SEEDS:
            campaign = _Detecting(
                [sys.executable, str(BUGGY / f"{name}.py")], profile=profile, budget=DETECTION_BUDGET, seed=seed
            )
            outcome = campaign.run()
            found.update(f.rule for f in outcome.failures)
            times.append(campaign.found_after if campaign.found_after is not None else float("inf"))
            cases.append(campaign.cases_to_find if campaign.found_after is not None else campaign.stats.cases)
        median = statistics.median(times)
        right_rule = bool(found & set(rules))
        shown = " / ".join("—" if t == float("inf") else f"{t:.1f}" for t in times)
        rows.append(
            Row(
                "4",
                f"time to detection: {name}" + (" (strict)" if profile is Profile.STRICT else ""),
                median / DETECTION_TARGET if median != float("inf") else None,
                "the target, 10 s",
                "< 1",
                median < DETECTION_TARGET and right_rule,
                f"median {median:.1f} s, {statistics.median(cases):.0f} cases; seeds {shown} s; "
                f"found as {', '.join(sorted(found)) or 'nothing'}"
                + ("" if right_rule else " (**not the expected rule**)"),
            )
        )
    return rows
