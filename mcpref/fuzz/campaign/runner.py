"""A fuzz campaign: Hypothesis generates cases, the target runs them, the oracle judges.

Hypothesis does the searching, shrinking and remembering: each rule broken raises its own exception
type, so ``report_multiple_bugs`` shrinks each separately, and the example database (the campaign
directory's, or Redis) replays earlier failures first. The first round runs ``check``'s scenarios
first (``generate.campaign_cases``), as explicit examples, which are not shrunk.

A case budget N is Hypothesis's own ``max_examples``: at most N cases are run, the scenarios among
them, then what they found is shrunk until N more cases have run at most. A budget in seconds is
enforced from inside the test: once it is spent, a ``_BudgetSpent`` (not an ``Exception``, so
Hypothesis does not take it for a failure) ends the run; shrinking already under way may use a few
seconds of grace. Hypothesis stops searching soon after the last new failure it finds; a campaign
then starts a new round, a Hypothesis run of its own with a seed derived from the campaign's, in
which the rules already found broken no longer count as failures: it searches on for others until
its budget, in seconds or in cases, is spent. A round also ends after ``ROUND_CASES`` cases, so that
what Hypothesis keeps of every case (a cache, a tree of tried choices) is dropped before it grows. A
seed and a case budget give the same cases on any machine: what a case shows does not depend on the
machine's speed (``fuzz.drive.waiting``), and what Hypothesis draws depends on the seed and the
outcomes alone (``search.reproducible``).

Most cases start with the plain handshake and run in a process kept for it (see
``Campaign.execute``): a process start costs more than a case. Only fresh processes give verdicts.

After the run, each failure's minimal case is replayed as one chunk and as one chunk per line: if
either passes, what the failure depends on is the chunking, and the finding is FRAME-CHUNK-INVARIANT
whatever rule the oracle saw broken.
"""

from __future__ import annotations

import contextlib
import gc
import time
from collections.abc import Callable, Iterable
from pathlib import Path

from hypothesis import event, given, settings
from hypothesis import seed as hypothesis_seed
from hypothesis.database import ExampleDatabase

from mcpref.fuzz.campaign.attribution import failing_findings, initialized_again, read_on_for_missing
from mcpref.fuzz.campaign.database import hypothesis_home
from mcpref.fuzz.campaign.outcome import (
    Failure,
    Outcome,
    Progress,
    Stats,
    attribute,
    attribution_seconds,
    one_a_rule,
    settled,
)
from mcpref.fuzz.campaign.search import Divergence, campaign_settings, divergence, explicitly, reproducible
from mcpref.fuzz.drive.kept import Session
from mcpref.fuzz.drive.process import Process
from mcpref.fuzz.drive.target import Run, run_case
from mcpref.fuzz.drive.timing import OutOfTime, Timing, within
from mcpref.fuzz.generate.campaign_cases import campaign_cases, corpus_cases, follow_up_cases
from mcpref.fuzz.generate.case import Case
from mcpref.fuzz.judge.oracle import Finding, Profile, Status, judge_run
from mcpref.reference.versions import BY_NAME, Era

GRACE_SECONDS = 5.0
# Cases a round of a time-budget campaign runs at most: Hypothesis keeps every case's choices in a
# cache of 10,000 and a tree of all of them, which a new round drops (flat memory in long campaigns).
ROUND_CASES = 2000
SPARES = 2  # fresh processes started ahead
YOUNG_OBJECTS_PER_COLLECTION = 50_000


class _BudgetSpent(BaseException):
    pass


class _RoundSpent(BaseException):
    """ROUND_CASES cases ran in this round: the next begins with a Hypothesis of its own."""


