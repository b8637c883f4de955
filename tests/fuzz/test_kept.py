"""Kept processes: which cases may run in one, and that they show what a fresh process shows."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, find, given, settings
from hypothesis import strategies as st

from mcpref.fuzz.campaign.attribution import initialized_again
from mcpref.fuzz.campaign.runner import Campaign
from mcpref.fuzz.drive.kept import Session
from mcpref.fuzz.drive.observation import Observation
from mcpref.fuzz.drive.target import Run, run_case
from mcpref.fuzz.drive.timing import Timing
from mcpref.fuzz.generate.case import Case
from mcpref.fuzz.generate.corpus import _ready, scenario
from mcpref.fuzz.generate.corpus_modern import BY_ERA
from mcpref.fuzz.generate.messages import INITIALIZED, PLAIN_HANDSHAKES, encode, initialize, request
from mcpref.fuzz.generate.strategies import cases
from mcpref.fuzz.integrate import check_runs
from mcpref.fuzz.integrate.check import check_rows
from mcpref.fuzz.integrate.check_runs import _body
from mcpref.fuzz.judge.oracle import Finding, Profile, Status, judge
from mcpref.reference.rules import BY_ID, Level
from mcpref.reference.versions import Era

REFERENCE = [sys.executable, "-m", "mcpref.reference"]
INIT, READY = encode(initialize("init-1", "2025-06-18")), encode(INITIALIZED)
PING = encode(request(1, "ping"))
HEAD = len(INIT) + len(READY)


def test_a_case_may_run_in_a_kept_process_only_when_its_plain_handshake_is_written_on_its_own() -> None:
    assert INIT + READY in PLAIN_HANDSHAKES
    assert Case((INIT, READY, PING), (HEAD,)).kept_handshake == (INIT + READY,)
    assert Case((INIT, READY, PING), (HEAD, HEAD + 3)).kept_handshake == (INIT + READY,)
    assert Case((INIT, READY)).kept_handshake == (INIT + READY,)
    # initialize and notifications/initialized each a write of its own, as a client awaiting the answer
    assert Case((INIT, READY, PING), (len(INIT), HEAD)).kept_handshake == (INIT, READY)
    assert Case((INIT, READY), (len(INIT),)).kept_handshake == (INIT, READY)
    assert Case((INIT, READY, PING)).kept_handshake is None  # the body shares the handshake's write
    assert Case((INIT, READY, PING), (len(INIT),)).kept_handshake is None
    assert Case((INIT, READY, PING), (5, HEAD)).kept_handshake is None  # the handshake itself is cut
    assert Case((INIT, READY, PING), (len(INIT), HEAD - 3, HEAD)).kept_handshake is None
    assert Case((INIT, READY), (5,)).kept_handshake is None
    other_id = encode(initialize("init-0", "2025-06-18"))
    assert Case((other_id, READY, PING), (len(other_id) + len(READY),)).kept_handshake is None
    assert Case((READY, INIT, PING), (HEAD,)).kept_handshake is None


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(case=cases())
def test_generated_cases_that_start_plainly_are_never_cut_inside_the_handshake(case: Case) -> None:
    head = b"".join(case.lines[:2])
    if head in PLAIN_HANDSHAKES:
        assert case.kept_handshake in ((head,), case.lines[:2])
        assert all(cut >= len(head) or cut == len(case.lines[0]) for cut in case.cuts)


def test_most_generated_cases_can_run_in_a_kept_process() -> None:
    kept = []

    @settings(max_examples=400, deadline=None, database=None, suppress_health_check=list(HealthCheck))
    @given(case=cases())
    def draw(case: Case) -> None:
        kept.append(case.kept_handshake is not None)

    draw()
    assert sum(kept) / len(kept) > 0.9
    # Some write notifications/initialized apart, as a client that awaits the initialize answer.
    stepwise = find(
        cases(), lambda case: case.kept_handshake == case.lines[:2], settings=settings(max_examples=10_000, database=None)
    )
    assert stepwise.chunks[:2] == stepwise.lines[:2]
    # The other orderings are still drawn, and need a process of their own.
    fresh = find(
        cases(), lambda case: case.kept_handshake is None, settings=settings(max_examples=10_000, database=None)
    )
    assert b"".join(fresh.lines[:2]) not in PLAIN_HANDSHAKES or fresh.cuts


def _answers(output: tuple[bytes, ...]) -> list[bytes]:
    """The output without the probes' answers, in a stable order."""
    return sorted(line for line in output if b"mcpref-sentinel" not in line)


