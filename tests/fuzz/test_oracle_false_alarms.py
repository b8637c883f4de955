"""False alarms once raised on published servers, by class: each permitted behaviour is at most a
warning under ``spec``, and each line gets at most one finding, under the rule that names its cause."""

from __future__ import annotations

import json

import pytest
from test_oracle import HANDSHAKE, INIT_RESULT, _judge, rules

from mcpref.fuzz.drive.client_side import SENTINEL_IDS
from mcpref.fuzz.drive.observation import Observation
from mcpref.fuzz.generate.corpus import call
from mcpref.fuzz.generate.messages import encode, initialize, request
from mcpref.fuzz.judge.oracle import Finding, Profile, witnessed
from mcpref.reference.eras import LEGACY
from mcpref.reference.versions import V2025_11_25

NAN_PING = b'{"jsonrpc":"2.0","id":1,"method":"ping","params":{"x":NaN}}\n'
PONG = b'{"jsonrpc":"2.0","id":1,"result":{}}'


def null_error(code: int) -> bytes:
    return json.dumps({"jsonrpc": "2.0", "id": None, "error": {"code": code, "message": "refused"}}).encode()


def _observed(output: list[bytes]) -> Observation:
    return Observation(tuple(output), b"", True, SENTINEL_IDS)


def about(findings: list[Finding], line: int) -> list[Finding]:
    return [f for f in findings if f.line == line]


@pytest.mark.spec("RPC-JSON-EXTENSIONS", "RPC-PARSE-ERROR")
def test_a_lenient_parser_serving_nan_warns_once() -> None:
    findings = _judge([*HANDSHAKE, NAN_PING], [INIT_RESULT, PONG])
    assert rules(findings) == set()
    assert [(f.rule, f.message) for f in findings] == [
        ("RPC-JSON-EXTENSIONS", "served a line that is JSON only with an extension (NaN, Infinity)")
    ]


@pytest.mark.spec("RPC-PARSE-ERROR")
def test_nan_refused_with_a_parse_error_passes_and_silence_fails() -> None:
    assert _judge([*HANDSHAKE, NAN_PING], [INIT_RESULT, null_error(-32700)]) == []
    assert rules(_judge([*HANDSHAKE, NAN_PING], [INIT_RESULT])) == {"RPC-PARSE-ERROR"}


@pytest.mark.spec("RPC-DUPLICATE-KEYS")
def test_repeated_member_names_with_equal_values_may_be_refused() -> None:
    line = b'{"jsonrpc":"2.0","jsonrpc":"2.0","id":1,"method":"ping"}\n'
    for code in (-32700, -32600):
        findings = _judge([*HANDSHAKE, line], [INIT_RESULT, null_error(code)])
        assert rules(findings) == set(), findings
        assert {f.rule for f in findings} <= {"RPC-DUPLICATE-KEYS"}
    assert _judge([*HANDSHAKE, line], [INIT_RESULT, PONG]) == []


@pytest.mark.spec("RPC-ONE-ANSWER", "RPC-PARSE-ERROR", "RPC-JSON-LIMITS")
def test_a_dropped_request_is_blamed_not_the_parse_errors_that_were_answered() -> None:
    big = b'{"jsonrpc":"2.0","id":1000000000000000000000000000001,"method":"ping"}\n'
    lines = [*HANDSHAKE, b"pas du json\n", big, b"{\n", b"nope\n"]
    findings = _judge(lines, [INIT_RESULT, null_error(-32700), null_error(-32700), null_error(-32700)])
    assert [(f.rule, f.line) for f in findings if f.rule != "RPC-JSON-LIMITS"] == [("RPC-ONE-ANSWER", 3)]


@pytest.mark.spec("RPC-JSON-LIMITS", "RPC-INVALID-REQUEST")
def test_an_id_beyond_the_interoperable_range_may_be_lost_whatever_else_is_wrong() -> None:
    for line in (
        b'{"jsonrpc":"2.0","id":1000000000000000000000000000001,"method":5}\n',
        b'{"jsonrpc":"2.0","id":1000000000000000000000000000000,"method":"ping"}\n',
    ):
        findings = _judge([*HANDSHAKE, line], [INIT_RESULT, null_error(-32600)])
        assert rules(findings) == set(), findings
        assert {f.rule for f in findings} <= {"RPC-JSON-LIMITS"}


