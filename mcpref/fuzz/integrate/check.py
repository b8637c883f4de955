"""``mcpref check``: the fixed corpus run against a target (``check_runs``), then the follow-ups of what
the server listed (``check_follow_ups``), one verdict per rule."""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Final

from mcpref.fuzz.drive.target import Run
from mcpref.fuzz.drive.timing import Timing, within
from mcpref.fuzz.generate.corpus import Scenario
from mcpref.fuzz.integrate.check_follow_ups import judge_followed
from mcpref.fuzz.integrate.check_runs import OUTLASTED, Judged, judge_corpus
from mcpref.fuzz.integrate.seen import seen_through, unjudged
from mcpref.fuzz.judge.oracle import Profile, Status
from mcpref.fuzz.report import causes, statuses
from mcpref.fuzz.report.reproducer import finding_json, paced_shell_line, session_transcript
from mcpref.reference.rules import RULES, Rule
from mcpref.reference.versions import BY_NAME, KNOWN, LEGACY, MODERN, Era

# Rules judged only in a situation the server's own answers create (a tool it listed, called with
# arguments its schema accepts) or its own messages (a progress notification, a cancellation): a
# scenario run through shows them kept only where the oracle saw that situation
# (``Session.witnessed``), and what each needs, as a report says it was not seen.
SITUATIONS: Final = {
    "FRAME-EOF-PARTIAL": "an answer to the unterminated last line",
    "LIFE-INIT-RESULT": "an initialize result",
    "TOOLS-LIST-SHAPE": "a tools/list result",
    "TOOLS-CALL-RESULT": "a tools/call result",
    "TOOLS-EXEC-ERROR": "a call to a tool the server listed, with arguments its schema accepts",
    "TOOLS-UNKNOWN": "a call to a tool the server had not listed, once it had listed all its tools",
    "TOOLS-ARGS-INVALID": "a call to a tool the server listed, with arguments its schema refuses",
    "MOD-TOOLS-CACHE": "a tools/list result of the modern era",
    "RESOURCES-SHAPE": "a resources/list, resources/templates/list or resources/read result of a server that announced resources",
    "PROMPTS-SHAPE": "a prompts/list or prompts/get result of a server that announced prompts",
    "COMPLETION-SHAPE": "a completion/complete result of a server that announced completions",
    "TASKS-SHAPE": "a tasks/list or tasks/get result of a server that announced tasks",
    "SERVER-MESSAGE-SHAPE": "a notification or request the server wrote, of a method that requires params",
    # What the server writes unasked, or what it refers to: kept only where it wrote such a message.
    "PROGRESS-TOKEN": "a notifications/progress the server wrote",
    "PROGRESS-INCREASING": "a second notifications/progress the server wrote for one request in progress",
    "RPC-CANCEL-OWN": "a notifications/cancelled the server wrote",
    "CAP-LOGGING-DECLARED": "a notifications/message the server wrote in a session at 2025-06-18 or later",
    "CAP-CLIENT-DECLARED": "a roots/list, sampling/createMessage or elicitation/create request the server wrote",
    "CAP-LIST-CHANGED": "a list-changed notification the server wrote",
    "CAP-RESOURCE-SUBSCRIBED": "a notifications/resources/updated the server wrote",
    "CAP-ELICIT-COMPLETE": "a notifications/elicitation/complete the server wrote at 2025-11-25",
    "TASKS-TERMINAL": "a task the server notified in a terminal status at 2025-11-25",
    "LIFE-SERVER-EARLY": "an initialize the server accepted (what it wrote before answering it)",
    "MOD-CAP-REQUIRED": "a request the server showed needs a client capability (-32021, or input_required asking for it)",
    "CAP-ANNOUNCED-METHODS": "a request for a method of a capability the server announced",
    "CAP-UNANNOUNCED-METHOD": "a request for a method of a capability the server did not announce",
    "LIFE-SECOND-INIT": "an initialize after one the server accepted",
}


def _shell(command: list[str], scenario: Scenario) -> str | None:
    """A pasteable shell line for the scenario, if a short one reproduces it (``paced_shell_line``)."""
    return paced_shell_line(command, scenario.case.chunks, probed=not scenario.eof, era=scenario.era)


def _size(scenario: Scenario) -> tuple[int, int]:
    """How large a reproducer the scenario makes: bytes, then writes (``causes.grouped``)."""
    return len(scenario.case.stream), len(scenario.case.chunks)


