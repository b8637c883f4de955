"""Naming the cause: FRAME-LF-ONLY for a failure that disappears once false line ends are made harmless;
a request's own rule, not MOD-STATELESS, for one served alone in a fresh process too."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from mcpref.fuzz.campaign.attribution import (
    chunking_finding,
    defanged,
    relabel_carried_state,
    relabel_cutting,
    relabel_false_line_ends,
    relabel_invalid_utf8,
    utf8_repaired,
)
from mcpref.fuzz.campaign.outcome import (
    ATTRIBUTION_LIMIT,
    ATTRIBUTION_SECONDS,
    START_SECONDS,
    Failure,
    attribution_seconds,
    settled,
)
from mcpref.fuzz.drive.observation import Observation
from mcpref.fuzz.drive.target import Run
from mcpref.fuzz.drive.timing import Timing
from mcpref.fuzz.generate.case import Case
from mcpref.fuzz.judge.oracle import Finding, Profile

ROOT = Path(__file__).resolve().parents[2]
LOST = Finding("RPC-ONE-ANSWER", True, 0, "no answer", "an answer with id 1", "nothing")
PONG = b'{"jsonrpc":"2.0","id":1,"result":{}}'


@pytest.mark.spec("FRAME-LF-ONLY")
def test_defanging_keeps_the_meaning_and_removes_only_false_line_ends() -> None:
    case = Case(('{"jsonrpc":"2.0",\r"id":1,"method":"ping","params":{"x":"a\u2028b"}}\r\n'.encode(),), (5,))
    assert defanged(case) == Case((b'{"jsonrpc":"2.0", "id":1,"method":"ping","params":{"x":"a\\u2028b"}} \n',))


@pytest.mark.spec("FRAME-LF-ONLY", "RPC-ONE-ANSWER")
def test_a_lost_answer_is_relabelled_only_when_the_defanged_case_passes_with_other_output() -> None:
    case = Case((b'{"jsonrpc":"2.0","id":1,"method":"ping","params":{"x":"a\xe2\x80\xa8b"}}\n',))
    relabelled = relabel_false_line_ends([LOST], case, (), lambda _: ([], (PONG,)), Profile.SPEC)
    assert [(f.rule, f.mandatory) for f in relabelled] == [("FRAME-LF-ONLY", True)]
    kept = relabel_false_line_ends([LOST], case, (), lambda _: ([LOST], (PONG,)), Profile.SPEC)
    assert kept == [LOST]
    plain = Case((b'{"jsonrpc":"2.0","id":1,"method":"ping"}\n',))
    assert relabel_false_line_ends([LOST], plain, (), lambda _: ([], (PONG,)), Profile.SPEC) == [LOST]


@pytest.mark.spec("FRAME-UTF8", "RPC-ONE-ANSWER")
def test_a_line_dropped_with_or_without_its_bytes_that_are_not_utf8_is_filed_under_what_else_it_breaks() -> None:
    # Seen on the TypeScript SDK: a tools/call whose id needs more than 64 bits is dropped, whatever
    # its text holds; with a byte 0xFF in the text too, the silence was FRAME-UTF8's.
    line = b'{"jsonrpc":"2.0","id":1000000000000000000000000000000,"method":"ping","params":{"x":"\xff"}}\n'
    case = Case((line,))
    assert utf8_repaired(Case((line,), (3,))) == Case((line.replace(b"\xff", b"?"),), (3,))
    silent = Finding("FRAME-UTF8", True, 0, "no answer", "error -32700 with id null", "nothing")
    dropped = Finding("RPC-ONE-ANSWER", True, 0, "no answer", "an answer", "nothing")
    relabelled = relabel_invalid_utf8([silent], case, lambda _: ([dropped], ()), Profile.SPEC)
    assert [(f.rule, f.message) for f in relabelled] == [
        ("RPC-ONE-ANSWER", "no answer, with or without the bytes that are not UTF-8")
    ]
    # Answered once it is UTF-8: the bad bytes are the cause.
    assert relabel_invalid_utf8([silent], case, lambda _: ([], (PONG,)), Profile.SPEC) == [silent]
    # A warning elsewhere in the line is no cause of the silence.
    warned = Finding("RPC-JSON-LIMITS", False, 0, "refused", "an answer", "-32600")
    assert relabel_invalid_utf8([silent], case, lambda _: ([warned], ()), Profile.SPEC) == [silent]


def _not_run(_: Case) -> tuple[list[Finding], tuple[bytes, ...]]:
    raise AssertionError("nothing to run again")


@pytest.mark.spec("FRAME-UTF8")
def test_only_a_silence_on_a_line_that_is_not_utf8_is_run_again() -> None:
    bad = Case((b'{"jsonrpc":"2.0","id":1,"method":"ping","params":{"x":"\xff"}}\n',))
    served = Finding("FRAME-UTF8", False, 0, "served a line that is not UTF-8", "-32700 with id null", "an answer")
    assert relabel_invalid_utf8([served, LOST], bad, _not_run, Profile.SPEC) == [served, LOST]
    silent = Finding("FRAME-UTF8", True, 0, "no answer", "error -32700 with id null", "nothing")
    plain = Case((b'{"jsonrpc":"2.0","id":1,"method":"ping"}\n',))
    assert relabel_invalid_utf8([silent], plain, _not_run, Profile.SPEC) == [silent]


@pytest.mark.spec("FRAME-LF-ONLY")
def test_pieces_of_a_line_with_a_cr_and_another_separator_warn_where_the_crs_alone_cut_it() -> None:
    # Seen in a seeded campaign against a server that reads a bare CR as a line end: its id held a
    # raw U+2028, which the server reads whole, and the oracle alone could not tell which cut it.
    line = '{"jsonrpc":"2.0",\r"id":"\u20280","method":"ping"}\n'.encode()
    split = Finding("FRAME-LF-ONLY", True, 0, "no answer; the line drew -32700s", "an answer", "[...]")
    pieces = (b'{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"x"}}',) * 2

    def execute(cut_by_u2028: bool) -> Callable[[Case], tuple[list[Finding], tuple[bytes, ...]]]:
        def run(variant: Case) -> tuple[list[Finding], tuple[bytes, ...]]:
            cut = b"\r" in variant.lines[0] or (cut_by_u2028 and "\u2028".encode() in variant.lines[0])
            return ([split], pieces) if cut else ([], (PONG,))

        return run

    relabelled = relabel_false_line_ends([split], Case((line,)), pieces, execute(False), Profile.SPEC)
    assert [(f.rule, f.mandatory, f.message) for f in relabelled] == [
        ("FRAME-LF-ONLY", False, "no answer; the line drew -32700s (its CRs alone cut it)")
    ]
    kept = relabel_false_line_ends([split], Case((line,)), pieces, execute(True), Profile.SPEC)
    assert [(f.rule, f.mandatory) for f in kept] == [("FRAME-LF-ONLY", True)]


@pytest.mark.spec("FRAME-LF-ONLY")
def test_the_same_output_with_and_without_the_false_line_ends_is_no_split() -> None:
    case = Case(('{"jsonrpc":"2.0","id":1,"method":"ping","params":{"x":"a\u2028b"}}\n'.encode(),))
    assert relabel_false_line_ends([LOST], case, (PONG,), lambda _: ([], (PONG,)), Profile.SPEC) == [LOST]


@pytest.mark.spec("FRAME-LF-ONLY")
def test_a_bare_cr_read_as_a_line_end_is_relabelled_as_a_warning() -> None:
    case = Case((b'{"jsonrpc":"2.0",\r"id":1,"method":"ping"}\n',))
    relabelled = relabel_false_line_ends([LOST], case, (), lambda _: ([], (PONG,)), Profile.SPEC)
    assert [(f.rule, f.mandatory) for f in relabelled] == [("FRAME-LF-ONLY", False)]


@pytest.mark.spec("FRAME-LF-ONLY")
def test_a_split_at_a_cr_beside_a_u2028_the_server_does_not_split_on_is_still_a_warning() -> None:
    case = Case(('{"jsonrpc":"2.0",\r"id":1,"method":"echo","params":{"x":"a\u2028b"}}\n'.encode(),))
    ran: list[Case] = []

    def execute(lost_with_crs: bool) -> Callable[[Case], tuple[list[Finding], tuple[bytes, ...]]]:
        def run(again: Case) -> tuple[list[Finding], tuple[bytes, ...]]:
            ran.append(again)
            crs_left = b"\r" in again.lines[0].removesuffix(b"\n")
            return ([LOST] if crs_left or (lost_with_crs and b"\xe2\x80\xa8" in again.lines[0]) else [], (PONG,))

        return run

    # The answer comes back once the CRs alone are harmless: the CR was the cause, an open reading.
    relabelled = relabel_false_line_ends([LOST], case, (), execute(False), Profile.SPEC)
    assert [(f.rule, f.mandatory) for f in relabelled] == [("FRAME-LF-ONLY", False)]
    assert ran[-1] == defanged(case, crs_only=True) and b"\xe2\x80\xa8" in ran[-1].lines[0]
    # It is still lost: the U+2028 split the line, which no reading of "newline" allows.
    relabelled = relabel_false_line_ends([LOST], case, (), execute(True), Profile.SPEC)
    assert [(f.rule, f.mandatory) for f in relabelled] == [("FRAME-LF-ONLY", True)]


DISCOVER_BARE = b'{"jsonrpc":"2.0","id":1,"method":"server/discover","params":{"_meta":{}}}\n'
STATELESS = Finding("MOD-STATELESS", True, 1, "served a request whose _meta is missing", "-32602", "{}")
SERVED = b'{"jsonrpc":"2.0","id":1,"result":{"resultType":"complete"}}'


@pytest.mark.spec("MOD-STATELESS", "MOD-META-REQUIRED")
def test_state_carried_over_only_when_the_request_alone_is_not_served() -> None:
    case = Case((b"{}\n", DISCOVER_BARE))
    alone: list[Case] = []

    def served_alone(lone: Case) -> tuple[list[Finding], tuple[bytes, ...]]:
        alone.append(lone)
        return [], (SERVED,)

    relabelled = relabel_carried_state([STATELESS], case, served_alone, Profile.SPEC)
    assert alone == [Case((DISCOVER_BARE,))]
    assert [(f.rule, f.line) for f in relabelled] == [("MOD-META-REQUIRED", 1)]
    assert "alone in a fresh process too" in relabelled[0].message
    refused = b'{"jsonrpc":"2.0","id":1,"error":{"code":-32602,"message":"no _meta"}}'
    assert relabel_carried_state([STATELESS], case, lambda _: ([], (refused,)), Profile.SPEC) == [STATELESS]


@pytest.mark.spec("MOD-STATELESS", "MOD-META-REQUIRED")
def test_check_names_the_missing_envelope_not_carried_state() -> None:
    for name, failing, never in (
        ("meta_optional", "MOD-META-REQUIRED", "MOD-STATELESS"),
        ("remembers_envelope", "MOD-STATELESS", None),
    ):
        argv = [sys.executable, str(ROOT / "examples" / "buggy" / f"{name}.py")]
        done = subprocess.run(
            [sys.executable, "-m", "mcpref", "check", "--json", "--protocol-version", "2026-07-28", "--", *argv],
            cwd=ROOT, capture_output=True, text=True, timeout=300, check=False,
        )  # fmt: skip
        statuses = {row["id"]: row["status"] for row in json.loads(done.stdout)["rules"]}
        assert statuses[failing] == "fail", (name, statuses)
        assert never is None or statuses[never] != "fail", (name, statuses)


@pytest.mark.spec("FRAME-CHUNK-INVARIANT", "STDIO-EOF-DRAIN")
def test_a_case_that_closes_stdin_is_recut_without_a_pause_before_the_end() -> None:
    # One line a write pauses after each, the last too: stdin would close only once work in flight
    # could end, so a drop at EOF would pass for a matter of cutting.
    lines = (b'{"jsonrpc":"2.0","id":1,"method":"ping"}\n', b'{"jsonrpc":"2.0","id":2,"method":"ping"}\n')
    dropped = Finding("STDIO-EOF-DRAIN", False, 1, "no answer before the exit that followed EOF", "an answer", "nothing")
    tried: list[tuple[Case, float]] = []

    def execute(case: Case, timing: Timing) -> frozenset[str]:
        tried.append((case, timing.pause))
        return frozenset({dropped.rule} if case.cuts == (3,) or case.cuts == () else ())

    for eof in (True, False):
        tried.clear()
        case = Case(lines, (3,), eof=eof)
        found = chunking_finding(dropped, case, execute, Timing())
        # The paced recut cleared it: the case as first cut runs again, and shows it again.
        assert [recut.cuts for recut, _ in tried] == ([()] if eof else [(), (len(lines[0]),), (3,)])
        assert all(recut.eof is eof for recut, _ in tried)
        assert (found is None) is eof


@pytest.mark.spec("FRAME-CHUNK-INVARIANT", "RPC-ONE-ANSWER", "RPC-CANCEL")
def test_a_case_with_a_cancellation_is_recut_without_a_pause_before_it() -> None:
    # Seen on the Python SDK's server: it read the id "\u20282" as 2, so a cancellation of 2 lost the
    # call's answer; one line a write, the call was done before the cancellation came, and the
    # server's own id confusion was filed as a matter of cutting.
    call = '{"jsonrpc":"2.0","id":"\u20282","method":"tools/call","params":{"name":"x"}}\n'.encode()
    cancel = b'{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":2}}\n'
    lost = Finding("RPC-ONE-ANSWER", True, 0, "no answer", "one answer", "nothing")
    tried: list[tuple[tuple[int, ...], float]] = []

    def execute(case: Case, timing: Timing) -> frozenset[str]:
        tried.append((case.cuts, timing.pause))
        return frozenset() if timing.pause > Timing().pause else frozenset({lost.rule})

    assert chunking_finding(lost, Case((call, cancel), (5,)), execute, Timing()) is None
    assert tried == [((), Timing().pause)]
    # Without the cancellation, the paced recut runs, and a finding it clears is the cutting's.
    found = chunking_finding(lost, Case((call, call), (5,)), execute, Timing())
    assert found is not None and found.rule == "FRAME-CHUNK-INVARIANT"


@pytest.mark.spec("FRAME-CHUNK-INVARIANT", "RPC-ID-ECHO", "STDIO-SURVIVE")
def test_a_recut_that_lost_the_server_does_not_blame_the_cut() -> None:
    # Seen (field T45): a Go server answered id 10^30 with a saturated id, then died on a long line
    # of the same case; written in one piece it died before that answer was out, and the saturated
    # id was filed as a chunking failure. A recut that lost the server shows nothing of the finding.
    lines = (b'{"jsonrpc":"2.0","id":1000000000000000000000000000000,"method":"x"}\n', b"x" * 64 + b"\n")
    echoed = Finding("RPC-ID-ECHO", True, 0, "answered with id -9223372036854775808 for id 10^30", "10^30", "-2^63")
    died = Finding("STDIO-SURVIVE", True, None, "the server died or stopped answering", "a live server", "exited")

    def execute(case: Case, timing: Timing) -> frozenset[str]:
        return frozenset({echoed.rule, died.rule} if case.cuts == (3,) else {died.rule})

    assert chunking_finding(echoed, Case(lines, (3,)), execute, Timing()) is None

    def as_first_cut(finding: Finding) -> Callable[[Case, Timing], frozenset[str]]:
        return lambda case, timing: frozenset({finding.rule} if case.cuts == (3,) else ())

    # Where the recut server lives on, the finding's absence there is the cut's doing.
    found = chunking_finding(echoed, Case(lines, (3,)), as_first_cut(echoed), Timing())
    assert found is not None and found.rule == "FRAME-CHUNK-INVARIANT"
    # A death that the cut alone caused is still the cut's.
    cut_death = chunking_finding(died, Case(lines, (3,)), as_first_cut(died), Timing())
    assert cut_death is not None and cut_death.rule == "FRAME-CHUNK-INVARIANT"


@pytest.mark.spec("FRAME-CHUNK-INVARIANT", "RPC-ONE-ANSWER", "RPC-ID-ECHO")
def test_a_finding_that_does_not_come_back_as_first_cut_is_no_matter_of_cutting() -> None:
    # Seen on the Go SDK's server: two ids past 2^63 answered with one saturated id, and once an
    # answer lost; neither recut lost it, nor did the case as first cut, run again: the server's
    # answers vary from run to run, and the lost answer is no chunking failure.
    lines = (b'{"jsonrpc":"2.0","id":1000000000000000000000000000001,"method":"ping"}\n', b'{"jsonrpc":"2.0","id":2,"method":"ping"}\n')
    lost = Finding("RPC-ONE-ANSWER", True, 0, "no answer", "one answer", "nothing")
    tried: list[tuple[int, ...]] = []

    def execute(case: Case, timing: Timing) -> frozenset[str]:
        tried.append(case.cuts)
        return frozenset({"RPC-ID-ECHO"})

    assert chunking_finding(lost, Case(lines, (3,)), execute, Timing()) is None
    assert tried == [(), (3,)]


@pytest.mark.spec("FRAME-LF-ONLY", "FRAME-CHUNK-INVARIANT")
def test_a_slow_target_that_answered_gets_the_time_its_re_runs_need_to_attribute_a_failure() -> None:
    # The C# SDK server takes seconds an answer: 5 s for all re-runs left a lost answer under
    # RPC-ONE-ANSWER, where one re-run with its raw CR made a space showed FRAME-LF-ONLY.
    def failure(seconds: float, survived: bool = True, lines: int = 1) -> Failure:
        run = Run(Observation((), survived=survived), 0, b"", (), (), seconds)
        return Failure("RPC-ONE-ANSWER", Case((b"x\n",) * lines), run, [LOST])

    # Five re-runs, each started anew, and a pause for each line of the run one line a write.
    assert attribution_seconds([]) == ATTRIBUTION_SECONDS
    assert attribution_seconds([failure(7.0)]) == pytest.approx(5 * (7.0 + START_SECONDS) + 0.2)
    assert attribution_seconds([failure(7.0), failure(9.0, survived=False)]) == pytest.approx(45.2)  # a dead target's runs do not count
    assert attribution_seconds([failure(30.0)]) == ATTRIBUTION_LIMIT
    # Seen: a failure found in a kept process in 0.035 s, its case 28 lines long; its attribution,
    # cut at 5.8 s, left as a failure a cut the CRs alone explain, a warning.
    assert attribution_seconds([failure(0.035, lines=28)]) >= 5 * 0.035 + 5.6 + 5 * START_SECONDS


@pytest.mark.spec("FRAME-LF-ONLY")
def test_a_failure_attribution_found_to_be_a_warning_is_one_in_every_campaign_outcome() -> None:
    # One job or several (jobs.run_jobs attributes the merged failures): the same settling.
    run = Run(Observation((), survived=True), 0, b"", (), (), 0.1)
    cut = Finding("FRAME-LF-ONLY", False, 0, "no answer (its CRs alone cut it)", "an answer", "nothing")
    warned, failed = Failure("FRAME-LF-ONLY", Case((b"x\n",)), run, [cut]), Failure("RPC-ONE-ANSWER", Case((b"y\n",)), run, [LOST])
    warnings: dict[str, Failure] = {}
    assert settled([warned, failed], warnings, Profile.SPEC) == [failed]
    assert warnings == {"FRAME-LF-ONLY": warned}
    earlier = Failure("FRAME-LF-ONLY", Case((b"z\n",)), run, [cut])
    warnings = {"FRAME-LF-ONLY": earlier}
    assert settled([warned], warnings, Profile.STRICT) == [warned]  # a failure under strict
    assert settled([warned], warnings, Profile.SPEC) == [] and warnings == {"FRAME-LF-ONLY": earlier}


class _Reads(list[Finding]):
    """A re-run's findings that count how often they are read through."""

    reads = 0

    def __iter__(self) -> Iterator[Finding]:
        self.reads += 1
        return super().__iter__()


@pytest.mark.spec("FRAME-CHUNK-INVARIANT", "STDIO-STDOUT-MESSAGES-ONLY")
def test_each_re_run_of_a_flood_is_read_once_however_many_findings_are_weighed_against_it() -> None:
    # A flood breaks a rule once a line: weighing each of its findings against every re-run's
    # failing rules, read anew each time, took minutes against random bytes.
    flood = [Finding("STDIO-STDOUT-MESSAGES-ONLY", True, n, "not a message", "a message", "text") for n in range(200)]
    reruns: list[_Reads] = []

    def execute(case: Case, timing: Timing) -> list[Finding]:
        reruns.append(_Reads(flood))
        return reruns[-1]

    case = Case((b"x\n", b"y\n"), (1,))
    assert relabel_cutting(flood, case, execute, Timing(), Profile.SPEC) is flood
    assert [rerun.reads for rerun in reruns] == [1, 1]