@pytest.mark.spec("RPC-JSON-LIMITS", "RPC-ID-ECHO")
def test_an_id_beyond_two_to_the_53_answered_as_the_nearest_double_warns() -> None:
    line = b'{"jsonrpc":"2.0","id":9007199254740993,"method":"ping"}\n'
    findings = _judge([*HANDSHAKE, line], [INIT_RESULT, b'{"jsonrpc":"2.0","id":9007199254740992,"result":{}}'])
    assert rules(findings) == set()
    assert [f.rule for f in findings] == ["RPC-JSON-LIMITS"]
    assert rules(findings, Profile.STRICT) == {"RPC-JSON-LIMITS"}


@pytest.mark.spec("FRAME-UTF8")
def test_invalid_utf8_served_after_replacement_warns_and_silence_fails() -> None:
    line = b'{"jsonrpc":"2.0","id":1,"method":"ping","params":{"x":"\xff"}}\n'
    served = _judge([*HANDSHAKE, line], [INIT_RESULT, PONG])
    assert rules(served) == set() and [f.rule for f in served] == ["FRAME-UTF8"]
    assert rules(_judge([*HANDSHAKE, line], [INIT_RESULT])) == {"FRAME-UTF8"}


@pytest.mark.spec("FRAME-LF-ONLY")
def test_a_raw_cr_between_tokens_read_as_a_line_end_warns_once() -> None:
    line = b'{"jsonrpc":"2.0",\r"id":1,"method":"ping"}\n'
    findings = _judge([*HANDSHAKE, line], [INIT_RESULT, null_error(-32700), null_error(-32700)])
    assert rules(findings) == set()
    assert len(about(findings, 2)) + len([f for f in findings if f.line is None]) == 1, findings
    assert {f.rule for f in findings} == {"FRAME-LF-ONLY"}


@pytest.mark.spec("FRAME-LF-ONLY")
def test_a_raw_u2028_read_as_a_line_end_still_fails() -> None:
    line = '{"jsonrpc":"2.0","id":1,"method":"ping","params":{"x":"a\u2028b"}}\n'.encode()
    findings = _judge([*HANDSHAKE, line], [INIT_RESULT, null_error(-32700), null_error(-32700)])
    assert rules(findings) == {"FRAME-LF-ONLY"}


@pytest.mark.spec("RPC-PARAMS-OBJECT")
def test_positional_params_served_warns_once() -> None:
    line = b'{"jsonrpc":"2.0","id":1,"method":"ping","params":[1]}\n'
    findings = _judge([*HANDSHAKE, line], [INIT_RESULT, PONG])
    assert rules(findings) == set()
    assert [f.rule for f in findings] == ["RPC-PARAMS-OBJECT"]


@pytest.mark.spec("MOD-DUAL-ERA", "LIFE-INIT-RESULT")
def test_initialize_after_a_successful_discover_is_no_compliant_session_and_only_warns() -> None:
    from test_oracle_modern import DISCOVERED, modern, result

    opening = [json.dumps(m).encode() + b"\n" for m in LEGACY.opening("init", V2025_11_25)]
    stream = [json.dumps(modern(1, "server/discover")).encode() + b"\n", *opening]
    broken = result("init", {"protocolVersion": "2025-11-25"})  # no capabilities, no serverInfo
    findings = _judge(stream, [result(1, DISCOVERED), broken])
    assert rules(findings) == set() and "LIFE-INIT-RESULT" in rules(findings, Profile.STRICT)
    assert all("after initialize that followed a successful server/discover" in f.message for f in findings)
    # The fallback of a dual-era client, after a discover that failed, is judged in full.
    refused = b'{"jsonrpc":"2.0","id":1,"error":{"code":-32601,"message":"no"}}'
    assert rules(_judge(stream, [refused, broken])) == {"LIFE-INIT-RESULT"}