@settings(max_examples=12, deadline=None, suppress_health_check=list(HealthCheck))
@given(data=st.data())
def test_a_kept_process_shows_what_a_fresh_one_shows(data: st.DataObject) -> None:
    timing = Timing()
    plain = data.draw(cases().filter(lambda case: case.kept_handshake is not None and len(case.lines) > 2))
    head = plain.kept_handshake
    assert head is not None
    session = Session(REFERENCE, timing, head)
    try:
        assert session.alive
        # An earlier case in the same process does not change what the next one shows.
        session.run([PING], 0.0)
        kept = session.run(plain.chunks[len(head) :], plain.settle)
    finally:
        session.close()
    fresh = run_case(REFERENCE, plain.chunks, timing, settle=plain.settle)
    assert _answers(kept.observation.output) == _answers(fresh.observation.output)
    assert judge(plain.stream, kept.observation) == judge(plain.stream, fresh.observation)


def test_a_target_that_dies_after_its_handshake_is_not_kept() -> None:
    script = "import os\nos.read(0, 99)\nos._exit(0)"
    session = Session([sys.executable, "-c", script], Timing(), (INIT + READY,))
    try:
        assert not session.alive
    finally:
        session.close()


def _processes_for(target: list[str], bodies: tuple[bytes, ...]) -> int:
    """The processes a campaign starts to run one kept case per body, none of them failing."""
    campaign = Campaign(target)
    try:
        for body in bodies:
            _, findings = campaign.execute(Case((INIT, READY, body), (HEAD,)))
            assert not [f for f in findings if f.status(campaign.profile) is Status.FAIL]
    finally:
        campaign.close()
    assert campaign.stats.kept == len(bodies)
    return campaign.stats.processes


AGAIN = encode(initialize("init-2", "2025-06-18"))


def test_a_kept_process_is_ended_after_a_case_that_initializes_it_again() -> None:
    # This server accepts the second initialize (a reference decision taken otherwise: a note in
    # the spec profile, which no fresh run confirms): its state is in doubt, so one kept process
    # for the first two cases, and a new one for the last two.
    accepts = [sys.executable, str(Path(__file__).parents[2] / "examples" / "buggy" / "second_initialize.py")]
    assert _processes_for(accepts, (PING, AGAIN, PING, PING)) == 2


def test_initialized_again_unless_every_initialize_in_the_body_was_refused() -> None:
    refused = b'{"jsonrpc":"2.0","id":"init-2","error":{"code":-32600,"message":"Already initialized"}}'
    taken = b'{"jsonrpc":"2.0","id":"init-2","result":{}}'
    assert not initialized_again([PING], [])
    assert not initialized_again([PING, AGAIN], [refused])
    assert initialized_again([AGAIN], [taken])
    assert initialized_again([AGAIN], [])  # no answer: it may still be taking it
    assert initialized_again([AGAIN, AGAIN.replace(b"init-2", b"init-3")], [refused])
    assert initialized_again([b"[" + AGAIN.rstrip() + b"]\n"], [])  # in a batch
    # RPC-BATCH-INITIALIZE: refused in the batch's answer, beside a notification and a ping served.
    batch = b'[{"jsonrpc":"2.0","method":"notifications/x"},' + AGAIN.rstrip() + b',{"jsonrpc":"2.0","id":3,"method":"ping"}]\n'
    assert not initialized_again([batch], [b'[{"jsonrpc":"2.0","id":3,"result":{}},' + refused + b"]"])
    assert initialized_again([batch], [b'[{"jsonrpc":"2.0","id":3,"result":{}},' + taken + b"]"])
    assert initialized_again([b'[{"jsonrpc":"2.0","method":"initialize"}]\n'], [])  # read as a notification
    assert initialized_again([b'{"method":"initialize",\n'], [])  # unreadable to us
    assert not initialized_again([encode(request(4, "tools/call", {"name": "echo", "text": "initialize"}))], [])
    assert initialized_again([AGAIN.replace(b'"initialize"', b'"\\u0069nitialize"')], [])  # the same method to JSON
    assert not initialized_again([b'{"jsonrpc":"2.0","id":5,"method":"\\u0070ing"}\n', b'{"text":"\\u00e9",\n'], [])


def test_a_kept_process_goes_on_after_a_second_initialize_it_refused() -> None:
    """LIFE-SECOND-INIT: the refusal leaves the state as it was, so the process is still fit to keep."""
    assert _processes_for(REFERENCE, (PING, AGAIN, PING, PING)) == 1