def _lost(run: Run) -> str:
    """What a server not seen through a scenario did (``_seen``), as a predicate of it: its ending,
    or, in a case that ends at EOF, that it answered nothing."""
    if run.observation.ending:
        return run.observation.ending
    return "answered nothing" + ("" if run.exit_status is None else f" and exited with status {run.exit_status}")


def _seen(scenario: Scenario, run: Run) -> bool:
    """Whether the server was seen through the scenario (``seen.seen_through``)."""
    return seen_through(scenario.case, scenario.eof, run.observation)


def _evidence(rule: Rule, negotiated: frozenset[str], speaks: bool, seen: bool, era: Era) -> bool:
    """Whether a run of a scenario of ``era`` is evidence for ``rule``: it followed one of the
    rule's versions. A run follows the modern era where the server spoke it (``speaks``), and the
    legacy versions its initialize results named (``negotiated``); one that named none follows the
    era its client spoke: in the legacy corpus it is evidence for a rule of every legacy version;
    in the modern one (requests in the 2026-07-28 envelope, no initialize accepted), for no rule of
    the legacy era alone, which has nothing to say where no legacy session opened (a legacy server
    that serves such requests before initialize breaks no LIFE-PRE-INIT-REFUSED). A rule of
    2025-11-25 alone says nothing of a server that answered 2025-06-18, nor a rule of the legacy
    era alone of a run in which the server spoke the modern era and accepted no initialize (its
    initialize result was never seen). A legacy run that lost the server before it named a version
    (not ``seen``) shows none it does not follow: a rule of some legacy versions is untested there,
    not n/a. A run that is no evidence for a rule claims nothing of it, by its findings either."""
    modern = speaks and bool(rule.versions & MODERN)
    followed = {BY_NAME[name] for name in negotiated if name in BY_NAME and BY_NAME[name].era is Era.LEGACY}
    if followed:
        return modern or bool(followed & rule.versions)
    if speaks or (era is Era.MODERN and not rule.versions & MODERN):
        return modern
    return rule.versions >= LEGACY or (not seen and bool(rule.versions & LEGACY))


# What ``checked`` found of a server it judged in the modern era.
MODERN_ALONE = (
    "the server serves the modern era alone (it accepted no initialize and answered as 2026-07-28"
    " does): judged by the 2026-07-28 corpus"
)


@dataclass(frozen=True)
class Checked:
    """What ``check`` made of a server: the era whose corpus judged it, a row per rule, and the
    scenarios run by name, the corpus's and the follow-ups' built from the server's own answers:
    what each finding's reproducer replays (``ci.save_reproducers``, ``html.page``)."""

    era: Era
    rows: list[dict[str, object]]
    scenarios: Mapping[str, Scenario]


def check_rows(
    command: list[str],
    profile: Profile,
    timing: Timing,
    era: Era = Era.LEGACY,
    only: frozenset[str] | None = None,
    limit: float = math.inf,
    show: Callable[[str], None] | None = None,
) -> list[dict[str, object]]:
    """One row per requirement: fail, warn, pass, untested, or n/a (``statuses``).

    A rule passes only where one of its scenarios was seen through (``_seen``), showing, for a rule
    of ``SITUATIONS``, the situation it judges, and none found it broken; a rule whose scenarios all
    lost the server first, or never showed its situation, is untested, with the reason. A server
    that answered nothing in any scenario is reported for that alone (STDIO-SURVIVE): what follows
    from its silence is one cause, not a finding per rule. A rule of the modern era alone is
    exercised only by scenarios where the server showed it speaks that era: a legacy server has
    none of its rules to keep; likewise a rule of some legacy versions, by scenarios where the
    server followed one of them (``_evidence``). Asked for the legacy era, a server seen to serve
    the modern era alone gets n/a for every rule (``statuses.UNSERVED``): the legacy corpus saw only its
    refusals. After the corpus come the follow-ups of what the server announced and listed
    (``check_follow_ups``), judged alike. With ``only``, just the scenarios that exercise one of
    those rules run (and, for a rule of the follow-ups, those they need), and just those rules have
    a row, and STDIO-SURVIVE's for a server that answered nothing.
    No wait lasts past ``limit`` seconds from now: a scenario it cuts short is no verdict, and
    the rules only it exercises are untested. ``show`` gets progress lines (``check_progress``).
    """
    return checked(command, profile, timing, era, only, limit, show).rows


