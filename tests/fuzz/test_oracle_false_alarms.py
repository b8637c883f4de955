"""False alarms once raised on published servers, by class: each permitted behaviour is at most a
warning under ``spec``, and each line gets at most one finding, under the rule that names its cause."""

from __future__ import annotations

import json

import pytest
from test_oracle import HANDSHAKE, INIT_RESULT, _judge, rules

from mcpref.fuzz.oracle import Finding, Profile
from mcpref.reference.eras import LEGACY
from mcpref.reference.versions import V2025_11_25

NAN_PING = b'{"jsonrpc":"2.0","id":1,"method":"ping","params":{"x":NaN}}\n'
PONG = b'{"jsonrpc":"2.0","id":1,"result":{}}'


def null_error(code: int) -> bytes:
    return json.dumps({"jsonrpc": "2.0", "id": None, "error": {"code": code, "message": "refused"}}).encode()


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
