"""The oracle, rule by rule: crafted sessions and crafted server output for each verdict it can give.

Each test feeds ``judge`` the lines a client sent and what a server wrote back, and checks the exact
set of rules that fail under the ``spec`` profile and under the ``strict`` one. A conforming choice
that SPEC_NOTES.md allows passes ``spec`` and shows only in ``strict``; a broken MUST fails both.
The last tests run the same crafted sessions through the in-process reference, which must pass.
"""

from __future__ import annotations

import json

import pytest
from test_oracle import HANDSHAKE, INIT_RESULT, _judge, reference_observation, rules

from mcpref.fuzz.drive.client_side import SENTINEL_ID, SENTINEL_IDS
from mcpref.fuzz.drive.observation import Observation
from mcpref.fuzz.generate.case import Case
from mcpref.fuzz.generate.client_scripts import DIFFERENTIAL
from mcpref.fuzz.generate.messages import JsonDict, encode, initialize, notification, request
from mcpref.fuzz.judge.framing import judge_exit
from mcpref.fuzz.judge.oracle import Finding, Profile, judge, witnessed
from mcpref.fuzz.judge.tools import _checkable
from mcpref.fuzz.judge.where import where_judged
from mcpref.reference.framer import DEFAULT_MAX_LINE_BYTES
from mcpref.reference.messages import JsonObject
from mcpref.reference.rules import EVERY_RULE
from mcpref.reference.tools import TOOLS, listing

NONE: tuple[set[str], set[str]] = (set(), set())


def verdict(findings: list[Finding]) -> tuple[set[str], set[str]]:
    """The failing rules under the spec profile, then under the strict one."""
    return rules(findings), rules(findings, Profile.STRICT)


def fails(*ids: str) -> tuple[set[str], set[str]]:
    """A divergence from a MUST: failing in both profiles."""
    return set(ids), set(ids)


def warns(*ids: str) -> tuple[set[str], set[str]]:
    """A permitted divergence: a warning under spec, a failure under strict."""
    return set(), set(ids)


def result(request_id: object, value: object = None) -> bytes:
    return json.dumps({"jsonrpc": "2.0", "id": request_id, "result": {} if value is None else value}).encode()


def error(request_id: object, code: int, data: object = None) -> bytes:
    body: JsonDict = {"code": code, "message": "refused"}
    if data is not None:
        body["data"] = data
    return json.dumps({"jsonrpc": "2.0", "id": request_id, "error": body}).encode()


def init_result(request_id: object, version: str, capabilities: JsonDict | None = None) -> bytes:
    return result(
        request_id,
        {
            "protocolVersion": version,
            "capabilities": {"tools": {}} if capabilities is None else capabilities,
            "serverInfo": {"name": "t", "version": "1"},
        },
    )


def ready(version: str = "2025-11-25", capabilities: JsonDict | None = None) -> tuple[list[bytes], bytes]:
    """A completed handshake for ``version``, and the server's initialize result."""
    lines = [encode(initialize(0, version)), encode(notification("notifications/initialized"))]
    return lines, init_result(0, version, capabilities)


def call(request_id: object, name: object, arguments: object = None) -> bytes:
    params: JsonDict = {"name": name}
    if arguments is not None:
        params["arguments"] = arguments
    return encode(request(request_id, "tools/call", params))


def listed(version: str, request_id: int = 2) -> bytes:
    with_title = version >= "2025-06-18"  # ISO dates sort as text
    return result(request_id, {"tools": [listing(tool, with_title=with_title) for tool in TOOLS]})


def with_tools(version: str = "2025-11-25") -> tuple[list[bytes], list[bytes]]:
    """A ready session whose server has listed the reference's four tools (request id 2)."""
    lines, init = ready(version)
    return [*lines, encode(request(2, "tools/list"))], [init, listed(version)]


TEXT = {"content": [{"type": "text", "text": "ok"}], "isError": False}
TOOL_ERROR = {"content": [{"type": "text", "text": "bad arguments"}], "isError": True}
PARSE_REFUSAL = error(None, -32700)
INVALID_REFUSAL = error(None, -32600)
PING = encode(request(1, "ping"))
PING_ANSWER = result(1)


# Output: what counts as an answer.


@pytest.mark.spec("STDIO-STDOUT-MESSAGES-ONLY")
@pytest.mark.parametrize("noise", [b"ready", b"5", b'"done"', b"null", b"true", b" ", b"{", b"\t\r"])
def test_a_stdout_line_that_is_not_a_message_object_fails(noise: bytes) -> None:
    assert verdict(_judge(HANDSHAKE, [INIT_RESULT, noise])) == fails("STDIO-STDOUT-MESSAGES-ONLY")


@pytest.mark.spec("STDIO-STDOUT-MESSAGES-ONLY")
def test_an_empty_stdout_line_is_not_reported() -> None:
    assert verdict(_judge(HANDSHAKE, [INIT_RESULT, b""])) == NONE


@pytest.mark.spec("FRAME-OUTPUT-ASCII")
def test_an_answer_with_raw_non_ascii_text_is_accepted_with_a_warning() -> None:
    raw = INIT_RESULT.replace(b'"name":"t"', '"name":"caf\u00e9\u2028"'.encode())
    assert raw != INIT_RESULT
    assert verdict(_judge(HANDSHAKE, [raw])) == warns("FRAME-OUTPUT-ASCII")


@pytest.mark.spec("STDIO-STDOUT-MESSAGES-ONLY", "RPC-ONE-ANSWER")
def test_stdout_ending_inside_a_line_fails_and_the_partial_answer_does_not_count() -> None:
    observation = Observation((INIT_RESULT,), PING_ANSWER, True, SENTINEL_IDS)
    findings = judge(b"".join([*HANDSHAKE, PING]), observation)
    assert verdict(findings) == fails("STDIO-STDOUT-MESSAGES-ONLY", "RPC-ONE-ANSWER")


@pytest.mark.spec("RPC-RESPONSE-SHAPE")
def test_a_batch_answer_holding_something_other_than_objects_fails() -> None:
    assert verdict(_judge(HANDSHAKE, [INIT_RESULT, b'[1,"x",null,[]]'])) == fails("RPC-RESPONSE-SHAPE")


@pytest.mark.spec("RPC-ONE-ANSWER", "RPC-RESPONSE-SHAPE")
def test_requests_and_notifications_from_the_server_are_ignored_not_taken_for_answers() -> None:
    server_request = b'{"jsonrpc":"2.0","id":1,"method":"ping"}'  # one that needs no client capability
    server_notification = b'{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"x"}}'
    lines = [*HANDSHAKE, PING]
    logging = INIT_RESULT.replace(b'{"tools":{}}', b'{"tools":{},"logging":{}}')  # CAP-LOGGING-DECLARED
    output = [logging, server_request, server_notification, b"[" + server_request + b"]", PING_ANSWER]
    assert verdict(_judge(lines, output)) == NONE
    # Undeclared, the log message is the one finding.
    assert verdict(_judge(lines, [INIT_RESULT, *output[1:]])) == fails("CAP-LOGGING-DECLARED")
    assert verdict(_judge(lines, [INIT_RESULT, server_request])) == fails("RPC-ONE-ANSWER")


@pytest.mark.spec("RPC-RESPONSE-SHAPE", "RPC-ONE-ANSWER")
@pytest.mark.parametrize(
    "answer",
    [
        {"id": 1, "result": {}},
        {"jsonrpc": "1.0", "id": 1, "result": {}},
        {"jsonrpc": 2.0, "id": 1, "result": {}},
        {"jsonrpc": "2.0", "id": 1},
        {"jsonrpc": "2.0", "id": 1, "result": {}, "error": {"code": -32603, "message": "x"}},
        {"jsonrpc": "2.0", "id": 1, "result": []},
        {"jsonrpc": "2.0", "id": 1, "result": None},
        {"jsonrpc": "2.0", "id": 1, "error": "boom"},
        {"jsonrpc": "2.0", "id": 1, "error": {"code": "-32603", "message": "x"}},
        {"jsonrpc": "2.0", "id": 1, "error": {"code": True, "message": "x"}},
        {"jsonrpc": "2.0", "id": 1, "error": {"code": -32603.0, "message": "x"}},
        {"jsonrpc": "2.0", "id": 1, "error": {"code": -32603}},
        {"jsonrpc": "2.0", "id": 1, "error": {"code": -32603, "message": 5}},
    ],
)
def test_a_malformed_response_fails_and_does_not_count_as_the_answer(answer: JsonDict) -> None:
    findings = _judge([*HANDSHAKE, PING], [INIT_RESULT, json.dumps(answer).encode()])
    assert verdict(findings) == fails("RPC-RESPONSE-SHAPE", "RPC-ONE-ANSWER")


@pytest.mark.spec("RPC-RESPONSE-SHAPE", "RPC-ONE-ANSWER")
@pytest.mark.parametrize("bad_id", [1.5, True, False, [1], {"id": 1}])
def test_an_answer_whose_id_is_neither_string_integer_nor_null_fails(bad_id: object) -> None:
    findings = _judge([*HANDSHAKE, PING], [INIT_RESULT, result(bad_id)])
    assert verdict(findings) == fails("RPC-RESPONSE-SHAPE", "RPC-ONE-ANSWER")


@pytest.mark.spec("RPC-ERROR-ID-NULL", "RPC-PARSE-ERROR")
def test_a_parse_error_that_omits_the_id_warns_only() -> None:
    refusal = b'{"jsonrpc":"2.0","error":{"code":-32700,"message":"Parse error"}}'
    findings = _judge([*HANDSHAKE, b"pas du json\n"], [INIT_RESULT, refusal])
    assert verdict(findings) == warns("RPC-ERROR-ID-NULL")


@pytest.mark.spec("STDIO-SURVIVE", "RPC-ONE-ANSWER")
def test_answers_to_the_liveness_probes_are_not_judged_but_other_string_ids_are() -> None:
    assert verdict(_judge(HANDSHAKE, [INIT_RESULT, result(SENTINEL_ID), result(SENTINEL_IDS[1])])) == NONE
    only_initialize = [encode(initialize(0, "2025-11-25"))]
    assert verdict(_judge(only_initialize, [INIT_RESULT, result("probe")])) == fails("RPC-ONE-ANSWER")


@pytest.mark.spec("RPC-ONE-ANSWER")
@pytest.mark.parametrize("stray", [result(42), result("42"), error(None, -32700), error(None, -32600)])
def test_an_answer_no_request_asked_for_fails(stray: bytes) -> None:
    only_initialize = [encode(initialize(0, "2025-11-25"))]
    assert verdict(_judge(only_initialize, [INIT_RESULT, stray])) == fails("RPC-ONE-ANSWER")


@pytest.mark.spec("RPC-NOTIFICATION-SILENT")
def test_an_answer_no_request_asked_for_after_a_notification_fails_as_answering_it() -> None:
    lines = [*HANDSHAKE, encode(notification("notifications/progress", {"progressToken": 1, "progress": 1}))]
    assert verdict(_judge(lines, [INIT_RESULT, error(None, -32601)])) == fails("RPC-NOTIFICATION-SILENT")


@pytest.mark.spec("RPC-INVALID-REQUEST", "RPC-NOTIFICATION-SILENT")
@pytest.mark.parametrize("code", [-32700, -32600])
def test_an_id_null_error_for_an_invalid_request_with_a_readable_id_is_its_answer(code: int) -> None:
    # Seen in the field: mcp-go cannot decode {"id":5,"method":5} and answers it with id null. That is
    # the invalid request's wrong answer, not an answer to the notification that follows it.
    invalid = b'{"jsonrpc":"2.0","id":5,"method":5}\n'
    lines = [*HANDSHAKE, invalid, encode(notification("notifications/x"))]
    findings = _judge(lines, [INIT_RESULT, error(None, code)])
    assert verdict(findings) == fails("RPC-INVALID-REQUEST")
    assert [f.message for f in findings] == ["answered with id null, though its id is readable"]
    assert verdict(_judge(lines, [INIT_RESULT, error(5, -32600)])) == NONE
    silent = _judge(lines, [INIT_RESULT])
    assert verdict(silent) == fails("RPC-INVALID-REQUEST")
    assert [f.message for f in silent] == ["no answer"]
    # Any id-null error beyond the one the invalid request may own still answers the notification.
    extra = [INIT_RESULT, error(None, code), error(None, -32601)]
    assert verdict(_judge(lines, extra)) == fails("RPC-INVALID-REQUEST", "RPC-NOTIFICATION-SILENT")


