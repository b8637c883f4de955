"""The runs of ``mcpref check``'s scenarios (``judge_corpus``), whose findings ``check`` makes rows of.

Each scenario is one case (``fuzz.generate.corpus``), as many side by side as ``WORKERS``. One that
opens with a plain handshake written as a chunk of its own runs first in a process kept after
that handshake (``fuzz.drive.kept.Session``), several scenarios one after another, as ``fuzz``
runs its cases: a process start costs more than most scenarios. A kept run writes the very
chunks a fresh run writes, and only ever clears a scenario: its findings are suspicions. A
verdict is a fresh process's: a scenario that loses the kept process or may have initialized
it again runs fresh, and one with findings runs fresh where it is the smallest case of a rule
that fresh runs do not yet show as badly or with a case as small (``_to_confirm``); a rule's
verdict is the same either way.
What a kept run can hide is a behaviour that depends on what the process did before. A fresh
run's failures that the cutting alone caused are FRAME-CHUNK-INVARIANT's (``relabel_cutting``).
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

from mcpref.fuzz.campaign.attribution import (
    initialized_again,
    read_on_for_missing,
    relabel_carried_state,
    relabel_cutting,
    relabel_false_line_ends,
)
from mcpref.fuzz.drive import stopping
from mcpref.fuzz.drive.kept import Session
from mcpref.fuzz.drive.observation import Observation
from mcpref.fuzz.drive.target import Run, run_case
from mcpref.fuzz.drive.timing import OutOfTime, Timing
from mcpref.fuzz.generate.case import Case
from mcpref.fuzz.generate.corpus import KEPT_HEADS, Scenario
from mcpref.fuzz.generate.corpus_modern import BY_ERA
from mcpref.fuzz.integrate.check_progress import Progress
from mcpref.fuzz.integrate.seen import answered
from mcpref.fuzz.judge.lifecycle import negotiated_versions, refused_as_modern_only
from mcpref.fuzz.judge.modern import speaks_modern
from mcpref.fuzz.judge.oracle import Finding, Profile, Status, judge, judge_run, witnessed
from mcpref.reference.versions import Era

WORKERS = 4  # scenarios run side by side: the target's work and the waits overlap
KEPT = 1  # kept processes a handshake at most: their starts compete with the fresh runs for the cores
FINDINGS_A_RULE = 3  # a scenario's findings kept of each rule the oracle names (``_first_of_each_rule``)
OUTLASTED = "outlasted the time limit"  # how a scenario cut short by check's time limit ended


def run_scenario(scenario: Scenario, command: list[str], timing: Timing) -> tuple[Run, list[Finding]]:
    """Run ``scenario`` in a fresh process and judge it: the verdict's own run."""

    def execute(case: Case) -> tuple[list[Finding], tuple[bytes, ...]]:
        run = run_case(command, case.chunks, timing, settle=case.settle, eof=case.eof, era=scenario.era)
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
    # A few of each rule, before any re-run: a flood's thousands of findings would each be weighed
    # against every re-run's (``_first_of_each_rule``). A relabelling files each finding anew, one
    # for one: the findings stay as few.
    findings = _first_of_each_rule(judge_run(scenario.case.stream, run))
    if run.hopeless:  # any cutting would show it alike; a re-run would hold another flood meanwhile
        return run, findings

    def recut(case: Case, within: Timing) -> list[Finding]:
        return judge_run(case.stream, run_case(command, case.chunks, within, settle=case.settle, eof=scenario.eof, era=scenario.era))

    with contextlib.suppress(OutOfTime):  # re-runs past check's time limit: the findings as they are
        # What the cutting alone caused is FRAME-CHUNK-INVARIANT's, as a campaign files it.
        findings = relabel_cutting(findings, scenario.case, recut, timing, Profile.SPEC)
    if "FRAME-LF-ONLY" in scenario.rules:
        findings = relabel_false_line_ends(findings, scenario.case, run.observation.output, execute, Profile.SPEC)
    # Not relabel_invalid_utf8, which campaigns use: a line dropped with or without its bytes that
    # are not UTF-8 filed elsewhere would leave FRAME-UTF8 reading pass, and no such byte was seen
    # handled. The silence stays FRAME-UTF8's here, which it breaks too.
    return run, relabel_carried_state(findings, scenario.case, execute, Profile.SPEC)