INIT_AGAIN = (
    b'{"jsonrpc":"2.0","id":9,"method":"initialize","params":{"protocolVersion":"2025-11-25",'
    b'"capabilities":{},"clientInfo":{"name":"c","version":"1"}}}\n'
)


@pytest.mark.spec("RPC-ID-TYPE", "RPC-INVALID-REQUEST")
@pytest.mark.parametrize("sent", ["1.5", "true"])
def test_an_answer_under_a_reading_of_an_unusable_id_says_so_once(sent: str) -> None:
    line = b'{"jsonrpc":"2.0","id":' + sent.encode() + b',"method":"ping"}\n'
    findings = _judge([*HANDSHAKE, line], [INIT_RESULT, b'{"jsonrpc":"2.0","id":1,"result":{}}'])
    assert [(f.rule, f.line, f.message) for f in findings] == [
        ("RPC-INVALID-REQUEST", 2, f"answered with id 1 for id {sent}")
    ]


@pytest.mark.spec("LIFE-SECOND-INIT")
def test_a_second_initialize_refused_with_code_0_is_said_to_be_refused() -> None:
    answer = b'{"jsonrpc":"2.0","id":9,"error":{"code":0,"message":"again"}}'
    (finding,) = _judge([*HANDSHAKE, INIT_AGAIN], [INIT_RESULT, answer])
    assert finding.message == "a second initialize was refused with code 0, outside JSON-RPC's reserved range"


@pytest.mark.spec("RPC-INVALID-PARAMS", "TOOLS-UNKNOWN")
def test_a_malformed_tool_call_refused_as_an_unknown_method_is_a_params_finding() -> None:
    line = b'{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":5}}\n'
    answer = b'{"jsonrpc":"2.0","id":3,"error":{"code":-32601,"message":"tools/call"}}'
    findings = _judge([*HANDSHAKE, line], [INIT_RESULT, answer])
    assert [(f.rule, f.message) for f in findings] == [
        ("RPC-INVALID-PARAMS", "a tools/call with malformed params was refused with -32601")
    ]


def test_id_null_answers_are_matched_so_that_as_many_lines_as_can_be_are_explained() -> None:
    from mcpref.fuzz.judge.answers import _explain_nulls

    # In order, the first line would take the -32700 the second needs; a maximum matching moves it.
    assert _explain_nulls([-32700, -32600], [[-32700, -32600], [-32700]], [0, 1]) == [1, 0]
    # More lines than answers: the lines matched first stay matched, the last is left.
    assert _explain_nulls([-32700], [[-32700], [-32700], [-32700, -32600]], [0, 1, 2]) == [0]
    assert _explain_nulls([-32700, None], [[-32600]], [0]) == [None, None]


@pytest.mark.spec("RPC-DUPLICATE-KEYS")
@pytest.mark.parametrize(
    "line",
    [
        b'{"jsonrpc":"2.0","jsonrpc":"2.0","id":1,"method":"ping"}\n',
        b'{"jsonrpc":"2.0","id":1,"method":"ping","params":{"a":1,"a":1}}\n',
    ],
)
def test_repeated_member_names_may_be_refused_under_the_request_s_own_id(line: bytes) -> None:
    for code in (-32700, -32600):
        answer = json.dumps({"jsonrpc": "2.0", "id": 1, "error": {"code": code, "message": "repeated"}}).encode()
        findings = _judge([*HANDSHAKE, line], [INIT_RESULT, answer])
        assert [(f.rule, rules(findings)) for f in findings] == [("RPC-DUPLICATE-KEYS", set())]
        assert {f.rule for f in _judge([*HANDSHAKE, line], [INIT_RESULT, null_error(code)])} <= {"RPC-DUPLICATE-KEYS"}


@pytest.mark.spec("RPC-CLIENT-RESPONSE", "RPC-NOTIFICATION-SILENT")
def test_an_id_null_error_for_a_response_of_the_client_warns_under_its_own_rule() -> None:
    line = b'{"jsonrpc":"2.0","id":"c1","result":{}}\n'
    findings = _judge([*HANDSHAKE, line], [INIT_RESULT, null_error(-32600)])
    assert [f.rule for f in findings] == ["RPC-CLIENT-RESPONSE"] and rules(findings) == set()


