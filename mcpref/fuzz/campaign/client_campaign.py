"""A client campaign: Hypothesis draws server behaviours, the client under test meets each, the oracle judges.

The plain tool call runs first, once (a modern server's too, once a case of that era is drawn):
the differential rules compare every case with the plain one of its server's era. Each
case is one ``ServerScript`` (``generate.client_strategies``) played by a scripted server of its
own to a fresh start of the client. As in a server campaign (``campaign.runner``), each rule
broken raises its own exception type, so that Hypothesis shrinks each failure separately to its
smallest script, and the example database replays earlier failures first; the differential rules
share one type, so that a difference shrinks to the framing that alone causes it, whichever of
them that turns out to be. Hypothesis stops searching soon after the last new failure; a new
round, with a seed derived from the campaign's, searches on until the case budget is spent.
Shrinking may take as many cases again, and at least ``SHRINK_CASES``: a
differential failure costs the client's own timeout per run, and a script of three changes
needs a few dozen runs to lose two of them. A time budget (``budget``, seconds of the campaign's
own clock) ends it too, after the case under way: the cases run are then the first of those the
same seed and case budget would run. SIGINT or SIGTERM (``drive.stopping``) ends it as the budget
does, the case under way cut short and not counted, and what was found is not attributed further.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace

from hypothesis import given, settings
from hypothesis import seed as hypothesis_seed
from hypothesis.database import ExampleDatabase

from mcpref.fuzz.campaign.search import Divergence, campaign_settings, divergence, reproducible
from mcpref.fuzz.drive.client_run import DEFAULT_LIMITS, ClientRun, Limits, run_client
from mcpref.fuzz.drive.timing import OutOfTime
from mcpref.fuzz.generate.client_scripts import (
    DIFFERENTIAL,
    FEATURES,
    FRAMING,
    PLAIN,
    ServerScript,
    describe,
    plain_of,
    scenario,
)
from mcpref.fuzz.generate.client_strategies import server_scripts
from mcpref.fuzz.judge.client import judge_client
from mcpref.fuzz.judge.client_compare import mandatory
from mcpref.fuzz.judge.findings import Finding, Profile, Status
from mcpref.reference.versions import Era

_DIFFERENTIAL_KEY = "compared with the plain call"  # one divergence for the differential rules
DRAWS_PER_CASE = 20  # Hypothesis's examples per case run: a script drawn again is not run again
SHRINK_CASES = 60  # cases shrinking may run at least, whatever the budget


class _BudgetSpent(BaseException):
    """Not an ``Exception``: Hypothesis must not take it for a failure."""


@dataclass(frozen=True)
class ClientFailure:
    rule: str
    run: ClientRun  # the smallest case seen to break it
    findings: tuple[Finding, ...]  # every finding of that run, the rule's first

    @property
    def finding(self) -> Finding:
        return self.findings[0]


@dataclass
class ClientOutcome:
    plain: ClientRun
    failures: list[ClientFailure] = field(default_factory=list)
    warnings: list[ClientFailure] = field(default_factory=list)
    cases: int = 0  # cases run, the plain one included
    first_found: dict[str, int] = field(default_factory=dict)  # rule -> the case that first broke it


def _changes(script: ServerScript) -> dict[str, object]:
    return {name: getattr(script, name) for name in FEATURES if getattr(script, name) != getattr(PLAIN, name)}


def size(script: ServerScript) -> tuple[int, ...]:
    """How far ``script`` is from the plain one: a smaller one is a better reproducer."""
    return (len(_changes(script)), script.cuts, len(script.cut_at), script.padding, round(script.delay * 10), len(script.asks))


@dataclass
class ClientCampaign:
    template: Sequence[str]
    seed: int
    max_cases: int
    profile: Profile = Profile.SPEC
    database: ExampleDatabase | None = None
    limits: Limits = DEFAULT_LIMITS
    progress: Callable[[int, str, int], None] | None = None  # (cases run, the case's name, failures so far)
    rules: frozenset[str] | None = None  # count only these rules; the campaign ends once each is found
    era: Era | None = None  # draw servers of this era only
    budget: float = math.inf  # seconds the campaign may take; the case under way is finished
    best: dict[str, ClientFailure] = field(default_factory=dict)  # by divergence key
    warned: dict[str, ClientFailure] = field(default_factory=dict)  # by rule
    cases: int = 0
    # Each script runs once: Hypothesis draws the same one from many choices (a change is rare).
    ran: dict[str, tuple[ClientRun, tuple[Finding, ...]]] = field(default_factory=dict)
    first_found: dict[str, int] = field(default_factory=dict)
    plains: dict[ServerScript, ClientRun] = field(default_factory=dict)  # the plain run of each era

    def _plain(self, script: ServerScript) -> ClientRun:
        """The client's run of the plain tool call of ``script``'s era, run the first time it is needed."""
        plain = plain_of(script)
        if plain not in self.plains:
            self.plains[plain] = run_client(self.template, plain, self.limits)
            self.cases += 1
        return self.plains[plain]

    def run(self) -> ClientOutcome:
        deadline = time.monotonic() + self.budget
        plain = self._plain(PLAIN)
        known: set[str] = set()  # keys found in earlier rounds: no longer failures to Hypothesis

        @campaign_settings(self.max_cases * DRAWS_PER_CASE, self.database)
        @given(script=server_scripts(self.era))
        def probe(script: ServerScript) -> None:
            key = script.dumps()
            if key not in self.ran:
                shrinking = bool(set(self.best) - known)
                if self.cases >= self.max_cases + (max(self.max_cases, SHRINK_CASES) if shrinking else 0):
                    raise _BudgetSpent
                if time.monotonic() >= deadline:
                    raise _BudgetSpent
                compared = self._plain(script)
                run = run_client(self.template, script, self.limits)
                self.cases += 1
                self.ran[key] = (run, judge_client(run, compared).findings)
            run, judged = self.ran[key]
            findings = tuple(f for f in judged if self.rules is None or f.rule in self.rules)
            for finding in findings:
                if finding.status(self.profile) is Status.WARN:
                    self._keep(self.warned, finding.rule, finding, run, findings)
            failing = [f for f in findings if f.status(self.profile) is Status.FAIL]
            if self.progress:
                self.progress(self.cases, script.name, len(self.best))
            if not failing:
                return
            for finding in failing:
                self.first_found.setdefault(finding.rule, self.cases)
            keys = [(_DIFFERENTIAL_KEY if f.rule in DIFFERENTIAL else f.rule, f) for f in failing]
            for key, finding in keys:
                self._keep(self.best, key, finding, run, findings)
            new = [key for key, _ in keys if key not in known]
            if new:
                raise divergence(new[0])(new[0])

        rounds = 0
        while self.cases < self.max_cases and time.monotonic() < deadline:
            test = hypothesis_seed(f"{self.seed}/round {rounds}" if rounds else self.seed)(probe)
            # seed() turns the database off on purpose; a campaign wants both.
            test._hypothesis_internal_use_settings = settings(  # type: ignore[attr-defined]
                test._hypothesis_internal_use_settings, database=self.database  # type: ignore[attr-defined]
            )
            try:
                with reproducible():
                    test()
            except (_BudgetSpent, OutOfTime):  # OutOfTime: a signal stopped the run
                break
            except (Divergence, BaseExceptionGroup) as raised:
                if isinstance(raised, BaseExceptionGroup) and raised.split((Divergence, _BudgetSpent, OutOfTime))[1] is not None:
                    raise  # anything else is our bug, and must surface
            else:
                break  # no new failure: the search is exhausted
            known.update(self.best)
            rounds += 1
            if self.rules is not None and self.rules <= {failure.rule for failure in self.best.values()}:
                break  # every rule asked for is found
        failures = self._one_a_rule(self._attribute(failure) for failure in self.best.values())
        warnings = self._one_a_rule(self._attribute(warning) for warning in self.warned.values())
        failing = {failure.rule for failure in failures}
        kept = [w for w in warnings if w.rule not in failing]
        return ClientOutcome(plain, failures, kept, self.cases, dict(self.first_found))

    def _attribute(self, failure: ClientFailure) -> ClientFailure:
        """``failure`` under the framing rule of a change of its script that, undone, makes it go.

        A client that cannot read a line cut in pieces never answers the ``ping`` on it: the cause
        is the cut (CLIENT-READ-CHUNKS), not the ping. Each framing change of the smallest script
        is undone in turn, and the case run again; the first whose undoing leaves the rule's
        situation in place and the rule kept names the rule.
        """
        script = failure.run.script
        for change, rule in FRAMING.items():
            if failure.rule == rule or getattr(script, change) == getattr(PLAIN, change):
                continue
            undone = replace(script, **{change: getattr(PLAIN, change)})
            try:
                rerun = run_client(self.template, scenario(describe(undone), **_changes(undone)), self.limits)
                verdict = judge_client(rerun, self._plain(undone))
            except OutOfTime:  # a signal stopped the run: the failure stays under the rule it was found under
                return failure
            self.cases += 1
            if failure.rule not in verdict.seen or failure.rule in {finding.rule for finding in verdict.findings}:
                continue  # still broken, or no longer in its situation: the change is not the cause
            first = failure.finding
            only = describe(replace(PLAIN, **{change: getattr(script, change)}))
            moved = Finding(rule, mandatory(rule, {change}), first.line, f"only with {only}: {first.message}",
                            first.expected, first.actual)  # fmt: skip
            return ClientFailure(rule, failure.run, (moved, *failure.findings[1:]))
        return failure

    @staticmethod
    def _one_a_rule(failures: Iterable[ClientFailure]) -> list[ClientFailure]:
        kept: dict[str, ClientFailure] = {}
        for failure in failures:
            if failure.rule not in kept or size(failure.run.script) < size(kept[failure.rule].run.script):
                kept[failure.rule] = failure
        return list(kept.values())

    @staticmethod
    def _keep(kept: dict[str, ClientFailure], key: str, finding: Finding, run: ClientRun, findings: tuple[Finding, ...]) -> None:
        """Keep the smallest case of each key, its finding first."""
        if key in kept and size(kept[key].run.script) <= size(run.script):
            return
        kept[key] = ClientFailure(finding.rule, run, (finding, *(f for f in findings if f is not finding)))