@pytest.mark.spec("RPC-ID-ECHO", "RPC-NOTIFICATION-SILENT", "RPC-ONE-ANSWER")
def test_an_id_null_error_for_a_valid_request_is_its_answer_with_the_id_lost() -> None:
    # A server that turns every error with an id into -32700 with id null (examples/buggy/
    # null_id_for_invalid.py) refuses a second initialize so: its answer, not a notification's.
    again = encode(initialize("again", "2025-11-25"))
    lines = [*HANDSHAKE, again, encode(notification("notifications/x"))]
    findings = _judge(lines, [INIT_RESULT, error(None, -32700)])
    assert verdict(findings) == fails("RPC-ID-ECHO")
    assert [f.message for f in findings] == ["answered with id null, though its id is readable"]
    # With the only id-null error owed to an unreadable line, the request has no answer at all.
    unreadable = [*lines[:-1], b"pas du json\n"]
    assert verdict(_judge(unreadable, [INIT_RESULT, error(None, -32700)])) == fails("RPC-ONE-ANSWER")


@pytest.mark.spec("RPC-BATCH", "RPC-NOTIFICATION-SILENT")
def test_a_batch_a_server_cannot_read_is_rpc_batch_not_an_answer_to_its_notifications() -> None:
    # Seen in the field: mcp-go negotiates 2025-03-26 and answers every batch line with one -32700.
    lines, init = ready("2025-03-26")
    only_notification = [*lines, b'[{"jsonrpc":"2.0","method":"notifications/x"}]\n']
    unread = error(None, -32700)
    assert verdict(_judge(only_notification, [init])) == NONE
    assert verdict(_judge(only_notification, [init, unread])) == warns("RPC-BATCH")
    with_request = [*lines, b'[{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"2.0","method":"notifications/x"}]\n']
    assert verdict(_judge(with_request, [init, unread])) == fails("RPC-BATCH")
    # A second id-null error for the same line is no batch's: it answers the notification.
    assert verdict(_judge(only_notification, [init, unread, unread]))[0] == {"RPC-NOTIFICATION-SILENT"}


@pytest.mark.spec("RPC-JSON-LIMITS", "RPC-ONE-ANSWER", "RPC-PARSE-ERROR")
def test_an_id_rounded_through_a_double_is_the_request_answered_under_another_id() -> None:
    # Seen in the field: mcp-go answers id 2**53 + 1 as 2**53. The id-null -32700 that follows is the
    # answer to the line that is not JSON, not a refusal of the large id.
    lines = [*HANDSHAKE, b'{"jsonrpc":"2.0","id":9007199254740993,"method":"ping"}\n', b"pas du json\n"]
    rounded = result(9007199254740992)
    findings = _judge(lines, [INIT_RESULT, rounded, error(None, -32700)])
    # RFC 8259 section 6: beyond 2^53 a peer may read the nearest double, so it warns only.
    assert verdict(findings) == warns("RPC-JSON-LIMITS")
    assert [(f.expected, f.actual) for f in findings] == [("9007199254740993", "9007199254740992")]
    exact = result(9007199254740993)
    assert verdict(_judge(lines, [INIT_RESULT, exact, error(None, -32700)])) == NONE


@pytest.mark.spec("RPC-ID-ECHO", "RPC-ONE-ANSWER")
def test_an_exact_answer_to_one_request_is_never_taken_for_another_s_rounded_id() -> None:
    # Seen in the field: 2**53 + 16 and 2**53 + 17 round to the same double; the answer to the second,
    # exact, was taken for the first's id changed, and the second's answer counted missing.
    lines = [*HANDSHAKE, encode(request(9007199254741008, "ping")), encode(request(9007199254741009, "ping"))]
    findings = _judge(lines, [INIT_RESULT, result(9007199254741009)])
    assert [(f.rule, f.line) for f in findings] == [("RPC-ONE-ANSWER", 2)]  # the first one's, unanswered


