"""The oracle against the reference: every transcript of the reference passes, in both profiles.

The reference runs in-process here (its sans-I/O session), so Hypothesis can try many
sessions quickly; ``test_campaign.py`` does the same through a real ``mcpref serve``.
Crafted observations then show each kind of divergence reported under its rule.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings

from mcpref.fuzz.drive.client_side import SENTINEL_IDS
from mcpref.fuzz.drive.observation import Observation
from mcpref.fuzz.drive.target import probe
from mcpref.fuzz.generate.case import Case
from mcpref.fuzz.generate.messages import encode, initialize, request
from mcpref.fuzz.generate.strategies import cases
from mcpref.fuzz.judge.lifecycle import negotiated_versions
from mcpref.fuzz.judge.oracle import Finding, Profile, Status, judge, split_lines, witnessed
from mcpref.fuzz.judge.session import same_id_changed
from mcpref.reference.dispatcher import ServerSession
from mcpref.reference.session_types import Eras, Send, StartTimer
from mcpref.reference.versions import Era


def reference_observation(case: Case, eras: Eras = Eras.BOTH, era: Era = Era.LEGACY) -> Observation:
    """What ``mcpref serve --eras`` writes for ``case`` followed by the era's liveness probe, without a process."""
    session = ServerSession(eras=eras)
    output: list[bytes] = []
    timers: list[StartTimer] = []

    def perform(effects: list[object]) -> None:
        for effect in effects:
            if isinstance(effect, Send):
                output.extend(split_lines(effect.data))
            elif isinstance(effect, StartTimer):
                timers.append(effect)

    for chunk in case.chunks:
        perform(list(session.receive_data(chunk)))
    if case.eof:  # as ``mcpref serve`` ends: the last line read, the work in flight finished
        perform(list(session.receive_eof()))
    for timer in sorted(timers, key=lambda t: t.seconds):
        if timer.token in session._pending:
            perform(list(session.complete(timer.token)))
    if case.eof:
        return Observation(tuple(output), b"", True, (), eof=True)
    perform(list(session.receive_data(probe(SENTINEL_IDS[0], era))))
    return Observation(tuple(output), b"", True, SENTINEL_IDS)


def failing(findings: list[Finding], profile: Profile) -> list[Finding]:
    return [f for f in findings if f.status(profile) is Status.FAIL]


@pytest.mark.spec("RPC-ONE-ANSWER", "RPC-ID-ECHO", "RPC-PARSE-ERROR", "LIFE-PRE-INIT-REFUSED", "RPC-BATCH")
@settings(max_examples=300, deadline=None)
@given(case=cases())
def test_every_reference_transcript_passes_both_profiles(case: Case) -> None:
    findings = judge(case.stream, reference_observation(case))
    assert findings == []


def _judge(lines: list[bytes], output: list[bytes], survived: bool = True) -> list[Finding]:
    return judge(b"".join(lines), Observation(tuple(output), b"", survived, SENTINEL_IDS))


HANDSHAKE = [encode(initialize(0, "2025-11-25")), encode({"jsonrpc": "2.0", "method": "notifications/initialized"})]
INIT_RESULT = encode(
    {
        "jsonrpc": "2.0",
        "id": 0,
        "result": {
            "protocolVersion": "2025-11-25",
            "capabilities": {"tools": {}},
            "serverInfo": {"name": "t", "version": "1"},
        },
    }
).rstrip(b"\n")


def rules(findings: list[Finding], profile: Profile = Profile.SPEC) -> set[str]:
    return {f.rule for f in failing(findings, profile)}


@pytest.mark.spec("RPC-PARSE-ERROR")
def test_silence_on_a_line_that_is_not_json_fails() -> None:
    assert rules(_judge([*HANDSHAKE, b"pas du json\n"], [INIT_RESULT])) == {"RPC-PARSE-ERROR"}


@pytest.mark.spec("RPC-ID-ECHO")
def test_an_id_whose_type_changed_fails() -> None:
    answer = b'{"jsonrpc":"2.0","id":7,"result":{}}'
    assert rules(_judge([*HANDSHAKE, encode(request("7", "ping"))], [INIT_RESULT, answer])) == {"RPC-ID-ECHO"}


@pytest.mark.spec("RPC-NOTIFICATION-SILENT")
def test_an_answer_to_a_notification_fails() -> None:
    answer = b'{"jsonrpc":"2.0","id":null,"error":{"code":-32601,"message":"x"}}'
    lines = [*HANDSHAKE, encode({"jsonrpc": "2.0", "method": "notifications/x"})]
    assert rules(_judge(lines, [INIT_RESULT, answer])) == {"RPC-NOTIFICATION-SILENT"}