def _first_of_each_rule(findings: list[Finding]) -> list[Finding]:
    """The first ``FINDINGS_A_RULE`` findings of each rule (those that break a MUST first): a flood
    breaks a rule once a line, and a report carries each finding with the scenario's transcript."""
    counts: dict[str, int] = {}
    kept: set[int] = set()  # by position: a flood's findings are equal to one another
    for index in sorted(range(len(findings)), key=lambda i: not findings[i].mandatory):
        rule = findings[index].rule
        if counts.get(rule, 0) < FINDINGS_A_RULE:
            counts[rule] = counts.get(rule, 0) + 1
            kept.add(index)
    return [finding for index, finding in enumerate(findings) if index in kept]


def _kept_body(scenario: Scenario) -> tuple[bytes, ...] | None:
    """What a kept process is sent of ``scenario`` (``_body``); None for one that runs fresh only:
    one that ends at EOF, or of the modern era, which has no handshake to keep a process after."""
    return None if scenario.eof or scenario.era is not Era.LEGACY else _body(scenario.case)


def _initializes_again(scenario: Scenario) -> bool:
    """Whether the scenario's kept run writes an initialize: a server that takes it ends its kept
    process (``initialized_again``)."""
    body = _kept_body(scenario)
    return body is not None and any(b'"initialize"' in chunk for chunk in body)


def _body(case: Case) -> tuple[bytes, ...] | None:
    """The chunks after the case's opening handshake, when the case opens with one of
    ``KEPT_HEADS`` as a chunk of its own: what a kept process is sent."""
    if len(case.chunks) < 2 or case.opening_chunk(KEPT_HEADS) is None:
        return None
    return case.chunks[1:]


@dataclass(frozen=True)
class _Result:
    """A scenario's run and findings. A kept run's findings (``kept``) are only suspicions:
    a verdict is a fresh process's."""

    run: Run
    findings: list[Finding]
    kept: bool = False


def _to_confirm(
    results: Sequence[_Result], sizes: Sequence[int], profile: Profile, doubted: frozenset[str] = frozenset()
) -> list[int]:
    """The kept runs to run again in fresh processes (indexes into ``results``, whose scenarios
    are ``sizes`` bytes long). For each rule of a kept run's findings, the smallest such run
    (the first of equals) when it would add to what fresh runs show of that rule: the rule
    itself, a worse status, or a smaller case to reproduce it; for a rule ``doubted`` (a fresh
    run did not bear it out), every such run, side by side. The others are not run again: the
    verdicts would be the same, and their processes are saved."""
    shown: dict[str, tuple[Status, int]] = {}  # a rule's worst status in fresh runs, its smallest case
    for result, size in zip(results, sizes, strict=True):
        for finding in () if result.kept else result.findings:
            status, smallest = shown.get(finding.rule, (Status.WARN, size))
            worst = Status.FAIL if Status.FAIL in (status, finding.status(profile)) else Status.WARN
            shown[finding.rule] = (worst, min(smallest, size))
    best: dict[str, int] = {}  # a rule's smallest kept run that adds to it
    every: set[int] = set()  # the kept runs that add to a doubted rule
    for index, (result, size) in enumerate(zip(results, sizes, strict=True)):
        for finding in result.findings if result.kept else ():
            status, smallest = shown.get(finding.rule, (Status.WARN, size + 1))
            adds = size < smallest or (finding.status(profile) is Status.FAIL and status is not Status.FAIL)
            if adds and finding.rule in doubted:
                every.add(index)
            elif adds and (finding.rule not in best or size < sizes[best[finding.rule]]):
                best[finding.rule] = index
    return sorted(every | set(best.values()))


