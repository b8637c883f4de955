"""``mcpref check``: the fixed corpus run against a target, one verdict per rule.

Each scenario is one case (``fuzz.corpus``), as many side by side as ``WORKERS``. One that
opens with a plain handshake written as a chunk of its own runs first in a process kept after
that handshake (``fuzz.target.Session``), several scenarios one after another, as ``fuzz``
runs its cases: a process start costs more than most scenarios. A kept run writes the very
chunks a fresh run writes, and only ever clears a scenario: one that shows any finding, or
loses the server, or may have been initialized again, is run again in a fresh process, and
that run is the verdict and the transcript. What a kept run can hide is a behaviour that
depends on what the process did before.
"""

from __future__ import annotations

import contextlib
import math
import threading
from collections.abc import Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

from mcpref.fuzz.campaign.runner import initialized_again, relabel_carried_state, relabel_false_line_ends
from mcpref.fuzz.drive.observation import Observation
from mcpref.fuzz.drive.target import OutOfTime, Run, Session, Timing, run_case, within
from mcpref.fuzz.generate.corpus import KEPT_HEADS, Scenario
from mcpref.fuzz.generate.corpus_modern import BY_ERA
from mcpref.fuzz.generate.strategies import Case
from mcpref.fuzz.judge.modern import speaks_modern
from mcpref.fuzz.judge.oracle import Finding, Profile, Status, judge
from mcpref.fuzz.report import statuses
from mcpref.fuzz.report.reproducer import finding_json, paced_shell_line, session_transcript
from mcpref.reference.rules import RULES
from mcpref.reference.versions import Era

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
    """A pasteable shell line for the scenario, if a short one reproduces it (``paced_shell_line``)."""
    return paced_shell_line(command, scenario.case.chunks, probed=not scenario.eof, era=scenario.era)


def _seen(scenario: Scenario, run: Run) -> bool:
    """Whether the server was seen through the scenario, so that silence on a rule is evidence: it
    answered the liveness probe after the case, or, where the case ends at EOF, answered anything."""
    return bool(run.observation.output) if scenario.eof else run.observation.survived


def _body(case: Case) -> tuple[bytes, ...] | None:
    """The chunks after the case's opening handshake, when the case opens with one of
    ``KEPT_HEADS`` as a chunk of its own: what a kept process is sent."""
    if len(case.chunks) < 2 or case.opening_chunk(KEPT_HEADS) is None:
        return None
    return case.chunks[1:]