def checked(
    command: list[str],
    profile: Profile,
    timing: Timing,
    era: Era | None = None,
    only: frozenset[str] | None = None,
    limit: float = math.inf,
    show: Callable[[str], None] | None = None,
) -> Checked:
    """``check_rows`` in ``era``, or, when none is asked for, in the era the server serves: the
    legacy corpus's rows, or the modern corpus's for a server the legacy corpus showed serving the
    modern era alone. A server of both eras is judged in the legacy one, as a client that asks for
    no version finds it; its modern era is judged with ``Era.MODERN`` asked for. ``limit`` bounds
    both corpora together."""
    timing = within(timing, limit)
    judged = _judged(command, profile, timing, era or Era.LEGACY, only, show)
    if era is None and judged.modern_only:
        era, judged = Era.MODERN, _judged(command, profile, timing, Era.MODERN, only, show)
    ran = {s.name: s for s in judged.scenarios}
    if era is not Era.MODERN and judged.modern_only:
        return Checked(Era.LEGACY, [
            {"id": rule.id, "level": rule.level.value, "status": statuses.NOT_APPLICABLE, "scenarios": [],
             "findings": [], "reason": statuses.UNSERVED}
            for rule in _selected(only)
        ], ran)  # fmt: skip
    return Checked(era or Era.LEGACY, _rows(command, profile, judged, only), ran)


def _judged(
    command: list[str], profile: Profile, timing: Timing, era: Era, only: frozenset[str] | None, show: Callable[[str], None] | None
) -> Judged:
    """The era's corpus, then the follow-ups of what it showed, run and judged (``check_follow_ups``)."""
    return judge_followed(era, only, lambda chosen: judge_corpus(command, profile, timing, era, only, show, chosen))


def _selected(only: frozenset[str] | None) -> list[Rule]:
    return [rule for rule in RULES if only is None or rule.id in only]


def _rows(command: list[str], profile: Profile, judged: Judged, only: frozenset[str] | None) -> list[dict[str, object]]:
    """The rows of ``check_rows`` from a corpus run."""
    scenarios, results, spoken = judged.scenarios, judged.results, judged.spoken
    # One transcript per scenario, however many of its findings carry it.
    transcripts = [session_transcript(run.events, run.observation.trailing) for run, _ in results]
    survive = any(f.rule == "STDIO-SURVIVE" for _, findings in results for f in findings)
    if only is not None and judged.silent and survive:
        # The one cause of every other row, whatever the selection; a selection of rules judged at
        # EOF alone saw no liveness probe go unanswered: its rules stay untested (exit status 3).
        only = only | {"STDIO-SURVIVE"}
    rows: list[dict[str, object]] = []
    for rule in _selected(only):
        # A run that is no evidence for the rule claims nothing of it, by its findings either.
        evident = [
            _evidence(rule, negotiated, speaks, _seen(s, run), s.era)
            for s, (negotiated, speaks), (run, _) in zip(scenarios, spoken, results, strict=True)
        ]
        exercised = [
            (s, run, rule.id not in SITUATIONS or rule.id in shown)
            for s, (run, _), shown, evidence in zip(scenarios, results, judged.witnessed, evident, strict=True)
            if rule.id in s.rules and evidence
        ]
        seen = any(_seen(s, run) and met for s, run, met in exercised)
        hits = [
            (s, transcript, f)
            for s, transcript, (_, findings), evidence in zip(scenarios, transcripts, results, evident, strict=True)
            for f in findings
            if f.rule == rule.id and evidence
        ]
        hits.sort(key=lambda hit: hit[2].status(profile) is not Status.FAIL)  # the row's note gives its status's cause
        status = statuses.of([f.status(profile) for _, _, f in hits], seen, bool(exercised))
        row: dict[str, object] = {
            "id": rule.id,
            "level": rule.level.value,
            "status": status,
            "scenarios": [s.name for s, _, _ in exercised],
            "findings": causes.grouped(
                [
                    (_size(s), {"scenario": s.name, **finding_json(f, profile), "transcript": t, "shell": _shell(command, s)})
                    for s, t, f in hits
                ]
            ),
        }
        if status == statuses.UNTESTED:
            passed = [f'"{s.name}"' for s, run, _ in exercised if _seen(s, run)]
            s, run, _ = exercised[0]
            row["reason"] = (
                f"no scenario showed {SITUATIONS[rule.id]} ({' and '.join(passed)} ran through without one)"
                if passed
                else f'the scenario "{s.name}" could not be judged: the server {_lost(run)}'
            )
        elif status == statuses.NOT_APPLICABLE:
            row["reason"] = _inapplicable(rule, [spoke for s, spoke in zip(scenarios, spoken, strict=True) if rule.id in s.rules])
        rows.append(row)
    return rows