@pytest.mark.spec("RPC-BATCH-UNSUPPORTED", "RPC-INVALID-REQUEST")
def test_a_batch_processed_where_batches_do_not_exist_warns_and_its_silence_is_blamed_last() -> None:
    from test_oracle_rules import ready

    lines, init = ready("2025-06-18")
    members = [null_error(-32600).decode()] * 2
    findings = _judge([*lines, b"[1,2]\n"], [init, f"[{','.join(members)}]".encode()])
    assert rules(findings) == set() and {f.rule for f in findings} == {"RPC-BATCH-UNSUPPORTED"}
    lines, init = ready()
    both = [*lines, b"[]\n", b'{"jsonrpc":"2.0","id":null,"method":"ping"}\n']
    findings = _judge(both, [init, null_error(-32600)])
    assert rules(findings) == set() and [f.rule for f in findings] == ["RPC-BATCH-UNSUPPORTED"]


@pytest.mark.spec("RPC-JSON-EXTENSIONS")
def test_a_lenient_reading_that_finds_the_message_invalid_may_refuse_it_as_such() -> None:
    line = b'{"jsonrpc":"2.0","id":Infinity,"method":"ping"}\n'
    assert _judge([*HANDSHAKE, line], [INIT_RESULT, null_error(-32600)]) == []
    notification = b'{"jsonrpc":"2.0","method":"notifications/x","params":{"x":NaN}}\n'
    silent = _judge([*HANDSHAKE, notification], [INIT_RESULT])
    assert [f.rule for f in silent] == ["RPC-JSON-EXTENSIONS"] and rules(silent) == set()


@pytest.mark.spec("RPC-JSON-LIMITS", "RPC-CLIENT-RESPONSE")
def test_an_unreadable_id_takes_its_id_null_error_before_a_client_response_may() -> None:
    lines = [
        *HANDSHAKE,
        b'{"jsonrpc":"2.0","id":"client-0","result":{}}\n',
        b'{"jsonrpc":"2.0","id":1000000000000000000000000000026,"method":5}\n',
    ]
    findings = _judge(lines, [INIT_RESULT, null_error(-32700)])
    assert rules(findings) == set() and [f.rule for f in findings] == ["RPC-JSON-LIMITS"]


@pytest.mark.spec("RPC-BATCH-UNSUPPORTED", "RPC-NOTIFICATION-SILENT")
def test_a_batch_served_where_batches_do_not_exist_may_refuse_its_invalid_members() -> None:
    line = b'[{"jsonrpc":"2.0","id":"b0","method":"ping"},7]\n'
    answers = b'[{"jsonrpc":"2.0","id":"b0","result":{}},' + null_error(-32600) + b"]"
    findings = _judge([*HANDSHAKE, line, b'{"jsonrpc":"2.0","method":"notifications/x"}\n'], [INIT_RESULT, answers])
    assert rules(findings) == set() and {f.rule for f in findings} == {"RPC-BATCH-UNSUPPORTED"}


@pytest.mark.spec("RPC-NOTIFICATION-SILENT", "RPC-CLIENT-RESPONSE")
def test_an_answer_to_a_notification_is_not_taken_for_one_to_a_client_response() -> None:
    lines = [*HANDSHAKE, b'{"jsonrpc":"2.0","id":"c1","result":{}}\n', b'{"jsonrpc":"2.0","method":"notifications/x"}\n']
    assert rules(_judge(lines, [INIT_RESULT, null_error(-32601)])) == {"RPC-NOTIFICATION-SILENT"}