@pytest.mark.spec("MOD-DUAL-ERA", "LIFE-PING", "CAP-ANNOUNCED-METHODS")
@pytest.mark.parametrize("method", ["ping", "tools/list"])
def test_a_server_never_seen_to_speak_the_modern_era_may_refuse_its_requests(method: str) -> None:
    # Seen in the field: the Python SDK keeps one era per connection and refuses a modern ping with
    # -32600 after initialize; no answer of the session shows it speaking the modern era.
    meta = {"io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {}}
    lines, init = ready("2025-11-25")
    session = [*lines, encode(request(1, method, {"_meta": meta}))]
    assert verdict(_judge(session, [init, error(1, -32600)])) == NONE
    plain = [*lines, encode(request(1, method))]
    legacy_rule = {"ping": "LIFE-PING", "tools/list": "CAP-ANNOUNCED-METHODS"}[method]
    assert verdict(_judge(plain, [init, error(1, -32600)])) == fails(legacy_rule)  # refusing a legacy one fails


@pytest.mark.spec("STDIO-SURVIVE")
def test_a_dead_server_is_reported_once_not_for_every_line_left_unanswered() -> None:
    lines = [*HANDSHAKE, b"pas du json\n", b"[]\n", encode(request(1, "tools/list"))]
    assert verdict(_judge(lines, [INIT_RESULT], survived=False)) == fails("STDIO-SURVIVE")


@pytest.mark.spec("STDIO-SURVIVE")
def test_a_dead_server_is_reported_with_what_was_seen_of_it() -> None:
    stream = b"".join(HANDSHAKE)
    observation = Observation((INIT_RESULT,), b"", False, SENTINEL_IDS, ending="exited with status 3")
    (finding,) = judge(stream, observation)
    assert (finding.rule, finding.actual) == ("STDIO-SURVIVE", "exited with status 3")


@pytest.mark.spec("STDIO-LATENCY")
@pytest.mark.parametrize(("latency", "reported"), [(2.0, False), (2.5, True)])
def test_a_slow_server_is_a_measured_warning_in_every_profile_never_a_failure(latency: float, reported: bool) -> None:
    stream = b"".join(HANDSHAKE) + PING
    findings = judge(stream, Observation((INIT_RESULT, PING_ANSWER), b"", True, (), latency=latency))
    assert verdict(findings) == NONE
    assert [(f.rule, f.actual) for f in findings] == ([("STDIO-LATENCY", f"{latency:.1f} s")] if reported else [])


# Framing: lines the reference refuses, and which of them a peer may serve instead.


@pytest.mark.spec("FRAME-EOF-PARTIAL", "RPC-ONE-ANSWER")
def test_an_unterminated_last_input_line_answered_passes() -> None:
    stream = b"".join(HANDSHAKE) + PING.rstrip(b"\n")
    assert verdict(judge(stream, Observation((INIT_RESULT, PING_ANSWER), b"", True, ()))) == NONE


@pytest.mark.spec("FRAME-LF-ONLY")
@pytest.mark.parametrize(
    "line",
    [
        b'{"jsonrpc":"2.0",\r"id":1,"method":"ping"}\n',
        '{"jsonrpc":"2.0","id":1,"method":"ping","params":{"x":"a\u2028b"}}\n'.encode(),
        '{"jsonrpc":"2.0","id":1,"method":"ping","params":{"x":"a\u2029b"}}\n'.encode(),
        '{"jsonrpc":"2.0","id":1,"method":"ping","params":{"x":"a\x85b"}}\n'.encode(),
    ],
    ids=["cr", "u2028", "u2029", "nel"],
)
def test_a_request_on_a_line_with_a_false_line_end_must_be_answered_once(line: bytes) -> None:
    assert verdict(_judge([*HANDSHAKE, line], [INIT_RESULT, PING_ANSWER])) == NONE
    split = [INIT_RESULT, PARSE_REFUSAL, PARSE_REFUSAL]
    # Whether a bare CR is a newline is an open reading of the transport: a warning; U+2028 is no newline.
    expected = warns("FRAME-LF-ONLY") if b"\r" in line else fails("FRAME-LF-ONLY")
    assert verdict(_judge([*HANDSHAKE, line], split)) == expected
    # Silence alone shows no split: the line was dropped for some other reason.
    assert verdict(_judge([*HANDSHAKE, line], [INIT_RESULT])) == fails("RPC-ONE-ANSWER")
    # Nor does an id-null error that another line explains.
    not_json = b"pas du json\n"
    assert verdict(_judge([*HANDSHAKE, line, not_json], [INIT_RESULT, PARSE_REFUSAL])) == fails("RPC-ONE-ANSWER")


@pytest.mark.spec("FRAME-BLANK-LINE")
def test_a_blank_line_left_unanswered_passes() -> None:
    assert verdict(_judge([*HANDSHAKE, b"\n", b" \t\r\n"], [INIT_RESULT])) == NONE


@pytest.mark.spec("FRAME-BLANK-LINE")
@pytest.mark.parametrize("code", [-32700, -32600])
def test_a_blank_line_answered_with_an_error_warns(code: int) -> None:
    findings = _judge([*HANDSHAKE, b"\n", PING], [INIT_RESULT, error(None, code), PING_ANSWER])
    assert verdict(findings) == warns("FRAME-BLANK-LINE")


@pytest.mark.spec("FRAME-LF-ONLY")
def test_answers_to_the_pieces_of_a_line_cut_at_a_raw_cr_warn_once_as_lf_only() -> None:
    session = [*HANDSHAKE, b'{"jsonrpc":"2.0","id":1,\r"method":"ping"}\n']
    output = [INIT_RESULT, PARSE_REFUSAL, PARSE_REFUSAL]
    findings = _judge(session, output)
    assert verdict(findings) == warns("FRAME-LF-ONLY") and len(findings) == 1


BOM_PING = b"\xef\xbb\xbf" + PING


@pytest.mark.spec("FRAME-BOM", "RPC-PARSE-ERROR")
def test_a_line_with_a_bom_may_be_refused_or_served_but_not_ignored() -> None:
    lines = [*HANDSHAKE, BOM_PING]
    assert verdict(_judge(lines, [INIT_RESULT, PARSE_REFUSAL])) == NONE
    assert verdict(_judge(lines, [INIT_RESULT, PING_ANSWER])) == warns("FRAME-BOM")
    assert verdict(_judge(lines, [INIT_RESULT])) == fails("RPC-PARSE-ERROR")


@pytest.mark.spec("FRAME-BOM", "LIFE-PING")
def test_a_served_bom_line_is_judged_as_the_request_it_holds() -> None:
    findings = _judge([*HANDSHAKE, BOM_PING], [INIT_RESULT, error(1, -32603)])
    assert verdict(findings) == ({"LIFE-PING"}, {"LIFE-PING", "FRAME-BOM"})


BAD_UTF8_PING = b'{"jsonrpc":"2.0","id":1,"method":"ping","params":{"x":"\xff"}}\n'


@pytest.mark.spec("FRAME-UTF8", "RPC-PARSE-ERROR")
def test_invalid_utf8_before_any_version_is_negotiated_may_be_served_with_a_warning() -> None:
    lines = [BAD_UTF8_PING]
    assert verdict(_judge(lines, [PARSE_REFUSAL])) == NONE
    assert verdict(_judge(lines, [PING_ANSWER])) == warns("FRAME-UTF8")
    assert verdict(_judge(lines, [])) == fails("RPC-PARSE-ERROR")


@pytest.mark.spec("FRAME-UTF8")
def test_invalid_utf8_under_2024_11_05_may_be_served_with_a_warning() -> None:
    lines, init = ready("2024-11-05")
    assert verdict(_judge([*lines, BAD_UTF8_PING], [init, PING_ANSWER])) == warns("FRAME-UTF8")
    assert verdict(_judge([*lines, BAD_UTF8_PING], [init, PARSE_REFUSAL])) == NONE


@pytest.mark.spec("FRAME-UTF8")
@pytest.mark.parametrize("version", ["2025-03-26", "2025-06-18", "2025-11-25"])
def test_invalid_utf8_must_not_be_ignored_once_a_utf8_version_is_negotiated(version: str) -> None:
    lines, init = ready(version)
    session = [*lines, BAD_UTF8_PING]
    assert verdict(_judge(session, [init, PARSE_REFUSAL])) == NONE
    # "MUST be UTF-8" binds the sender; a receiver that decodes leniently may serve (RFC 8259 section 9).
    assert verdict(_judge(session, [init, PING_ANSWER])) == warns("FRAME-UTF8")
    assert verdict(_judge(session, [init])) == fails("FRAME-UTF8")
    assert verdict(_judge(session, [init, error(None, -32600)])) == fails("FRAME-UTF8")
    garbage = [*lines, b"\xff\xfe\x00\n"]
    assert verdict(_judge(garbage, [init, PARSE_REFUSAL])) == NONE
    assert verdict(_judge(garbage, [init])) == fails("FRAME-UTF8")


def _ping_with(value: bytes) -> bytes:
    return b'{"jsonrpc":"2.0","id":1,"method":"ping","params":{"x":' + value + b"}}\n"


DEEP = _ping_with(b"[" * 300 + b"]" * 300)
FLOAT_OVERFLOW = _ping_with(b"1e400")
HUGE_INT = _ping_with(b"7" * 5000)


@pytest.mark.spec("RPC-JSON-LIMITS", "RPC-PARSE-ERROR")
@pytest.mark.parametrize("line", [DEEP, FLOAT_OVERFLOW], ids=["nesting-300", "float-overflow"])
def test_valid_json_beyond_the_reference_limits_may_be_served_with_a_warning(line: bytes) -> None:
    session = [*HANDSHAKE, line]
    assert verdict(_judge(session, [INIT_RESULT, PARSE_REFUSAL])) == NONE
    assert verdict(_judge(session, [INIT_RESULT, PING_ANSWER])) == warns("RPC-JSON-LIMITS")
    assert verdict(_judge(session, [INIT_RESULT])) == fails("RPC-PARSE-ERROR")


@pytest.mark.spec("RPC-JSON-LIMITS", "RPC-PARSE-ERROR")
def test_an_integer_of_5000_digits_refused_as_a_parse_error_passes_and_silence_fails() -> None:
    session = [*HANDSHAKE, HUGE_INT]
    assert verdict(_judge(session, [INIT_RESULT, PARSE_REFUSAL])) == NONE
    assert verdict(_judge(session, [INIT_RESULT])) == fails("RPC-PARSE-ERROR")


@pytest.mark.spec("RPC-JSON-EXTENSIONS", "RPC-PARSE-ERROR")
@pytest.mark.parametrize("constant", [b"NaN", b"Infinity", b"-Infinity"])
def test_a_request_holding_a_non_json_constant_may_be_served_but_not_ignored(constant: bytes) -> None:
    session = [*HANDSHAKE, _ping_with(constant)]
    assert verdict(_judge(session, [INIT_RESULT, PARSE_REFUSAL])) == NONE
    assert verdict(_judge(session, [INIT_RESULT, PING_ANSWER])) == warns("RPC-JSON-EXTENSIONS")
    assert verdict(_judge(session, [INIT_RESULT])) == fails("RPC-PARSE-ERROR")


@pytest.mark.spec("FRAME-MAX-LINE", "RPC-PARSE-ERROR")
def test_a_line_over_32_mib_may_be_refused_or_served_but_not_ignored() -> None:
    text = b"x" * DEFAULT_MAX_LINE_BYTES
    huge = b'{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{"text":"'
    session = [*HANDSHAKE, huge + text + b'"}}}\n']
    assert verdict(_judge(session, [INIT_RESULT, PARSE_REFUSAL])) == NONE
    assert verdict(_judge(session, [INIT_RESULT, INVALID_REFUSAL])) == NONE
    assert verdict(_judge(session, [INIT_RESULT, result(1, TEXT)])) == warns("FRAME-MAX-LINE")
    assert verdict(_judge(session, [INIT_RESULT])) == fails("RPC-PARSE-ERROR")


@pytest.mark.spec("FRAME-MAX-LINE")
def test_a_long_line_under_the_limit_served_passes() -> None:
    long_call = call(1, "echo", {"text": "x" * 70_000})
    assert verdict(_judge([*HANDSHAKE, long_call], [INIT_RESULT, result(1, TEXT)])) == NONE


@pytest.mark.spec("FRAME-MAX-LINE", "RPC-ONE-ANSWER")
@pytest.mark.parametrize("code", [-32700, -32600])
def test_a_long_line_refused_under_a_peer_limit_warns_and_silence_fails(code: int) -> None:
    long_ping = _ping_with(b'"' + b"x" * 70_000 + b'"')
    assert verdict(_judge([*HANDSHAKE, long_ping], [INIT_RESULT, error(None, code)])) == warns("FRAME-MAX-LINE")
    assert verdict(_judge([*HANDSHAKE, long_ping], [INIT_RESULT])) == fails("RPC-ONE-ANSWER")


# Batches.

BATCH = (
    b'[{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"2.0","method":"notifications/x"},'
    b'{"jsonrpc":"2.0","id":2,"method":"ping"}]\n'
)


def array(*answers: bytes) -> bytes:
    return b"[" + b",".join(answers) + b"]"


@pytest.mark.spec("RPC-BATCH")
def test_a_batch_under_2025_03_26_answered_with_one_array_passes_in_any_order() -> None:
    lines, init = ready("2025-03-26")
    assert verdict(_judge([*lines, BATCH], [init, array(result(2), result(1))])) == NONE


@pytest.mark.spec("RPC-BATCH")
def test_a_batch_member_answered_outside_an_array_fails() -> None:
    lines, init = ready("2025-03-26")
    assert verdict(_judge([*lines, BATCH], [init, result(1), result(2)])) == fails("RPC-BATCH")
    assert verdict(_judge([*lines, BATCH], [init, array(result(1)), result(2)])) == fails("RPC-BATCH")


@pytest.mark.spec("RPC-BATCH")
def test_a_batch_member_left_unanswered_fails() -> None:
    lines, init = ready("2025-03-26")
    assert verdict(_judge([*lines, BATCH], [init, array(result(1))])) == fails("RPC-BATCH")


@pytest.mark.spec("RPC-BATCH")
def test_an_empty_batch_must_draw_one_invalid_request_error() -> None:
    lines, init = ready("2025-03-26")
    assert verdict(_judge([*lines, b"[]\n"], [init, INVALID_REFUSAL])) == NONE
    assert verdict(_judge([*lines, b"[]\n"], [init])) == fails("RPC-BATCH")
    assert verdict(_judge([*lines, b"[]\n"], [init, PARSE_REFUSAL])) == fails("RPC-BATCH")


@pytest.mark.spec("RPC-BATCH", "RPC-INVALID-REQUEST")
def test_an_invalid_batch_member_must_draw_an_error_with_id_null() -> None:
    lines, init = ready("2025-03-26")
    session = [*lines, b'[1,{"jsonrpc":"2.0","id":1,"method":"ping"}]\n']
    assert verdict(_judge(session, [init, array(INVALID_REFUSAL, result(1))])) == NONE
    assert verdict(_judge(session, [init, array(result(1))])) == fails("RPC-INVALID-REQUEST")


@pytest.mark.spec("RPC-BATCH-INITIALIZE")
def test_initialize_accepted_inside_a_batch_fails_and_changes_nothing() -> None:
    lines, init = ready("2025-03-26")
    batched = b"[" + encode(initialize(5, "2025-11-25")).rstrip(b"\n") + b"]\n"
    assert verdict(_judge([*lines, batched], [init, array(error(5, -32600))])) == NONE
    accepted = _judge(
        [*lines, batched, BATCH], [init, array(init_result(5, "2025-11-25")), array(result(1), result(2))]
    )
    assert verdict(accepted) == fails("RPC-BATCH-INITIALIZE")


@pytest.mark.spec("RPC-BATCH-UNSUPPORTED", "RPC-INVALID-REQUEST")
@pytest.mark.parametrize("version", [None, "2024-11-05", "2025-06-18", "2025-11-25"])
def test_a_batch_where_batches_do_not_exist_may_be_served_with_a_warning(version: str | None) -> None:
    lines, init = ready(version) if version else ([], b"")
    output = [init] if version else []
    assert verdict(_judge([*lines, BATCH], [*output, INVALID_REFUSAL])) == NONE
    served = _judge([*lines, BATCH], [*output, array(result(1), result(2))])
    assert verdict(served) == warns("RPC-BATCH-UNSUPPORTED")


# Invalid messages.


@pytest.mark.spec("RPC-INVALID-REQUEST")
@pytest.mark.parametrize(
    "line",
    [
        b'{"jsonrpc":"2.0","id":5,"method":5}\n',
        b'{"jsonrpc":"1.0","id":5,"method":"ping"}\n',
        b'{"id":5,"method":"ping"}\n',
        b'{"jsonrpc":"2.0","id":5}\n',
    ],
)
def test_an_invalid_request_with_a_readable_id_must_be_refused_with_invalid_request(line: bytes) -> None:
    session = [*HANDSHAKE, line]
    assert verdict(_judge(session, [INIT_RESULT, error(5, -32600)])) == NONE
    for answer in (error(5, -32601), error(5, -32602), result(5), None):
        output = [INIT_RESULT] if answer is None else [INIT_RESULT, answer]
        assert verdict(_judge(session, output)) == fails("RPC-INVALID-REQUEST")


@pytest.mark.spec("RPC-PARAMS-OBJECT")
@pytest.mark.parametrize("params", [b'"x"', b"5", b"true", b"null"])
def test_params_that_are_not_structured_may_draw_invalid_params_with_a_warning(params: bytes) -> None:
    session = [*HANDSHAKE, b'{"jsonrpc":"2.0","id":5,"method":"ping","params":' + params + b"}\n"]
    assert verdict(_judge(session, [INIT_RESULT, error(5, -32600)])) == NONE
    assert verdict(_judge(session, [INIT_RESULT, error(5, -32602)])) == warns("RPC-PARAMS-OBJECT")
    assert verdict(_judge(session, [INIT_RESULT, error(5, -32601)])) == fails("RPC-PARAMS-OBJECT")
    # The rule binds the sender, as for array params: serving them is allowed.
    assert verdict(_judge(session, [INIT_RESULT, result(5)])) == warns("RPC-PARAMS-OBJECT")
    assert verdict(_judge(session, [INIT_RESULT])) == fails("RPC-PARAMS-OBJECT")


@pytest.mark.spec("RPC-PARAMS-OBJECT", "RPC-NOTIFICATION-SILENT")
def test_a_request_with_array_params_may_be_served_with_a_warning() -> None:
    session = [*HANDSHAKE, b'{"jsonrpc":"2.0","id":5,"method":"tools/list","params":[]}\n']
    assert verdict(_judge(session, [INIT_RESULT, error(5, -32602)])) == NONE
    assert verdict(_judge(session, [INIT_RESULT, error(5, -32600)])) == warns("RPC-PARAMS-OBJECT")
    assert verdict(_judge(session, [INIT_RESULT, result(5, {"tools": []})])) == warns("RPC-PARAMS-OBJECT")
    array_notification = [*HANDSHAKE, b'{"jsonrpc":"2.0","method":"notifications/x","params":[1]}\n']
    assert verdict(_judge(array_notification, [INIT_RESULT])) == NONE


@pytest.mark.spec("RPC-INVALID-NO-ID", "RPC-INVALID-REQUEST")
def test_an_invalid_object_without_an_id_should_be_answered_with_id_null() -> None:
    session = [*HANDSHAKE, b'{"jsonrpc":"2.0","method":1,"params":"bar"}\n']
    assert verdict(_judge(session, [INIT_RESULT, INVALID_REFUSAL])) == NONE
    assert verdict(_judge(session, [INIT_RESULT])) == warns("RPC-INVALID-NO-ID")


@pytest.mark.spec("RPC-ID-TYPE", "RPC-INVALID-REQUEST")
@pytest.mark.parametrize("bad_id", [b"null", b"true", b"1.5", b"[1]", b'{"n":1}'])
def test_a_request_with_an_invalid_id_must_draw_invalid_request_with_id_null(bad_id: bytes) -> None:
    session = [*HANDSHAKE, b'{"jsonrpc":"2.0","id":' + bad_id + b',"method":"ping"}\n']
    assert verdict(_judge(session, [INIT_RESULT, INVALID_REFUSAL])) == NONE
    assert verdict(_judge(session, [INIT_RESULT])) == fails("RPC-INVALID-REQUEST")
    assert verdict(_judge(session, [INIT_RESULT, error(None, -32601)])) == fails("RPC-INVALID-REQUEST")


@pytest.mark.spec("RPC-CLIENT-RESPONSE")
def test_a_response_sent_by_the_client_is_not_answered() -> None:
    response = b'{"jsonrpc":"2.0","id":5,"result":{}}\n'
    malformed = b'{"jsonrpc":"2.0","id":null,"error":{"code":1}}\n'
    session = [*HANDSHAKE, response, malformed]
    assert verdict(_judge(session, [INIT_RESULT])) == NONE
    assert verdict(_judge(session, [INIT_RESULT, error(5, -32600)])) == warns("RPC-CLIENT-RESPONSE")


# Ids, cancellation and answers that go missing.

ATTENDRE = call(1, "attendre", {"ms": 50})


@pytest.mark.spec("RPC-CANCEL", "RPC-ONE-ANSWER")
def test_a_cancelled_request_may_be_left_unanswered_or_answered() -> None:
    session = [*HANDSHAKE, ATTENDRE, encode(notification("notifications/cancelled", {"requestId": 1}))]
    assert verdict(_judge(session, [INIT_RESULT])) == NONE
    assert verdict(_judge(session, [INIT_RESULT, result(1, TEXT)])) == NONE


@pytest.mark.spec("RPC-CANCEL", "RPC-ONE-ANSWER")
@pytest.mark.parametrize(
    "cancel",
    [
        notification("notifications/cancelled"),
        notification("notifications/cancelled", {}),
        notification("notifications/cancelled", {"requestId": True}),
        notification("notifications/cancelled", {"requestId": "1"}),
        notification("notifications/cancelled", {"requestId": 2}),
    ],
)
def test_a_cancellation_that_names_no_such_request_does_not_excuse_silence(cancel: JsonDict) -> None:
    session = [*HANDSHAKE, ATTENDRE, encode(cancel)]
    assert verdict(_judge(session, [INIT_RESULT])) == fails("RPC-ONE-ANSWER")


@pytest.mark.spec("RPC-ID-ECHO")
@pytest.mark.parametrize(("sent", "echoed"), [("7", 7), (7, "7")])
def test_an_answer_that_changed_the_id_type_fails_among_other_pending_answers(sent: object, echoed: object) -> None:
    session = [*HANDSHAKE, encode(request(sent, "ping")), encode(request(8, "ping")), encode(request(9, "ping"))]
    output = [INIT_RESULT, result(8), result(9), result(echoed)]
    assert verdict(_judge(session, output)) == fails("RPC-ID-ECHO")


@pytest.mark.spec("RPC-ID-ECHO", "RPC-CONCURRENT")
def test_ids_one_and_string_one_are_two_requests_answered_in_any_order() -> None:
    session = [*HANDSHAKE, encode(request(1, "ping")), encode(request("1", "ping"))]
    assert verdict(_judge(session, [INIT_RESULT, result("1"), result(1)])) == NONE


@pytest.mark.spec("RPC-ONE-ANSWER")
def test_a_request_answered_twice_fails_even_when_both_answers_agree() -> None:
    session = [*HANDSHAKE, PING]
    assert verdict(_judge(session, [INIT_RESULT, PING_ANSWER, PING_ANSWER])) == fails("RPC-ONE-ANSWER")
    assert verdict(_judge(session, [INIT_RESULT, PING_ANSWER, array(PING_ANSWER)])) == fails("RPC-ONE-ANSWER")


# The initialize handshake.


@pytest.mark.spec("LIFE-SECOND-INIT")
def test_a_second_initialize_refused_with_another_code_warns() -> None:
    session = [*HANDSHAKE, encode(initialize(9, "2025-11-25"))]
    assert verdict(_judge(session, [INIT_RESULT, error(9, -32600)])) == NONE
    assert verdict(_judge(session, [INIT_RESULT, error(9, -32602)])) == warns("LIFE-SECOND-INIT")


@pytest.mark.spec("LIFE-SECOND-INIT", "RPC-BATCH")
def test_a_second_initialize_answered_again_moves_the_version_later_lines_are_judged_by() -> None:
    lines, init = ready("2025-11-25")
    session = [*lines, encode(initialize(9, "2025-03-26")), BATCH]
    output = [init, init_result(9, "2025-03-26"), array(result(1), result(2))]
    assert verdict(_judge(session, output)) == warns("LIFE-SECOND-INIT")


VALID_INIT_PARAMS: JsonDict = {
    "protocolVersion": "2025-11-25",
    "capabilities": {},
    "clientInfo": {"name": "c", "version": "1"},
}


@pytest.mark.spec("RPC-INVALID-PARAMS")
@pytest.mark.parametrize(
    "params",
    [
        None,
        {},
        {**VALID_INIT_PARAMS, "protocolVersion": 2025},
        {**VALID_INIT_PARAMS, "capabilities": []},
        {**VALID_INIT_PARAMS, "clientInfo": "c"},
        {**VALID_INIT_PARAMS, "clientInfo": {"name": "c"}},
        {**VALID_INIT_PARAMS, "clientInfo": {"name": 1, "version": "1"}},
    ],
)
def test_malformed_initialize_params_refused_with_another_code_than_invalid_params_fail(
    params: JsonDict | None,
) -> None:
    session = [encode(request(0, "initialize", params))]
    assert verdict(_judge(session, [error(0, -32602)])) == NONE
    assert verdict(_judge(session, [error(0, -32603)])) == fails("RPC-INVALID-PARAMS")
    assert verdict(_judge(session, [error(0, -32600)])) == fails("RPC-INVALID-PARAMS")
    assert verdict(_judge(session, [INIT_RESULT])) == warns("RPC-INVALID-PARAMS")


@pytest.mark.spec("RPC-INVALID-PARAMS", "CAP-ANNOUNCED-METHODS")
def test_an_accepted_malformed_initialize_still_sets_the_state_later_lines_are_judged_by() -> None:
    session = [
        encode(request(0, "initialize", {})),
        encode(notification("notifications/initialized")),
        encode(request(1, "resources/list")),
    ]
    lying = init_result(0, "2025-11-25", {"tools": {}, "resources": {}})
    output = [lying, error(1, -32601)]
    assert verdict(_judge(session, output)) == (
        {"CAP-ANNOUNCED-METHODS"},
        {"CAP-ANNOUNCED-METHODS", "RPC-INVALID-PARAMS"},
    )


def _init_answer(value: JsonDict) -> bytes:
    return result(0, value)


SERVER_INFO = {"name": "t", "version": "1"}


@pytest.mark.spec("LIFE-INIT-RESULT")
@pytest.mark.parametrize(
    "value",
    [
        {"protocolVersion": "2025-11-25", "capabilities": {}},
        {"protocolVersion": "2025-11-25", "serverInfo": SERVER_INFO},
        {"protocolVersion": "2025-11-25", "capabilities": [], "serverInfo": SERVER_INFO},
        {"protocolVersion": "2025-11-25", "capabilities": {}, "serverInfo": "t"},
        {"protocolVersion": "2025-11-25", "capabilities": {}, "serverInfo": {"name": "t"}},
        {"protocolVersion": "2025-11-25", "capabilities": {}, "serverInfo": {"name": "t", "version": 1}},
        {"protocolVersion": "2025-11-25", "capabilities": {}, "serverInfo": {"name": None, "version": "1"}},
    ],
)
def test_an_initialize_result_lacking_a_required_field_fails(value: JsonDict) -> None:
    session = [encode(initialize(0, "2025-11-25"))]
    assert verdict(_judge(session, [_init_answer(value)])) == fails("LIFE-INIT-RESULT")


@pytest.mark.spec("LIFE-INIT-RESULT", "LIFE-VERSION-KNOWN")
@pytest.mark.parametrize("version", [None, 20251125, "2025-11-26"])
def test_an_initialize_result_without_a_published_version_fails(version: object) -> None:
    value: JsonDict = {"capabilities": {}, "serverInfo": SERVER_INFO}
    if version is not None:
        value["protocolVersion"] = version
    expected = {"LIFE-VERSION-KNOWN"} if isinstance(version, str) else {"LIFE-VERSION-KNOWN", "LIFE-INIT-RESULT"}
    assert verdict(_judge([encode(initialize(0, "2025-11-25"))], [_init_answer(value)])) == fails(*expected)


@pytest.mark.spec("LIFE-VERSION-ACCEPT", "LIFE-VERSION-UNSUPPORTED")
@pytest.mark.parametrize("chosen", ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"])
def test_another_handshake_version_is_a_lawful_counter_offer_in_both_profiles(chosen: str) -> None:
    # Seen in the field: mcp-go answers 2025-03-26 when asked for 2025-11-25. A server that does not
    # support the version requested must offer another it supports; which it supports is not visible.
    session = [encode(initialize(0, "2025-06-18"))]
    assert verdict(_judge(session, [init_result(0, chosen)])) == NONE


@pytest.mark.spec("LIFE-VERSION-ACCEPT")
@pytest.mark.parametrize("chosen", ["2024-10-07", "2026-07-28"])
def test_answering_a_version_no_handshake_has_warns(chosen: str) -> None:
    session = [encode(initialize(0, "2025-06-18"))]
    assert verdict(_judge(session, [init_result(0, chosen)])) == warns("LIFE-VERSION-ACCEPT")


@pytest.mark.spec("LIFE-VERSION-ACCEPT")
def test_refusing_a_published_version_warns() -> None:
    session = [encode(initialize(0, "2024-11-05"))]
    data = {"requested": "2024-11-05", "supported": ["2025-11-25"]}
    assert verdict(_judge(session, [error(0, -32602, data)])) == warns("LIFE-VERSION-ACCEPT")


@pytest.mark.spec("LIFE-VERSION-UNSUPPORTED")
@pytest.mark.parametrize("code", [-32600, -32601, -32603, -32000])
def test_an_unsupported_version_refused_with_another_code_than_invalid_params_fails(code: int) -> None:
    session = [encode(initialize(0, "1999-01-01"))]
    data = {"requested": "1999-01-01", "supported": ["2025-11-25"]}
    assert verdict(_judge(session, [error(0, code, data)])) == fails("LIFE-VERSION-UNSUPPORTED")


@pytest.mark.spec("LIFE-VERSION-REJECT", "LIFE-VERSION-UNSUPPORTED")
@pytest.mark.parametrize(
    "data",
    [
        None,
        "unsupported",
        {"supported": ["2025-11-25"]},
        {"requested": "2025-11-25", "supported": ["2025-11-25"]},
        {"requested": "1999-01-01"},
        {"requested": "1999-01-01", "supported": "2025-11-25"},
    ],
)
def test_the_version_error_without_requested_and_supported_data_warns(data: object) -> None:
    session = [encode(initialize(0, "1999-01-01"))]
    assert verdict(_judge(session, [error(0, -32602, data)])) == warns("LIFE-VERSION-REJECT")


@pytest.mark.spec("LIFE-VERSION-REJECT", "LIFE-VERSION-UNSUPPORTED", "LIFE-VERSION-COUNTER-OFFER")
def test_an_unsupported_version_refused_with_full_data_or_counter_offered_passes_spec() -> None:
    session = [encode(initialize(0, "1999-01-01"))]
    data = {"requested": "1999-01-01", "supported": ["2025-11-25", "2025-06-18"]}
    assert verdict(_judge(session, [error(0, -32602, data)])) == NONE
    assert verdict(_judge(session, [init_result(0, "2025-06-18")])) == NONE  # the counter-offer the text requires


@pytest.mark.spec("LIFE-VERSION-KNOWN")
def test_echoing_the_recognised_2024_10_07_pre_release_passes() -> None:
    session = [encode(initialize(0, "2024-10-07"))]
    assert verdict(_judge(session, [init_result(0, "2024-10-07")])) == NONE


@pytest.mark.spec("LIFE-PING")
def test_a_ping_refused_with_an_error_fails_in_every_state() -> None:
    assert verdict(_judge([PING], [PING_ANSWER])) == NONE
    assert verdict(_judge([PING], [error(1, -32600)])) == fails("LIFE-PING")
    waiting = [encode(initialize(0, "2025-11-25")), PING]
    assert verdict(_judge(waiting, [INIT_RESULT, error(1, -32600)])) == fails("LIFE-PING")
    assert verdict(_judge([*HANDSHAKE, PING], [INIT_RESULT, error(1, -32601)])) == fails("LIFE-PING")


@pytest.mark.spec("LIFE-PRE-INIT-REFUSED", "LIFE-INITIALIZED-EARLY")
def test_a_request_served_before_notifications_initialized_warns() -> None:
    listing_request = encode(request(1, "tools/list"))
    initialized = encode(notification("notifications/initialized"))
    for session in (
        [listing_request],
        [encode(initialize(0, "2025-11-25")), listing_request],
        [initialized, encode(initialize(0, "2025-11-25")), listing_request],
    ):
        output = [INIT_RESULT] if len(session) > 1 else []
        assert verdict(_judge(session, [*output, error(1, -32600)])) == NONE
        assert verdict(_judge(session, [*output, result(1, {"tools": []})])) == warns("LIFE-PRE-INIT-REFUSED")
        assert verdict(_judge(session, [*output, error(1, -32602)])) == warns("LIFE-PRE-INIT-REFUSED")


@pytest.mark.spec("LIFE-INITIALIZED-EARLY", "LIFE-PRE-INIT-REFUSED")
def test_an_early_initialized_notification_is_found_opening_the_session_only_where_it_changed_the_answer() -> None:
    initialized = encode(notification("notifications/initialized"))
    listing = encode(request(1, "tools/list"))
    around = [listing, initialized, encode(request(2, "tools/list"))]  # the check scenario
    tools = {"tools": []}
    assert verdict(_judge(around, [error(1, -32600), error(2, -32600)])) == NONE
    # Refused before the notification, served after it: the notification opened the session.
    opened = _judge(around, [error(1, -32600), result(2, tools)])
    assert verdict(opened) == warns("LIFE-INITIALIZED-EARLY")
    assert opened[0].message == (
        "served after a notifications/initialized that came before any initialize was accepted,"
        " where a request before it was refused"
    )
    # Seen in the field (the Python SDK): -32602 before, served after: two causes, two rules.
    both = _judge(around, [error(1, -32602), result(2, tools)])
    assert [f.rule for f in both] == ["LIFE-PRE-INIT-REFUSED", "LIFE-INITIALIZED-EARLY"]
    # Served, or refused with another code, with or without the notification (the TypeScript SDK,
    # mcp-go; the Go SDK's code 0): one cause, the gate's, and nothing of the notification.
    for answers in ([result(1, tools), result(2, tools)], [error(1, 0), error(2, 0)]):
        findings = _judge(around, answers)
        assert verdict(findings) == warns("LIFE-PRE-INIT-REFUSED")
        assert findings[-1].message.endswith("before initialize, after an early notifications/initialized")
    # Nothing before the notification shows what the server does without it: the gate's rule.
    alone = _judge([initialized, listing], [result(1, tools)])
    assert [(f.rule, f.message) for f in alone] == [
        ("LIFE-PRE-INIT-REFUSED", "served before initialize, after an early notifications/initialized")
    ]
    assert verdict(_judge([initialized, listing], [error(1, -32600)])) == NONE
    refused = _judge([listing], [error(1, -32602)])
    assert [(f.rule, f.message) for f in refused] == [("LIFE-PRE-INIT-REFUSED", "refused with -32602 before initialize")]


@pytest.mark.spec("LIFE-SERVER-EARLY", "CAP-LIST-CHANGED", "CAP-CLIENT-DECLARED")
@pytest.mark.parametrize(
    ("early", "expected", "later"),
    [
        ({"jsonrpc": "2.0", "method": "notifications/tools/list_changed"}, warns("LIFE-SERVER-EARLY"), warns("CAP-LIST-CHANGED")),
        ({"jsonrpc": "2.0", "id": "s1", "method": "roots/list"}, warns("LIFE-SERVER-EARLY"), fails("CAP-CLIENT-DECLARED")),
        ({"jsonrpc": "2.0", "id": "s1", "method": "ping"}, NONE, NONE),
        ({"jsonrpc": "2.0", "method": "notifications/message", "params": {"level": "info", "data": "x"}}, NONE, NONE),
    ],
)
def test_a_server_message_before_its_initialize_answer_warns_unless_ping_or_logging(
    early: JsonDict, expected: tuple[set[str], set[str]], later: tuple[set[str], set[str]]
) -> None:
    lines, init = ready("2025-11-25", {"tools": {}, "logging": {}})  # log messages declared (CAP-LOGGING-DECLARED)
    assert verdict(_judge(lines, [json.dumps(early).encode(), init])) == expected
    # After it, the session's rules judge it: what the client declared, what the server announced.
    assert verdict(_judge(lines, [init, json.dumps(early).encode()])) == later


# Operation: methods and capabilities.


@pytest.mark.spec("RPC-METHOD-NOT-FOUND")
@pytest.mark.parametrize("method", ["Tools/List", "bogus/x", "sampling/createMessage"])
def test_an_unknown_method_must_draw_method_not_found(method: str) -> None:
    session = [*HANDSHAKE, encode(request(1, method))]
    assert verdict(_judge(session, [INIT_RESULT, error(1, -32601)])) == NONE
    assert verdict(_judge(session, [INIT_RESULT, error(1, -32600)])) == fails("RPC-METHOD-NOT-FOUND")
    assert verdict(_judge(session, [INIT_RESULT, result(1)])) == fails("RPC-METHOD-NOT-FOUND")


@pytest.mark.spec("CAP-UNANNOUNCED-METHOD")
@pytest.mark.parametrize(
    "method",
    ["resources/list", "resources/read", "prompts/list", "prompts/get", "logging/setLevel", "completion/complete"],
)
def test_a_method_of_an_unannounced_capability_should_draw_method_not_found(method: str) -> None:
    session = [*HANDSHAKE, encode(request(1, method, {}))]
    assert verdict(_judge(session, [INIT_RESULT, error(1, -32601)])) == NONE
    assert verdict(_judge(session, [INIT_RESULT, error(1, -32603)])) == warns("CAP-UNANNOUNCED-METHOD")
    assert verdict(_judge(session, [INIT_RESULT, result(1)])) == warns("CAP-UNANNOUNCED-METHOD")


@pytest.mark.spec("CAP-UNANNOUNCED-METHOD")
def test_tools_methods_served_without_the_tools_capability_warn() -> None:
    lines, init = ready(capabilities={})
    session = [*lines, encode(request(1, "tools/list"))]
    assert verdict(_judge(session, [init, error(1, -32601)])) == NONE
    assert verdict(_judge(session, [init, listed("2025-11-25", 1)])) == warns("CAP-UNANNOUNCED-METHOD")


@pytest.mark.spec("CAP-ANNOUNCED-METHODS")
def test_an_announced_capability_whose_methods_fail_fails() -> None:
    lines, init = ready(capabilities={"tools": {}, "resources": {}, "logging": {}})
    tools_list = [*lines, encode(request(1, "tools/list"))]
    assert verdict(_judge(tools_list, [init, error(1, -32603)])) == fails("CAP-ANNOUNCED-METHODS")
    listed_call = [*lines, encode(request(2, "tools/list")), call(1, "echo", {"text": "x"})]
    listing = listed("2025-11-25", 2)
    assert verdict(_judge(listed_call, [init, listing, error(1, -32601)])) == fails("CAP-ANNOUNCED-METHODS")
    # Without a listing, -32601 may mean an unknown tool, which TOOLS-UNKNOWN lets through with a warning.
    unlisted_call = [*lines, call(1, "echo", {"text": "x"})]
    assert verdict(_judge(unlisted_call, [init, error(1, -32601)])) == warns("TOOLS-UNKNOWN")
    set_level = [*lines, encode(request(1, "logging/setLevel", {"level": "info"}))]
    assert verdict(_judge(set_level, [init, error(1, -32601)])) == fails("CAP-ANNOUNCED-METHODS")


@pytest.mark.spec("CAP-ANNOUNCED-METHODS")
def test_methods_of_an_announced_capability_may_answer_results_or_their_own_errors() -> None:
    lines, init = ready(capabilities={"tools": {}, "resources": {}})
    session = [*lines, encode(request(1, "resources/list")), encode(request(2, "resources/read", {"uri": "x:"}))]
    output = [init, result(1, {"resources": []}), error(2, -32002)]
    assert verdict(_judge(session, output)) == NONE


# Tools.


@pytest.mark.spec("TOOLS-LIST-SHAPE")
@pytest.mark.parametrize(
    "value",
    [
        {},
        {"tools": {}},
        {"tools": ["echo"]},
        {"tools": [{"name": "echo"}]},
        {"tools": [{"name": 1, "inputSchema": {"type": "object"}}]},
        {"tools": [{"name": "echo", "inputSchema": "object"}]},
        {"tools": [{"name": "echo", "inputSchema": {}}]},  # every version's schema requires type "object"
        {"tools": [{"name": "echo", "inputSchema": {"type": "string"}}]},
    ],
)
def test_a_malformed_tools_list_fails(value: JsonDict) -> None:
    session = [*HANDSHAKE, encode(request(1, "tools/list"))]
    assert verdict(_judge(session, [INIT_RESULT, result(1, value)])) == fails("TOOLS-LIST-SHAPE")


@pytest.mark.spec("TOOLS-LIST-SHAPE")
@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("title", "Echo"),
        ("annotations", {"readOnlyHint": True}),
        ("outputSchema", {"type": "object"}),
        ("_meta", {"fastmcp": {"tags": []}}),
        ("icons", [{"src": "data:image/png;base64,AA=="}]),
        ("execution", {"taskSupport": "forbidden"}),
        ("x-vendor", 1),
    ],
)
def test_a_tool_field_of_a_later_version_or_of_none_is_lawful(field: str, value: object) -> None:
    # The official schemas leave Tool open (no additionalProperties false): an extra member is lawful.
    tool = {**listing(TOOLS[0], with_title=False), field: value}
    for version in ("2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"):
        lines, init = ready(version)
        findings = _judge([*lines, encode(request(1, "tools/list"))], [init, result(1, {"tools": [tool]})])
        assert findings == []


