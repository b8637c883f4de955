"""The client oracle's reading of what a client writes, against the specification's own JSON Schemas.

For each legacy version, Hypothesis draws from the official schema a lawful initialize request, then
each request and notification a client of that version may send: the client oracle (``check-client``)
never calls one malformed. Its shape rules read little of a client's messages (CLIENT-ID-TYPE, the
JSON-RPC envelope of CLIENT-STDIN-MESSAGES-ONLY): a mutant of the id is found under CLIENT-ID-TYPE.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from official_schemas import SHAPES, VERSIONS, instances, lawful, members, needs_schemas, schemas_dir

from mcpref.fuzz.drive.client_run import ClientRun, RecordEvent
from mcpref.fuzz.generate.client_scripts import PLAIN, TEXT
from mcpref.fuzz.judge.client import judge_client
from mcpref.fuzz.judge.findings import Finding

pytestmark = needs_schemas
LEGACY_VERSIONS = VERSIONS[:4]
# A rule that judges a lawful message against the session, never its shape (the schema cannot tell).
CONTEXT_RULES = {"CLIENT-CANCEL": "a cancellation names a request the client sent and has not seen answered"}


def client_messages() -> list[tuple[str, str]]:
    """Each legacy version and message a client of it may send (one placeholder, skipped, without the schemas)."""
    if schemas_dir() is None:
        return [("absent", "absent")]
    unions = ("ClientRequest", "ClientNotification")
    return [(version, name) for version in LEGACY_VERSIONS for union in unions for name in members(version, union)]


def judged(opening: dict[str, Any], message: dict[str, Any]) -> list[Finding]:
    """The client findings on a session opened by ``opening`` (answered, then initialized) that then
    sends ``message`` and the plain tool call."""
    call = {"jsonrpc": "2.0", "id": "c-2", "method": "tools/call", "params": {"name": "echo", "arguments": {}}}
    initialized = {"jsonrpc": "2.0", "method": "notifications/initialized"}

    def read(*sent: dict[str, Any]) -> RecordEvent:
        return RecordEvent(0.0, "read", "".join(json.dumps(m) + "\n" for m in sent))

    events = (
        read(opening),
        RecordEvent(0.0, "wrote", "initialize-answer"),
        read(initialized, message, call),
        RecordEvent(0.0, "wrote", "answer:tools/call"),
        RecordEvent(0.0, "eof", ""),
        RecordEvent(0.0, "exit", ""),
    )
    return list(judge_client(ClientRun(PLAIN, events, 0, 0.0, TEXT.encode() + b"\n", b"", False)).findings)


def lawful_opening(version: str, drawn: dict[str, Any]) -> dict[str, Any]:
    """A drawn initialize request offering ``version`` (LIFE-VERSION-ACCEPT: the schema takes any string)."""
    opening = {**drawn, "jsonrpc": "2.0", "id": "c-1"}
    opening["params"] = {**opening["params"], "protocolVersion": version}
    assert lawful(version, "InitializeRequest", opening)
    return opening


@pytest.mark.spec("CLIENT-STDIN-MESSAGES-ONLY", "CLIENT-ID-TYPE", "CLIENT-INIT-FIRST", "CLIENT-INITIALIZED", "CLIENT-CANCEL")
@pytest.mark.parametrize(("version", "name"), client_messages())
@SHAPES
@given(data=st.data())
def test_a_lawful_client_message_is_never_called_malformed(version: str, name: str, data: st.DataObject) -> None:
    opening = lawful_opening(version, data.draw(instances(version, "InitializeRequest"), label="opening"))
    message = {**data.draw(instances(version, name), label=name), "jsonrpc": "2.0"}
    if name in members(version, "ClientRequest"):
        message["id"] = "c-9"
    assert lawful(version, name, message)
    assert [(f.rule, f.message) for f in judged(opening, message) if f.rule not in CONTEXT_RULES] == []


@pytest.mark.spec("CLIENT-ID-TYPE")
@pytest.mark.parametrize("version", LEGACY_VERSIONS)
@SHAPES
@given(data=st.data(), wrong=st.sampled_from([None, 1.5, [], {}, True]))
def test_a_request_id_the_schema_refuses_is_found(version: str, data: st.DataObject, wrong: object) -> None:
    opening = lawful_opening(version, data.draw(instances(version, "InitializeRequest"), label="opening"))
    ping = {"jsonrpc": "2.0", "id": wrong, "method": "ping"}
    assert not lawful(version, "PingRequest", ping) or not lawful(version, "JSONRPCRequest", ping)
    assert "CLIENT-ID-TYPE" in {f.rule for f in judged(opening, ping) if f.mandatory}
