"""What a campaign found and how far it got: its failures and statistics, its progress line, and how
its failures are attributed to the rule their case breaks, given time for that, and settled (one a
rule, warnings apart)."""

from __future__ import annotations

import math
import sys
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from mcpref.fuzz.campaign.attribution import (
    LINE_A_WRITE_PAUSE,
    RERUNS,
    Relabel,
    chunking_finding,
    failing_rules,
    relabel_carried_state,
    relabel_false_line_ends,
    relabel_invalid_utf8,
)
from mcpref.fuzz.drive.target import Run
from mcpref.fuzz.drive.timing import OutOfTime, Timing
from mcpref.fuzz.generate.case import Case
from mcpref.fuzz.judge.lifecycle import negotiated_versions, refused_as_modern_only
from mcpref.fuzz.judge.modern import speaks_modern
from mcpref.fuzz.judge.oracle import Finding, Profile, Status

# How long the re-runs that attribute the failures (``Campaign.attribute``) may last in all: at
# least this, and for a target that answered, the time its re-runs of each failing case take
# (``attribution.RERUNS`` runs, each started anew, and the pauses of the run one line a write), up
# to the limit.
ATTRIBUTION_SECONDS = 5.0
ATTRIBUTION_LIMIT = 60.0
# What a re-run may take to start its process, beyond what the failing case's own run took: that
# one may have run in a kept process or a spare started ahead, the re-runs start their own.
START_SECONDS = 2.0


@dataclass
class Failure:
    rule: str
    case: Case
    run: Run
    findings: list[Finding]

    @property
    def finding(self) -> Finding:
        return next(f for f in self.findings if f.rule == self.rule)

    @property
    def size(self) -> tuple[int, int]:
        """Smaller is a better reproducer: fewer bytes, then fewer chunks."""
        return len(self.case.stream), len(self.case.chunks)

    @property
    def needs_timing(self) -> bool:
        return self.rule == "FRAME-CHUNK-INVARIANT"


@dataclass
class Stats:
    cases: int = 0
    messages: int = 0  # lines written to the target and judged, confirmations included
    processes: int = 0  # target processes started: one per fresh run, one per kept session
    kept: int = 0  # runs in a kept session
    # Failures a kept session showed and a fresh process did not, by rule: never reported
    # as findings, but a hint of state carried from case to case.
    unconfirmed: dict[str, int] = field(default_factory=dict)
    fresh_only_from: int | None = None  # the case from which no process was kept, if any
    started: float = field(default_factory=time.monotonic)
    target_seconds: float = 0.0  # driving target processes: starting them, writing, waiting
    fresh_seconds: float = 0.0  # the part of target_seconds spent on fresh runs
    oracle_seconds: float = 0.0  # judging what the target did
    first_failure: int | None = None  # the case at which the first failure showed
    rounds: int = 1  # Hypothesis runs: a time budget searches on after Hypothesis stops
    out_of_time: bool = False  # the time budget ended the search (before a case budget did, if any)
    legacy_session: bool = False  # a case of the legacy era had an initialize accepted
    modern_era: bool = False  # before any legacy session, a case's server spoke the modern era

    def learn(self, stream: bytes, output: tuple[bytes, ...]) -> None:
        """What a case of a legacy campaign showed of the eras the server serves (once seen, no more
        parsing for it)."""
        if not self.legacy_session:
            self.legacy_session = bool(negotiated_versions(stream, output))
        if not (self.legacy_session or self.modern_era):
            self.modern_era = speaks_modern(output) or refused_as_modern_only(stream, output)

    @property
    def serves_no_legacy(self) -> bool:
        """No initialize accepted in any case, and the modern era spoken: as ``check`` finds it of such
        a server, a legacy campaign has nothing to say of it (its refusals are its era's)."""
        return self.modern_era and not self.legacy_session


@dataclass(frozen=True)
class Progress:
    """Where a campaign is, for a progress line."""

    cases: int
    processes: int
    messages: int
    failing: frozenset[str]  # the rules found broken so far
    elapsed: float
    left: float  # seconds of the budget: infinite under a case budget alone
    max_cases: int | None = None  # the cases to generate, under a case budget
    shrinking: bool = False  # a failure new in this round is being made smaller

    @classmethod
    def of(cls, stats: Stats, failing: frozenset[str], left: float, max_cases: int | None, shrinking: bool) -> Progress:
        """Where a campaign with ``stats`` is, ``left`` seconds before its deadline."""
        elapsed = time.monotonic() - stats.started
        return cls(stats.cases, stats.processes, stats.messages, failing, elapsed, max(0.0, left), max_cases, shrinking)

    def __add__(self, other: Progress) -> Progress:
        """Two campaigns run side by side, as one."""
        return Progress(
            self.cases + other.cases,
            self.processes + other.processes,
            self.messages + other.messages,
            self.failing | other.failing,
            max(self.elapsed, other.elapsed),
            max(self.left, other.left),
            None if self.max_cases is None or other.max_cases is None else self.max_cases + other.max_cases,
            self.shrinking or other.shrinking,
        )

    def line(self) -> str:
        # Past the cases to generate, Hypothesis replays and shrinks what it found (up to as many again).
        cases = f"{self.cases}" if self.max_cases is None else f"{self.cases}/{self.max_cases}"
        return (
            f"{cases} cases ({self.processes} processes), {self.messages} messages, "
            f"{self.messages / max(self.elapsed, 1e-9):.0f} msg/s, {len(self.failing)} failing rules"
            + (f", {self.left:.0f}s left" if math.isfinite(self.left) else "")
            + (", shrinking" if self.shrinking else "")
        )