class _Scenarios:
    """Runs scenarios for ``check_rows``: first in a kept process where one can run them
    (``first``), else fresh; a fresh run again on demand (``fresh``).

    Kept processes are shared by the worker threads, one scenario at a time each, at most
    ``KEPT`` per handshake: a scenario waits for one to be free rather than start another. A
    kept process is ended when it dies, stops answering, or may have been initialized again; a
    finding alone does not end it (a scenario after it is judged fresh where it finds anything).
    """

    def __init__(self, command: list[str], timing: Timing, progress: Progress) -> None:
        self.command = command
        self.timing = timing
        self.progress = progress
        # What a run showed of a server that any scenario would show alike (``Run.hopeless``): a
        # flood, or nothing read. The scenarios not yet run then are not run: their rules are untested.
        self.hopeless = ""
        self._free = threading.Condition()
        self._idle: dict[bytes, list[Session]] = {}  # kept processes free to run a scenario
        self._started: dict[bytes, int] = {}  # kept processes of a handshake alive or starting
        self._sessions: list[Session] = []  # every session started, to end them all
        self._cleared = self._ended = 0  # scenarios kept runs cleared; kept processes ended
        self._fresh_only = False

    def first(self, scenario: Scenario) -> _Result:
        if self.hopeless:
            return _outlasted(self.hopeless)
        self.progress.begin()
        try:
            return self._kept(scenario) or self.fresh(scenario)
        except OutOfTime:
            return _outlasted()
        finally:
            self.progress.end()

    def fresh(self, scenario: Scenario) -> _Result:
        if self.hopeless:
            return _outlasted(self.hopeless)
        try:
            result = _Result(*run_scenario(scenario, self.command, self.timing))
        except OutOfTime:
            return _outlasted()
        if result.run.hopeless:
            self._give_up(result.run.observation.ending, f'the scenario "{scenario.name}"')
        return result

    def _give_up(self, ending: str, where: str) -> None:
        if not self.hopeless:
            self.hopeless = f"{ending} (in {where})"
            self.progress.note = f"the server {self.hopeless}: the other scenarios are not run"

    def _kept(self, scenario: Scenario) -> _Result | None:
        """The scenario's kept run, or None where it has none (it then runs fresh)."""
        case = scenario.case
        body = _kept_body(scenario)
        head = b"".join(case.lines[:2])
        if body is None or (session := self._take(head)) is None:
            return None
        try:
            run = session.run(body, case.settle)
        except BaseException:
            self._end(head, session)
            raise
        if session.alive and not initialized_again(case.lines[2:], run.observation.output):
            findings = judge(case.stream, run.observation)
            if (again := read_on_for_missing(session, run, findings)) is not None:
                run, findings = again, judge(case.stream, again.observation)
            with self._free:
                self._cleared += not findings
                self._idle[head].append(session)
                self._free.notify()
            return _Result(run, findings, kept=True)
        # A death or a second initialize taken leaves the kept process's state in doubt: it is
        # ended, and the scenario runs fresh. Once kept processes are ended more often than they
        # clear a scenario (twice at least), every scenario runs fresh: a server that dies
        # everywhere then costs a few processes more than fresh runs alone, not twice as many.
        self._end(head, session)
        return None

    def _take(self, head: bytes) -> Session | None:
        """A kept process after ``head``, free for one scenario: an idle one, a new one while
        fewer than ``KEPT`` are alive, else the first one freed; None when scenarios run fresh."""
        with self._free:
            while not self._fresh_only:
                idle = self._idle.setdefault(head, [])
                if idle:
                    return idle.pop()
                if self._started.get(head, 0) < KEPT:
                    self._started[head] = self._started.get(head, 0) + 1
                    break
                self._free.wait()
            else:
                return None
        try:
            session = Session(self.command, self.timing, (head,))
        except BaseException:  # out of time, or a target that cannot start: no process to wait for
            with self._free:
                self._started[head] -= 1
                self._free.notify_all()
            raise
        with self._free:
            self._sessions.append(session)
        if session.alive:
            return session
        process = session.process
        if process.overflowed or process.read_nothing():
            self._give_up(process.ending(), "the plain handshake of a kept process")
        # A target that does not answer a probe after the plain handshake runs fresh only.
        with self._free:
            self._fresh_only = True
            self._free.notify_all()
        return None

    def _end(self, head: bytes, session: Session) -> None:
        session.close()
        with self._free:
            self._started[head] -= 1
            self._ended += 1
            self._fresh_only = self._fresh_only or (self._ended >= 2 and self._ended > self._cleared)
            self._free.notify_all()

    def close(self) -> None:
        with self._free:
            self._fresh_only = True  # a scenario still to run (after an error) runs fresh
            self._free.notify_all()
        for session in self._sessions:
            session.close()


def _outlasted(ending: str = "") -> _Result:
    """The scenario was cut short or not run: by check's time limit, by a signal, or for what another
    scenario showed of the server (``ending``). No verdict, and its rules untested."""
    if not ending:
        ending = f"was stopped when mcpref got {stopping.name()}" if stopping.received() else OUTLASTED
    return _Result(Run(Observation((), survived=False, ending=ending), None, b"", ()), [])


