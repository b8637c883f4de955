"""The oracle's reading of a server's messages against the specification's own JSON Schemas.

For each published version and each kind of answer the oracle judges, Hypothesis draws lawful
instances from the official schema (``official_schemas``): the oracle never calls one malformed.
Mutants the schema refuses (a required member removed, or given a value of another type) are then
found under the rule that names the message's shape, wherever the oracle reads that member.

Covered: the result of every request a client of the version may send (initialize, server/discover,
ping, logging/setLevel, tools, resources, prompts, completion, and 2025-11-25's tasks/list, tasks/get
and tasks/cancel), error answers, and the notifications
and requests a legacy server writes unasked. Mutants are asserted found where a rule reads them
(``READS``, ``INIT_READS``, ``ERROR_READS``, ``MESSAGE_READS``). The oracle's table of the members
each result and unasked message requires (``server_shapes``) is derived afresh from every version's
schema and held equal to it.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from official_schemas import (
    SHAPES,
    VERSIONS,
    definitions,
    instances,
    lawful,
    members,
    mutants,
    needs_schemas,
    resolve,
    schemas_dir,
)

from mcpref.fuzz.drive.observation import Observation
from mcpref.fuzz.drive.process import SENTINEL_IDS
from mcpref.fuzz.generate.messages import INITIALIZED, encode, initialize, request
from mcpref.fuzz.judge.oracle import Finding, judge
from mcpref.fuzz.judge.server_shapes import CREATED_TASK, MESSAGES, RESULTS, RULE_OF
from mcpref.fuzz.judge.shapes import CONTENT_BLOCKS, RESOURCE_BODIES, Enum, Items, ListOr, Obj, Shape, Tagged
from mcpref.reference.eras import MODERN
from mcpref.reference.versions import V2026_07_28

pytestmark = needs_schemas
LEGACY_VERSIONS = VERSIONS[:4]
MODERN_VERSION = VERSIONS[4]

# Every capability, so that no request below is one the server did not announce.
SERVER_CAPABILITIES = {
    "tools": {"listChanged": True},
    "resources": {"listChanged": True, "subscribe": True},
    "prompts": {"listChanged": True},
    "logging": {},
    "completions": {},
    "tasks": {"list": {}, "cancel": {}},
}
CLIENT_CAPABILITIES = {"roots": {"listChanged": True}, "sampling": {}, "elicitation": {}}
SERVER_INFO = {"name": "t", "version": "1"}

# Each request a client sends (its lawful params), its definition, and that of the server's result.
REQUESTS: dict[str, tuple[dict[str, Any], str, str]] = {
    "ping": ({}, "PingRequest", "EmptyResult"),
    "logging/setLevel": ({"level": "info"}, "SetLevelRequest", "EmptyResult"),
    "server/discover": ({}, "DiscoverRequest", "DiscoverResult"),
    "tools/list": ({}, "ListToolsRequest", "ListToolsResult"),
    "tools/call": ({"name": "echo", "arguments": {}}, "CallToolRequest", "CallToolResult"),
    "resources/list": ({}, "ListResourcesRequest", "ListResourcesResult"),
    "resources/templates/list": ({}, "ListResourceTemplatesRequest", "ListResourceTemplatesResult"),
    "resources/read": ({"uri": "file:///x"}, "ReadResourceRequest", "ReadResourceResult"),
    "prompts/list": ({}, "ListPromptsRequest", "ListPromptsResult"),
    "prompts/get": ({"name": "p"}, "GetPromptRequest", "GetPromptResult"),
    "completion/complete": (
        {"ref": {"type": "ref/prompt", "name": "p"}, "argument": {"name": "a", "value": ""}},
        "CompleteRequest",
        "CompleteResult",
    ),
    "tasks/list": ({}, "ListTasksRequest", "ListTasksResult"),
    "tasks/get": ({"taskId": "t"}, "GetTaskRequest", "GetTaskResult"),
    "tasks/cancel": ({"taskId": "t"}, "CancelTaskRequest", "CancelTaskResult"),
}


def observed(version: str, sent: list[dict[str, Any]], written: list[Any]) -> list[Finding]:
    """The findings on a session: the handshake of ``version`` (legacy) or nothing (modern), then the
    messages ``sent``, and what the server wrote after its initialize result: ``written``."""
    if version == MODERN_VERSION:
        discovered = {"supportedVersions": [MODERN_VERSION], "capabilities": SERVER_CAPABILITIES, "resultType": "complete"}
        before: list[Any] = []
        after: list[Any] = [{"jsonrpc": "2.0", "id": SENTINEL_IDS[0], "result": discovered}]
        opening: list[dict[str, Any]] = []
    else:
        init = {"protocolVersion": version, "capabilities": SERVER_CAPABILITIES, "serverInfo": SERVER_INFO}
        before, after = [{"jsonrpc": "2.0", "id": 0, "result": init}], []
        opening = [initialize(0, version, CLIENT_CAPABILITIES), INITIALIZED]
    stream = b"".join(encode(message) for message in [*opening, *sent])
    output = tuple(json.dumps(message).encode() for message in [*before, *written, *after])
    return judge(stream, Observation(output, b"", True, SENTINEL_IDS))


def sent_request(version: str, method: str, params: dict[str, Any]) -> dict[str, Any]:
    if version != MODERN_VERSION:
        return request(1, method, params)
    enveloped = MODERN.request(1, method, params, V2026_07_28)
    enveloped["params"]["_meta"]["io.modelcontextprotocol/clientCapabilities"] = CLIENT_CAPABILITIES
    return enveloped


def answered(version: str, method: str, params: dict[str, Any], result: Any) -> list[Finding]:
    """The findings on a session whose one request (id 1) the server answered with ``result``."""
    return observed(version, [sent_request(version, method, params)], [{"jsonrpc": "2.0", "id": 1, "result": result}])


def cases(versions: tuple[str, ...]) -> list[tuple[str, str]]:
    """Each version and method whose result the version defines (one placeholder, skipped, without the schemas)."""
    if schemas_dir() is None:
        return [("absent", "absent")]
    return [(v, m) for v in versions for m, (_, asked, _) in REQUESTS.items() if asked in members(v, "ClientRequest")]


def in_prose(version: str, method: str, result: Any) -> Any:
    """``result`` held to what the rules read beyond the schema, each a MUST of the specification's prose.

    MOD-RESULT-TYPE: the 2026-07-28 schema types ``resultType`` as any string; the prose
    (basic#result-responses) names the values, "complete" for a final result.
    LIFE-VERSION-ACCEPT: an initialize result's ``protocolVersion`` is any string to the schema; the
    lifecycle's prose asks for the version the client offered, or another the server supports.
    MOD-DISCOVER: ``supportedVersions`` is a list of strings to the schema; the prose of
    server/discover lists the version the request used among them.
    """
    if version == MODERN_VERSION and isinstance(result, dict):
        result = {**result, "resultType": "complete"}
    if method == "initialize":
        result = {**result, "protocolVersion": version}
    if method == "server/discover":
        result = {**result, "supportedVersions": [*result["supportedVersions"], version]}
    return result


@pytest.mark.spec("TOOLS-LIST-SHAPE", "TOOLS-CALL-RESULT", "RPC-RESPONSE-SHAPE", "MOD-RESULT-TYPE")
@pytest.mark.parametrize(("version", "method"), cases(VERSIONS))
@SHAPES
@given(data=st.data())
def test_a_lawful_result_is_never_called_malformed(version: str, method: str, data: st.DataObject) -> None:
    params, _, name = REQUESTS[method]
    result = in_prose(version, method, data.draw(instances(version, name), label=name))
    assert lawful(version, name, result)
    findings = answered(version, method, params, result)
    assert [(f.rule, f.message) for f in findings] == []


# A task's members, as tasks/get and tasks/cancel answer it and tasks/list lists it (TASKS-SHAPE).
TASK_READS = (".tasks", ".taskId", ".status", ".createdAt", ".lastUpdatedAt", ".ttl ")
# Where each rule reads a result: a mutant the schema refuses there must be found under that rule.
READS: dict[str, dict[str, tuple[str, ...]]] = {
    "tools/list": {"TOOLS-LIST-SHAPE": (".tools ", ".tools = ", ".tools[0].name", ".tools[0].inputSchema")},
    "tools/call": {"TOOLS-CALL-RESULT": (".content ", ".content = ", ".content[0]", ".isError")},
    "server/discover": {"MOD-DISCOVER": (".supportedVersions", ".capabilities ", ".capabilities = ")},
    # Every member the schema requires but resultType (MOD-RESULT-TYPE's): the table is the schema's.
    **{method: {rule: (".resources", ".contents", ".prompts", ".messages", ".completion", ".ttlMs", ".cacheScope", *TASK_READS)} for method, rule in RULE_OF.items()},
}
# Where a rule reads less than the schema, on purpose: each refused value it lets pass, and why.
LENIENT: dict[str, str] = {
    '.content[0].type = "?"': "TOOLS-CALL-RESULT leaves a content type it does not know alone: it may be a later version's block",
    '.messages[0].content.type = "?"': "PROMPTS-SHAPE leaves a content type it does not know alone, as TOOLS-CALL-RESULT does",
}
MODERN_READS: dict[str, tuple[str, ...]] = {"MOD-RESULT-TYPE": (".resultType",)}
CACHE_READS: dict[str, tuple[str, ...]] = {"MOD-TOOLS-CACHE": (".ttlMs", ".cacheScope")}


def reads(version: str, method: str) -> dict[str, tuple[str, ...]]:
    found = dict(READS.get(method, {}))
    if version == MODERN_VERSION:
        found |= MODERN_READS
        found |= CACHE_READS if method == "tools/list" else {}
    return found


def failing_rules(findings: list[Finding]) -> set[str]:
    return {f.rule for f in findings if f.mandatory}


@pytest.mark.spec("TOOLS-LIST-SHAPE", "TOOLS-CALL-RESULT", "MOD-RESULT-TYPE", "MOD-TOOLS-CACHE", "TASKS-SHAPE")
@pytest.mark.parametrize(("version", "method"), cases(VERSIONS))
@settings(SHAPES, max_examples=3)
@given(data=st.data())
def test_a_result_the_schema_refuses_where_a_rule_reads_it_is_found_under_that_rule(
    version: str, method: str, data: st.DataObject
) -> None:
    params, _, name = REQUESTS[method]
    result = in_prose(version, method, data.draw(instances(version, name), label=name))
    for path, mutant in mutants(version, name, result):
        named = {rule for rule, prefixes in reads(version, method).items() if (path + " ").startswith(prefixes)}
        named = set() if path in LENIENT else named
        if named:
            assert named <= failing_rules(answered(version, method, params, mutant)), (path, mutant)


TASK_CALL = {"name": "echo", "arguments": {}, "task": {"ttl": 60000}}


@pytest.mark.spec("TASKS-SHAPE", "TOOLS-CALL-RESULT")
@SHAPES
@given(data=st.data())
def test_a_task_augmented_call_is_judged_as_the_task_it_creates_or_as_a_plain_call(data: st.DataObject) -> None:
    # 2025-11-25: a CreateTaskResult is lawful, and each of its mutants found under TASKS-SHAPE alone;
    # a CallToolResult, the member ignored by a server that runs no call as a task, lawful too.
    version = "2025-11-25"
    created = data.draw(instances(version, "CreateTaskResult"), label="CreateTaskResult")
    called = in_prose(version, "tools/call", data.draw(instances(version, "CallToolResult"), label="CallToolResult"))
    assert answered(version, "tools/call", TASK_CALL, created) == []
    assert answered(version, "tools/call", TASK_CALL, called) == []
    for path, mutant in mutants(version, "CreateTaskResult", created):
        if path.startswith(".task.") or path.startswith(".task = "):
            assert {f.rule for f in answered(version, "tools/call", TASK_CALL, mutant)} == {"TASKS-SHAPE"}, (path, mutant)


@pytest.mark.spec("TASKS-SHAPE")
def test_the_task_created_is_the_schemas() -> None:
    assert derived("2025-11-25", definitions("2025-11-25")["CreateTaskResult"]) == CREATED_TASK


def opened(version: str, result: Any) -> list[Finding]:
    """The findings on a handshake of ``version`` whose initialize the server answered with ``result``,
    then a ping served."""
    sent = [initialize(0, version, CLIENT_CAPABILITIES), INITIALIZED, request(1, "ping")]
    written = [{"jsonrpc": "2.0", "id": 0, "result": result}, {"jsonrpc": "2.0", "id": 1, "result": {}}]
    output = tuple(json.dumps(message).encode() for message in written)
    return judge(b"".join(encode(message) for message in sent), Observation(output, b"", True, SENTINEL_IDS))


INIT_READS = (".protocolVersion", ".capabilities ", ".capabilities = ", ".serverInfo")


@pytest.mark.spec("LIFE-INIT-RESULT")
@pytest.mark.parametrize("version", LEGACY_VERSIONS)
@SHAPES
@given(data=st.data())
def test_a_lawful_initialize_result_is_never_called_malformed_and_its_mutants_are_found(
    version: str, data: st.DataObject
) -> None:
    result = in_prose(version, "initialize", data.draw(instances(version, "InitializeResult")))
    assert lawful(version, "InitializeResult", result)
    assert [(f.rule, f.message) for f in opened(version, result)] == []
    for path, mutant in mutants(version, "InitializeResult", result):
        if (path + " ").startswith(INIT_READS):
            assert "LIFE-INIT-RESULT" in failing_rules(opened(version, mutant)), (path, mutant)


def unasked(versions: tuple[str, ...], union: str) -> list[tuple[str, str]]:
    """Each version and message of ``union`` it defines (one placeholder, skipped, without the schemas)."""
    if schemas_dir() is None:
        return [("absent", "absent")]
    return [(version, name) for version in versions for name in members(version, union)]


# What a message written unasked refers to, which its schema cannot tell: each rule here judges a
# lawful message against the session (a request in progress, a subscription, a capability the client
# declared), never its shape, so a drawn message may draw it.
CONTEXT_RULES = {
    "PROGRESS-TOKEN": "a progress notification names a request in progress",
    "RPC-CANCEL-OWN": "a cancellation names a request the server sent",
    "CAP-RESOURCE-SUBSCRIBED": "an update names a resource the client subscribed to",
    "CAP-ELICIT-COMPLETE": "an elicitation's completion names an elicitation the server started",
    "CAP-CLIENT-DECLARED": "a request uses a mode (url elicitation, sampling tools) the client declared",
}


def unasked_findings(version: str, message: Any) -> list[tuple[str, str]]:
    """What the oracle finds in ``message`` written after the handshake, but for CONTEXT_RULES."""
    return [(f.rule, f.message) for f in observed(version, [], [message]) if f.rule not in CONTEXT_RULES]


@pytest.mark.spec("PROGRESS-TOKEN", "RPC-CANCEL-OWN", "CAP-RESOURCE-SUBSCRIBED", "CAP-ELICIT-COMPLETE", "CAP-CLIENT-DECLARED")
@pytest.mark.parametrize(
    ("version", "name"), unasked(LEGACY_VERSIONS, "ServerNotification") + unasked(LEGACY_VERSIONS, "ServerRequest")
)
@SHAPES
@given(data=st.data())
def test_a_lawful_message_a_legacy_server_writes_unasked_is_never_called_malformed(
    version: str, name: str, data: st.DataObject
) -> None:
    # The definitions hold method and params; the JSON-RPC envelope (and a request's id) is added.
    envelope = {"jsonrpc": "2.0", "id": "s-1"} if name in members(version, "ServerRequest") else {"jsonrpc": "2.0"}
    message = {**data.draw(instances(version, name)), **envelope}
    assert lawful(version, name, message)
    assert unasked_findings(version, message) == []


# Where SERVER-MESSAGE-SHAPE reads a message: its params, all the schema requires of them.
MESSAGE_READS = (".params",)
# Where it reads less than the schema, on purpose: each refused value it lets pass, and why.
MESSAGE_LENIENT: dict[str, str] = {
    '.params.mode = "?"': "an elicitation mode the version does not define is left alone: it may be a later version's",
    '.params.messages[0].content.type = "?"': "a content type the version does not define is left alone, as in tool results",
    '.params.messages[0].content.content[0].type = "?"': "the same, in a tool result inside a sampling message",
}


def envelope(version: str, name: str) -> dict[str, Any]:
    """The JSON-RPC envelope a drawn message is written in (the definitions hold method and params)."""
    return {"jsonrpc": "2.0", "id": "s-1"} if name in members(version, "ServerRequest") else {"jsonrpc": "2.0"}


@pytest.mark.spec("SERVER-MESSAGE-SHAPE")
@pytest.mark.parametrize(("version", "name"), unasked(VERSIONS, "ServerNotification") + unasked(VERSIONS, "ServerRequest"))
@settings(SHAPES, max_examples=3)
@given(data=st.data())
def test_a_message_a_server_writes_is_held_to_its_params_and_their_mutants_are_found(
    version: str, name: str, data: st.DataObject
) -> None:
    message = {**data.draw(instances(version, name)), **envelope(version, name)}
    assert lawful(version, name, message)
    assert "SERVER-MESSAGE-SHAPE" not in {f.rule for f in observed(version, [], [message])}
    for path, mutant in mutants(version, name, message):
        if (path + " ").startswith(MESSAGE_READS) and path not in MESSAGE_LENIENT:
            assert "SERVER-MESSAGE-SHAPE" in failing_rules(observed(version, [], [mutant])), (path, mutant)


KINDS: dict[str, type] = {"string": str, "integer": int, "number": float, "boolean": bool, "object": dict, "array": list, "null": type(None)}


def derived(version: str, node: Any, skipped: tuple[str, ...] = ()) -> Shape:
    """The shape the schema's ``node`` requires, in the oracle's terms (``shapes``), read afresh:
    required members only, an enumeration where the schema states one, a union of objects told
    apart by a constant member as a ``Tagged``, of objects differing by one string member as an
    ``Obj`` with ``either``, and of a value or an array of it as a ``ListOr``."""
    node = resolve(version, node)
    if "anyOf" in node:
        return derived_union(version, [resolve(version, part) for part in node["anyOf"]])
    if "const" in node or "enum" in node:
        return Enum(frozenset(node["enum"] if "enum" in node else [node["const"]]))
    kind = node.get("type")
    if kind is None:
        return object
    if isinstance(kind, list):
        return tuple(KINDS[name] for name in kind)
    if kind == "array":
        return Items(derived(version, node.get("items", {})))
    required = [name for name in node.get("required", []) if name not in skipped]
    if kind != "object" or not required:
        return KINDS[kind]
    return Obj({name: derived(version, node.get("properties", {}).get(name, {})) for name in required})


def derived_union(version: str, parts: list[Any]) -> Shape:
    arrays = [part for part in parts if part.get("type") == "array"]
    if arrays:
        (array,) = arrays
        rest = [part for part in parts if part is not array]
        single = derived_union(version, rest) if len(rest) > 1 else derived(version, rest[0])
        assert derived(version, array["items"]) == single
        return ListOr(single)
    tags = set.intersection(*({k for k, v in part.get("properties", {}).items() if "const" in v} for part in parts))
    if tags:
        (key,) = tags
        cases = {part["properties"][key]["const"]: derived(version, part, (key,)) for part in parts}
        other = [part for part in parts if key not in part.get("required", [])]
        return Tagged(key, cases, derived(version, other[0], (key,)) if other else None)
    common = set.intersection(*(set(part["required"]) for part in parts))
    extra = [tuple(set(part["required"]) - common) for part in parts]
    assert all(len(names) == 1 and resolve(version, part["properties"][names[0]])["type"] == "string" for names, part in zip(extra, parts, strict=True))
    return Obj({name: derived(version, parts[0]["properties"][name]) for name in sorted(common)}, tuple(names[0] for names in extra))


@pytest.mark.spec("RESOURCES-SHAPE", "PROMPTS-SHAPE", "COMPLETION-SHAPE", "TASKS-SHAPE", "SERVER-MESSAGE-SHAPE")
@pytest.mark.parametrize("version", VERSIONS)
def test_the_table_of_results_and_messages_is_the_schemas(version: str) -> None:
    # Each method of a rule's that the version defines, and no other (tasks are 2025-11-25's alone).
    defined = [method for method, (_, asked, _) in REQUESTS.items() if method in RULE_OF and asked in members(version, "ClientRequest")]
    assert set(RESULTS[version]) == set(defined)
    for method in defined:
        name = REQUESTS[method][2]
        assert RESULTS[version][method] == derived(version, definitions(version)[name], ("resultType",)), method
    sent = {}
    for name in members(version, "ServerNotification") + members(version, "ServerRequest"):
        node = resolve(version, definitions(version)[name])
        if "params" in node["required"]:
            sent[node["properties"]["method"]["const"]] = derived(version, node["properties"]["params"])
    assert MESSAGES[version] == sent


JSON_TYPES = {str: "string", dict: "object"}


@pytest.mark.spec("TOOLS-CALL-RESULT")
@pytest.mark.parametrize("version", VERSIONS)
def test_the_content_block_table_is_the_schemas(version: str) -> None:
    items = resolve(version, resolve(version, definitions(version)["CallToolResult"])["properties"]["content"]["items"])
    for block in (resolve(version, part) for part in items["anyOf"]):
        kind = block["properties"]["type"]["const"]
        required = {name: resolve(version, block["properties"][name]) for name in block["required"] if name != "type"}
        table = CONTENT_BLOCKS[kind]
        assert set(required) == set(table), kind
        for name, schema in required.items():
            assert schema.get("type", "object") == JSON_TYPES[table[name]], (kind, name)
    resource = resolve(version, definitions(version)["EmbeddedResource"]["properties"]["resource"])
    bodies = {part["$ref"].rsplit("/", 1)[1]: resolve(version, part)["required"] for part in resource["anyOf"]}
    assert bodies == {"TextResourceContents": ["text", "uri"], "BlobResourceContents": ["blob", "uri"]}
    assert set(RESOURCE_BODIES) == {"text", "blob"}


def error_definition(version: str) -> str:
    return "JSONRPCError" if "JSONRPCError" in definitions(version) else "JSONRPCErrorResponse"


def refused(version: str, answer: Any) -> list[Finding]:
    """The findings on a session whose request for an unknown method drew ``answer``."""
    return observed(version, [sent_request(version, "bogus/x", {})], [answer])


ERROR_READS = (".jsonrpc", ".error ", ".error = ", ".error.code", ".error.message")


@pytest.mark.spec("RPC-RESPONSE-SHAPE", "RPC-METHOD-NOT-FOUND")
@pytest.mark.parametrize("version", VERSIONS)
@SHAPES
@given(data=st.data())
def test_a_lawful_error_is_never_called_malformed_and_its_mutants_are_found(version: str, data: st.DataObject) -> None:
    name = error_definition(version)
    drawn = data.draw(instances(version, name))
    # RPC-METHOD-NOT-FOUND: the schema takes any integer code; JSON-RPC names -32601 for an unknown method.
    answer = {**drawn, "id": 1, "error": {**drawn["error"], "code": -32601}}
    assert lawful(version, name, answer)
    assert [(f.rule, f.message) for f in refused(version, answer)] == []
    for path, mutant in mutants(version, name, answer):
        if (path + " ").startswith(ERROR_READS):
            assert "RPC-RESPONSE-SHAPE" in failing_rules(refused(version, mutant)), (path, mutant)