@pytest.mark.spec("RPC-INVALID-REQUEST", "RPC-ONE-ANSWER")
def test_a_second_answer_under_the_read_id_is_one_no_request_asked_for() -> None:
    line = b'{"jsonrpc":"2.0","id":true,"method":"ping"}\n'
    twice = [INIT_RESULT, b'{"jsonrpc":"2.0","id":1,"result":{}}', b'{"jsonrpc":"2.0","id":1,"result":{}}']
    findings = _judge([*HANDSHAKE, line], twice)
    assert [(f.rule, f.message) for f in findings] == [
        ("RPC-INVALID-REQUEST", "answered with id 1 for id true"),
        ("RPC-ONE-ANSWER", "an answer no request asked for"),
    ]


@pytest.mark.spec("FRAME-LF-ONLY")
def test_the_pieces_of_a_notification_cut_at_a_false_line_end_are_one_finding() -> None:
    line = '{"jsonrpc":"2.0","method":"notifications/x","params":{"x":"a\u2028b"}}\n'.encode()
    findings = _judge([*HANDSHAKE, line], [INIT_RESULT, null_error(-32700), null_error(-32700)])
    assert [(f.rule, f.mandatory) for f in findings] == [("FRAME-LF-ONLY", True)]


@pytest.mark.spec("MOD-STATELESS", "MOD-META-REQUIRED", "MOD-VERSION-UNSUPPORTED", "MOD-CAP-REQUIRED")
def test_the_own_rule_of_a_modern_request_is_what_its_envelope_lacks() -> None:
    from mcpref.fuzz.judge.modern import own_rule
    from mcpref.fuzz.judge.reading import Request

    def sent(envelope: object) -> Request:
        return Request(1, "tools/list", {"_meta": envelope} if envelope is not None else None)

    versioned = {"io.modelcontextprotocol/clientCapabilities": {}}
    assert own_rule(sent(None)) == "MOD-META-REQUIRED"
    assert own_rule(sent({**versioned, "io.modelcontextprotocol/protocolVersion": "1999-01-01"})) == (
        "MOD-VERSION-UNSUPPORTED"
    )
    assert own_rule(sent({**versioned, "io.modelcontextprotocol/protocolVersion": "2026-07-28"})) == "MOD-CAP-REQUIRED"


# Seen in the field run of twelve servers (docs/field-report.md, the triage's oracle errors).


def error_answer(request_id: object, code: int, message: str = "refused") -> bytes:
    return json.dumps({"jsonrpc": "2.0", "id": request_id, "error": {"code": code, "message": message}}).encode()


@pytest.mark.spec("RPC-CANCEL", "CAP-ANNOUNCED-METHODS")
def test_an_answer_to_a_cancelled_request_is_not_judged_for_its_content() -> None:
    # The Go SDK answers a cancelled tools/list with code 0 "context canceled": the interrupted work's
    # answer, allowed as silence is; tools/list itself was never seen to fail.
    listed = b'{"jsonrpc":"2.0","id":4,"method":"tools/list"}\n'
    cancel = b'{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":4}}\n'
    assert _judge([*HANDSHAKE, listed, cancel], [INIT_RESULT, error_answer(4, 0, "context canceled")]) == []
    assert rules(_judge([*HANDSHAKE, listed], [INIT_RESULT, error_answer(4, 0, "context canceled")])) != set()
    # Answered twice, cancelled or not, is one answer too many.
    twice = [INIT_RESULT, error_answer(4, 0), error_answer(4, 0)]
    assert rules(_judge([*HANDSHAKE, listed, cancel], twice)) == {"RPC-ONE-ANSWER"}


@pytest.mark.spec("RPC-JSON-LIMITS", "RPC-ONE-ANSWER", "STDIO-SURVIVE")
def test_an_id_rounded_to_a_double_by_a_server_that_then_died_is_no_unasked_answer() -> None:
    ping = b'{"jsonrpc":"2.0","id":9007199254740993,"method":"ping"}\n'
    rounded = b'{"jsonrpc":"2.0","id":9007199254740992,"result":{}}'
    findings = _judge([*HANDSHAKE, ping, b'{"x":"\x0b"}\n'], [INIT_RESULT, rounded], survived=False)
    assert {f.rule for f in findings} == {"RPC-JSON-LIMITS", "STDIO-SURVIVE"}
    assert rules(findings) == {"STDIO-SURVIVE"}