@dataclass
class Outcome:
    failures: list[Failure]
    stats: Stats
    warnings: dict[str, Failure]  # each warned rule's first case, confirmed in a fresh process

    def claimed(self) -> Outcome:
        """What the campaign may claim: of a server that serves no legacy version, in a legacy
        campaign (``Stats.serves_no_legacy``), nothing."""
        return Outcome([], self.stats, {}) if self.stats.serves_no_legacy else self


def attribution_seconds(failures: Iterable[Failure]) -> float:
    """How long attributing ``failures`` may take: a slow target that answered (a server that takes
    seconds an answer) gets the time its re-runs need, up to ATTRIBUTION_LIMIT, so that a failure is
    not left under a symptom's rule because its re-runs were cut."""
    needed = sum(
        RERUNS * (failure.run.seconds + START_SECONDS) + LINE_A_WRITE_PAUSE * len(failure.case.lines)
        for failure in failures
        if failure.run.observation.survived
    )
    return min(ATTRIBUTION_LIMIT, max(ATTRIBUTION_SECONDS, needed))


def attribute(
    failure: Failure,
    execute: Callable[[Case, Timing | None], tuple[Run, list[Finding]]],
    timing: Timing,
    profile: Profile,
) -> Failure:
    """``failure`` under the rule its case breaks once re-run otherwise (each run by ``execute``, with
    a timing of its own or the campaign's): the request's own rule for MOD-STATELESS when it fails
    alone too; FRAME-CHUNK-INVARIANT when the same bytes pass under another cutting; FRAME-LF-ONLY
    when they pass once their false line ends are made harmless; else ``failure`` itself."""
    if failure.rule == "STDIO-SURVIVE":
        # Attribution re-runs the case twice; a dead or deaf target makes each run wait
        # for its probes, and death is no matter of chunking anyway.
        return failure

    def outcome(case: Case) -> tuple[list[Finding], tuple[bytes, ...]]:
        run, findings = execute(case, None)
        return findings, run.observation.output

    def relabelled(relabel: Relabel) -> Failure:
        """``failure`` under the rule of the first finding ``relabel`` put in place of its own."""
        findings = relabel(failure.findings, failure.case, outcome, profile)
        own = [f for f in findings if f not in failure.findings]
        return failure if not own else Failure(own[0].rule, failure.case, failure.run, findings)

    try:
        if failure.rule == "MOD-STATELESS":
            return relabelled(relabel_carried_state)
        chunked = chunking_finding(
            failure.finding, failure.case, lambda case, within: failing_rules(execute(case, within)[1], profile), timing
        )
        if chunked is not None:
            return Failure("FRAME-CHUNK-INVARIANT", failure.case, failure.run, [chunked, *failure.findings])
        cut = relabel_false_line_ends(failure.findings, failure.case, failure.run.observation.output, outcome, profile)
        if failure.finding not in cut:  # its own finding relabelled, not another line's
            return Failure("FRAME-LF-ONLY", failure.case, failure.run, cut)
        if failure.rule == "FRAME-UTF8":
            return relabelled(relabel_invalid_utf8)
        return failure
    except OutOfTime:
        return failure  # a target that holds the re-runs past ATTRIBUTION_SECONDS: as found


def settled(failures: Iterable[Failure], warnings: dict[str, Failure], profile: Profile) -> list[Failure]:
    """The failures that fail under ``profile``. Attribution may find one to be a warning (a line
    cut at its CRs alone): it joins ``warnings``, unless a warning of its rule is there already."""
    failing = []
    for failure in failures:
        if failure.finding.status(profile) is Status.FAIL:
            failing.append(failure)
        else:
            warnings.setdefault(failure.rule, failure)
    return failing


def one_a_rule(failures: Iterable[Failure]) -> list[Failure]:
    """The first failure of each rule, in order: attribution may file two failures under one rule."""
    found: dict[str, Failure] = {}
    for failure in failures:
        found.setdefault(failure.rule, failure)
    return list(found.values())


def stderr_progress(progress: Progress) -> None:
    sys.stderr.write(f"\r\x1b[K{progress.line()}")
    sys.stderr.flush()