def _inapplicable(rule: Rule, spoken: Sequence[tuple[frozenset[str], bool]]) -> str:
    """Why ``rule`` does not apply: the versions it is a rule of, and those the server followed in
    the scenarios that list it (``spoken``), if any does."""
    versions = "every version" if len(rule.versions) == len(KNOWN) else ", ".join(v.name for v in KNOWN if v in rule.versions)
    if not spoken:
        return f"no scenario of this era's corpus judges it (a rule of {versions})"
    followed = sorted({name for named, _ in spoken for name in named})
    modern = any(speaks for _, speaks in spoken)
    shown = " and ".join([*([", ".join(followed)] if followed else []), *(["the modern era"] if modern else [])])
    return f"a rule of {versions}; the server followed {shown or 'no version it named'}"


def check_cause(rows: Sequence[dict[str, object]]) -> str | None:
    """Why nothing could be judged, when nothing could: the first line of a summary."""
    if rows and all(row.get("reason") == statuses.UNSERVED for row in rows):
        return statuses.UNSERVED
    if any(row["status"] == statuses.PASS for row in rows) or not any(
        row["status"] == statuses.UNTESTED for row in rows
    ):
        return None
    survived = [row["findings"] for row in rows if row["id"] == "STDIO-SURVIVE"]  # it may be left out
    findings = survived[0] if survived else []
    assert isinstance(findings, list)
    if findings:
        return unjudged(str(findings[0]["actual"]))  # a predicate of the server (``Process.ending``)
    if any(OUTLASTED in str(row.get("reason", "")) for row in rows):
        return unjudged(OUTLASTED)
    return next(str(row["reason"]) for row in rows if row["status"] == statuses.UNTESTED)


# The Python API: ``mcpref.check(argv)``, for people who write their own assertions.


@dataclass(frozen=True)
class RuleResult:
    id: str
    level: str  # MUST, MUST NOT, SHOULD, reference decision, measurement
    status: str  # pass, warn, fail, untested or n/a (``statuses``)
    findings: tuple[Mapping[str, object], ...]  # as ``check --json`` gives them
    reason: str  # why untested, or n/a for a server that serves no legacy version; "" otherwise


@dataclass(frozen=True)
class Report:
    command: tuple[str, ...]
    profile: str
    cause: str | None  # why nothing could be judged, when nothing could
    rules: tuple[RuleResult, ...]  # one per rule, in the registry's order
    era: str = "legacy"  # the era whose corpus judged the server: legacy or modern

    def __getitem__(self, rule: str) -> RuleResult:
        return next(result for result in self.rules if result.id == rule)

    @property
    def failed(self) -> list[str]:
        """The rules that fail under the report's profile."""
        return [result.id for result in self.rules if result.status == statuses.FAIL]


def run(
    argv: Sequence[str],
    *,
    profile: str = "spec",
    protocol_version: str | None = None,
    time_limit: float = 600.0,
) -> Report:
    """``mcpref check`` on ``argv`` (started without a shell), as a ``Report``; raises ``TargetError``
    for a command that cannot be started and ``ValueError`` for an unknown profile or version."""
    from mcpref.fuzz.generate.corpus_modern import VERSION_NAMES, era_of_version

    if protocol_version is not None and protocol_version not in VERSION_NAMES:
        raise ValueError(f"unknown protocol version {protocol_version!r}")
    asked = None if protocol_version is None else era_of_version(protocol_version)
    found = checked(list(argv), Profile(profile), Timing(), asked, limit=time_limit)
    results = []
    for row in found.rows:
        findings = row["findings"]
        assert isinstance(findings, list)
        results.append(RuleResult(str(row["id"]), str(row["level"]), str(row["status"]), tuple(findings),
                                  str(row.get("reason", ""))))  # fmt: skip
    return Report(tuple(argv), profile, check_cause(found.rows), tuple(results), found.era.value)