@dataclass(frozen=True)
class Judged:
    """A corpus run against a server: each scenario's run and the findings that stand (a kept run
    left unconfirmed has none of its own), what each run showed of the server's eras (the legacy
    versions its initialize results named, whether it spoke the modern era), and the rules whose
    situation it showed (``oracle.witnessed``)."""

    scenarios: tuple[Scenario, ...]
    results: list[tuple[Run, list[Finding]]]
    spoken: list[tuple[frozenset[str], bool]]
    witnessed: list[frozenset[str]]

    @property
    def modern_only(self) -> bool:
        """Whether the server spoke the modern era and accepted no legacy initialize in any run."""
        return any(speaks for _, speaks in self.spoken) and not any(named for named, _ in self.spoken)

    @property
    def silent(self) -> bool:
        """Whether the server answered nothing in any run: one cause, STDIO-SURVIVE, for every rule."""
        return _answered_nothing(self.scenarios, self.results)


def _answered_nothing(scenarios: Sequence[Scenario], results: Sequence[tuple[Run, list[Finding]]]) -> bool:
    return bool(results) and not any(answered(s.case, run.observation) for s, (run, _) in zip(scenarios, results, strict=True))


def judge_corpus(
    command: list[str],
    profile: Profile,
    timing: Timing,
    era: Era,
    only: frozenset[str] | None,
    show: Callable[[str], None] | None = None,
    scenarios_run: Sequence[Scenario] | None = None,
) -> Judged:
    """Run the era's corpus (the scenarios exercising ``only``), or ``scenarios_run``, against
    ``command``: ``Judged``. ``timing``'s deadline bounds every wait (a scenario it cuts short has no
    verdict). ``show`` gets a progress line now and then (``check_progress``)."""
    scenarios = tuple(s for s in BY_ERA[era] if only is None or only & set(s.rules)) if scenarios_run is None else tuple(scenarios_run)
    progress = Progress(len(scenarios), show)
    runner = _Scenarios(command, timing, progress)
    try:
        with progress, ThreadPoolExecutor(max_workers=WORKERS) as pool:
            # The fresh scenarios first, those of the most writes first: the longest runs do not
            # start last. Those that write an initialize to a kept process come once every other
            # scenario is done: a server that takes it ends the process, which then has no
            # scenario left to start another for. The order changes when each scenario runs,
            # not what it is judged on.
            ran: dict[int, _Result] = {}
            for again in (False, True):
                order = sorted(
                    (i for i, s in enumerate(scenarios) if _initializes_again(s) is again),
                    key=lambda i: (_kept_body(scenarios[i]) is not None, -len(scenarios[i].case.chunks)),
                )
                ran.update(zip(order, pool.map(runner.first, [scenarios[i] for i in order]), strict=True))
            outcomes = [ran[index] for index in range(len(scenarios))]
            runner.close()  # the kept processes have done their part
            sizes = [len(b"".join(s.case.lines)) for s in scenarios]
            doubted: frozenset[str] = frozenset()
            while chosen := _to_confirm(outcomes, sizes, profile, doubted):
                for index, fresh in zip(chosen, pool.map(runner.fresh, [scenarios[i] for i in chosen]), strict=True):
                    suspected = {f.rule for f in outcomes[index].findings}
                    doubted |= suspected - {f.rule for f in fresh.findings}
                    outcomes[index] = fresh
    finally:
        runner.close()
    # A kept run left unconfirmed shows only rules fresh runs show as badly, with a case as small:
    # its findings are theirs, and its run is evidence for the other rules it exercised, as a
    # cleared one is.
    results = [(o.run, [] if o.kept else o.findings) for o in outcomes]
    if _answered_nothing(scenarios, results):
        # What it wrote instead, a line without end, is a cause of its own.
        causes = {"STDIO-SURVIVE", "STDIO-STDOUT-MESSAGES-ONLY"}
        results = [(run, [f for f in findings if f.rule in causes]) for run, findings in results]
    spoken = [
        (
            negotiated_versions(s.case.stream, run.observation.output),
            speaks_modern(run.observation.output) or refused_as_modern_only(s.case.stream, run.observation.output),
        )
        for s, (run, _) in zip(scenarios, results, strict=True)
    ]
    shown = [witnessed(s.case.stream, run.observation) for s, (run, _) in zip(scenarios, results, strict=True)]
    return Judged(scenarios, results, spoken, shown)