class Campaign:
    def __init__(
        self,
        argv: list[str],
        *,
        profile: Profile = Profile.SPEC,
        budget: float = 60.0,
        max_cases: int | None = None,
        seed: int | str | None = None,
        version: str | None = None,
        database: ExampleDatabase | None = None,
        timing: Timing | None = None,
        progress: Callable[[Progress], None] | None = None,
        rules: frozenset[str] | None = None,
        storage: Path | None = None,
    ) -> None:
        self.argv = argv
        self.rules = rules  # the rules judged (``fuzz.integrate.selection``); None: every rule
        self.profile = profile
        self.budget = budget
        self.max_cases = max_cases  # cases generated at most (Hypothesis's max_examples); as many to shrink
        self.seed = seed
        self.version = version
        self.era = BY_NAME[version].era if version is not None else Era.LEGACY  # by default, legacy cases
        self.database = database  # None: nothing is remembered from one run to the next
        self.storage = storage  # Hypothesis's own files (``hypothesis_home``), else where its host keeps them
        self.timing = timing or Timing()
        self.progress = progress
        self.stats = Stats()
        self.best: dict[str, Failure] = {}
        self.warnings: dict[str, Failure] = {}
        self._last_progress = 0.0
        self._round_start = 0  # the case count when the current round began
        self._sessions: dict[tuple[bytes, ...], Session] = {}
        self._spares: list[Process] = []  # the next fresh runs' processes, started ahead
        # After a failure its kept session is ended, and the next case, a shrink step most often,
        # fails too: run fresh at once, it costs one process start where a new session and a
        # confirmation cost two.
        self._fresh_next = False
        self.stopped: Callable[[], bool] | None = None  # when it says so, the run ends at the next case
        # Whether run() attributes its failures; jobs side by side leave that to run_jobs, which shares
        # the merged failures out among them.
        self.attributing = True
        self.share = (0, 1)  # this job's index and the jobs' number: which of check's scenarios it runs

    def side_by_side(self, index: int, jobs: int) -> Campaign:
        """Job ``index`` of ``jobs`` run side by side (``fuzz.campaign.jobs``): this campaign's settings and
        deadline, its share of the case budget, and a seed of its own (the first job keeps this one's)."""
        seed = self.seed if self.seed is None or index == 0 else f"{self.seed}/{index}"
        share = None if self.max_cases is None else self.max_cases // jobs + int(index < self.max_cases % jobs)
        job = Campaign(
            self.argv,
            profile=self.profile,
            budget=self.stats.started + self.budget - time.monotonic(),
            max_cases=share,
            seed=seed,
            version=self.version,
            database=self.database,
            timing=self.timing,
            rules=self.rules,
            storage=self.storage,
        )
        job.attributing = False
        job.share = (index, jobs)
        return job

    def execute(self, case: Case, timing: Timing | None = None) -> tuple[Run, list[Finding]]:
        """Run and judge ``case``.

        A case that starts with a plain handshake runs first in a session kept for that
        handshake. What that run shows beyond what is known already (a failure, a new
        warning) is run again in a fresh process, and that verdict is the one returned: a
        kept session saves process starts, it never accuses. A target on which the two
        disagree too often is run fresh from then on.
        """
        head = case.kept_handshake if timing is None and self.stats.fresh_only_from is None else None
        if head is None or self._fresh_next or (session := self._session(head)) is None:
            run, findings = self._run_fresh(case, timing or self.timing)
            self._fresh_next = head is not None and bool(failing_findings(findings, self.profile))
            return run, findings
        started = time.monotonic()
        run = session.run(case.chunks[len(head) :], case.settle)
        self.stats.target_seconds += time.monotonic() - started
        self.stats.kept += 1
        self.stats.messages += case.messages - 2
        findings = self._judge(case, run)
        failing = failing_findings(findings, self.profile)
        started = time.monotonic()
        again = read_on_for_missing(session, run, failing)
        self.stats.target_seconds += time.monotonic() - started
        if again is not None:
            run, findings = again, self._judge(case, again)
            failing = failing_findings(findings, self.profile)
        if failing or not session.alive or initialized_again(case.lines[2:], run.observation.output):
            self._end_session(head)  # after a failure or an accepted second initialize, its state is in doubt
        if not failing and not self._new_warnings(findings):
            return run, findings
        fresh = self._run_fresh(case, self.timing)
        self._fresh_next = bool(failing_findings(fresh[1], self.profile))
        if failing and not failing_findings(fresh[1], self.profile):
            unconfirmed = self.stats.unconfirmed
            unconfirmed[failing[0].rule] = unconfirmed.get(failing[0].rule, 0) + 1
            # A few disagreements are timing; many mean state carried from case to case.
            disagreements = sum(unconfirmed.values())
            if disagreements >= 5 and disagreements * 20 > self.stats.kept:
                self._fresh_only()
        return fresh

    def _run_fresh(self, case: Case, timing: Timing) -> tuple[Run, list[Finding]]:
        started = time.monotonic()
        run = run_case(
            self.argv, case.chunks, timing, settle=case.settle, eof=case.eof, process=self._spare(), era=self.era
        )
        spent = time.monotonic() - started
        self.stats.target_seconds += spent
        self.stats.fresh_seconds += spent
        self.stats.processes += 1
        self.stats.messages += case.messages
        return run, self._judge(case, run)

    def _judge(self, case: Case, run: Run) -> list[Finding]:
        started = time.monotonic()
        findings = judge_run(case.stream, run)
        if self.era is Era.LEGACY:
            self.stats.learn(case.stream, run.observation.output)
        self.stats.oracle_seconds += time.monotonic() - started
        return findings

    def _spare(self) -> Process | None:
        """A process started ahead and sent nothing, if one is still running; more are started.

        They get ready while other cases run: fresh runs come in runs (Hypothesis varies a
        case it found interesting), and a kept process ends after a failure.
        """
        process = self._spares.pop(0) if self._spares else None
        if process is not None and process.proc.poll() is not None:
            process.finish()  # it ended on its own while it waited: not a process that saw nothing
            process = None
        while len(self._spares) < SPARES:
            self._spares.append(Process(self.argv, self.timing))
        return process

    def _new_warnings(self, findings: list[Finding]) -> bool:
        return any(f.status(self.profile) is Status.WARN and f.rule not in self.warnings for f in findings)

    def _session(self, head: tuple[bytes, ...]) -> Session | None:
        """The kept session for ``head``, started if need be; None for a target that cannot be kept."""
        if head not in self._sessions:
            started = time.monotonic()
            session = Session(self.argv, self.timing, head, self._spare(), self.era)
            self.stats.target_seconds += time.monotonic() - started
            self.stats.processes += 1
            if not session.alive:
                # A target that does not answer a probe after its plain handshake is run fresh.
                session.close()
                self._fresh_only()
                return None
            self._sessions[head] = session
        return self._sessions[head]

    def _fresh_only(self) -> None:
        self.stats.fresh_only_from = self.stats.cases + 1
        for head in list(self._sessions):
            self._end_session(head)

    def _end_session(self, head: tuple[bytes, ...]) -> None:
        self._sessions.pop(head).close()

    def close(self) -> None:
        """End the kept sessions and the spare processes: none outlives the campaign."""
        for head in list(self._sessions):
            self._end_session(head)
        while self._spares:
            self._spares.pop().finish()

    def run(self) -> Outcome:
        # Hypothesis allocates thousands of objects a case: collecting the young generation
        # every 700 of them (the default) cost the campaign several percent of its cases.
        thresholds = gc.get_threshold()
        gc.set_threshold(YOUNG_OBJECTS_PER_COLLECTION, *thresholds[1:])
        try:
            # A campaign with no folder of its own (the pytest plugin's) leaves Hypothesis's home to its host.
            with reproducible(), hypothesis_home(self.storage) if self.storage else contextlib.nullcontext():
                return self._run()
        finally:
            gc.set_threshold(*thresholds)
            self.close()

    def _within(self, seconds: float) -> None:
        """From now on, every wait of the target ends within ``seconds`` (``target.OutOfTime``).
        Kept and spare processes are ended: they hold the timing they were started with."""
        self.close()
        self.timing = within(self.timing, seconds)

    def _run(self) -> Outcome:
        deadline = self.stats.started + self.budget
        # No wait outlives the budget and the grace: whatever the target does, a wait cut by
        # the deadline is no verdict, and the search ends there.
        self._within(deadline + GRACE_SECONDS - time.monotonic())
        known: set[str] = set()  # rules found broken in earlier rounds: no longer failures to Hypothesis

        def probe(case: Case) -> None:
            now = time.monotonic()
            shrinking = bool(set(self.best) - known)  # a failure new in this round: it gets the grace
            if (
                now > deadline + (GRACE_SECONDS if shrinking else 0.0)
                or (self.max_cases is not None and self.stats.cases >= (2 if shrinking else 1) * self.max_cases)
                or (self.stopped and self.stopped())
            ):
                raise _BudgetSpent
            if self.max_cases is None and self.stats.cases - self._round_start >= ROUND_CASES:
                raise _RoundSpent
            found = self._case(case, known)
            self._report_progress(deadline, shrinking)
            if found is not None:
                # Hypothesis caches what failing cases raise, frames and all: here no run (16 MiB) nor findings.
                raise divergence(found[0])(found[1])

        def searching(first: list[Case]) -> Callable[[], None]:
            test = given(case=campaign_cases(self.era, self.version))(probe)
            return explicitly(campaign_settings(self.max_cases or 10**9, self.database)(test), first)

        while self._round(searching(self._first_cases() if self.stats.rounds == 1 else [])):
            # Hypothesis stops searching soon after the last new failure it finds, and remembers every
            # case: a campaign with a time budget searches on, in a new round, for failures of other rules.
            known.update(self.best)
            self.stats.rounds += 1
            self._round_start = self.stats.cases
        failures = list(self.best.values())
        self._within(attribution_seconds(failures))
        if self.attributing:
            failures = self.attributed(failures)
        return Outcome(settled(failures, self.warnings, self.profile), self.stats, self.warnings)

    def _first_cases(self) -> list[Case]:
        """This job's share of the scenarios of check's that the first round runs first: the corpus's,
        and (in the first job) the follow-ups of what the server showed, found by runs of their own."""
        index, jobs = self.share
        first = list(corpus_cases(self.era, self.version, self.rules)[index::jobs])
        with contextlib.suppress(OutOfTime):  # the budget spent finding them: the corpus alone
            output = lambda case: self._run_fresh(case, self.timing)[0].observation.output  # noqa: E731
            first += follow_up_cases(self.era, self.version, self.rules, output) if index == 0 else []
        return first

    def _case(self, case: Case, known: set[str]) -> tuple[str, str] | None:
        """Run, judge, count and keep ``case``; the rule and message of a failure new in this round."""
        run, findings = self.execute(case)
        if self.rules is not None:  # a rule left out is no failure, nor a warning
            findings = [finding for finding in findings if finding.rule in self.rules]
        self.stats.cases += 1
        for finding in findings:
            if finding.status(self.profile) is Status.WARN:
                if finding.rule not in self.warnings:  # a new warning: ``execute`` ran it fresh
                    # The warned finding first: it is the one a Failure shows.
                    shown = [finding, *(f for f in findings if f is not finding)]
                    self.warnings[finding.rule] = Failure(finding.rule, case, run, shown)
                event(f"warn {finding.rule}")
        if not (failing := failing_findings(findings, self.profile)):
            return None
        new = [finding for finding in failing if finding.rule not in known]
        self.stats.first_failure = self.stats.first_failure or self.stats.cases
        for rule, first in {f.rule: f for f in reversed(failing)}.items():  # each rule it breaks, by its first failure
            self._keep(Failure(rule, case, run, [first, *(f for f in findings if f is not first)]))
        return (new[0].rule, f"{new[0].rule}: {new[0].message}") if new else None

    def attributed(self, failures: Iterable[Failure]) -> list[Failure]:
        """The failures, each under the rule its case breaks once re-run otherwise (``attribute``),
        one a rule."""
        return one_a_rule(self.attribute(failure) for failure in failures)

    def _round(self, probe: Callable[[], None]) -> bool:
        """One Hypothesis run of ``probe``; whether a new round may follow (a time budget left to spend)."""
        test = probe
        if self.seed is not None:
            seed = self.seed if self.stats.rounds == 1 else f"{self.seed}/round {self.stats.rounds}"
            test = hypothesis_seed(seed)(probe)
            # seed() turns the example database off on purpose; a campaign wants both a
            # reproducible seed and the failures of earlier runs replayed first.
            test._hypothesis_internal_use_settings = settings(  # type: ignore[attr-defined]
                test._hypothesis_internal_use_settings,  # type: ignore[attr-defined]
                database=self.database,
            )
        try:
            test()
        except (_BudgetSpent, OutOfTime):
            return self._spent()
        except _RoundSpent:
            return True
        except (Divergence, BaseExceptionGroup) as raised:
            if isinstance(raised, BaseExceptionGroup):
                # Hypothesis replays each failure it kept and raises them together; a replay
                # past the deadline raises _BudgetSpent instead of its Divergence.
                if raised.split((Divergence, _BudgetSpent, _RoundSpent, OutOfTime))[1] is not None:
                    raise  # anything else is our bug, and must surface
                if raised.subgroup((_BudgetSpent, OutOfTime)) is not None:
                    return self._spent()
            # The failures are in self.best, each at its smallest. Hypothesis stops soon after the last
            # new one, however few cases it ran (a failure replayed from a shared database is found at
            # once): a case budget not yet spent is spent searching on, in a new round, as a time budget is.
            unspent = self.max_cases is None or self.stats.cases < self.max_cases
            return unspent and not (self.stopped and self.stopped())
        return False  # no new failure: the search is exhausted

    def _spent(self) -> bool:
        """The search ends (no new round): note whether its time budget was what ended it."""
        self.stats.out_of_time = time.monotonic() >= self.stats.started + self.budget
        return False

    def _keep(self, failure: Failure) -> None:
        kept = self.best.get(failure.rule)
        if kept is None or failure.size <= kept.size:
            self.best[failure.rule] = failure

    def attribute(self, failure: Failure) -> Failure:
        """``failure`` under the rule its case breaks once re-run otherwise (``outcome.attribute``)."""
        return attribute(failure, self.execute, self.timing, self.profile)

    def _report_progress(self, deadline: float, shrinking: bool) -> None:
        now = time.monotonic()
        if self.progress is not None and now - self._last_progress >= 0.5:
            self._last_progress = now
            self.progress(Progress.of(self.stats, frozenset(self.best), deadline - now, self.max_cases, shrinking))