def test_a_fresh_run_waits_for_answers_that_a_working_target_still_owes() -> None:
    """The probe's answer may overtake a slow one; the driver reads on while the target works."""
    call = encode(request(2, "tools/call", {"name": "echo", "arguments": {"text": "late"}}))
    late = [sys.executable, str(Path(__file__).parents[1] / "hostile" / "answers_after_the_probe.py")]
    case = Case((INIT, READY, call))
    run = run_case(late, case.chunks, Timing())
    assert any(b'"late"' in line for line in run.observation.output)
    assert not [f for f in judge(case.stream, run.observation) if f.status(Profile.SPEC) is Status.FAIL]


def test_a_kept_run_reads_on_for_answers_a_working_target_still_owes_before_it_asks_a_fresh_run() -> None:
    """The kept run ends at the probe's answer; the late answer is read there, not left to a
    fresh run, which would count the kept run as a disagreement (a false sign of kept state)."""
    call = encode(request(2, "tools/call", {"name": "echo", "arguments": {"text": "late"}}))
    late = [sys.executable, str(Path(__file__).parents[1] / "hostile" / "answers_after_the_probe.py")]
    assert _processes_for(late, (call, PING)) == 1


def test_a_target_that_ends_with_bytes_unread_is_not_waited_for() -> None:
    """Its unread bytes stay in the pipe; waiting for them to be read would cost a whole timeout."""
    reads_a_little = [sys.executable, "-c", "import os\nos.read(0, 10)\nos._exit(3)"]
    run = run_case(reads_a_little, [PING * 10, PING], Timing())
    assert "the target did not read its stdin in time" not in run.notes
    assert run.exit_status == 3 and not run.observation.survived



# check: the corpus's scenarios that open with a plain handshake run in kept processes too.


def _statuses(command: list[str]) -> dict[str, object]:
    """The verdicts of ``check``: not its measurements (STDIO-LATENCY), which are the machine's as
    much as the server's, and differ between two runs on a loaded one."""
    return {
        str(row["id"]): row["status"]
        for row in check_rows(command, Profile.STRICT, Timing())
        if BY_ID[str(row["id"])].level is not Level.MEASUREMENT
    }


def _counted(starts: Path, *argv: str) -> list[str]:
    """A command that runs ``python argv`` and leaves a dot in ``starts`` each time it is started."""
    wrapper = "import os, sys; open(sys.argv[1], 'a').write('.'); os.execv(sys.executable, [sys.executable, *sys.argv[2:]])"
    return [sys.executable, "-c", wrapper, str(starts), *argv]


def _most_starts(confirmations: int = 0) -> int:
    """The processes check may start on the legacy corpus: one a fresh scenario, at most KEPT kept
    processes a handshake, a fresh run for a scenario that initializes its kept process again,
    and ``confirmations`` fresh runs of kept ones."""
    scenarios = BY_ERA[Era.LEGACY]
    kept = [s for s in scenarios if not s.eof and _body(s.case) is not None]
    heads = {s.case.lines[:2] for s in kept}
    again = [s for s in kept if b'"initialize"' in b"".join(s.case.lines[2:])]
    return len(scenarios) - len(kept) + check_runs.KEPT * len(heads) + len(again) + confirmations


def test_check_runs_most_scenarios_in_kept_processes_and_gives_the_verdicts_of_fresh_ones(tmp_path: Path) -> None:
    starts = tmp_path / "starts"
    assert _statuses(_counted(starts, "-m", "mcpref.reference")) == _statuses(REFERENCE)
    assert len(starts.read_text()) <= _most_starts() < len(BY_ERA[Era.LEGACY]), len(starts.read_text())


def test_a_kept_process_a_second_initialize_ends_has_no_scenario_left_to_start_another_for(tmp_path: Path) -> None:
    """LIFE-SECOND-INIT taken in a kept process ends it: the scenarios that write an initialize run
    after every other one, so that no kept process is started again for those still to run."""
    starts = tmp_path / "starts"
    buggy = Path(__file__).parents[2] / "examples" / "buggy" / "second_initialize.py"
    statuses = _statuses(_counted(starts, str(buggy)))
    assert statuses["LIFE-SECOND-INIT"] == Status.FAIL.value
    assert len(starts.read_text()) <= _most_starts(), len(starts.read_text())


