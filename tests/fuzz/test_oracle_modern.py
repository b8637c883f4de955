"""The oracle on modern (2026-07-28) sessions: the reference passes, each divergence is reported under its rule.

Every transcript of the reference, serving both eras or the modern one only, passes both
profiles. Crafted answers then break one modern rule each; the readings the specification
allows other servers (the Python SDK's one era per connection, -32601 for a bare
``server/discover``, a legacy server that knows nothing of the era) are not failures under
``spec``.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from test_oracle import failing, reference_observation

from mcpref.fuzz.drive.client_side import SENTINEL_IDS
from mcpref.fuzz.drive.observation import Observation
from mcpref.fuzz.generate.case import Case
from mcpref.fuzz.generate.modern_strategies import modern_cases
from mcpref.fuzz.judge.lifecycle import refused_as_modern_only
from mcpref.fuzz.judge.modern import speaks_modern
from mcpref.fuzz.judge.oracle import Finding, Profile, judge, witnessed
from mcpref.reference.eras import LEGACY, MODERN, meta
from mcpref.reference.session_types import Eras
from mcpref.reference.versions import V2025_11_25, V2026_07_28, Era

SERVER = {"io.modelcontextprotocol/serverInfo": {"name": "t", "version": "1"}}
DISCOVERED = {
    "supportedVersions": ["2026-07-28"],
    "capabilities": {"tools": {}},
    "ttlMs": 0,
    "cacheScope": "private",
    "resultType": "complete",
    "_meta": SERVER,
}


def line(message: dict[str, Any]) -> bytes:
    return json.dumps(message).encode() + b"\n"


def modern(request_id: Any, method: str, params: dict[str, Any] | None = None, **envelope: Any) -> dict[str, Any]:
    message = MODERN.request(request_id, method, params or {}, V2026_07_28)
    message["params"]["_meta"].update(envelope)
    return message


def result(request_id: Any, body: dict[str, Any]) -> bytes:
    return json.dumps({"jsonrpc": "2.0", "id": request_id, "result": body}).encode()


def error(request_id: Any, code: int, data: Any = None) -> bytes:
    body: dict[str, Any] = {"code": code, "message": "no"}
    if data is not None:
        body["data"] = data
    return json.dumps({"jsonrpc": "2.0", "id": request_id, "error": body}).encode()


def typed(**body: Any) -> dict[str, Any]:
    return {**body, "resultType": "complete", "_meta": SERVER}


def verdict(sent: list[dict[str, Any]], answers: list[bytes], profile: Profile = Profile.SPEC) -> set[str]:
    """The rules failing once a discover (answered, so that the server shows its era) ends the session."""
    stream = b"".join(line(message) for message in sent)
    observation = Observation((*answers, result(SENTINEL_IDS[0], DISCOVERED)), b"", True, SENTINEL_IDS)
    findings: list[Finding] = judge(stream, observation)
    return {f.rule for f in failing(findings, profile)}


@pytest.mark.spec("MOD-META-REQUIRED", "MOD-VERSION-UNSUPPORTED", "MOD-RESULT-TYPE", "MOD-DISCOVER", "MOD-STATELESS")
@settings(max_examples=200, deadline=None)
@given(case=modern_cases())
def test_every_reference_transcript_of_a_modern_session_passes_both_profiles(case: Case) -> None:
    for eras in (Eras.BOTH, Eras.MODERN):
        findings = judge(case.stream, reference_observation(case, eras, Era.MODERN))
        assert findings == [], eras


@pytest.mark.spec("MOD-RESULT-TYPE")
def test_a_result_without_result_type_fails() -> None:
    sent = [modern(1, "tools/call", {"name": "echo", "arguments": {"text": "x"}})]
    answer = result(1, {"content": [{"type": "text", "text": "x"}], "isError": False})
    assert verdict(sent, [answer]) == {"MOD-RESULT-TYPE"}


@pytest.mark.spec("MOD-VERSION-UNSUPPORTED")
def test_an_unknown_version_refused_with_32602_fails_and_with_32022_without_data_too() -> None:
    sent = [modern(1, "tools/list", protocolVersion=None) | {"params": {"_meta": meta("1999-01-01")}}]
    assert verdict(sent, [error(1, -32602)]) == {"MOD-VERSION-UNSUPPORTED"}
    assert verdict(sent, [error(1, -32022)]) == {"MOD-VERSION-UNSUPPORTED"}
    data = {"supported": ["2026-07-28"], "requested": "1999-01-01"}
    assert verdict(sent, [error(1, -32022, data)]) == set()


@pytest.mark.spec("MOD-DISCOVER")
def test_a_discover_result_without_supported_versions_fails() -> None:
    sent = [modern(1, "server/discover")]
    assert verdict(sent, [result(1, typed(capabilities={}))]) == {"MOD-DISCOVER"}
    assert verdict(sent, [result(1, DISCOVERED)]) == set()


@pytest.mark.spec("MOD-META-REQUIRED", "MOD-STATELESS")
def test_a_request_served_without_its_envelope_fails_under_the_rule_its_history_names() -> None:
    bare = {"jsonrpc": "2.0", "id": 2, "method": "server/discover", "params": {"_meta": {}}}
    listed = result(2, DISCOVERED)
    assert verdict([bare], [listed]) == {"MOD-META-REQUIRED"}
    # The same answer after a whole request was served: only a server that kept its envelope answers so.
    first = modern(1, "tools/list")
    tools = result(1, typed(tools=[], ttlMs=0, cacheScope="private"))
    assert verdict([first, bare], [tools, listed]) == {"MOD-STATELESS"}


def asking_for_elicitation() -> tuple[dict[str, Any], dict[str, Any], dict[str, Any]]:
    """A result asking for elicitation, and a call that draws it with elicitation declared (id 1) and without (id 2)."""
    ask = {"name": "demander", "arguments": {"question": "?"}}
    asking = typed(inputRequests={"answer": {"method": "elicitation/create", "params": {}}})
    asking["resultType"] = "input_required"
    declared = modern(1, "tools/call", ask)
    declared["params"]["_meta"]["io.modelcontextprotocol/clientCapabilities"] = {"elicitation": {}}
    return asking, declared, modern(2, "tools/call", ask)


@pytest.mark.spec("MOD-CAP-REQUIRED", "MOD-STATELESS")
def test_asking_for_input_the_request_did_not_declare_fails() -> None:
    asking, declared, undeclared = asking_for_elicitation()
    assert verdict([undeclared], [result(2, asking)]) == {"MOD-CAP-REQUIRED"}
    assert verdict([declared], [result(1, asking)]) == set()
    assert verdict([declared, undeclared], [result(1, asking), result(2, asking)]) == {"MOD-STATELESS"}
    refused = error(2, -32021, {"requiredCapabilities": {"elicitation": {}}})
    assert verdict([undeclared], [refused]) == set()
    assert verdict([undeclared], [error(2, -32021)]) == {"MOD-CAP-REQUIRED"}


@pytest.mark.spec("MOD-CAP-REQUIRED", "TOOLS-EXEC-ERROR")
def test_a_call_the_server_showed_needs_a_capability_is_refused_with_32021_without_it() -> None:
    asking, declared, undeclared = asking_for_elicitation()
    # The tool listed, so that its refusal is judged as a call's too (TOOLS-EXEC-ERROR, a symptom here).
    schema = {"type": "object", "properties": {"question": {"type": "string"}}, "required": ["question"]}
    tool = {"name": "demander", "description": "asks", "inputSchema": schema}
    listing = [modern(0, "tools/list")], [result(0, typed(tools=[tool], ttlMs=0, cacheScope="private"))]
    # Either order: a stateless server's answer depends on the request alone.
    for sent, answers in (([declared, undeclared], [result(1, asking), error(2, -32602)]), ([undeclared, declared], [error(2, -32602), result(1, asking)])):
        stream = b"".join(line(message) for message in [*listing[0], *sent])
        answers = [*listing[1], *answers]
        findings = judge(stream, Observation((*answers, result(SENTINEL_IDS[0], DISCOVERED)), b"", True, SENTINEL_IDS))
        assert [(f.rule, f.mandatory) for f in findings] == [("MOD-CAP-REQUIRED", True)]  # not TOOLS-EXEC-ERROR too
        assert "refused with -32602 a call without elicitation" in findings[0].message
    assert verdict([declared, undeclared], [result(1, asking), error(2, -32021, {"requiredCapabilities": {"elicitation": {}}})]) == set()
    # Other arguments are another call; a call served without the capability did without it.
    other = modern(2, "tools/call", {"name": "demander", "arguments": {"question": "!"}})
    sent = [*listing[0], declared, other]
    assert verdict(sent, [*listing[1], result(1, asking), error(2, -32602)], Profile.STRICT) == {"TOOLS-EXEC-ERROR"}
    served = result(2, typed(content=[], isError=False))
    assert verdict([*listing[0], declared, undeclared], [*listing[1], result(1, asking), served], Profile.STRICT) == set()


@pytest.mark.spec("MOD-STATELESS", "MOD-DISCOVER")
def test_a_modern_era_that_waits_for_a_legacy_handshake_is_named_as_such_once() -> None:
    discover = modern(1, "server/discover")
    opening = LEGACY.opening(10, V2025_11_25)
    accepted = result(10, {"protocolVersion": "2025-11-25", "capabilities": {}, "serverInfo": {"name": "t", "version": "1"}})
    refused = error(1, -32600)

    def findings(answers: list[bytes], probe: bytes) -> list[tuple[str, int | None]]:
        stream = b"".join(line(message) for message in [discover, *opening])
        observation = Observation((*answers, probe), b"", True, SENTINEL_IDS)
        return [(f.rule, f.line) for f in judge(stream, observation)]

    served_probe = result(SENTINEL_IDS[0], DISCOVERED)
    # Refused before the handshake, served after it (the probe): the gate, not a malformed discover.
    assert findings([refused, accepted], served_probe) == [("MOD-STATELESS", 0)]
    # Served before too, or never: no gate (a legacy-only server refuses discover either way).
    assert findings([result(1, DISCOVERED), accepted], served_probe) == []
    assert findings([error(1, -32601), accepted], error(SENTINEL_IDS[0], -32601)) == []
    # Another request served after is no evidence: what is refused must be what is served.
    call = modern(1, "tools/call", {"name": "lire_prix", "arguments": {"produit": 5}})
    stream = b"".join(line(message) for message in [call, *opening])
    observation = Observation((error(1, -32602), accepted, served_probe), b"", True, SENTINEL_IDS)
    assert "MOD-STATELESS" not in {f.rule for f in judge(stream, observation)}


@pytest.mark.spec("TOOLS-CALL-RESULT")
def test_modern_structured_content_may_be_any_json_value_and_conforms_to_its_output_schema() -> None:
    tool = {"name": "noms", "inputSchema": {"type": "object"}, "outputSchema": {"type": "array", "items": {"type": "string"}}}
    sent = [modern(1, "tools/list"), modern(2, "tools/call", {"name": "noms", "arguments": {}})]
    listing = result(1, typed(tools=[tool], ttlMs=0, cacheScope="private"))

    def called(**body: Any) -> set[str]:
        return verdict(sent, [listing, result(2, typed(content=[], **body))])

    assert called(structuredContent=["a", "b"]) == set()
    assert called(structuredContent=["a", 1]) == {"TOOLS-CALL-RESULT"}
    assert called() == {"TOOLS-CALL-RESULT"}
    assert called(isError=True) == set()
    # Without an outputSchema, any value: null too.
    unschemed = result(1, typed(tools=[{"name": "noms", "inputSchema": {"type": "object"}}], ttlMs=0, cacheScope="private"))
    assert verdict(sent, [unschemed, result(2, typed(content=[], structuredContent=None))]) == set()


@pytest.mark.spec("MOD-TOOLS-CACHE")
def test_a_modern_tools_list_without_cache_fields_fails() -> None:
    sent = [modern(1, "tools/list")]
    assert verdict(sent, [result(1, typed(tools=[]))]) == {"MOD-TOOLS-CACHE"}
    assert verdict(sent, [result(1, typed(tools=[], ttlMs=-1, cacheScope="public"))]) == {"MOD-TOOLS-CACHE"}


@pytest.mark.spec("MOD-PING-GONE")
def test_a_modern_ping_served_is_a_decision_a_warning_under_spec() -> None:
    sent = [modern(1, "ping")]
    assert verdict(sent, [result(1, typed())]) == set()
    assert verdict(sent, [result(1, typed())], Profile.STRICT) == {"MOD-PING-GONE"}


@pytest.mark.spec("MOD-LEGACY-INIT", "MOD-DUAL-ERA")
def test_the_python_sdks_one_era_per_connection_is_allowed_under_spec() -> None:
    opening = LEGACY.opening("init", V2025_11_25)
    refused = error("init", -32022, {"supported": ["2026-07-28"], "requested": "2025-11-25"})
    assert verdict([modern(1, "server/discover"), *opening], [result(1, DISCOVERED), refused]) == set()
    bare_refusal = json.dumps({"jsonrpc": "2.0", "id": "init", "error": {"code": -32600, "message": "no"}}).encode()
    assert verdict([modern(1, "server/discover"), *opening], [result(1, DISCOVERED), bare_refusal], Profile.STRICT) >= {
        "MOD-LEGACY-INIT"
    }
    accepted = result("init", {"protocolVersion": "2025-11-25", "capabilities": {}, "serverInfo": {"name": "t", "version": "1"}})
    after = [*opening, modern(2, "tools/list")]
    assert verdict(after, [accepted, error(2, -32600)]) == set()
    assert verdict(after, [accepted, error(2, -32600)], Profile.STRICT) == {"MOD-DUAL-ERA"}


@pytest.mark.spec("MOD-META-REQUIRED")
def test_a_bare_discover_may_be_read_as_an_unknown_legacy_method() -> None:
    bare = {"jsonrpc": "2.0", "id": 1, "method": "server/discover"}
    assert verdict([bare], [error(1, -32601)]) == set()
    assert verdict([bare], [error(1, -32603)]) == {"MOD-META-REQUIRED"}
    # Nor does an empty _meta name the era; one with a version and no capabilities does.
    empty = {**bare, "params": {"_meta": {}}}
    assert verdict([empty], [error(1, -32601)]) == set()
    assert verdict([empty], [error(1, -32601)], Profile.STRICT) == {"MOD-META-REQUIRED"}
    versioned = {**bare, "params": {"_meta": {"io.modelcontextprotocol/protocolVersion": "2026-07-28"}}}
    assert verdict([versioned], [error(1, -32601)]) == {"MOD-META-REQUIRED"}


@pytest.mark.spec("MOD-DUAL-ERA", "RPC-METHOD-NOT-FOUND")
def test_a_server_that_never_shows_the_modern_era_is_judged_as_a_legacy_one() -> None:
    opening = LEGACY.opening(0, V2025_11_25)
    accepted = result(0, {"protocolVersion": "2025-11-25", "capabilities": {"tools": {}}, "serverInfo": {"name": "t", "version": "1"}})
    sent = [*opening, modern(1, "server/discover"), modern(2, "tools/list")]
    stream = b"".join(line(message) for message in sent)
    answers = (accepted, error(1, -32601), result(2, {"tools": []}))
    findings = judge(stream, Observation(answers, b"", True, SENTINEL_IDS))
    assert failing(findings, Profile.STRICT) == []


@pytest.mark.spec("RPC-METHOD-NOT-FOUND")
def test_a_method_of_the_modern_core_is_not_taken_for_an_unknown_one() -> None:
    sent = [modern(1, "subscriptions/listen")]
    assert verdict(sent, [result(1, typed())], Profile.STRICT) == set()
    assert verdict([modern(1, "bogus/x")], [result(1, typed())]) == {"RPC-METHOD-NOT-FOUND"}


@pytest.mark.spec("MOD-VERSION-UNSUPPORTED", "MOD-RESULT-TYPE", "MOD-CAP-REQUIRED", "MOD-LEGACY-INIT")
def test_the_less_common_modern_divergences() -> None:
    legacy_version = modern(1, "tools/list")
    legacy_version["params"]["_meta"]["io.modelcontextprotocol/protocolVersion"] = "2025-11-25"
    listed = result(1, typed(tools=[], ttlMs=0, cacheScope="public"))
    # A legacy version in _meta: what to answer is not written down, so serving it is a warning.
    assert verdict([legacy_version], [listed]) == set()
    assert verdict([legacy_version], [listed], Profile.STRICT) == {"MOD-VERSION-UNSUPPORTED"}
    assert verdict([modern(1, "tools/list")], [error(1, -32022)], Profile.STRICT) == {"MOD-VERSION-UNSUPPORTED"}
    asking = typed(inputRequests={})
    asking["resultType"] = "input_required"
    assert verdict([modern(1, "tools/list")], [result(1, asking)]) == {"MOD-RESULT-TYPE"}
    declared = modern(1, "tools/call", {"name": "demander", "arguments": {"question": "?"}})
    declared["params"]["_meta"]["io.modelcontextprotocol/clientCapabilities"] = {"elicitation": {}}
    refused = error(1, -32021, {"requiredCapabilities": {"elicitation": {}}})
    assert verdict([declared], [refused]) == {"MOD-CAP-REQUIRED"}


@pytest.mark.spec("MOD-LEGACY-INIT")
def test_a_modern_only_server_that_accepts_an_initialize_of_its_own_is_not_judged_by_this_era() -> None:
    refused = error("a", -32022, {"supported": ["2026-07-28"], "requested": "2025-11-25"})
    opened = result("b", {"protocolVersion": "2026-07-28", "capabilities": {}, "serverInfo": {"name": "t", "version": "1"}})
    sent = [*LEGACY.opening("a", V2025_11_25), {**LEGACY.opening("b", V2025_11_25)[0], "params": {
        "protocolVersion": "2026-07-28", "capabilities": {}, "clientInfo": {"name": "c", "version": "1"}}}]
    assert "MOD-LEGACY-INIT" not in verdict(sent, [refused, opened], Profile.STRICT)


@pytest.mark.spec("MOD-DUAL-ERA")
def test_what_shows_a_server_speaks_the_modern_era() -> None:
    assert speaks_modern((b"not json", b"[1, 2]", result(1, DISCOVERED)))
    assert speaks_modern((b"[" + error(1, -32021) + b"]",))
    assert not speaks_modern((b"not json", result(1, {"tools": []}), error(2, -32601)))
    # A version error that names modern versions alone: a server of that era refusing initialize.
    assert speaks_modern((error(1, -32602, {"supported": ["2026-07-28"], "requested": "2025-11-25"}),))
    assert not speaks_modern((error(1, -32602, {"supported": ["2025-11-25"], "requested": "1999-01-01"}),))
    assert not speaks_modern((error(1, -32602, {"supported": ["2026-07-28", "2025-11-25"]}),))
    assert not speaks_modern((error(1, -32602, {"supported": []}),))
    assert not speaks_modern((error(1, -32602, {"supported": [["2026-07-28"]]}),))
    assert not speaks_modern((b'{"jsonrpc":"2.0","id":1}', b'{"jsonrpc":"2.0","id":2,"error":[]}'))


@pytest.mark.spec("MOD-META-REQUIRED", "MOD-VERSION-UNSUPPORTED")
def test_a_method_the_server_never_showed_may_be_refused_as_unknown_before_its_envelope_is_read() -> None:
    discovered = [modern(0, "server/discover")]
    answers = [result(0, DISCOVERED)]  # capabilities: tools only
    for broken in (meta("2026-07-28", []), meta("1999-01-01")):
        unknown = {"jsonrpc": "2.0", "id": 1, "method": "bogus/x", "params": {"_meta": broken}}
        assert verdict([*discovered, unknown], [*answers, error(1, -32601)]) == set()
        assert verdict([*discovered, unknown], [*answers, error(1, -32601)], Profile.STRICT) != set()
        listed = {**unknown, "method": "tools/list"}
        assert verdict([*discovered, listed], [*answers, error(1, -32601)]) != set()


@pytest.mark.spec("MOD-NO-SERVER-REQUESTS", "LIFE-SERVER-EARLY", "CAP-CLIENT-DECLARED")
def test_a_request_a_modern_server_writes_fails_outside_a_legacy_session_it_opened() -> None:
    form = {"message": "m", "requestedSchema": {"type": "object", "properties": {}}}
    ask = line({"jsonrpc": "2.0", "id": "a", "method": "elicitation/create", "params": form}).rstrip(b"\n")
    call = modern(1, "tools/call", {"name": "echo", "arguments": {"text": "x"}})
    served = result(1, typed(content=[{"type": "text", "text": "x"}], isError=False))
    assert verdict([call], [ask, served]) == {"MOD-NO-SERVER-REQUESTS"}
    assert verdict([call], [ask, ask, served]) == {"MOD-NO-SERVER-REQUESTS"}  # one finding names both
    findings = judge(line(call), Observation((ask, ask, served, result(SENTINEL_IDS[0], DISCOVERED)), b"", True, SENTINEL_IDS))
    assert [f.rule for f in findings] == ["MOD-NO-SERVER-REQUESTS"]
    # After the server accepted a legacy initialize, the connection holds a legacy session, where
    # servers may ask with requests for what the client declared (here nothing: CAP-CLIENT-DECLARED);
    # before its answer, a request is the modern era's, not early.
    opening = LEGACY.opening(10, V2025_11_25)
    accepted = result(10, {"protocolVersion": "2025-11-25", "capabilities": {}, "serverInfo": {"name": "t", "version": "1"}})
    assert verdict([call, *opening], [ask, served, accepted], Profile.STRICT) == {"MOD-NO-SERVER-REQUESTS"}
    assert verdict([call, *opening], [served, accepted, ask], Profile.STRICT) == {"CAP-CLIENT-DECLARED"}


@pytest.mark.spec("MOD-LISTEN-ONLY", "CAP-LIST-CHANGED", "SERVER-MESSAGE-SHAPE")
def test_a_list_change_no_subscriptions_listen_asked_for_fails_once() -> None:
    def notice(method: str, **params: Any) -> bytes:
        return line({"jsonrpc": "2.0", "method": method, **({"params": params} if params else {})}).rstrip(b"\n")

    tools_changed = notice("notifications/tools/list_changed")
    updated = notice("notifications/resources/updated", uri="file:///a")
    call = modern(1, "tools/call", {"name": "echo", "arguments": {"text": "x"}})
    served = result(1, typed(content=[{"type": "text", "text": "x"}], isError=False))
    assert verdict([call], [tools_changed, updated, served]) == {"MOD-LISTEN-ONLY"}
    findings = judge(line(call), Observation((tools_changed, updated, served, result(SENTINEL_IDS[0], DISCOVERED)), b"", True, SENTINEL_IDS))
    assert [(f.rule, f.message) for f in findings] == [
        ("MOD-LISTEN-ONLY", "wrote 2 notifications no subscriptions/listen asked for: "
         "notifications/tools/list_changed, notifications/resources/updated"),
    ]  # fmt: skip
    alone = judge(line(call), Observation((updated, served, result(SENTINEL_IDS[0], DISCOVERED)), b"", True, SENTINEL_IDS))
    assert [f.message for f in alone] == ["wrote 1 notification no subscriptions/listen asked for: notifications/resources/updated"]
    # A listen stream that asked for the type, or for the resource's URI, makes them lawful.
    listen = modern(2, "subscriptions/listen", {"notifications": {"toolsListChanged": True, "resourceSubscriptions": ["file:///a", 7]}})
    ended = result(2, typed())  # the stream's graceful end
    assert verdict([call, listen], [tools_changed, updated, served, ended]) == set()
    other_uri = notice("notifications/resources/updated", uri="file:///b")
    prompts_changed = notice("notifications/prompts/list_changed")
    assert verdict([call, listen], [other_uri, prompts_changed, served, ended]) == {"MOD-LISTEN-ONLY"}
    # A URI that is no string is the update's shape's fault (one finding for one cause).
    object_uri = notice("notifications/resources/updated", uri={})
    assert verdict([call, listen], [object_uri, served, ended]) == {"SERVER-MESSAGE-SHAPE"}
    unfiltered = modern(2, "subscriptions/listen", {"notifications": ["toolsListChanged"]})
    assert verdict([call, unfiltered], [tools_changed, served, ended]) == {"MOD-LISTEN-ONLY"}
    prompts_only = modern(2, "subscriptions/listen", {"notifications": {"promptsListChanged": True}})
    assert verdict([call, prompts_only], [prompts_changed, served, ended]) == set()
    assert verdict([call, prompts_only], [updated, served, ended]) == {"MOD-LISTEN-ONLY"}
    # In a legacy session the server opened, list changes are judged by what it announced.
    opening = LEGACY.opening(10, V2025_11_25)
    accepted = result(10, {"protocolVersion": "2025-11-25", "capabilities": {}, "serverInfo": {"name": "t", "version": "1"}})
    assert verdict([call, *opening], [served, accepted, tools_changed], Profile.STRICT) == {"CAP-LIST-CHANGED"}


@pytest.mark.spec("MOD-LOG-LEVEL", "CAP-LOGGING-DECLARED")
def test_a_log_message_no_modern_request_asked_for_fails_once() -> None:
    log = line({"jsonrpc": "2.0", "method": "notifications/message", "params": {"level": "info", "data": "x"}})
    call = modern(1, "tools/call", {"name": "echo", "arguments": {"text": "x"}})
    served = result(1, typed(content=[{"type": "text", "text": "x"}], isError=False))
    assert verdict([call], [log.rstrip(b"\n"), log.rstrip(b"\n"), served]) == {"MOD-LOG-LEVEL"}
    # A request that asked for a level: a log may be its own until its answer is written, not after.
    asking = modern(1, "tools/call", {"name": "echo", "arguments": {"text": "x"}}, **{"io.modelcontextprotocol/logLevel": "info"})
    assert verdict([asking], [log.rstrip(b"\n"), served]) == set()
    assert verdict([asking], [served, log.rstrip(b"\n")]) == {"MOD-LOG-LEVEL"}
    unasked = modern(2, "tools/list")
    listed = result(2, typed(tools=[], ttlMs=0, cacheScope="private"))
    assert verdict([asking, unasked], [log.rstrip(b"\n"), served, listed]) == set()  # maybe the call's
    assert verdict([asking, unasked], [served, log.rstrip(b"\n"), listed]) == {"MOD-LOG-LEVEL"}


@pytest.mark.spec("PROGRESS-TOKEN", "PROGRESS-INCREASING")
def test_progress_in_the_modern_era_is_the_asking_requests_until_its_answer_and_grows() -> None:
    def progress(token: Any, value: float) -> bytes:
        return line({"jsonrpc": "2.0", "method": "notifications/progress", "params": {"progressToken": token, "progress": value}}).rstrip(b"\n")

    asking = modern(1, "tools/call", {"name": "attendre", "arguments": {"ms": 5}}, progressToken="p-1")
    served = result(1, typed(content=[{"type": "text", "text": "ok"}], isError=False))
    assert verdict([asking], [progress("p-1", 0.5), progress("p-1", 1), served]) == set()
    assert verdict([asking], [served, progress("p-1", 1)]) == {"PROGRESS-TOKEN"}  # after the answer
    assert verdict([asking], [progress("other", 1), served]) == {"PROGRESS-TOKEN"}  # no request's token
    assert verdict([asking], [progress("p-1", 1), progress("p-1", 1), served]) == {"PROGRESS-INCREASING"}


@pytest.mark.spec("MOD-LISTEN-ONLY")
def test_a_task_notification_is_written_only_for_a_task_a_listen_stream_asked_for() -> None:
    def task(task_id: Any) -> bytes:
        params = {"taskId": task_id, "status": "working", "createdAt": "2026-12-04T00:00:00Z", "ttl": None}
        return line({"jsonrpc": "2.0", "method": "notifications/tasks", "params": params}).rstrip(b"\n")

    call = modern(1, "tools/call", {"name": "echo", "arguments": {"text": "x"}})
    served = result(1, typed(content=[{"type": "text", "text": "x"}], isError=False))
    assert verdict([call], [task("t-1"), served]) == {"MOD-LISTEN-ONLY"}
    listen = modern(2, "subscriptions/listen", {"notifications": {"taskIds": ["t-1"], "resourceSubscriptions": ["t-2"]}})
    ended = result(2, typed())
    assert verdict([call, listen], [task("t-1"), served, ended]) == set()
    for other in ("t-2", {"id": "t-1"}):  # a resource's URI is no task's id; nor is an object
        assert verdict([call, listen], [task(other), served, ended]) == {"MOD-LISTEN-ONLY"}
    # A resource update without params names no URI: its shape's rule finds it, not MOD-LISTEN-ONLY.
    bare = line({"jsonrpc": "2.0", "method": "notifications/resources/updated"}).rstrip(b"\n")
    assert verdict([call, listen], [bare, served, ended]) == {"SERVER-MESSAGE-SHAPE"}


@pytest.mark.spec("MOD-SERVER-CANCEL", "RPC-CANCEL-OWN")
def test_a_modern_server_cancels_nothing_but_a_listen_stream() -> None:
    def cancelled(request_id: Any) -> bytes:
        return line({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": request_id}}).rstrip(b"\n")

    call = modern(1, "tools/call", {"name": "attendre", "arguments": {"ms": 5}})
    cancel = {"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 1}}
    assert verdict([call, cancel], [cancelled(1)]) == {"MOD-SERVER-CANCEL"}
    assert verdict([call, cancel], [cancelled("x")]) == {"MOD-SERVER-CANCEL"}
    listen = modern(2, "subscriptions/listen", {"notifications": {"toolsListChanged": True}})
    # The listen request itself is left unanswered here: its own answer is not what is judged.
    assert verdict([call, cancel, listen], [cancelled(2)]) - {"RPC-ONE-ANSWER"} == set()  # the end of its stream
    assert verdict([call, cancel, listen], [cancelled("2")]) - {"RPC-ONE-ANSWER"} == {"MOD-SERVER-CANCEL"}


@pytest.mark.spec("MOD-META-REQUIRED", "LIFE-PRE-INIT-REFUSED")
def test_a_request_naming_no_version_refused_with_any_code_may_be_a_legacy_one_refused_early() -> None:
    # The Go SDK refuses it with code 0 "invalid during session initialization": a legacy request
    # before initialize, as the reference itself reads it (-32600).
    stringly = {"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"_meta": "2026-07-28", "name": "echo"}}
    for code in (0, -32600, -32603):
        assert verdict([modern(0, "server/discover"), stringly], [result(0, DISCOVERED), error(1, code)]) == set()
    assert verdict([modern(0, "server/discover"), stringly], [result(0, DISCOVERED), error(1, 0)], Profile.STRICT) == {
        "LIFE-PRE-INIT-REFUSED"  # another code than -32600 before initialize: the reference's reading
    }
    # A server seen to serve the modern era only (it refused initialize) reads it as a malformed modern
    # request, or as a legacy one: a warning either way.
    sent = [modern(0, "server/discover"), stringly, *LEGACY.opening(10, V2025_11_25)]
    answers = [result(0, DISCOVERED), error(1, 0), error(10, -32602, {"supported": ["2026-07-28"]})]
    assert verdict(sent, answers) == set()
    assert "MOD-META-REQUIRED" in verdict(sent, answers, Profile.STRICT)


@pytest.mark.spec("MOD-LEGACY-INIT", "MOD-DUAL-ERA")
def test_a_server_whose_discovery_lists_legacy_versions_is_not_taken_for_modern_only() -> None:
    # The Go SDK opens its session with server/discover, then refuses initialize as a "duplicate".
    dual = {**DISCOVERED, "supportedVersions": ["2026-07-28", "2025-11-25"]}
    opening = LEGACY.opening(10, V2025_11_25)
    sent = [modern(0, "server/discover"), *opening]
    refused = error(10, -32600)
    assert "MOD-LEGACY-INIT" not in verdict(sent, [result(0, dual), refused], Profile.STRICT)
    assert "MOD-LEGACY-INIT" in verdict(sent, [result(0, DISCOVERED), refused], Profile.STRICT)


@pytest.mark.spec("LIFE-VERSION-ACCEPT", "LIFE-PRE-INIT-REFUSED", "LIFE-INITIALIZED-EARLY", "MOD-DUAL-ERA")
def test_a_session_the_discover_opened_is_one_cause_with_the_initialize_refused_after_it() -> None:
    # Seen (Go SDK 1.8, field T40): after a discover it answered, the server refused initialize as a
    # "duplicate", then served what followed as the session the discover had opened. The refusal is
    # the finding, named by its cause, the era the connection kept; what the server then serves
    # follows from it, not from an open pre-init gate.
    dual = {**DISCOVERED, "supportedVersions": ["2026-07-28", "2025-11-25"]}
    sent = [modern(0, "server/discover"), *LEGACY.opening(10, V2025_11_25), {"jsonrpc": "2.0", "id": 11, "method": "tools/list"}]
    answers = [result(0, dual), error(10, 0), result(11, {"tools": []})]
    assert verdict(sent, answers, Profile.STRICT) == {"MOD-DUAL-ERA"}
    # Without the discover, serving after a refused initialize is the gate's own finding.
    stream = b"".join(line(message) for message in sent[1:])
    answered = (error(10, 0), result(11, {"tools": []}), result(SENTINEL_IDS[0], {}))
    alone = judge(stream, Observation(answered, b"", True, SENTINEL_IDS))
    assert {f.rule for f in failing(alone, Profile.STRICT)} == {"LIFE-VERSION-ACCEPT", "LIFE-PRE-INIT-REFUSED"}


@pytest.mark.spec("MOD-LEGACY-INIT")
def test_an_initialize_refused_with_a_message_naming_modern_versions_alone_shows_a_modern_only_server() -> None:
    stream = b"".join(line(message) for message in [*LEGACY.opening(10, V2025_11_25), modern(11, "tools/list")])

    def refused(message: str, answer_id: int = 10) -> bytes:
        return json.dumps({"jsonrpc": "2.0", "id": answer_id, "error": {"code": -32602, "message": message}}).encode()

    assert refused_as_modern_only(stream, (refused("this server supports 2026-07-28"),))
    assert not refused_as_modern_only(stream, (refused("supported: 2026-07-28, 2025-11-25"),))  # both eras
    assert not refused_as_modern_only(stream, (refused("unsupported protocol version"),))
    assert not refused_as_modern_only(stream, (refused("this server supports 2026-07-28", 11),))  # not initialize's
    assert not refused_as_modern_only(stream, (result(10, {"protocolVersion": "2025-11-25"}),))


@pytest.mark.spec("MOD-CAP-REQUIRED")
def test_a_request_needing_a_client_capability_is_witnessed_only_where_the_server_showed_one() -> None:
    # A server with no request that needs a capability keeps the rule without being seen to: no pass.
    def shown(sent: list[dict[str, Any]], answers: list[bytes]) -> bool:
        stream = b"".join(line(message) for message in sent)
        observation = Observation((*answers, result(SENTINEL_IDS[0], DISCOVERED)), b"", True, SENTINEL_IDS)
        return "MOD-CAP-REQUIRED" in witnessed(stream, observation)

    asking, declared, undeclared = asking_for_elicitation()
    served = typed(content=[{"type": "text", "text": "x"}], isError=False)
    assert not shown([declared], [result(1, served)])
    assert not shown([declared], [error(1, -32602)])
    assert shown([declared], [result(1, asking)])
    assert shown([undeclared], [error(2, -32021, {"requiredCapabilities": {"elicitation": {}}})])
    done = typed(content=[], isError=False)
    done["resultType"] = "input_required"  # asking for nothing a capability gives
    assert not shown([declared], [result(1, done)])


@pytest.mark.spec("LIFE-PRE-INIT-REFUSED", "MOD-DUAL-ERA")
def test_a_legacy_server_serving_the_modern_eras_requests_before_any_initialize_breaks_no_legacy_rule() -> None:
    # Seen on the TypeScript SDK's server: enveloped requests served as legacy ones, with no handshake,
    # failed LIFE-PRE-INIT-REFUSED under strict. No legacy session is open for that gate to judge.
    sent = [modern(1, "tools/list"), modern(2, "tools/call", {"name": "echo", "arguments": {"text": "x"}})]
    stream = b"".join(line(message) for message in sent)
    answers = (result(1, {"tools": []}), result(2, {"content": [], "isError": False}))
    assert judge(stream, Observation(answers, b"", True, SENTINEL_IDS)) == []
    # Once a legacy session is open, such a request is judged as a legacy one (the test above).