@pytest.mark.spec("RPC-INVALID-PARAMS")
@pytest.mark.parametrize(
    "params",
    [None, {}, {"name": 1}, {"name": "echo", "arguments": []}, {"name": "echo", "arguments": "text=x"}],
)
def test_malformed_tools_call_params_must_draw_invalid_params(params: JsonDict | None) -> None:
    lines, output = with_tools()
    session = [*lines, encode(request(1, "tools/call", params))]
    assert verdict(_judge(session, [*output, error(1, -32602)])) == NONE
    assert verdict(_judge(session, [*output, error(1, -32603)])) == fails("RPC-INVALID-PARAMS")
    assert verdict(_judge(session, [*output, result(1, TOOL_ERROR)])) == fails("RPC-INVALID-PARAMS")


@pytest.mark.spec("TOOLS-UNKNOWN")
def test_a_call_to_an_unlisted_tool_should_draw_invalid_params() -> None:
    lines, output = with_tools()
    session = [*lines, call(1, "tout_effacer", {})]
    assert verdict(_judge(session, [*output, error(1, -32602)])) == NONE
    assert verdict(_judge(session, [*output, result(1, TOOL_ERROR)])) == warns("TOOLS-UNKNOWN")
    assert verdict(_judge(session, [*output, error(1, -32603)])) == warns("TOOLS-UNKNOWN")


