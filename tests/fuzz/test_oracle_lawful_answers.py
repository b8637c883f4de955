"""Answers the specification allows, once misjudged: none is a failure, and each message says what
was seen."""

from __future__ import annotations

import json

import pytest
from test_oracle import HANDSHAKE, INIT_RESULT, _judge, rules
from test_oracle_modern import DISCOVERED, asking_for_elicitation, error, line, modern, result, typed

from mcpref.fuzz.drive.observation import Observation
from mcpref.fuzz.drive.process import SENTINEL_IDS
from mcpref.fuzz.generate.corpus import call
from mcpref.fuzz.generate.messages import encode, initialize, request
from mcpref.fuzz.judge.oracle import Finding, judge


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


def _after_modern_requests(code: int, version: str) -> list[Finding]:
    """An initialize offering ``version``, refused with ``code`` after a modern tools/list was served."""
    listed = modern(1, "tools/list")
    stream = b"".join([line(listed), encode(initialize(2, version))])
    refused = _answer(2, error={"code": code, "message": 'duplicate "initialize" received'})
    observation = Observation((result(1, typed(tools=[], ttlMs=0, cacheScope="private")), refused), b"", True, SENTINEL_IDS)
    return judge(stream, observation)


@pytest.mark.spec("MOD-DUAL-ERA", "LIFE-VERSION-UNSUPPORTED", "LIFE-VERSION-ACCEPT")
@pytest.mark.parametrize("version", ["2026-07-28", "1999-01-01"])
def test_an_initialize_refused_after_modern_requests_were_served_is_the_era_the_connection_kept(version: str) -> None:
    findings = _after_modern_requests(0, version)
    assert [(f.rule, f.mandatory) for f in findings] == [("MOD-DUAL-ERA", False)]
    assert findings[0].message.endswith("after 1 modern request (tools/list) was served: the connection kept the modern era it opened")
    assert _after_modern_requests(-32022, version) == []  # the era's own refusal (MOD-LEGACY-INIT)


def _messages(sent: list[dict[str, object]], answers: list[bytes]) -> dict[str, str]:
    stream = b"".join(line(message) for message in sent)
    observation = Observation((*answers, result(SENTINEL_IDS[0], DISCOVERED)), b"", True, SENTINEL_IDS)
    return {f.rule: f.message for f in judge(stream, observation)}


@pytest.mark.spec("MOD-STATELESS")
def test_a_stateless_finding_says_what_was_carried_over() -> None:
    first, tools = modern(1, "tools/list"), result(1, typed(tools=[], ttlMs=0, cacheScope="private"))
    bare = {"jsonrpc": "2.0", "id": 2, "method": "server/discover", "params": {"_meta": {}}}
    found = _messages([first, bare], [tools, result(2, DISCOVERED)])
    assert found["MOD-STATELESS"].endswith(", after an earlier request with a whole envelope was served")
    old = modern(2, "server/discover", **{"io.modelcontextprotocol/protocolVersion": "2099-01-01"})
    found = _messages([first, old], [tools, result(2, DISCOVERED)])
    assert found["MOD-STATELESS"] == (
        "served a request for version '2099-01-01', after an earlier request for a version it supports was served"
    )
    asking, declared, undeclared = asking_for_elicitation()
    found = _messages([declared, undeclared], [result(1, asking), result(2, asking)])
    assert found["MOD-STATELESS"].endswith("capability, which an earlier request on the connection declared")


@pytest.mark.spec("MOD-DUAL-ERA", "MOD-RESULT-TYPE", "MOD-TOOLS-CACHE")
@pytest.mark.parametrize("supported", [["2025-11-25"], ["2026-07-28", "2025-11-25"]])
def test_a_version_error_naming_legacy_versions_alone_shows_a_legacy_server(supported: list[str]) -> None:
    # Refused with -32022, then a counter-offer to initialize, then an enveloped request served as
    # a legacy one: a server that said it serves no modern version is judged as the legacy one it is.
    sent = [modern(1, "tools/list"), initialize(0, "2026-07-28"), {"jsonrpc": "2.0", "method": "notifications/initialized"}]
    stream = b"".join(line(message) for message in [*sent, modern(3, "tools/list")])
    refused = error(1, -32022, {"supported": supported, "requested": "2026-07-28"})
    observation = Observation((refused, INIT_RESULT, result(3, {"tools": []}), result(SENTINEL_IDS[0], {})), b"", True, SENTINEL_IDS)
    found = {f.rule for f in judge(stream, observation) if f.mandatory}
    assert found == (set() if supported == ["2025-11-25"] else {"MOD-RESULT-TYPE", "MOD-TOOLS-CACHE"})
