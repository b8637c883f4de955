"""Answers the specification allows, once misjudged: none is a failure, and each message says what
was seen."""

from __future__ import annotations

import json

import pytest
from test_oracle import HANDSHAKE, INIT_RESULT, _judge, rules

from mcpref.fuzz.generate.corpus import call
from mcpref.fuzz.generate.messages import encode, initialize, request


def _answer(request_id: object, **member: object) -> bytes:
    return json.dumps({"jsonrpc": "2.0", "id": request_id, **member}).encode()


PONG = _answer(1, result={})


@pytest.mark.spec("RPC-PARAMS-OBJECT")
@pytest.mark.parametrize("params", ['"x"', "null", "5", "true", "[1]"])
def test_any_non_structured_params_served_warns_and_never_fails(params: str) -> None:
    line = b'{"jsonrpc":"2.0","id":1,"method":"ping","params":' + params.encode() + b"}\n"
    findings = _judge([*HANDSHAKE, line], [INIT_RESULT, PONG])
    assert rules(findings) == set()
    assert [(f.rule, f.mandatory) for f in findings] == [("RPC-PARAMS-OBJECT", False)]
    assert findings[0].message.startswith("served a request whose params ")


@pytest.mark.spec("RPC-PARAMS-OBJECT")
def test_non_structured_params_refused_with_another_code_still_fails() -> None:
    line = b'{"jsonrpc":"2.0","id":1,"method":"ping","params":"x"}\n'
    refused = _answer(1, error={"code": -32601, "message": "no"})
    assert rules(_judge([*HANDSHAKE, line], [INIT_RESULT, refused])) == {"RPC-PARAMS-OBJECT"}


@pytest.mark.spec("LIFE-VERSION-UNSUPPORTED", "LIFE-VERSION-REJECT", "LIFE-VERSION-KNOWN")
@pytest.mark.parametrize("offered", ["2025-11-25", "2024-11-05", "2024-10-07"])
def test_a_counter_offer_to_an_unsupported_version_is_no_finding(offered: str) -> None:
    result = INIT_RESULT.replace(b"2025-11-25", offered.encode())
    stream = [encode(initialize(0, "1999-01-01")), HANDSHAKE[1]]
    assert _judge(stream, [result]) == []


@pytest.mark.spec("LIFE-VERSION-KNOWN")
def test_an_echoed_unsupported_version_still_fails() -> None:
    result = INIT_RESULT.replace(b"2025-11-25", b"1999-01-01")
    stream = [encode(initialize(0, "1999-01-01")), HANDSHAKE[1]]
    assert rules(_judge(stream, [result])) == {"LIFE-VERSION-KNOWN"}


@pytest.mark.spec("RPC-JSON-LIMITS", "LIFE-PRE-INIT-REFUSED")
def test_a_big_id_echoed_exactly_is_never_a_refusal_past_limits() -> None:
    big = 9007199254740995
    line = encode(request(big, "tools/list"))
    refused = _answer(big, error={"code": -32601, "message": "Method not found"})
    findings = _judge([line], [refused])
    assert "RPC-JSON-LIMITS" not in {f.rule for f in findings}
    assert [f.rule for f in findings] == ["LIFE-PRE-INIT-REFUSED"]


@pytest.mark.spec("RPC-JSON-LIMITS")
def test_a_line_past_limits_beyond_its_id_may_still_be_refused() -> None:
    line = b'{"jsonrpc":"2.0","id":9007199254740995,"method":"ping","params":{"n":12345678901234567890}}\n'
    refused = _answer(9007199254740995, error={"code": -32603, "message": "overflow"})
    findings = _judge([*HANDSHAKE, line], [INIT_RESULT, refused])
    assert [(f.rule, f.mandatory) for f in findings] == [("RPC-JSON-LIMITS", False)]


@pytest.mark.spec("LIFE-PRE-INIT-REFUSED", "TOOLS-UNKNOWN")
def test_an_unknown_tool_s_error_before_initialized_is_not_called_a_refusal() -> None:
    stream = [HANDSHAKE[0], encode(call(3, "echo", {"text": "x"}))]
    error = _answer(3, error={"code": -32602, "message": "Unknown tool: echo"})
    findings = _judge(stream, [INIT_RESULT, error])
    assert rules(findings) == set()
    assert all("refused" not in f.message for f in findings), findings


@pytest.mark.spec("RPC-ID-ECHO")
def test_an_error_without_an_id_member_is_said_to_have_none() -> None:
    unread = b'{"jsonrpc":"2.0","id":4,"method":"ping","params":"x"}\n'
    no_id = b'{"jsonrpc":"2.0","error":{"code":-32600,"message":"bad"}}'
    findings = _judge([*HANDSHAKE, unread], [INIT_RESULT, no_id])
    assert findings
    assert all("id null" not in f.message for f in findings), findings
    assert any("without an id member" in f.message for f in findings), findings