@pytest.mark.spec("TOOLS-UNKNOWN", "TOOLS-CALL-RESULT")
def test_calls_are_judged_only_by_their_result_shape_before_any_tool_list() -> None:
    session = [*HANDSHAKE, call(1, "tout_effacer", {})]
    assert verdict(_judge(session, [INIT_RESULT, error(1, -32602)])) == NONE
    assert verdict(_judge(session, [INIT_RESULT, error(1, -32603)])) == NONE
    assert verdict(_judge(session, [INIT_RESULT, result(1, TOOL_ERROR)])) == NONE
    assert verdict(_judge(session, [INIT_RESULT, result(1, {"text": "x"})])) == fails("TOOLS-CALL-RESULT")


@pytest.mark.spec("TOOLS-LIST-SHAPE", "TOOLS-ARGS-INVALID")
def test_a_failed_tools_list_leaves_the_tools_unknown() -> None:
    lines, init = ready()
    session = [*lines, encode(request(2, "tools/list")), call(1, "echo", {})]
    findings = _judge(session, [init, result(2, {"tools": "none"}), result(1, TEXT)])
    assert verdict(findings) == fails("TOOLS-LIST-SHAPE")


INVALID_ARGUMENTS = [
    ("echo", {}),
    ("echo", {"text": 1}),
    ("echo", {"text": "x", "extra": 1}),
    ("lire_prix", {"produit": None}),
    ("fail", {"why": "x"}),
    ("attendre", {"ms": -1}),
    ("attendre", {"ms": 60_001}),
    ("attendre", {"ms": "10"}),
    ("attendre", {"ms": 1.5}),
    ("attendre", {"ms": True}),
]


@pytest.mark.spec("TOOLS-ARGS-INVALID")
@pytest.mark.parametrize("version", ["2024-11-05", "2025-03-26", "2025-06-18"])
@pytest.mark.parametrize(("name", "arguments"), INVALID_ARGUMENTS)
def test_invalid_arguments_should_draw_invalid_params_up_to_2025_06_18(
    version: str, name: str, arguments: JsonDict
) -> None:
    lines, output = with_tools(version)
    session = [*lines, call(1, name, arguments)]
    assert verdict(_judge(session, [*output, error(1, -32602)])) == NONE
    assert verdict(_judge(session, [*output, result(1, TOOL_ERROR)])) == warns("TOOLS-ARGS-INVALID")
    assert verdict(_judge(session, [*output, error(1, -32603)])) == warns("TOOLS-ARGS-INVALID")


