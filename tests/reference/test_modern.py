"""The modern era (2026-07-28) in the reference: stateless requests, alone and beside the handshake.

Each test drives a ``ServerSession`` with lines as a client writes them and reads the
answers back as JSON. Modern requests are written by the modern dialect
(``reference.eras``), so these tests also pin what a modern client sends.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from mcpref.reference.dispatcher import ServerSession
from mcpref.reference.eras import LEGACY, META_SERVER_INFO, MODERN, era_of, meta
from mcpref.reference.session_types import Eras, Send, StartTimer
from mcpref.reference.versions import V2025_11_25, V2026_07_28, Era

ALL_VERSIONS = ["2026-07-28", "2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"]


def encode(*messages: dict[str, Any]) -> bytes:
    return b"".join(json.dumps(message).encode() + b"\n" for message in messages)


def modern(request_id: Any, method: str, params: dict[str, Any] | None = None) -> dict[str, Any]:
    return MODERN.request(request_id, method, params or {}, V2026_07_28)


def with_meta(request_id: Any, method: str, request_meta: Any, **params: Any) -> dict[str, Any]:
    return {"jsonrpc": "2.0", "id": request_id, "method": method, "params": {**params, "_meta": request_meta}}


def answers(session: ServerSession, *messages: dict[str, Any]) -> list[dict[str, Any]]:
    effects = session.receive_data(encode(*messages))
    return [json.loads(line) for effect in effects if isinstance(effect, Send) for line in effect.data.splitlines()]


def answer(*messages: dict[str, Any], eras: Eras = Eras.BOTH) -> dict[str, Any]:
    *_, last = answers(ServerSession(eras=eras), *messages)
    return last


def legacy_opening() -> list[dict[str, Any]]:
    return LEGACY.opening(0, V2025_11_25)


@pytest.mark.spec("MOD-DISCOVER", "MOD-RESULT-TYPE", "CAP-ANNOUNCED-METHODS")
@pytest.mark.parametrize(("eras", "listed"), [(Eras.BOTH, ALL_VERSIONS), (Eras.MODERN, ["2026-07-28"])])
def test_discover_lists_the_versions_served_and_the_capabilities(eras: Eras, listed: list[str]) -> None:
    result = answer(modern(1, "server/discover"), eras=eras)["result"]
    assert result["supportedVersions"] == listed
    assert result["capabilities"] == {"tools": {"listChanged": False}}
    assert result["resultType"] == "complete"
    assert result["_meta"][META_SERVER_INFO] == {"name": "mcpref", "version": "0.1.0"}
    assert (result["ttlMs"], result["cacheScope"]) == (3_600_000, "public")


@pytest.mark.spec("MOD-META-REQUIRED")
@pytest.mark.parametrize(
    "request_meta",
    [
        None,
        [],
        {},
        {"io.modelcontextprotocol/protocolVersion": "2026-07-28"},
        {"io.modelcontextprotocol/clientCapabilities": {}},
        meta(20260728),
        meta("2026-07-28", capabilities=[]),
        meta(None),
    ],
    ids=repr,
)
def test_a_modern_request_without_its_metadata_gets_invalid_params(request_meta: Any) -> None:
    request = with_meta(1, "tools/list", request_meta)
    assert answer(request, eras=Eras.MODERN)["error"]["code"] == -32602


@pytest.mark.spec("MOD-META-REQUIRED")
def test_server_discover_without_meta_is_a_malformed_modern_request_on_a_dual_era_connection() -> None:
    assert answer({"jsonrpc": "2.0", "id": 1, "method": "server/discover"})["error"]["code"] == -32602


@pytest.mark.spec("MOD-VERSION-UNSUPPORTED")
@pytest.mark.parametrize(
    ("requested", "eras", "listed"),
    [
        ("1900-01-01", Eras.BOTH, ALL_VERSIONS),
        ("2025-11-25", Eras.BOTH, ALL_VERSIONS),
        ("2025-11-25", Eras.MODERN, ["2026-07-28"]),
        ("", Eras.MODERN, ["2026-07-28"]),
    ],
)
def test_a_version_not_served_statelessly_gets_32022_with_the_list(
    requested: str, eras: Eras, listed: list[str]
) -> None:
    error = answer(with_meta(7, "server/discover", meta(requested)), eras=eras)["error"]
    assert error["code"] == -32022
    assert error["data"] == {"supported": listed, "requested": requested}


@pytest.mark.spec("MOD-RESULT-TYPE", "MOD-TOOLS-CACHE", "TOOLS-LIST-SHAPE")
def test_tools_list_carries_the_cache_fields_the_result_type_and_the_modern_tools() -> None:
    result = answer(modern(1, "tools/list"))["result"]
    assert (result["ttlMs"], result["cacheScope"], result["resultType"]) == (3_600_000, "public", "complete")
    assert [tool["name"] for tool in result["tools"]] == ["lire_prix", "echo", "fail", "attendre", "demander"]
    assert all("title" in tool for tool in result["tools"])


@pytest.mark.spec("MOD-RESULT-TYPE", "TOOLS-CALL-RESULT", "TOOLS-ARGS-INVALID", "RPC-CONCURRENT")
def test_every_result_of_a_modern_call_is_typed_the_delayed_one_too() -> None:
    session = ServerSession()
    echo = answers(session, modern(1, "tools/call", {"name": "echo", "arguments": {"text": "x"}}))[0]["result"]
    assert (echo["content"], echo["isError"], echo["resultType"]) == (
        [{"type": "text", "text": "x"}],
        False,
        "complete",
    )
    bad = answers(session, modern(2, "tools/call", {"name": "echo", "arguments": {}}))[0]["result"]
    assert (bad["isError"], bad["resultType"]) == (True, "complete")
    (timer,) = session.receive_data(encode(modern(3, "tools/call", {"name": "attendre", "arguments": {"ms": 5}})))
    assert isinstance(timer, StartTimer)
    (sent,) = session.complete(timer.token)
    assert isinstance(sent, Send)
    assert json.loads(sent.data)["result"]["resultType"] == "complete"


@pytest.mark.spec("MOD-PING-GONE", "LIFE-PING")
def test_ping_is_gone_from_the_modern_era_and_still_served_to_legacy_clients() -> None:
    assert answer(modern(1, "ping"))["error"]["code"] == -32601
    assert answer({"jsonrpc": "2.0", "id": 1, "method": "ping"})["result"] == {}


@pytest.mark.spec("MOD-CAP-REQUIRED")
def test_a_tool_that_needs_elicitation_is_refused_without_it_and_asks_with_it() -> None:
    arguments = {"name": "demander", "arguments": {"question": "Pain ?"}}
    refused = answer(modern(1, "tools/call", arguments))["error"]
    assert refused["code"] == -32021
    assert refused["data"] == {"requiredCapabilities": {"elicitation": {}}}
    asking = with_meta(2, "tools/call", meta("2026-07-28", {"elicitation": {}}), **arguments)
    result = answer(asking)["result"]
    assert result["resultType"] == "input_required"
    assert result["inputRequests"]["answer"]["method"] == "elicitation/create"
    assert result["inputRequests"]["answer"]["params"]["message"] == "Pain ?"
    retry = {**asking, "id": 3}
    retry["params"] = {
        **asking["params"],
        "inputResponses": {"answer": {"action": "accept", "content": {"answer": "oui"}}},
    }
    done = answer(retry)["result"]
    assert (done["resultType"], done["content"][0]["text"], done["isError"]) == ("complete", "réponse : oui", False)
    retry["params"]["inputResponses"] = {"answer": {"action": "decline"}}
    assert answer(retry)["result"]["isError"] is True
    for unanswered in ({"answer": "not a response"}, {"answer": {"action": "accept"}}, "not a map"):
        retry["params"]["inputResponses"] = unanswered
        assert answer(retry)["result"]["resultType"] == "input_required"  # asked again, not an error


@pytest.mark.spec("TOOLS-UNKNOWN", "TOOLS-LIST-SHAPE")
def test_a_legacy_session_neither_lists_nor_runs_the_tool_that_asks() -> None:
    session = ServerSession()
    answers(session, *legacy_opening())
    listed = answers(session, {"jsonrpc": "2.0", "id": 1, "method": "tools/list"})[0]["result"]
    assert "demander" not in [tool["name"] for tool in listed["tools"]]
    call = {
        "jsonrpc": "2.0",
        "id": 2,
        "method": "tools/call",
        "params": {"name": "demander", "arguments": {"question": "?"}},
    }
    assert answers(session, call)[0]["error"]["code"] == -32602


@pytest.mark.spec("MOD-STATELESS")
def test_nothing_an_earlier_request_declared_serves_a_later_one() -> None:
    session = ServerSession()
    call = {"name": "demander", "arguments": {"question": "?"}}
    declared = with_meta(1, "tools/call", meta("2026-07-28", {"elicitation": {}}), **call)
    assert answers(session, declared)[0]["result"]["resultType"] == "input_required"
    assert answers(session, modern(2, "tools/call", call))[0]["error"]["code"] == -32021
    assert answers(session, with_meta(3, "tools/list", meta("1900-01-01")))[0]["error"]["code"] == -32022
    assert answers(session, with_meta(4, "server/discover", {}))[0]["error"]["code"] == -32602


@pytest.mark.spec("MOD-DUAL-ERA", "LIFE-PRE-INIT-REFUSED", "LIFE-INIT-RESULT")
def test_both_eras_are_served_on_one_connection_in_either_order() -> None:
    session = ServerSession()
    assert answers(session, modern(1, "server/discover"))[0]["result"]["resultType"] == "complete"
    assert answers(session, {"jsonrpc": "2.0", "id": 2, "method": "tools/list"})[0]["error"]["code"] == -32600
    opened = answers(session, *legacy_opening())
    assert opened[0]["result"]["protocolVersion"] == "2025-11-25"
    legacy = answers(session, {"jsonrpc": "2.0", "id": 3, "method": "tools/list"})[0]["result"]
    assert "resultType" not in legacy and "ttlMs" not in legacy
    assert answers(session, modern(4, "tools/list"))[0]["result"]["resultType"] == "complete"


@pytest.mark.spec("MOD-LEGACY-INIT")
def test_a_modern_only_server_names_its_versions_to_initialize() -> None:
    error = answer(*legacy_opening(), eras=Eras.MODERN)["error"]
    assert error["code"] == -32022
    assert error["data"] == {"supported": ["2026-07-28"], "requested": "2025-11-25"}
    assert "2026-07-28" in error["message"]


@pytest.mark.spec("MOD-DUAL-ERA", "LIFE-PRE-INIT-REFUSED")
def test_a_legacy_only_server_reads_a_modern_request_as_a_legacy_one() -> None:
    assert answer(modern(1, "tools/list"), eras=Eras.LEGACY)["error"]["code"] == -32600
    assert answer(*legacy_opening(), modern(1, "server/discover"), eras=Eras.LEGACY)["error"]["code"] == -32601


@pytest.mark.spec("RPC-DUPLICATE-ID")
def test_an_id_may_be_reused_once_its_request_is_answered_but_not_while_in_flight() -> None:
    session = ServerSession()
    wait = modern(1, "tools/call", {"name": "attendre", "arguments": {"ms": 5}})
    (timer,) = session.receive_data(encode(wait))
    assert isinstance(timer, StartTimer)
    assert answers(session, modern(1, "server/discover"))[0]["error"]["code"] == -32600
    session.complete(timer.token)
    assert answers(session, modern(1, "server/discover"))[0]["result"]["resultType"] == "complete"


@pytest.mark.spec("MOD-DUAL-ERA")
@pytest.mark.parametrize(
    ("method", "params", "era"),
    [
        ("initialize", {"_meta": meta("2026-07-28")}, Era.LEGACY),
        ("server/discover", None, Era.MODERN),
        ("tools/list", {"_meta": {"io.modelcontextprotocol/protocolVersion": 1}}, Era.MODERN),
        ("tools/list", {"_meta": {"io.modelcontextprotocol/clientCapabilities": {}}}, Era.LEGACY),
        ("tools/list", {"_meta": "2026-07-28"}, Era.LEGACY),
        ("tools/list", None, Era.LEGACY),
    ],
)
def test_the_era_of_a_request(method: str, params: dict[str, Any] | None, era: Era) -> None:
    assert era_of(method, params) is era


@pytest.mark.spec("MOD-DUAL-ERA", "LIFE-PING", "MOD-DISCOVER")
def test_each_dialect_opens_writes_and_probes_as_its_era_says() -> None:
    initialize, initialized = LEGACY.opening(0, V2025_11_25)
    assert (initialize["method"], initialize["params"]["protocolVersion"]) == ("initialize", "2025-11-25")
    assert initialized == {"jsonrpc": "2.0", "method": "notifications/initialized"}
    assert MODERN.opening(0, V2026_07_28) == []
    assert LEGACY.request(1, "tools/list", {}, V2025_11_25) == {
        "jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {}
    }
    assert modern(1, "tools/list")["params"]["_meta"] == meta("2026-07-28")
    for dialect, version in ((LEGACY, V2025_11_25), (MODERN, V2026_07_28)):
        session = ServerSession()
        answered = answers(session, *dialect.opening(0, version), dialect.probe("probe", version))
        assert answered[-1]["id"] == "probe" and "result" in answered[-1]