class _Scenarios:
    """Runs scenarios for ``check_rows``: in a kept process where one clears them, else fresh.

    Each worker thread keeps its own process per handshake: kept runs never share a process.
    """

    def __init__(self, command: list[str], timing: Timing) -> None:
        self.command = command
        self.timing = timing
        self._local = threading.local()
        self._lock = threading.Lock()
        self._sessions: list[Session] = []  # every session started, to end them all
        self._cleared = self._ended = 0  # scenarios kept runs cleared; kept processes ended
        self._fresh_only = False

    def run(self, scenario: Scenario) -> tuple[Run, list[Finding]]:
        try:
            return self._run(scenario)
        except OutOfTime:
            # check's time limit ran out during the scenario: no verdict, and its rules untested.
            return Run(Observation((), survived=False, ending=OUTLASTED), None, b"", ()), []

    def _run(self, scenario: Scenario) -> tuple[Run, list[Finding]]:
        case = scenario.case
        body = None if scenario.eof or scenario.era is not Era.LEGACY else _body(case)
        head = b"".join(case.lines[:2])
        if body is not None and not self._fresh_only and (session := self._session(head)) is not None:
            run = session.run(body, case.settle)
            findings = judge(case.stream, run.observation)
            taken = initialized_again(case.lines[2:], run.observation.output)
            if not findings and session.alive and not taken:
                with self._lock:
                    self._cleared += 1
                return run, findings
            # Whatever the kept run showed, the verdict is a fresh process's. After a failure,
            # a death or a second initialize taken, the kept process's state is in doubt: it is
            # ended. Once kept processes are ended more often than they clear a scenario (twice
            # at least), every scenario runs fresh: a server with findings everywhere then costs
            # a few processes more than fresh runs alone, not twice as many.
            if taken or not session.alive or any(f.status(Profile.STRICT) is Status.FAIL for f in findings):
                del self._local.sessions[head]
                session.close()
                with self._lock:
                    self._ended += 1
                    self._fresh_only = self._ended >= 2 and self._ended > self._cleared
        return run_scenario(scenario, self.command, self.timing)

    def _session(self, head: bytes) -> Session | None:
        sessions: dict[bytes, Session | None] = self._local.__dict__.setdefault("sessions", {})
        if head not in sessions:
            session = Session(self.command, self.timing, head)
            with self._lock:
                self._sessions.append(session)
            # A target that does not answer a probe after the plain handshake runs fresh only.
            sessions[head] = session if session.alive else None
        return sessions[head]

    def close(self) -> None:
        for session in self._sessions:
            session.close()


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
    none of its rules to keep. With ``only``, just the scenarios that exercise one of those rules run,
    and just those rules have a row.
    No wait lasts past ``limit`` seconds from now: a scenario it cuts short is no verdict, and
    the rules only it exercises are untested.
    """
    timing = within(timing, limit)
    with contextlib.suppress(OutOfTime):  # TargetError when the command cannot start at all
        run_case(command, [], timing, era=era)
    scenarios = tuple(s for s in BY_ERA[era] if only is None or only & set(s.rules))
    runner = _Scenarios(command, timing)
    try:
        with ThreadPoolExecutor(max_workers=WORKERS) as pool:
            results = list(pool.map(runner.run, scenarios))
    finally:
        runner.close()
    if not any(run.observation.output for run, _ in results):
        results = [(run, [f for f in findings if f.rule == "STDIO-SURVIVE"]) for run, findings in results]
    # One transcript per scenario, however many of its findings carry it.
    transcripts = [session_transcript(run.events, run.observation.trailing) for run, _ in results]
    modern = [speaks_modern(run.observation.output) for run, _ in results]
    rows: list[dict[str, object]] = []
    for rule in RULES if only is None else (rule for rule in RULES if rule.id in only):
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
    survived = [row["findings"] for row in rows if row["id"] == "STDIO-SURVIVE"]  # it may be left out
    findings = survived[0] if survived else []
    assert isinstance(findings, list)
    if findings:
        return f"the server {findings[0]['actual']} before answering"
    if any(OUTLASTED in str(row.get("reason", "")) for row in rows):
        return f"the server {OUTLASTED} before answering"
    return "the server stopped answering before answering"


# The Python API: ``mcpref.check(argv)``, for people who write their own assertions.


@dataclass(frozen=True)
class RuleResult:
    id: str
    level: str  # MUST, MUST NOT, SHOULD, reference decision, measurement
    status: str  # pass, warn, fail, untested or n/a (``statuses``)
    findings: tuple[Mapping[str, object], ...]  # as ``check --json`` gives them
    reason: str  # why untested; "" otherwise


@dataclass(frozen=True)
class Report:
    command: tuple[str, ...]
    profile: str
    cause: str | None  # why nothing could be judged, when nothing could
    rules: tuple[RuleResult, ...]  # one per rule, in the registry's order

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
    rows = check_rows(list(argv), Profile(profile), Timing(), era_of_version(protocol_version), limit=time_limit)
    results = []
    for row in rows:
        findings = row["findings"]
        assert isinstance(findings, list)
        results.append(RuleResult(str(row["id"]), str(row["level"]), str(row["status"]), tuple(findings),
                                  str(row.get("reason", ""))))  # fmt: skip
    return Report(tuple(argv), profile, check_cause(rows), tuple(results))