@pytest.mark.spec("TOOLS-ARGS-INVALID")
@pytest.mark.parametrize(("name", "arguments"), INVALID_ARGUMENTS)
def test_invalid_arguments_should_draw_a_tool_error_from_2025_11_25(name: str, arguments: JsonDict) -> None:
    lines, output = with_tools("2025-11-25")
    session = [*lines, call(1, name, arguments)]
    assert verdict(_judge(session, [*output, result(1, TOOL_ERROR)])) == NONE
    assert verdict(_judge(session, [*output, error(1, -32602)])) == warns("TOOLS-ARGS-INVALID")
    assert verdict(_judge(session, [*output, result(1, TEXT)])) == warns("TOOLS-ARGS-INVALID")


@pytest.mark.spec("TOOLS-ARGS-INVALID")
def with_echo_of(version: str, input_schema: JsonObject) -> tuple[list[bytes], list[bytes]]:
    """A ready session whose server listed an ``echo`` of its own, with ``input_schema``."""
    lines, init = ready(version)
    echo = {"name": "echo", "inputSchema": input_schema}
    return [*lines, encode(request(2, "tools/list"))], [init, result(2, {"tools": [echo]})]


# A schema beyond the subset checked whole (no additionalProperties false), as servers write them.
MESSAGE_SCHEMA: JsonObject = {"type": "object", "properties": {"message": {"type": "string"}}, "required": ["message"]}


@pytest.mark.spec("TOOLS-ARGS-INVALID", "TOOLS-EXEC-ERROR")
@pytest.mark.parametrize("arguments", [{"text": "x"}, {"message": 1}])
def test_arguments_that_surely_fail_a_schema_read_in_part_are_invalid_arguments(arguments: JsonDict) -> None:
    lines, output = with_echo_of("2025-11-25", MESSAGE_SCHEMA)
    session = [*lines, call(1, "echo", arguments)]
    assert verdict(_judge(session, [*output, result(1, TOOL_ERROR)])) == NONE
    findings = _judge(session, [*output, error(1, -32602)])
    assert verdict(findings) == warns("TOOLS-ARGS-INVALID")  # not "a valid tool call" under TOOLS-EXEC-ERROR
    assert "invalid arguments (arguments/message " in findings[0].message
    lines, output = with_echo_of("2025-06-18", MESSAGE_SCHEMA)
    session = [*lines, call(1, "echo", arguments)]
    assert verdict(_judge(session, [*output, error(1, -32602)])) == NONE
    assert verdict(_judge(session, [*output, result(1, TOOL_ERROR)])) == warns("TOOLS-ARGS-INVALID")


@pytest.mark.spec("TOOLS-CALL-RESULT")
def test_the_result_answering_invalid_arguments_has_a_results_shape_all_the_same() -> None:
    for lines, output in (with_tools(), with_echo_of("2025-11-25", MESSAGE_SCHEMA)):
        session = [*lines, call(1, "echo", {})]
        assert verdict(_judge(session, [*output, result(1, {"isError": True})])) == fails("TOOLS-CALL-RESULT")


@pytest.mark.spec("TOOLS-EXEC-ERROR")
def test_arguments_a_schema_read_in_part_may_accept_are_taken_for_valid() -> None:
    lines, output = with_echo_of("2025-11-25", MESSAGE_SCHEMA)
    session = [*lines, call(1, "echo", {"message": "x", "more": 1})]  # extra members: allowed here
    assert verdict(_judge(session, [*output, result(1, TEXT)])) == NONE
    assert verdict(_judge(session, [*output, error(1, -32603)])) == warns("TOOLS-EXEC-ERROR")


def test_invalid_arguments_under_a_version_without_a_rule_of_its_own_follow_the_older_rule() -> None:
    lines, init = ready("2024-10-07")
    session = [*lines, encode(request(2, "tools/list")), call(1, "echo", {})]
    output = [init, listed("2024-10-07")]
    assert verdict(_judge(session, [*output, error(1, -32602)])) == NONE
    assert verdict(_judge(session, [*output, result(1, TOOL_ERROR)])) == warns("TOOLS-ARGS-INVALID")


@pytest.mark.spec("TOOLS-EXEC-ERROR", "TOOLS-CALL-RESULT")
@pytest.mark.parametrize(
    ("name", "arguments"),
    [("fail", {}), ("fail", None), ("lire_prix", {"produit": "kiwi"}), ("attendre", {"ms": 0}), ("echo", {"text": ""})],
)
def test_a_valid_call_answered_with_a_protocol_error_warns(name: str, arguments: JsonDict | None) -> None:
    lines, output = with_tools()
    session = [*lines, call(1, name, arguments)]
    assert verdict(_judge(session, [*output, result(1, TOOL_ERROR)])) == NONE
    assert verdict(_judge(session, [*output, result(1, TEXT)])) == NONE
    assert verdict(_judge(session, [*output, error(1, -32603)])) == warns("TOOLS-EXEC-ERROR")
    assert verdict(_judge(session, [*output, error(1, -32602)])) == warns("TOOLS-EXEC-ERROR")


@pytest.mark.spec("TOOLS-CALL-RESULT")
@pytest.mark.parametrize(
    "value",
    [
        {},
        {"content": "ok"},
        {"content": {"type": "text", "text": "ok"}},
        {"content": ["ok"]},
        {"content": [{"text": "ok"}]},
        {"content": [{"type": 1, "text": "ok"}]},
        {"content": [{"type": "text", "text": "ok"}], "isError": "false"},
        {"content": [{"type": "text", "text": "ok"}], "isError": 0},
        {"content": [{"type": "text", "text": "ok"}], "isError": None},
        # Each content block holds what its type requires in every version's schema.
        {"content": [{"type": "text"}]},
        {"content": [{"type": "text", "text": 1}]},
        {"content": [{"type": "image", "data": ""}]},
        {"content": [{"type": "audio", "mimeType": "audio/wav"}]},
        {"content": [{"type": "resource_link", "uri": "file:///x"}]},
        {"content": [{"type": "resource"}]},
        {"content": [{"type": "resource", "resource": {"uri": "file:///x"}}]},
        {"content": [{"type": "resource", "resource": {"text": "x"}}]},
    ],
)
def test_a_malformed_tools_call_result_fails(value: JsonDict) -> None:
    lines, output = with_tools()
    session = [*lines, call(1, "echo", {"text": "ok"})]
    assert verdict(_judge(session, [*output, result(1, value)])) == fails("TOOLS-CALL-RESULT")


@pytest.mark.spec("TOOLS-CALL-RESULT")
@pytest.mark.parametrize(
    "value",
    [
        {"content": [{"type": "text", "text": "ok"}]},
        {"content": []},
        {"content": [{"type": "image", "data": "", "mimeType": "image/png"}], "isError": False},
        {"content": [{"type": "text", "text": "ok"}], "structuredContent": {"ok": True}},
        {"content": [{"type": "resource", "resource": {"uri": "file:///x", "blob": "AA=="}}]},
        {"content": [{"type": "resource_link", "uri": "file:///x", "name": "x", "x-extra": 1}]},
        {"content": [{"type": "video", "frames": []}]},  # a block of no version yet: not judged
    ],
)
def test_a_tools_call_result_may_omit_is_error_and_hold_any_typed_content(value: JsonDict) -> None:
    lines, output = with_tools()
    session = [*lines, call(1, "echo", {"text": "ok"})]
    assert verdict(_judge(session, [*output, result(1, value)])) == NONE


# Structured results, from 2025-06-18: structuredContent an object (until 2026-07-28), and conforming
# to the outputSchema its tool was listed with.

ECHO_OUTPUT: JsonObject = {"type": "object", "properties": {"text": {"type": "string"}}, "required": ["text"]}


def with_output_schema(version: str) -> tuple[list[bytes], list[bytes]]:
    """A ready session whose server listed ``echo`` with ``ECHO_OUTPUT`` as its outputSchema."""
    lines, init = ready(version)
    echo = {"name": "echo", "inputSchema": {"type": "object"}, "outputSchema": ECHO_OUTPUT}
    return [*lines, encode(request(2, "tools/list"))], [init, result(2, {"tools": [echo]})]


def structured(value: object, **members: object) -> JsonDict:
    return {"content": [{"type": "text", "text": "ok"}], "structuredContent": value, **members}


@pytest.mark.spec("TOOLS-CALL-RESULT")
@pytest.mark.parametrize("value", [[1], "ok", None, 1, True])
def test_structured_content_other_than_an_object_fails_from_2025_06_18_to_2025_11_25(value: object) -> None:
    for version in ("2025-06-18", "2025-11-25"):
        lines, output = with_tools(version)
        session = [*lines, call(1, "echo", {"text": "ok"})]
        findings = _judge(session, [*output, result(1, structured(value))])
        assert verdict(findings) == fails("TOOLS-CALL-RESULT")
        assert findings[0].message == "structuredContent is not an object"
    # Before 2025-06-18 it is a member no version defines, which a result may hold.
    lines, output = with_tools("2025-03-26")
    session = [*lines, call(1, "echo", {"text": "ok"})]
    assert verdict(_judge(session, [*output, result(1, structured(value))])) == NONE


@pytest.mark.spec("TOOLS-CALL-RESULT")
@pytest.mark.parametrize(
    "value",
    [
        structured({"text": "ok"}),
        structured({"text": "ok", "more": [1]}),
        # An error result need not conform (AMB-18), with or without structured content.
        {"content": [{"type": "text", "text": "failed"}], "isError": True},
        structured({"texte": 1}, isError=True),
    ],
)
def test_a_result_conforming_to_its_tools_output_schema_or_an_error_result_passes(value: JsonDict) -> None:
    for version in ("2025-06-18", "2025-11-25"):
        lines, output = with_output_schema(version)
        session = [*lines, call(1, "echo", {"text": "ok"})]
        assert verdict(_judge(session, [*output, result(1, value)])) == NONE


@pytest.mark.spec("TOOLS-CALL-RESULT")
@pytest.mark.parametrize(
    ("value", "message"),
    [
        (TEXT, "a tool listed with an outputSchema answered without structuredContent"),
        (structured({"texte": "ok"}), "structuredContent/text is required and absent, against the tool's outputSchema"),
        (structured({"text": 1}, isError=False), "structuredContent/text is not of type string, against the tool's outputSchema"),
    ],
)
def test_a_success_without_structured_content_conforming_to_its_tools_output_schema_fails(value: JsonDict, message: str) -> None:
    lines, output = with_output_schema("2025-11-25")
    session = [*lines, call(1, "echo", {"text": "ok"})]
    findings = _judge(session, [*output, result(1, value)])
    assert verdict(findings) == fails("TOOLS-CALL-RESULT")
    assert [finding.message for finding in findings] == [message]


TASKS_CAPABILITIES: JsonDict = {"tools": {}, "tasks": {"requests": {"tools": {"call": {}}}}}


@pytest.mark.spec("CAP-ANNOUNCED-METHODS", "TOOLS-EXEC-ERROR", "TOOLS-UNKNOWN")
@pytest.mark.parametrize("code", [-32601, -32602, -32603])
def test_a_server_that_takes_tool_calls_as_tasks_may_refuse_a_call_that_is_none(code: int) -> None:
    lines, init = ready("2025-11-25", TASKS_CAPABILITIES)
    echo = {"name": "echo", "inputSchema": {"type": "object"}, "execution": {"taskSupport": "required"}}
    listing = result(2, {"tools": [echo]})
    for name in ("echo", "tout_effacer"):
        session = [*lines, encode(request(2, "tools/list")), call(1, name, {"text": "ok"})]
        assert verdict(_judge(session, [init, listing, error(1, code)])) == NONE
    # Without the capability, or before tasks existed, -32601 still breaks the announced tools.
    for version, capabilities in (("2025-11-25", {"tools": {}}), ("2025-06-18", TASKS_CAPABILITIES)):
        lines, init = ready(version, capabilities)
        session = [*lines, encode(request(2, "tools/list")), call(1, "echo", {"text": "ok"})]
        assert "CAP-ANNOUNCED-METHODS" in verdict(_judge(session, [init, listing, error(1, -32601)]))[0]


