"""The oracle's reading of a server's messages against the specification's own JSON Schemas.

For each published version and each kind of answer the oracle judges, Hypothesis draws lawful
instances from the official schema (``official_schemas``): the oracle never calls one malformed.
Mutants the schema refuses (a required member removed, or given a value of another type) are then
found under the rule that names the message's shape, wherever the oracle reads that member.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from official_schemas import VERSIONS, definitions, instances, lawful, mutants, needs_schemas, schemas_dir

from mcpref.fuzz.drive.observation import Observation
from mcpref.fuzz.drive.process import SENTINEL_IDS
from mcpref.fuzz.generate.messages import INITIALIZED, encode, initialize, request
from mcpref.fuzz.judge.oracle import Finding, judge
from mcpref.reference.eras import MODERN
from mcpref.reference.versions import V2026_07_28

pytestmark = needs_schemas
LEGACY_VERSIONS = VERSIONS[:4]
MODERN_VERSION = VERSIONS[4]
SHAPES = settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])

# Every capability, so that no request below is one the server did not announce.
SERVER_CAPABILITIES = {
    "tools": {"listChanged": True},
    "resources": {"listChanged": True, "subscribe": True},
    "prompts": {"listChanged": True},
    "logging": {},
    "completions": {},
}
CLIENT_CAPABILITIES = {"roots": {"listChanged": True}, "sampling": {}, "elicitation": {}}
SERVER_INFO = {"name": "t", "version": "1"}

# Each request a client sends (its lawful params), and the definition of the server's result.
REQUESTS: dict[str, tuple[dict[str, Any], str]] = {
    "tools/list": ({}, "ListToolsResult"),
    "tools/call": ({"name": "echo", "arguments": {}}, "CallToolResult"),
    "resources/list": ({}, "ListResourcesResult"),
    "resources/templates/list": ({}, "ListResourceTemplatesResult"),
    "resources/read": ({"uri": "file:///x"}, "ReadResourceResult"),
    "prompts/list": ({}, "ListPromptsResult"),
    "prompts/get": ({"name": "p"}, "GetPromptResult"),
    "completion/complete": (
        {"ref": {"type": "ref/prompt", "name": "p"}, "argument": {"name": "a", "value": ""}},
        "CompleteResult",
    ),
}


def answered(version: str, method: str, params: dict[str, Any], result: Any) -> list[Finding]:
    """The findings on a session whose one request (id 1) the server answered with ``result``."""
    body = json.dumps({"jsonrpc": "2.0", "id": 1, "result": result}).encode()
    if version == MODERN_VERSION:
        sent = MODERN.request(1, method, params, V2026_07_28)
        sent["params"]["_meta"]["io.modelcontextprotocol/clientCapabilities"] = CLIENT_CAPABILITIES
        discovered = {
            "supportedVersions": [MODERN_VERSION],
            "capabilities": SERVER_CAPABILITIES,
            "resultType": "complete",
        }
        probe = json.dumps({"jsonrpc": "2.0", "id": SENTINEL_IDS[0], "result": discovered}).encode()
        return judge(encode(sent), Observation((body, probe), b"", True, SENTINEL_IDS))
    init = {"protocolVersion": version, "capabilities": SERVER_CAPABILITIES, "serverInfo": SERVER_INFO}
    lines = [encode(initialize(0, version, CLIENT_CAPABILITIES)), encode(INITIALIZED)]
    opened = json.dumps({"jsonrpc": "2.0", "id": 0, "result": init}).encode()
    return judge(b"".join([*lines, encode(request(1, method, params))]), Observation((opened, body), b"", True, SENTINEL_IDS))


def cases(versions: tuple[str, ...]) -> list[tuple[str, str]]:
    """Each version and method whose result the version defines (one placeholder, skipped, without the schemas)."""
    if schemas_dir() is None:
        return [("absent", "absent")]
    return [(v, m) for v in versions for m, (_, name) in REQUESTS.items() if name in definitions(v)]


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
    params, name = REQUESTS[method]
    result = in_prose(version, method, data.draw(instances(version, name), label=name))
    assert lawful(version, name, result)
    findings = answered(version, method, params, result)
    assert [(f.rule, f.message) for f in findings] == []


# Where each rule reads a result: a mutant the schema refuses there must be found under that rule.
READS: dict[str, dict[str, tuple[str, ...]]] = {
    "tools/list": {"TOOLS-LIST-SHAPE": (".tools ", ".tools = ", ".tools[0].name", ".tools[0].inputSchema")},
    "tools/call": {"TOOLS-CALL-RESULT": (".content ", ".content = ", ".content[0].type", ".isError")},
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


@pytest.mark.spec("TOOLS-LIST-SHAPE", "TOOLS-CALL-RESULT", "MOD-RESULT-TYPE", "MOD-TOOLS-CACHE")
@pytest.mark.parametrize(("version", "method"), cases(VERSIONS))
@settings(SHAPES, max_examples=3)
@given(data=st.data())
def test_a_result_the_schema_refuses_where_a_rule_reads_it_is_found_under_that_rule(
    version: str, method: str, data: st.DataObject
) -> None:
    params, name = REQUESTS[method]
    result = in_prose(version, method, data.draw(instances(version, name), label=name))
    for path, mutant in mutants(version, name, result):
        named = {rule for rule, prefixes in reads(version, method).items() if (path + " ").startswith(prefixes)}
        if named:
            assert named <= failing_rules(answered(version, method, params, mutant)), (path, mutant)