@pytest.mark.spec("STDIO-STDOUT-MESSAGES-ONLY", "FRAME-OUTPUT-ASCII")
def test_a_log_line_on_stdout_fails_and_raw_unicode_warns() -> None:
    findings = _judge(HANDSHAKE, [INIT_RESULT, "journal : prêt".encode()])
    assert rules(findings) == {"STDIO-STDOUT-MESSAGES-ONLY"}
    assert "FRAME-OUTPUT-ASCII" in rules(findings, Profile.STRICT) - rules(findings)


@pytest.mark.spec("STDIO-SURVIVE")
def test_a_dead_server_fails() -> None:
    assert rules(_judge([*HANDSHAKE, encode(request(1, "ping"))], [INIT_RESULT], survived=False)) == {"STDIO-SURVIVE"}


@pytest.mark.spec("RPC-ONE-ANSWER")
def test_two_answers_to_one_request_fail() -> None:
    answer = b'{"jsonrpc":"2.0","id":1,"result":{}}'
    assert rules(_judge([*HANDSHAKE, encode(request(1, "ping"))], [INIT_RESULT, answer, answer])) == {"RPC-ONE-ANSWER"}


@pytest.mark.spec("LIFE-SECOND-INIT")
def test_a_second_initialize_accepted_fails_only_in_strict() -> None:
    again = INIT_RESULT.replace(b'"id":0', b'"id":9')
    findings = _judge([*HANDSHAKE, encode(initialize(9, "2025-11-25"))], [INIT_RESULT, again])
    assert rules(findings) == set()
    assert rules(findings, Profile.STRICT) == {"LIFE-SECOND-INIT"}


@pytest.mark.spec("LIFE-VERSION-KNOWN", "LIFE-VERSION-UNSUPPORTED")
def test_echoing_a_version_that_does_not_exist_fails_and_a_counter_offer_passes_spec() -> None:
    echoed = INIT_RESULT.replace(b'"protocolVersion":"2025-11-25"', b'"protocolVersion":"1999-01-01"')
    lines = [encode(initialize(0, "1999-01-01"))]
    assert rules(_judge(lines, [echoed])) == {"LIFE-VERSION-KNOWN"}
    # The negotiation's own answer ("MUST respond with another protocol version it supports"): in every profile.
    assert _judge(lines, [INIT_RESULT]) == []


@pytest.mark.spec("CAP-ANNOUNCED-METHODS")
def test_an_announced_capability_without_its_methods_fails() -> None:
    lying = INIT_RESULT.replace(b'{"tools":{}}', b'{"tools":{},"resources":{}}')
    answer = b'{"jsonrpc":"2.0","id":1,"error":{"code":-32601,"message":"no"}}'
    lines = [*HANDSHAKE, encode(request(1, "resources/list"))]
    assert rules(_judge(lines, [lying, answer])) == {"CAP-ANNOUNCED-METHODS"}


@pytest.mark.spec("FRAME-LF-ONLY")
def test_a_message_split_at_a_raw_cr_warns_as_lf_only() -> None:
    broken = b'{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"x"}}'
    lines = [*HANDSHAKE, b'{"jsonrpc":"2.0",\r"id":1,"method":"ping"}\n']
    findings = _judge(lines, [INIT_RESULT, broken, broken])
    assert rules(findings) == set() and rules(findings, Profile.STRICT) == {"FRAME-LF-ONLY"}


@pytest.mark.spec("FRAME-MAX-LINE", "RPC-ONE-ANSWER")
def test_a_long_line_may_be_refused_under_a_peer_limit_but_not_ignored() -> None:
    long_call = encode(request(1, "tools/call", {"name": "echo", "arguments": {"text": "x" * 70_000}}))
    refusal = b'{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"line too long"}}'
    refused = _judge([*HANDSHAKE, long_call], [INIT_RESULT, refusal])
    assert rules(refused) == set()
    assert rules(refused, Profile.STRICT) == {"FRAME-MAX-LINE"}
    assert rules(_judge([*HANDSHAKE, long_call], [INIT_RESULT])) == {"RPC-ONE-ANSWER"}


@pytest.mark.spec("FRAME-BLANK-LINE")
def test_an_answer_to_a_blank_line_is_allowed_but_diverges_from_the_reference() -> None:
    answer = b'{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"empty"}}'
    findings = _judge([*HANDSHAKE, b"\n"], [INIT_RESULT, answer])
    assert rules(findings) == set()
    assert rules(findings, Profile.STRICT) == {"FRAME-BLANK-LINE"}