@pytest.mark.spec("TOOLS-CALL-RESULT")
def test_structured_content_is_not_judged_against_a_listing_a_list_change_may_have_made_stale() -> None:
    lines, output = with_output_schema("2025-11-25")
    session = [*lines, call(1, "echo", {"text": "ok"})]
    changed = encode(notification("notifications/tools/list_changed"))
    assert verdict(_judge(session, [*output, changed.rstrip(b"\n"), result(1, TEXT)])) == warns("CAP-LIST-CHANGED")


@pytest.mark.spec("TOOLS-CALL-RESULT")
def test_structured_content_under_a_version_no_specification_has_is_not_judged() -> None:
    lines, output = with_tools("2025-09-30")
    session = [*lines, call(1, "echo", {"text": "ok"})]
    findings = _judge(session, [*output, result(1, structured([1]))])
    assert "TOOLS-CALL-RESULT" not in {finding.rule for finding in findings}


@pytest.mark.spec("TOOLS-CALL-RESULT", "LIFE-SECOND-INIT")
def test_structured_content_after_a_second_initialize_taken_is_judged_only_where_both_versions_agree() -> None:
    def after_second_initialize(first: str, second: str, value: JsonDict) -> tuple[set[str], set[str]]:
        lines, output = with_output_schema(first)
        session = [*lines[:2], encode(initialize(9, second)), *lines[2:], call(1, "echo", {"text": "ok"})]
        return verdict(_judge(session, [output[0], init_result(9, second), *output[1:], result(1, value)]))

    # Before 2025-06-18 neither rule binds: which version governs is open, so nothing is found.
    assert after_second_initialize("2025-11-25", "2025-03-26", TEXT) == warns("LIFE-SECOND-INIT")
    assert after_second_initialize("2025-03-26", "2025-11-25", structured(["ok"])) == warns("LIFE-SECOND-INIT")
    # Under both, the finding stands.
    assert after_second_initialize("2025-06-18", "2025-11-25", TEXT) == (
        {"TOOLS-CALL-RESULT"},
        {"TOOLS-CALL-RESULT", "LIFE-SECOND-INIT"},
    )


@pytest.mark.spec("TOOLS-CALL-RESULT", "TOOLS-LIST-SHAPE")
def test_an_output_schema_binds_nothing_before_2025_06_18_or_before_the_tool_is_listed() -> None:
    lines, output = with_output_schema("2025-03-26")
    session = [*lines, call(1, "echo", {"text": "ok"})]
    # The listing holds a field 2025-03-26 does not define, lawfully; the call's result is judged by its shape.
    assert verdict(_judge(session, [*output, result(1, TEXT)])) == NONE
    lines, init = ready("2025-11-25")
    assert verdict(_judge([*lines, call(1, "echo", {"text": "ok"})], [init, result(1, TEXT)])) == NONE


# The schema subset the oracle checks arguments against.

CHECKABLE_BASE: JsonObject = {"type": "object", "properties": {}, "required": [], "additionalProperties": False}


NOT_CHECKABLE: list[JsonObject] = [
    {"type": "object"},
    {**CHECKABLE_BASE, "additionalProperties": True},
    {key: value for key, value in CHECKABLE_BASE.items() if key != "additionalProperties"},
    {**CHECKABLE_BASE, "properties": []},
    {**CHECKABLE_BASE, "required": "n"},
    {**CHECKABLE_BASE, "required": [1]},
    {**CHECKABLE_BASE, "properties": {"n": "string"}},
    {**CHECKABLE_BASE, "properties": {"n": {"type": "number"}}},
    {**CHECKABLE_BASE, "properties": {"n": {"type": ["string", "null"]}}},
    {**CHECKABLE_BASE, "properties": {"n": {}}},
    {**CHECKABLE_BASE, "properties": {"n": {"type": "integer"}}},
    {**CHECKABLE_BASE, "properties": {"n": {"type": "integer", "minimum": 0}}},
    {**CHECKABLE_BASE, "properties": {"n": {"type": "integer", "maximum": 9}}},
    {**CHECKABLE_BASE, "properties": {"n": {"type": "integer", "minimum": 0.5, "maximum": 9}}},
    {**CHECKABLE_BASE, "properties": {"n": {"type": "integer", "minimum": 0, "maximum": True}}},
    {**CHECKABLE_BASE, "properties": {"s": {"type": "string"}, "n": {"type": "boolean"}}},
]


@pytest.mark.spec("TOOLS-ARGS-INVALID")
@pytest.mark.parametrize("schema", NOT_CHECKABLE)
def test_a_schema_outside_the_checked_subset_is_not_checkable(schema: JsonObject) -> None:
    assert not _checkable(schema)


@pytest.mark.spec("TOOLS-ARGS-INVALID")
def test_the_reference_tool_schemas_and_the_subset_they_use_are_checkable() -> None:
    assert all(_checkable(tool.input_schema) for tool in TOOLS)
    both: JsonObject = {"s": {"type": "string"}, "n": {"type": "integer", "minimum": -1, "maximum": 1}}
    assert _checkable({**CHECKABLE_BASE, "properties": both, "required": ["s", "n"]})


@pytest.mark.spec("TOOLS-ARGS-INVALID")
def test_arguments_to_a_tool_whose_schema_is_not_checkable_are_taken_as_valid() -> None:
    lines, init = ready()
    free = {"name": "free", "inputSchema": {"type": "object", "properties": {"n": {"type": "number"}}}}
    session = [*lines, encode(request(2, "tools/list")), call(1, "free", {"n": 1.5, "anything": [1]})]
    output = [init, result(2, {"tools": [free]})]
    assert verdict(_judge(session, [*output, result(1, TEXT)])) == NONE


# The reference itself: each kind of session crafted above passes with no finding at all.


def _ready_lines(version: str) -> list[bytes]:
    return ready(version)[0]


REFERENCE_SESSIONS: dict[str, list[bytes]] = {
    "bom": [*HANDSHAKE, BOM_PING],
    "utf8-before-version": [BAD_UTF8_PING, *HANDSHAKE],
    "utf8-2024-11-05": [*_ready_lines("2024-11-05"), BAD_UTF8_PING],
    "utf8-2025-03-26": [*_ready_lines("2025-03-26"), BAD_UTF8_PING, b"\xff\xfe\x00\n"],
    "limits": [*HANDSHAKE, DEEP, FLOAT_OVERFLOW, HUGE_INT, _ping_with(b"NaN"), _ping_with(b"-Infinity")],
    "false-line-ends": [*HANDSHAKE, b'{"jsonrpc":"2.0",\r"id":1,"method":"ping"}\n', b"\n", b" \t\r\n"],
    "batch-2025-03-26": [
        *_ready_lines("2025-03-26"),
        BATCH,
        b"[]\n",
        b'[1,{"jsonrpc":"2.0","id":3,"method":"ping"}]\n',
        b"[" + encode(initialize(4, "2025-11-25")).rstrip(b"\n") + b"]\n",
        b'[{"jsonrpc":"2.0","method":"notifications/x"}]\n',
    ],
    "batch-2025-11-25": [*HANDSHAKE, BATCH, b"[]\n"],
    "batch-before-initialize": [BATCH],
    "invalid-messages": [
        *HANDSHAKE,
        b'{"jsonrpc":"2.0","id":5,"method":5}\n',
        b'{"jsonrpc":"2.0","id":6,"method":"ping","params":"x"}\n',
        b'{"jsonrpc":"2.0","id":7,"method":"tools/list","params":[]}\n',
        b'{"jsonrpc":"2.0","method":"notifications/x","params":[1]}\n',
        b'{"jsonrpc":"2.0","method":1,"params":"bar"}\n',
        b'{"jsonrpc":"2.0","id":null,"method":"ping"}\n',
        b'{"jsonrpc":"2.0","id":8,"result":{}}\n',
        b'{"jsonrpc":"2.0","id":null,"error":{"code":1}}\n',
        b"5\n",
    ],
    "cancelled": [*HANDSHAKE, ATTENDRE, encode(notification("notifications/cancelled", {"requestId": 1}))],
    "ids": [*HANDSHAKE, encode(request("7", "ping")), encode(request(7, "ping"))],
    "handshake-variants": [
        PING,
        encode(request(11, "tools/list")),
        encode(request(2, "initialize", {})),
        encode(initialize(3, "1999-01-01")),
        encode(notification("notifications/initialized")),
        encode(initialize(4, "2025-06-18")),
        encode(request(5, "tools/list")),
        encode(notification("notifications/initialized")),
        encode(initialize(6, "2025-11-25")),
    ],
    "methods": [
        *HANDSHAKE,
        *(encode(request(10 + i, method)) for i, method in enumerate(["Tools/List", "resources/list", "prompts/get"])),
        encode(request(3, "logging/setLevel", {"level": "info"})),
    ],
    "tools-2025-06-18": [
        *_ready_lines("2025-06-18"),
        encode(request(1, "tools/list")),
        *(call(10 + index, name, arguments) for index, (name, arguments) in enumerate(INVALID_ARGUMENTS)),
        call(2, "tout_effacer", {}),
        encode(request(3, "tools/call", {"name": 1})),
        call(4, "fail", None),
        call(5, "lire_prix", {"produit": "kiwi"}),
    ],
    "tools-2025-11-25": [
        *HANDSHAKE,
        encode(request(1, "tools/list")),
        *(call(10 + index, name, arguments) for index, (name, arguments) in enumerate(INVALID_ARGUMENTS)),
        call(2, "echo", {"text": "x" * 70_000}),
        call(3, "attendre", {"ms": 0}),
    ],
    "tools-2024-11-05": [*_ready_lines("2024-11-05"), encode(request(1, "tools/list")), call(2, "echo", {})],
}


@pytest.mark.spec("RPC-ONE-ANSWER", "RPC-PARSE-ERROR", "RPC-BATCH", "TOOLS-ARGS-INVALID", "LIFE-VERSION-REJECT")
@pytest.mark.parametrize("name", list(REFERENCE_SESSIONS))
def test_the_reference_passes_each_crafted_session(name: str) -> None:
    case = Case(tuple(REFERENCE_SESSIONS[name]))
    assert judge(case.stream, reference_observation(case)) == []


# --- conforming alternatives that must not be taken for failures ----------------------------------

LONG_WAIT = call(1, "attendre", {"ms": 10_000})


def _eof_judge(lines: list[bytes], output: list[bytes]) -> list[Finding]:
    return judge(b"".join(lines), Observation(tuple(output), b"", True, (), eof=True))


@pytest.mark.spec("RPC-DUPLICATE-ID", "RPC-ONE-ANSWER")
def test_ids_used_twice_need_one_answer_each_in_any_order() -> None:
    lines, init = ready()
    in_flight = [*lines, LONG_WAIT, encode(request(1, "ping"))]
    answers = [init, error(1, -32600), result(1, TEXT)]
    assert verdict(_judge(in_flight, answers)) == NONE
    reused = [*lines, encode(request(1, "ping")), encode(request(1, "ping"))]
    assert verdict(_judge(reused, [init, result(1), result(1)])) == NONE
    assert verdict(_judge(reused, [init, result(1)])) == fails("RPC-ONE-ANSWER")


@pytest.mark.spec("RPC-CANCEL", "FRAME-MAX-LINE")
def test_a_cancelled_long_line_may_stay_unanswered() -> None:
    lines, init = ready()
    padded = call(1, "echo", {"text": "x" * 70_000})
    cancel = encode(notification("notifications/cancelled", {"requestId": 1}))
    assert verdict(_judge([*lines, padded, cancel], [init])) == NONE


@pytest.mark.spec("STDIO-EOF-DRAIN")
def test_a_server_whose_stdin_closed_exits_with_status_0() -> None:
    ended = Observation((), eof=True)
    assert judge_exit(ended, 0) == [] and judge_exit(Observation(()), 1) == []  # probed: the exit is no matter
    (failed,) = judge_exit(ended, 3)
    assert (failed.rule, failed.mandatory, failed.actual) == ("STDIO-EOF-DRAIN", False, "3")
    assert [f.rule for f in judge_exit(ended, None)] == ["STDIO-EOF-DRAIN"]  # still running when the case ended


@pytest.mark.spec("FRAME-EOF-PARTIAL", "STDIO-EOF-DRAIN")
def test_after_eof_unfinished_work_and_an_unterminated_line_may_be_dropped() -> None:
    lines, init = ready()
    assert verdict(_eof_judge([*lines, PING.rstrip(b"\n")], [init])) == warns("FRAME-EOF-PARTIAL")
    assert verdict(_eof_judge([*lines, LONG_WAIT], [init])) == warns("STDIO-EOF-DRAIN")
    assert verdict(_eof_judge([*lines, b"pas du json\n"], [init])) == warns("STDIO-EOF-DRAIN")