@pytest.mark.spec("RPC-ID-ECHO", "RPC-JSON-LIMITS")
def test_an_id_saturated_at_64_bits_is_named_as_such_not_as_silence() -> None:
    ping = b'{"jsonrpc":"2.0","id":1000000000000000000000000000000,"method":"ping"}\n'
    saturated = b'{"jsonrpc":"2.0","id":-9223372036854775808,"result":{}}'
    (finding,) = _judge([*HANDSHAKE, ping], [INIT_RESULT, saturated])
    assert (finding.rule, finding.mandatory) == ("RPC-ID-ECHO", True)
    assert finding.message == "answered with id -9223372036854775808 for id 1000000000000000000000000000000"


@pytest.mark.spec("RPC-JSON-LIMITS", "LIFE-PING")
def test_a_line_with_a_lone_surrogate_may_be_refused_under_its_own_id_with_any_error() -> None:
    ping = b'{"jsonrpc":"2.0","id":1,"method":"ping","params":{"x":"\\ud800"}}\n'
    findings = _judge([*HANDSHAKE, ping], [INIT_RESULT, error_answer(1, -32603, "An error occurred.")])
    assert [(f.rule, f.mandatory) for f in findings] == [("RPC-JSON-LIMITS", False)]
    assert findings[0].message.startswith("refused with -32603: a line past some parsers' limits")
    # Without the surrogate, the same refusal of a ping is the ping's own failure.
    plain = b'{"jsonrpc":"2.0","id":1,"method":"ping","params":{"x":"a"}}\n'
    assert rules(_judge([*HANDSHAKE, plain], [INIT_RESULT, error_answer(1, -32603)])) == {"LIFE-PING"}
    # An error that is due anyway draws no warning: an unknown method, surrogate or not.
    unknown = b'{"jsonrpc":"2.0","id":1,"method":"bogus/x","params":{"x":"\\ud800"}}\n'
    assert _judge([*HANDSHAKE, unknown], [INIT_RESULT, error_answer(1, -32601)]) == []


# Seen in a seeded campaign against a server that reads a bare CR as a line end (an open reading):
# the -32700s of a line cut at a CR were taken for optional refusals of other lines, and the line
# itself was failed for want of an answer; a U+2028 in a line the server read whole made a CR's
# pieces a failure.
CR_PING = b'{"jsonrpc":"2.0",\r"id":"x","method":"ping"}\n'
CR_PIECES = [null_error(-32700), null_error(-32700)]


@pytest.mark.spec("FRAME-LF-ONLY", "RPC-ONE-ANSWER", "RPC-BATCH")
def test_a_line_cut_at_a_cr_claims_its_pieces_before_lines_that_may_draw_a_refusal() -> None:
    handshake = [encode(initialize(0, "2025-03-26")), HANDSHAKE[1]]
    answer = json.loads(INIT_RESULT)
    answer["result"]["protocolVersion"] = "2025-03-26"
    refused = json.dumps([json.loads(null_error(-32600))] * 2).encode()  # each member of [7,7], not an object
    for body in ([CR_PING, b"[7,7]\n", b"[7,7]\n"], [b"[7,7]\n", b"[7,7]\n", CR_PING]):
        pieces_first = body[0] is CR_PING
        output = [*CR_PIECES, refused, refused] if pieces_first else [refused, refused, *CR_PIECES]
        findings = _judge([*handshake, *body], [json.dumps(answer).encode(), *output])
        assert rules(findings) == set(), findings
        cut = len(handshake) + body.index(CR_PING)
        assert [(f.rule, f.line, f.mandatory) for f in findings] == [("FRAME-LF-ONLY", cut, False)]


@pytest.mark.spec("FRAME-LF-ONLY")
def test_pieces_no_line_claims_are_a_cr_split_when_the_line_with_another_separator_was_read_whole() -> None:
    big = b'{"jsonrpc":"2.0",\r"id":9007199254740993,"method":"ping"}\n'
    u2028 = '{"jsonrpc":"2.0","id":1,"method":"ping","params":{"x":"a\u2028b"}}\n'.encode()
    findings = _judge([*HANDSHAKE, big, u2028], [INIT_RESULT, *CR_PIECES, PONG])
    assert rules(findings) == set(), findings
    assert ("FRAME-LF-ONLY", False) in [(f.rule, f.mandatory) for f in findings]