@pytest.mark.parametrize(
    "target",
    [
        pytest.param(["tests", "hostile", "wears_out.py"], id="wears_out"),  # breaks after 40 lines of one process
        # one line a read
        pytest.param(["examples", "buggy", "first_message_only.py"], id="first_message_only", marks=pytest.mark.slow),
        # Findings in kept processes, confirmed fresh or shown by fresh runs already, in several rules (make test
        # holds the last two).
        pytest.param(
            ["examples", "buggy", "silent_on_invalid_request.py"], id="silent_on_invalid_request", marks=pytest.mark.slow
        ),
        pytest.param(["examples", "buggy", "second_initialize.py"], id="second_initialize"),
        pytest.param(["examples", "buggy", "splits_on_cr.py"], id="splits_on_cr"),
    ],
)
def test_check_never_clears_or_reports_what_a_fresh_process_would_not(
    monkeypatch: pytest.MonkeyPatch, target: list[str]
) -> None:
    command = [sys.executable, str(Path(__file__).parents[2].joinpath(*target))]
    kept = _statuses(command)
    monkeypatch.setattr(check_runs, "_body", lambda case: None)  # every scenario in a fresh process
    assert kept == _statuses(command)


def test_a_kept_process_is_sent_the_very_chunks_of_a_fresh_run() -> None:
    ready = _ready("2025-06-18")
    handshake = b"".join(ready)
    assert _body(Case((*ready, PING), (len(handshake),))) == (PING,)
    assert _body(Case((*ready, PING, PING), (len(handshake), len(handshake) + 3))) == (PING[:3], PING[3:] + PING)
    assert _body(Case((*ready, PING))) is None  # the handshake shares the body's write
    assert _body(Case((*ready, PING), (5, len(handshake)))) is None  # the handshake itself is cut
    assert _body(Case((INIT, READY, PING), (HEAD,))) is None  # not one of the corpus's handshakes
    # The corpus writes a handshake it opens with as a chunk of its own, so that most scenarios can be kept.
    assert scenario("x", (), *ready, PING).case.chunks == (handshake, PING)


def _finding(rule: str, mandatory: bool = True) -> Finding:
    return Finding(rule, mandatory, None, "seen", "expected", "actual")


def _outcome(*findings: Finding, kept: bool = True) -> check_runs._Result:
    run = Run(Observation((), survived=True), None, b"", ())
    return check_runs._Result(run, list(findings), kept)


def test_a_kept_run_is_confirmed_fresh_only_where_it_adds_to_what_fresh_runs_show() -> None:
    fail, warn = _finding("RPC-PARSE-ERROR"), _finding("FRAME-BOM", mandatory=False)
    outcomes = [
        _outcome(fail, kept=False),  # a fresh run shows RPC-PARSE-ERROR failing, in a case of 100 bytes
        _outcome(fail),  # nothing to add, in a larger case: not run again
        _outcome(warn),  # FRAME-BOM is shown by no fresh run
        _outcome(warn),  # the same, in a smaller case: chosen instead
        _outcome(),  # cleared
        _outcome(_finding("FRAME-BOM")),  # failing where only a warning is expected so far
        _outcome(fail),  # a smaller case than the fresh run's
    ]
    sizes = [100, 300, 50, 40, 10, 60, 90]
    assert check_runs._to_confirm(outcomes, sizes, Profile.SPEC) == [3, 6]
    # The run chosen did not bear its finding out: the next smallest with that rule, in a new round.
    outcomes[3], outcomes[6] = _outcome(kept=False), _outcome(fail, kept=False)
    assert check_runs._to_confirm(outcomes, sizes, Profile.SPEC) == [2]
    outcomes[2] = _outcome(warn, kept=False)
    # Under spec, a SHOULD fails nowhere else: only the run that shows it failing adds to it.
    assert check_runs._to_confirm(outcomes, sizes, Profile.SPEC) == [5]
    assert check_runs._to_confirm(outcomes, sizes, Profile.STRICT) == []


def test_a_finding_in_a_kept_process_does_not_end_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A server that fails RPC-INVALID-REQUEST in several kept scenarios: each is judged fresh only
    where its rules are not shown yet, and the kept processes go on."""
    # Not counted: the re-runs that put a fresh run's failures down to the cutting or not, which
    # are no kept processes (FRAME-CHUNK-INVARIANT).
    monkeypatch.setattr(check_runs, "relabel_cutting", lambda findings, *context: findings)
    starts = tmp_path / "starts"
    buggy = Path(__file__).parents[2] / "examples" / "buggy" / "silent_on_invalid_request.py"
    statuses = _statuses(_counted(starts, str(buggy)))
    assert statuses["RPC-INVALID-REQUEST"] == Status.FAIL.value
    kept = [s for s in BY_ERA[Era.LEGACY] if not s.eof and _body(s.case) is not None]
    failing_in_kept = [s for s in kept if "RPC-INVALID-REQUEST" in s.rules or "RPC-PARAMS-OBJECT" in s.rules]
    # One fresh run for each of the two rules at most.
    assert len(failing_in_kept) >= 2 and len(starts.read_text()) <= _most_starts(2), len(starts.read_text())