@pytest.mark.spec("CAP-LOGGING-DECLARED")
def test_a_log_message_without_the_logging_capability_fails_from_2025_06_18() -> None:
    log = b'{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"error","data":"x"}}'
    parse_error = b'{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}'
    lines = [*HANDSHAKE, b"pas du json\n"]
    assert rules(_judge(lines, [INIT_RESULT, log, parse_error])) == {"CAP-LOGGING-DECLARED"}
    assert [f.rule for f in _judge(lines, [INIT_RESULT, log, log, parse_error])] == ["CAP-LOGGING-DECLARED"]
    declared = INIT_RESULT.replace(b'{"tools":{}}', b'{"tools":{},"logging":{}}')
    assert rules(_judge(lines, [declared, log, parse_error])) == set()
    # 2025-03-26 and earlier: their logging pages are not cited, and their sessions are not judged.
    older = [encode(initialize(0, "2025-03-26")), HANDSHAKE[1], b"pas du json\n"]
    older_result = INIT_RESULT.replace(b"2025-11-25", b"2025-03-26")
    assert rules(_judge(older, [older_result, log, parse_error])) == set()


@pytest.mark.spec("CAP-ELICIT-COMPLETE", "TASKS-TERMINAL")
def test_the_versions_followed_are_those_named_by_initialize_results_outside_batches() -> None:
    def named(answer_id: object, version: str) -> bytes:
        return encode({"jsonrpc": "2.0", "id": answer_id, "result": {"protocolVersion": version}}).rstrip(b"\n")

    batch = b"[" + encode(initialize(2, "2025-03-26")).rstrip(b"\n") + b"]\n"
    stream = encode(initialize(1, "2025-11-25")) + batch + b"{\n" + encode(initialize(3, "2024-11-05"))
    output = (
        named(1, "2025-06-18"),  # followed
        b"[" + named(2, "2025-03-26") + b"]",  # an initialize in a batch is not accepted
        named("1", "2024-11-05"),  # not an answer to id 1
        named(True, "2024-11-05"),
        encode({"jsonrpc": "2.0", "id": 3, "error": {"code": -32602, "message": "no"}}).rstrip(b"\n"),
        b"not JSON",
    )
    assert negotiated_versions(stream, output) == {"2025-06-18"}


@pytest.mark.spec("RPC-ID-ECHO", "RPC-JSON-LIMITS")
def test_an_id_changed_by_a_reader_is_told_from_another_id() -> None:
    assert same_id_changed("7", 7) and same_id_changed(2**53, 2**53 + 1)
    assert same_id_changed(-(2**63), 10**30)  # saturated at a 64-bit integer's bound
    assert not same_id_changed(6, 5) and not same_id_changed(True, 5) and not same_id_changed(5, "x")


@pytest.mark.spec("CAP-ANNOUNCED-METHODS", "CAP-UNANNOUNCED-METHOD", "LIFE-SECOND-INIT")
def test_the_capability_rules_and_a_second_initialize_are_witnessed_only_where_their_requests_were_answered() -> None:
    # A pass of each claims a method of an announced (or unannounced) capability asked, or an
    # initialize after an accepted one: a session of pings shows none of them.
    judged = {"CAP-ANNOUNCED-METHODS", "CAP-UNANNOUNCED-METHOD", "LIFE-SECOND-INIT"}

    def shown(sent: bytes, answer: bytes) -> set[str]:
        stream = b"".join([*HANDSHAKE, sent])
        return set(witnessed(stream, Observation((INIT_RESULT, answer), b"", True, SENTINEL_IDS))) & judged

    refused = b'{"jsonrpc":"2.0","id":1,"error":{"code":-32601,"message":"no"}}'
    assert shown(encode(request(1, "ping")), b'{"jsonrpc":"2.0","id":1,"result":{}}') == set()
    assert shown(encode(request(1, "tools/list")), b'{"jsonrpc":"2.0","id":1,"result":{"tools":[]}}') == {"CAP-ANNOUNCED-METHODS"}
    assert shown(encode(request(1, "tools/other")), refused) == set()  # no method the rule names
    assert shown(encode(request(1, "prompts/list")), refused) == {"CAP-UNANNOUNCED-METHOD"}
    again = b'{"jsonrpc":"2.0","id":1,"error":{"code":-32600,"message":"again"}}'
    assert shown(encode(initialize(1, "2025-11-25")), again) == {"LIFE-SECOND-INIT"}