@pytest.mark.spec("FRAME-LF-ONLY", "RPC-ONE-ANSWER")
def test_each_line_cut_at_a_cr_takes_its_own_pieces() -> None:
    # The first such line took every -32700 left, and the second was failed for want of an answer.
    second = b'{"jsonrpc":"2.0",\r"id":"y","method":"ping"}\n'
    findings = _judge([*HANDSHAKE, CR_PING, second], [INIT_RESULT, *CR_PIECES, *CR_PIECES])
    assert rules(findings) == set(), findings
    assert [(f.rule, f.line) for f in findings] == [("FRAME-LF-ONLY", 2), ("FRAME-LF-ONLY", 3)]
    # One -32700 for the two: each line gets one before either takes a second; the other is silent.
    findings = _judge([*HANDSHAKE, CR_PING, second], [INIT_RESULT, null_error(-32700)])
    assert [(f.rule, f.line) for f in findings] == [("FRAME-LF-ONLY", 2), ("RPC-ONE-ANSWER", 3)]


@pytest.mark.spec("LIFE-SECOND-INIT", "RPC-BATCH", "RPC-BATCH-UNSUPPORTED")
def test_after_a_second_initialize_changed_the_version_a_batch_follows_either() -> None:
    # Seen in a seeded campaign against second_initialize.py: a second initialize answered with
    # 2025-03-26, the session left at 2025-11-25; the batch refused as 2025-11-25 refuses it was
    # failed under 2025-03-26, where batches exist. No version says which one then governs.
    again = encode(initialize("init-2", "2025-03-26"))
    answer = json.loads(INIT_RESULT)
    answer["id"], answer["result"]["protocolVersion"] = "init-2", "2025-03-26"
    batch = b'[{"jsonrpc":"2.0","id":"b-0","method":"ping"}]\n'
    lines = [*HANDSHAKE, again, batch]
    refused = _judge(lines, [INIT_RESULT, json.dumps(answer).encode(), null_error(-32600)])
    served = _judge(lines, [INIT_RESULT, json.dumps(answer).encode(), b'[{"jsonrpc":"2.0","id":"b-0","result":{}}]'])
    for findings in (refused, served):
        assert [f.rule for f in findings] == ["LIFE-SECOND-INIT"], findings
    # Without a second initialize, the version is known, and so is the verdict.
    assert "RPC-BATCH-UNSUPPORTED" in {f.rule for f in _judge([*HANDSHAKE, batch], [INIT_RESULT, b'[{"jsonrpc":"2.0","id":"b-0","result":{}}]'])}


@pytest.mark.spec("RPC-JSON-LIMITS", "RPC-ONE-ANSWER")
@pytest.mark.parametrize(("first", "second"), [(3, 4), (4, 3), (3, 5)])
def test_two_ids_beyond_2_53_read_as_one_double_each_get_an_answer(first: int, second: int) -> None:
    # Seen in seeded campaigns against float_ids.py (ids read as doubles, which RFC 8259 section 6
    # allows): 2**53 + 3 and 2**53 + 4 (or + 5) are both 2**53 + 4 as doubles, and so were both
    # answers; one was failed as answered twice, the other as unanswered.
    ids = [2**53 + first, 2**53 + second]
    lines = [*HANDSHAKE, *(encode({"jsonrpc": "2.0", "id": i, "method": "ping"}) for i in ids)]
    rounded = encode({"jsonrpc": "2.0", "id": int(float(ids[0])), "result": {}}).rstrip(b"\n")
    findings = _judge(lines, [INIT_RESULT, rounded, rounded])
    assert rules(findings) == set(), findings
    assert {f.rule for f in findings} <= {"RPC-JSON-LIMITS"}


def _tool(name: str) -> dict[str, object]:
    return {"name": name, "inputSchema": {"type": "object"}}