@pytest.mark.spec("FRAME-EOF-PARTIAL")
def test_only_an_answer_by_its_id_shows_the_unterminated_last_line_read() -> None:
    lines, init = ready()
    last = encode(request(4, "ping"))
    cut = b"".join([*lines, last.rstrip(b"\n")])

    def shown(output: list[bytes], stream: bytes = cut, eof: bool = True) -> bool:
        return "FRAME-EOF-PARTIAL" in witnessed(stream, Observation(tuple(output), eof=eof))

    assert shown([init, result(4)])
    # Silence is judged, never a pass; output that answers nothing shows no line read.
    assert not shown([init]) and not shown([b"1"]) and not shown([init, result(3)])
    assert not shown([init, result(4)], b"".join([*lines, last]))  # a terminated last line
    assert not shown([init, result(4)], eof=False)  # probed: the probe's bytes ran on from it


@pytest.mark.spec("FRAME-EOF-PARTIAL", "STDIO-EOF-DRAIN")
def test_an_unterminated_line_unanswered_by_a_server_that_drops_at_eof_is_not_judged_for_framing() -> None:
    # A server that loses terminated lines' answers at EOF may have read the last line and lost
    # its answer the same way: only its drops are reported, never a framing fault it may not have.
    lines, init = ready()
    pings = [encode(request(n, "ping")) for n in range(1, 4)]
    last = encode(request(4, "ping")).rstrip(b"\n")
    dropped = _eof_judge([*lines, *pings, last], [init, result(1)])
    assert verdict(dropped) == warns("STDIO-EOF-DRAIN")
    assert "cannot be judged" in next(f.message for f in dropped if f.line == len(lines) + 3)
    kept = _eof_judge([*lines, *pings, last], [init, result(1), result(2), result(3)])
    assert verdict(kept) == warns("FRAME-EOF-PARTIAL")
    # Whatever order the oracle settles its findings in: a line that is not JSON owes a -32700,
    # whose absence is settled after every line has been read.
    unread = _eof_judge([*lines, b"pas du json\n", *pings, last], [init, result(1), result(2), result(3)])
    assert verdict(unread) == warns("STDIO-EOF-DRAIN")


@pytest.mark.spec("RPC-JSON-LIMITS")
@pytest.mark.parametrize(
    "line",
    [
        b'{"jsonrpc":"2.0","id":1,"method":"ping","params":{"n":' + b"1" * 5000 + b"}}\n",
        b'{"jsonrpc":"2.0","id":1,"method":"ping","params":{"x":' + b"[" * 100_000 + b"]" * 100_000 + b"}}\n",
    ],
)
def test_json_beyond_the_reference_limits_may_be_served(line: bytes) -> None:
    lines, init = ready()
    served = verdict(_judge([*lines, line], [init, PING_ANSWER]))
    assert served[0] == set()
    assert verdict(_judge([*lines, line], [init, PARSE_REFUSAL])) == NONE


@pytest.mark.spec("RPC-JSON-LIMITS", "FRAME-CRLF", "RPC-ONE-ANSWER")
@pytest.mark.parametrize(
    ("line", "rule"),
    [
        (
            b'{"jsonrpc":"2.0","id":1,"method":"ping","params":{"x":' + b"[" * 200 + b"]" * 200 + b"}}\n",
            "RPC-JSON-LIMITS",
        ),
        (b'{"jsonrpc":"2.0","id":1,"method":"ping","params":{"x":"\\ud800"}}\n', "RPC-JSON-LIMITS"),
        (b'{"jsonrpc":"2.0","id":12345678901234567890,"method":"ping"}\n', "RPC-JSON-LIMITS"),
        (b'{"jsonrpc":"2.0","id":1,"method":"ping"}\r\n', "FRAME-CRLF"),
    ],
)
def test_lines_where_parsers_differ_may_be_refused_but_not_ignored(line: bytes, rule: str) -> None:
    lines, init = ready()
    assert verdict(_judge([*lines, line], [init, PARSE_REFUSAL])) == warns(rule)
    assert verdict(_judge([*lines, line], [init])) == fails("RPC-ONE-ANSWER")


@pytest.mark.spec("RPC-BATCH-UNSUPPORTED")
def test_silence_for_an_array_where_batches_do_not_exist_only_warns() -> None:
    lines, init = ready("2025-06-18")
    batch = encode([request(1, "ping")])
    assert verdict(_judge([*lines, batch], [init])) == warns("RPC-BATCH-UNSUPPORTED")


@pytest.mark.spec("RPC-DUPLICATE-KEYS")
def test_repeated_envelope_keys_may_be_read_either_way() -> None:
    lines, init = ready()
    line = b'{"jsonrpc":"2.0","id":1,"id":2,"method":"ping"}\n'
    assert verdict(_judge([*lines, line], [init, result(1)])) == NONE
    assert verdict(_judge([*lines, line], [init, result(2)])) == NONE
    assert verdict(_judge([*lines, line], [init, INVALID_REFUSAL])) == NONE
    assert verdict(_judge([*lines, line], [init])) == warns("RPC-DUPLICATE-KEYS")


@pytest.mark.spec("CAP-ANNOUNCED-METHODS")
def test_other_methods_of_an_announced_capability_may_be_served() -> None:
    lines, init = ready(capabilities={"tools": {}, "resources": {"subscribe": True}})
    session = [
        *lines,
        encode(request(1, "resources/templates/list")),
        encode(request(2, "resources/subscribe", {"uri": "x:"})),
    ]
    assert verdict(_judge(session, [init, result(1, {"resourceTemplates": []}), result(2)])) == NONE


@pytest.mark.spec("RPC-CLIENT-RESPONSE")
def test_an_answer_to_a_client_response_without_a_readable_id_only_warns() -> None:
    lines, init = ready()
    response = encode({"jsonrpc": "2.0", "id": None, "error": {"code": 1, "message": "x"}})
    assert verdict(_judge([*lines, response], [init, INVALID_REFUSAL])) == warns("RPC-CLIENT-RESPONSE")


@pytest.mark.spec("RPC-INVALID-REQUEST")
def test_silence_on_a_top_level_scalar_fails() -> None:
    lines, init = ready()
    assert verdict(_judge([*lines, b"5\n"], [init])) == fails("RPC-INVALID-REQUEST")


@pytest.mark.spec("TOOLS-EXEC-ERROR")
def test_string_properties_with_more_keywords_are_not_checked_by_the_oracle() -> None:
    schema: JsonObject = {
        "type": "object",
        "properties": {"mode": {"type": "string", "enum": ["a"]}},
        "required": ["mode"],
        "additionalProperties": False,
    }
    assert not _checkable(schema)


@pytest.mark.spec("RPC-DUPLICATE-ID", "RPC-INVALID-REQUEST")
def test_invalid_requests_sharing_an_id_need_one_answer_each() -> None:
    lines, init = ready()
    bad = encode({"jsonrpc": "2.0", "id": 5, "method": 5})
    three = [*lines, bad, bad, bad]
    answers = [init, error(5, -32600), error(5, -32600), error(5, -32600)]
    assert verdict(_judge(three, answers)) == NONE
    assert verdict(_judge(three, answers[:2])) == fails("RPC-ONE-ANSWER")


@pytest.mark.spec("RPC-JSON-LIMITS")
def test_a_line_too_deep_to_read_is_judged_by_the_id_before_its_nesting_if_any() -> None:
    lines, init = ready()
    deep = b"[" * 100_000 + b"]" * 100_000
    id_after = b'{"params":{"x":' + deep + b'},"jsonrpc":"2.0","id":1,"method":"ping"}\n'
    assert verdict(_judge([*lines, id_after], [init, PARSE_REFUSAL])) == NONE
    assert rules(_judge([*lines, id_after], [init, PING_ANSWER])) == {"RPC-PARSE-ERROR", "RPC-ONE-ANSWER"}


@pytest.mark.spec("FRAME-UTF8")
def test_a_line_neither_utf8_nor_json_is_refused_whatever_its_leading_id() -> None:
    line = b'{"jsonrpc":"2.0","id":"\\q","method":"ping","params":{"x":"\xff"}}\n'
    assert verdict(_judge([line], [PARSE_REFUSAL])) == NONE


@pytest.mark.spec("RPC-DUPLICATE-ID", "RPC-CANCEL")
def test_a_cancelled_id_used_twice_may_go_unanswered() -> None:
    lines, init = ready()
    cancel = encode(notification("notifications/cancelled", {"requestId": 1}))
    assert verdict(_judge([*lines, LONG_WAIT, LONG_WAIT, cancel], [init])) == NONE


# Rules whose findings the oracle makes under another rule, or that another stage judges.
NOT_JUDGED_BY_THE_ORACLE = {
    "FRAME-CHUNK-INVARIANT": "a campaign compares the runs of one case cut into other chunks",
    "FRAME-NO-EMBEDDED-NEWLINE": "a raw LF cuts what the server wrote into lines, each judged as any other",
    "STDIO-SIGNALS": "the shutdown tests send the signals; a session judged sends none",
    "RPC-ID-TYPE": "an id of another type makes an invalid message: RPC-INVALID-REQUEST",
    "RPC-DUPLICATE-ID": "the answers to a reused id are taken in any order; one missing is RPC-ONE-ANSWER",
    "RPC-CONCURRENT": "answers are matched by id, never by position: no order is judged",
    "RPC-CANCEL": "silence after a cancellation is allowed: it lifts findings, it makes none",
    "LIFE-VERSION-COUNTER-OFFER": "a counter-offer is judged as the version it offers: LIFE-VERSION-REJECT, LIFE-VERSION-KNOWN",
}

# Rules judged in two modules, and why each is.
IN_TWO_MODULES = {
    # A line a parser may refuse (refusable), and an id beyond 2^53 a peer may not read back (answers).
    "RPC-JSON-LIMITS": {"refusable", "answers"},
    # The rule of a request's silence: noted where the request is read (jsonrpc, refusable), judged
    # where its answer is looked for (answers).
    "RPC-ONE-ANSWER": {"jsonrpc", "refusable", "answers"},
    # Params are judged by the method that reads them: initialize (lifecycle), tools/call (tools).
    "RPC-INVALID-PARAMS": {"lifecycle", "tools"},
    # A client's response may draw an id-null error (jsonrpc notes it) or an answer by its id (answers).
    "RPC-CLIENT-RESPONSE": {"jsonrpc", "answers"},
    # What one modern answer shows (modern), and what a session's answers show together (modern_session).
    "MOD-CAP-REQUIRED": {"modern", "modern_session"},
    "MOD-STATELESS": {"modern", "modern_session"},
    # The era a connection keeps: a modern request refused after initialize (modern), an initialize
    # refused after modern requests were served (lifecycle, where initialize is judged).
    "MOD-DUAL-ERA": {"modern", "lifecycle"},
}


def test_every_rule_the_oracle_judges_is_found_where_it_is_judged() -> None:
    places = where_judged()
    # The client rules judged by comparison with the plain tool call are named by the script that
    # sets them up (client_scripts.FRAMING), not in the judge's code.
    assert set(places) | DIFFERENTIAL == {rule.id for rule in EVERY_RULE} - set(NOT_JUDGED_BY_THE_ORACLE)
    assert places["LIFE-PING"] == [("lifecycle", "ping")]
    assert ("modern", "ModernJudge._served") in places["MOD-DUAL-ERA"]


def test_each_rule_is_judged_in_one_family_module_but_the_exceptions_named() -> None:
    modules = {rule: {module for module, _ in found} for rule, found in where_judged().items()}
    shared = {rule: found for rule, found in modules.items() if len(found) > 1}
    print("rules judged in more than one module:", shared)
    assert shared == IN_TWO_MODULES


@pytest.mark.spec("RPC-ID-ECHO", "RPC-ONE-ANSWER")
@pytest.mark.parametrize("order", [(1, "1"), ("1", 1)])
def test_an_id_retyped_to_another_request_s_id_is_one_cause_under_id_echo(order: tuple[object, object]) -> None:
    # A server that answers "1" as 1, asked with 1 and "1": both answers come back under 1. The second
    # is the answer to "1" with its id changed, whichever was asked first, not a second answer to 1 and
    # "1" left unanswered.
    lines = [*HANDSHAKE, *(encode(request(request_id, "ping")) for request_id in order)]
    findings = _judge(lines, [INIT_RESULT, result(1), result(1)])
    assert verdict(findings) == fails("RPC-ID-ECHO")
    assert [(f.rule, f.expected, f.actual) for f in findings] == [("RPC-ID-ECHO", '"1"', "1")]
