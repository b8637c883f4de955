"""The oracle's chunk invariant: a finding's rule and level never depend on how the session was cut.

A server whose behaviour is a function of the bytes alone (however they came) writes the same
for every cutting of the same lines; the oracle, and the attribution that files each failure
under its cause once the case is run otherwise (``campaign.outcome.attribute``), must then give
the same (rule, status) set, whatever the cuts: in the middle of a multi-byte character, of a
token, next to a raw CR."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from hypothesis import given
from hypothesis import strategies as st

from mcpref.fuzz.campaign.outcome import Failure, attribute
from mcpref.fuzz.drive.observation import Observation
from mcpref.fuzz.drive.process import SENTINEL_IDS
from mcpref.fuzz.drive.target import Run, probe
from mcpref.fuzz.drive.timing import Timing
from mcpref.fuzz.generate.case import Case
from mcpref.fuzz.generate.messages import PLAIN_HANDSHAKES
from mcpref.fuzz.judge.oracle import Finding, Profile, judge, split_lines
from mcpref.reference.dispatcher import ServerSession
from mcpref.reference.session_types import Send

HANDSHAKE = min(PLAIN_HANDSHAKES)
BODY = (
    '{"jsonrpc":"2.0",\r"id":"é-17","method":"ping"}\n'.encode(),
    '{"jsonrpc":"2.0","id":"日本","method":"ping","params":{"x":"a\u2028b"}}\n'.encode(),
    b'{"jsonrpc":"2.0","id":3,"method":"tools/list"}\n',
    b'{"jsonrpc":"2.0","method":"notifications/unknown"}\n',
    b"pas du json\n",
    '{"jsonrpc":"2.0","id":"\u00e9\r","method":"ping"}\n'.encode(),
)


def _reader(separators: tuple[bytes, ...], answers_parse_errors: bool) -> Callable[[bytes], tuple[bytes, ...]]:
    """A server that reads lines cut at LF and at each of ``separators``, from the whole stream (so
    from no particular cutting), and answers as the reference, or drops its -32700s."""

    def serve(stream: bytes) -> tuple[bytes, ...]:
        session = ServerSession()
        for separator in separators:
            stream = stream.replace(separator, b"\n")
        output: list[bytes] = []
        for piece in stream.split(b"\n")[:-1]:
            for effect in session.receive_data(piece + b"\n"):
                if isinstance(effect, Send):
                    lines = split_lines(effect.data)
                    output += [line for line in lines if answers_parse_errors or b"-32700" not in line]
        return tuple(output)

    return serve


READERS = {
    "lf": _reader((), True),
    "cr, silent": _reader((b"\r",), False),
    "cr, -32700": _reader((b"\r",), True),
    "u2028, silent": _reader(("\u2028".encode(),), False),
}


def _verdict(case: Case, serve: Callable[[bytes], tuple[bytes, ...]], profile: Profile) -> set[tuple[str, str]]:
    def execute(variant: Case, timing: Timing | None = None) -> tuple[Run, list[Finding]]:
        observation = Observation(serve(variant.stream + probe(SENTINEL_IDS[0])), b"", True, SENTINEL_IDS)
        return Run(observation, None, b"", ()), judge(variant.stream, observation)

    run, findings = execute(case)
    seen = set()
    for finding in findings:
        failure = attribute(Failure(finding.rule, case, run, findings), execute, Timing(), profile)
        seen.add((failure.rule, failure.finding.status(profile).value))
    return seen


@pytest.mark.spec("FRAME-CHUNK-INVARIANT", "FRAME-LF-ONLY", "RPC-ONE-ANSWER")
# The same draws, judged alike, under either profile: only a finding's level is the profile's. make test
# holds every reader under strict, and one under spec too.
@pytest.mark.parametrize(
    ("profile", "reader"),
    [
        pytest.param(profile, reader, marks=[pytest.mark.slow] if profile is Profile.SPEC and reader != "lf" else [])
        for profile in Profile
        for reader in sorted(READERS)
    ],
)
@given(data=st.data())
def test_the_rule_and_level_of_a_finding_never_depend_on_the_cuts(reader: str, profile: Profile, data: st.DataObject) -> None:
    body = data.draw(st.lists(st.sampled_from(BODY), min_size=1, max_size=3), label="body")
    lines = (HANDSHAKE, *body)
    size = len(b"".join(lines))
    cuts = data.draw(st.lists(st.integers(1, size - 1), unique=True, max_size=6).map(sorted), label="cuts")
    serve = READERS[reader]
    assert _verdict(Case(lines, tuple(cuts)), serve, profile) == _verdict(Case(lines), serve, profile)


@pytest.mark.spec("FRAME-LF-ONLY", "RPC-ONE-ANSWER")
def test_a_line_cut_inside_a_character_and_at_a_cr_is_filed_as_uncut() -> None:
    line = BODY[0]
    cut = len(HANDSHAKE) + line.index("é".encode()) + 1  # between the two bytes of é
    cut_case, whole = Case((HANDSHAKE, line), (len(HANDSHAKE), cut)), Case((HANDSHAKE, line))
    serve = READERS["cr, silent"]
    assert _verdict(cut_case, serve, Profile.SPEC) == _verdict(whole, serve, Profile.SPEC) == {("FRAME-LF-ONLY", "warn")}


@pytest.mark.spec("FRAME-LF-ONLY", "RPC-ONE-ANSWER", "RPC-INVALID-REQUEST")
def test_a_line_cut_at_a_cr_is_filed_as_alone_beside_another_line_s_failure() -> None:
    invalid = b'{"jsonrpc":"2.0","id":5,"method":5}\n'

    def serve(stream: bytes) -> tuple[bytes, ...]:  # CRs end lines, and invalid requests go unanswered
        return tuple(line for line in READERS["cr, silent"](stream) if b'"id":5' not in line.replace(b" ", b""))

    for cuts in ((), (len(HANDSHAKE) + 20,)):
        both = _verdict(Case((HANDSHAKE, BODY[0], invalid), cuts), serve, Profile.SPEC)
        assert both == {("FRAME-LF-ONLY", "warn"), ("RPC-INVALID-REQUEST", "fail")}