def _listed(request_id: int, names: list[str], cursor: str | None = None) -> bytes:
    result: dict[str, object] = {"tools": [_tool(name) for name in names]}
    if cursor is not None:
        result["nextCursor"] = cursor
    return encode({"jsonrpc": "2.0", "id": request_id, "result": result})


@pytest.mark.spec("TOOLS-UNKNOWN", "TOOLS-EXEC-ERROR")
def test_a_tool_on_a_page_not_fetched_is_not_taken_for_an_unlisted_one() -> None:
    # tools/list may be paginated (nextCursor, in every version): a call to a tool on a later page
    # is no call to an unlisted tool, and shows nothing of TOOLS-UNKNOWN.
    called = encode({"jsonrpc": "2.0", "id": 2, "result": {"content": [{"type": "text", "text": "x"}]}})
    calls = [encode(request(1, "tools/list")), encode(call(2, "echo", {"text": "x"}))]
    session = [*HANDSHAKE, *calls]
    first_page = [INIT_RESULT, _listed(1, ["lire_prix"], cursor="p1"), called]
    assert _judge(session, first_page) == []
    assert "TOOLS-UNKNOWN" not in witnessed(b"".join(session), _observed(first_page))
    # Once the last page came, the listing is whole: a tool on none of its pages is unlisted.
    last_page = [encode(request(3, "tools/list", {"cursor": "p1"})), encode(call(2, "bogus", {}))]
    session = [*HANDSHAKE, calls[0], *last_page]
    output = [INIT_RESULT, _listed(1, ["lire_prix"], cursor="p1"), _listed(3, ["echo"]), called]
    assert {f.rule for f in _judge(session, output)} == {"TOOLS-UNKNOWN"}
    # ... and a tool of the first page is still a listed one.
    session = [*HANDSHAKE, calls[0], last_page[0], encode(call(2, "lire_prix", {}))]
    assert _judge(session, output) == []
    assert "TOOLS-EXEC-ERROR" in witnessed(b"".join(session), _observed(output))


@pytest.mark.spec("FRAME-LF-ONLY", "RPC-JSON-LIMITS")
def test_a_line_cut_at_a_cr_whose_id_a_peer_may_refuse_is_one_finding() -> None:
    # An id beyond 2^53 makes the line one a peer may refuse whole (RPC-JSON-LIMITS), and its raw CR
    # one a peer may cut. One -32700 is the refusal; two are its two pieces: the cut alone, not a
    # refusal beside an answer no line asked for.
    line = b'{"jsonrpc":"2.0",\r"id":9007199254740993,"method":"ping"}\n'
    refused = _judge([*HANDSHAKE, line], [INIT_RESULT, null_error(-32700)])
    assert [(f.rule, f.message) for f in refused] == [("RPC-JSON-LIMITS", "refused a line the reference serves or skips")]
    for pieces in (2, 3):
        cut = _judge([*HANDSHAKE, line], [INIT_RESULT, *[null_error(-32700)] * pieces])
        assert [(f.rule, f.line) for f in cut] == [("FRAME-LF-ONLY", 2)]
        assert rules(cut) == set()  # a bare CR read as a line end is an open reading
    # A refusal of a line without a false line end is no piece of another line's.
    big = b'{"jsonrpc":"2.0","id":9007199254740993,"method":"ping"}\n'
    answered = b'{"jsonrpc":"2.0",\r"id":1,"method":"ping"}\n'
    findings = _judge([*HANDSHAKE, big, answered], [INIT_RESULT, null_error(-32700), PONG, null_error(-32700)])
    assert [(f.rule, f.line) for f in findings] == [("RPC-JSON-LIMITS", 2), ("FRAME-LF-ONLY", None)]
    # A blank line with a raw CR, refused: it holds no request to file the cut under.
    findings = _judge([*HANDSHAKE, b" \r \n"], [INIT_RESULT, null_error(-32700), null_error(-32700)])
    assert [(f.rule, f.line) for f in findings] == [("FRAME-BLANK-LINE", 2), ("FRAME-LF-ONLY", None)]
