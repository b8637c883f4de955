"""Results beyond tools, and what a server writes unasked, held to the members their schema requires."""

from __future__ import annotations

import json
from typing import Any

import pytest
from test_oracle import _judge

from mcpref.fuzz.drive.client_side import SENTINEL_IDS
from mcpref.fuzz.drive.observation import Observation
from mcpref.fuzz.generate.messages import INITIALIZED, encode, initialize, request
from mcpref.fuzz.judge.findings import Finding
from mcpref.fuzz.judge.oracle import judge, witnessed
from mcpref.fuzz.judge.shapes import Enum, Items, ListOr, Obj, Tagged, outline, shape_problem
from mcpref.reference.eras import MODERN
from mcpref.reference.versions import V2026_07_28

ANNOUNCED = {"resources": {}, "prompts": {}, "completions": {}, "logging": {}}


def _line(message: dict[str, Any]) -> bytes:
    return json.dumps(message).encode()


def _opened(version: str, capabilities: dict[str, Any] = ANNOUNCED) -> tuple[list[bytes], bytes]:
    """A handshake at ``version``, and an initialize result announcing ``capabilities``."""
    result = {"protocolVersion": version, "capabilities": capabilities, "serverInfo": {"name": "s", "version": "1"}}
    return [encode(initialize(0, version)), encode(INITIALIZED)], _line({"jsonrpc": "2.0", "id": 0, "result": result})


def answered(method: str, params: dict[str, Any], answer: dict[str, Any], version: str = "2025-06-18") -> list[Finding]:
    lines, opened = _opened(version)
    return _judge([*lines, encode(request(1, method, params))], [opened, _line({"jsonrpc": "2.0", "id": 1, **answer})])


def wrote(*messages: dict[str, Any], version: str = "2025-06-18") -> list[Finding]:
    """The findings on a session in which the server wrote ``messages`` unasked, then answered a ping."""
    lines, opened = _opened(version)
    written = [opened, *(_line({"jsonrpc": "2.0", **message}) for message in messages)]
    return _judge([*lines, encode(request(1, "ping"))], [*written, _line({"jsonrpc": "2.0", "id": 1, "result": {}})])


def said(findings: list[Finding]) -> list[tuple[str, str]]:
    return [(finding.rule, finding.message) for finding in findings]


@pytest.mark.spec("RESOURCES-SHAPE")
def test_a_resources_result_without_the_members_its_schema_requires_fails_saying_what_it_lacks() -> None:
    assert said(answered("resources/read", {"uri": "file:///a"}, {"result": {"contents": "x"}})) == [
        ("RESOURCES-SHAPE", "resources/read answered with a result without an array contents")
    ]
    read = {"result": {"contents": [{"uri": "file:///a", "text": "t"}, {"text": "t"}]}}
    assert said(answered("resources/read", {"uri": "file:///a"}, read)) == [
        ("RESOURCES-SHAPE", "resources/read answered with contents[1] without a string uri")
    ]
    bodiless = {"result": {"contents": [{"uri": "file:///a", "mimeType": "text/plain"}]}}
    assert said(answered("resources/read", {"uri": "file:///a"}, bodiless)) == [
        ("RESOURCES-SHAPE", "resources/read answered with contents[0] without a string text or blob")
    ]
    listed = {"result": {"resources": [{"uri": "file:///a", "name": 3}]}}
    assert said(answered("resources/list", {}, listed)) == [
        ("RESOURCES-SHAPE", "resources/list answered with resources[0] without a string name")
    ]
    templates = {"result": {"resourceTemplates": [{"name": "t"}]}}
    finding = answered("resources/templates/list", {}, templates)[0]
    assert finding.expected == "{resourceTemplates: [{uriTemplate, name}]}"
    assert "resourceTemplates[0] without a string uriTemplate" in finding.message


@pytest.mark.spec("RESOURCES-SHAPE", "PROMPTS-SHAPE", "COMPLETION-SHAPE")
def test_lawful_results_pass_extra_members_and_all() -> None:
    lawful = [
        ("resources/list", {"resources": [{"uri": "file:///a", "name": "a", "x-extra": 1}], "nextCursor": "c"}),
        ("resources/read", {"contents": [{"uri": "file:///a", "blob": "AA=="}]}),
        ("prompts/list", {"prompts": [{"name": "p", "arguments": []}]}),
        ("prompts/get", {"messages": [{"role": "user", "content": {"type": "later_kind"}}]}),
        ("completion/complete", {"completion": {"values": ["a", "b"], "hasMore": False}}),
    ]
    for method, result in lawful:
        assert answered(method, {}, {"result": result}) == [], method


@pytest.mark.spec("PROMPTS-SHAPE", "COMPLETION-SHAPE")
def test_prompts_and_completion_results_name_the_member_they_lack() -> None:
    role = {"result": {"messages": [{"role": "bot", "content": {"type": "text", "text": "t"}}]}}
    assert said(answered("prompts/get", {"name": "p"}, role)) == [
        ("PROMPTS-SHAPE", 'prompts/get answered with messages[0].role "bot", none of assistant, user')
    ]
    block = {"result": {"messages": [{"role": "user", "content": {"type": "image", "data": "AA=="}}]}}
    assert said(answered("prompts/get", {"name": "p"}, block)) == [
        ("PROMPTS-SHAPE", "prompts/get answered with messages[0].content without a string mimeType")
    ]
    untyped = {"result": {"messages": [{"role": "user", "content": {"text": "t"}}]}}
    assert "messages[0].content without a string type" in answered("prompts/get", {}, untyped)[0].message
    assert said(answered("prompts/list", {}, {"result": {"prompts": ["p"]}})) == [
        ("PROMPTS-SHAPE", "prompts/list answered with prompts[0] that is not an object")
    ]
    values = {"result": {"completion": {"values": ["a", 2]}}}
    assert said(answered("completion/complete", {}, values)) == [
        ("COMPLETION-SHAPE", "completion/complete answered with completion.values[1] that is not a string")
    ]


TASK = {"taskId": "t", "status": "working", "createdAt": "2025-11-25T10:30:00Z", "lastUpdatedAt": "2025-11-25T10:30:00Z", "ttl": None}


@pytest.mark.spec("TASKS-SHAPE")
def test_task_results_of_2025_11_25_name_the_member_they_lack() -> None:
    tasks = {**ANNOUNCED, "tasks": {"list": {}}}

    def tasks_answered(method: str, answer: dict[str, Any], version: str = "2025-11-25") -> list[Finding]:
        lines, opened = _opened(version, tasks)
        params = {} if method == "tasks/list" else {"taskId": "t"}
        return _judge([*lines, encode(request(1, method, params))], [opened, _line({"jsonrpc": "2.0", "id": 1, **answer})])

    assert tasks_answered("tasks/list", {"result": {"tasks": [TASK, {**TASK, "ttl": 60000, "pollInterval": 5}]}}) == []
    assert tasks_answered("tasks/get", {"result": {**TASK, "statusMessage": "s", "extra": 1}}) == []
    assert said(tasks_answered("tasks/list", {"result": {"tasks": [{**TASK, "status": "done"}]}})) == [
        ("TASKS-SHAPE", 'tasks/list answered with tasks[0].status "done", none of cancelled, completed, failed, input_required, working')
    ]
    assert said(tasks_answered("tasks/cancel", {"result": {k: v for k, v in TASK.items() if k != "ttl"}})) == [
        ("TASKS-SHAPE", "tasks/cancel answered with a result without an integer or null ttl")
    ]
    # Tasks are 2025-11-25's: under another version, a tasks/list result is no method of the version's to judge.
    assert tasks_answered("tasks/list", {"result": {"tasks": "none"}}, "2025-06-18") == []


TAKES_TASKS = {"tools": {}, "tasks": {"requests": {"tools": {"call": {}}}}}
TASK_CALL = {"name": "echo", "arguments": {}, "task": {"ttl": 60000}}
CALLED = {"content": [{"type": "text", "text": "ok"}]}


def task_call_answered(answer: dict[str, Any], capabilities: dict[str, Any] = TAKES_TASKS, version: str = "2025-11-25") -> tuple[list[tuple[str, str]], frozenset[str]]:
    """What is found, and witnessed, of a task-augmented call of a listed tool answered with ``answer``."""
    lines, opened = _opened(version, capabilities)
    listing = _line({"jsonrpc": "2.0", "id": 2, "result": {"tools": [{"name": "echo", "inputSchema": {"type": "object"}}]}})
    stream = b"".join([*lines, encode(request(2, "tools/list")), encode(request(1, "tools/call", TASK_CALL))])
    output = (opened, listing, _line({"jsonrpc": "2.0", "id": 1, **answer}))
    observation = Observation(output, b"", True, ())
    return said(judge(stream, observation)), witnessed(stream, observation)


@pytest.mark.spec("TASKS-SHAPE", "TOOLS-CALL-RESULT", "TOOLS-EXEC-ERROR")
def test_a_task_augmented_call_is_answered_by_the_task_created_or_by_a_plain_result() -> None:
    # 2025-11-25: a CreateTaskResult, judged under TASKS-SHAPE and under no rule of a call's result.
    found, seen = task_call_answered({"result": {"task": TASK, "_meta": {}}})
    assert found == [] and "TASKS-SHAPE" in seen and "TOOLS-CALL-RESULT" not in seen
    assert task_call_answered({"result": {"task": {**TASK, "status": "done"}}})[0] == [
        ("TASKS-SHAPE", 'a task-augmented tools/call answered with task.status "done", none of cancelled, completed, failed, input_required, working')
    ]
    # A server that takes calls as tasks and answered neither a task nor content: the task is missing.
    assert task_call_answered({"result": {}})[0] == [("TASKS-SHAPE", "a task-augmented tools/call answered with a result without an object task")]
    # A plain CallToolResult is lawful: from a server that takes calls as tasks, for a tool it runs as
    # none; from one that does not, which ignores the member (tasks#task-support-and-handling).
    for capabilities in (TAKES_TASKS, {"tools": {}}):
        found, seen = task_call_answered({"result": CALLED}, capabilities)
        assert found == [] and "TOOLS-CALL-RESULT" in seen and "TASKS-SHAPE" not in seen
    # Such a server's result is a call's, held to its shape; a refusal by one that takes calls as tasks
    # (a tool whose taskSupport forbids it) claims nothing.
    assert task_call_answered({"result": {}}, {"tools": {}})[0] == [("TOOLS-CALL-RESULT", "a tools/call result without a content list")]
    assert task_call_answered({"error": {"code": -32601, "message": "not as a task"}})[0] == []
    # Before 2025-11-25 the member is unknown: the call is a plain one, whatever the server answers.
    assert task_call_answered({"result": {"task": TASK}}, version="2025-06-18")[0] == [
        ("TOOLS-CALL-RESULT", "a tools/call result without a content list")
    ]


@pytest.mark.spec("RESOURCES-SHAPE", "CAP-UNANNOUNCED-METHOD", "RPC-RESPONSE-SHAPE")
def test_only_a_result_to_a_method_of_an_announced_capability_is_judged() -> None:
    # A refusal is no result: nothing to judge for shape.
    assert answered("resources/read", {"uri": "x"}, {"error": {"code": -32002, "message": "no such resource"}}) == []
    # Unannounced, a result is CAP-UNANNOUNCED-METHOD's alone.
    lines, opened = _opened("2025-06-18", {"tools": {}})
    unasked = _judge(
        [*lines, encode(request(1, "resources/read", {"uri": "x"}))],
        [opened, _line({"jsonrpc": "2.0", "id": 1, "result": {}})],
    )
    assert [finding.rule for finding in unasked] == ["CAP-UNANNOUNCED-METHOD"]
    # A result that is no object is the envelope's rule's.
    assert "RESOURCES-SHAPE" not in {finding.rule for finding in answered("resources/list", {}, {"result": []})}


@pytest.mark.spec("RESOURCES-SHAPE", "PROMPTS-SHAPE")
def test_a_result_shape_rule_is_witnessed_only_where_its_result_was_seen() -> None:
    lines, opened = _opened("2025-06-18")
    stream = b"".join([*lines, encode(request(1, "resources/list"))])
    output = (opened, _line({"jsonrpc": "2.0", "id": 1, "result": {"resources": []}}))
    seen = witnessed(stream, Observation(output, b"", True, SENTINEL_IDS))
    assert "RESOURCES-SHAPE" in seen and "PROMPTS-SHAPE" not in seen


@pytest.mark.spec("SERVER-MESSAGE-SHAPE")
def test_the_shape_of_what_a_server_writes_unasked_is_witnessed_only_where_it_wrote_such_a_message() -> None:
    lines, opened = _opened("2025-06-18")
    stream = b"".join([*lines, encode(request(1, "ping"))])
    answer = _line({"jsonrpc": "2.0", "id": 1, "result": {}})
    log = _line({"jsonrpc": "2.0", "method": "notifications/message", "params": {"level": "info", "data": 1}})
    changed = _line({"jsonrpc": "2.0", "method": "notifications/tools/list_changed"})  # params optional: no shape
    assert "SERVER-MESSAGE-SHAPE" in witnessed(stream, Observation((opened, log, answer), b"", True, SENTINEL_IDS))
    for output in ((opened, answer), (opened, changed, answer)):
        assert "SERVER-MESSAGE-SHAPE" not in witnessed(stream, Observation(output, b"", True, SENTINEL_IDS))


@pytest.mark.spec("RESOURCES-SHAPE", "MOD-TOOLS-CACHE")
def test_a_modern_resources_list_carries_its_cache_members() -> None:
    enveloped = MODERN.request(1, "resources/list", {}, V2026_07_28)
    discovered = {"supportedVersions": ["2026-07-28"], "capabilities": ANNOUNCED, "resultType": "complete"}

    def findings(result: dict[str, Any]) -> list[tuple[str, str]]:
        output = (
            _line({"jsonrpc": "2.0", "id": 1, "result": {"resultType": "complete", **result}}),
            _line({"jsonrpc": "2.0", "id": SENTINEL_IDS[0], "result": discovered}),
        )
        return said(judge(encode(enveloped), Observation(output, b"", True, SENTINEL_IDS)))

    assert findings({"resources": [], "ttlMs": 0, "cacheScope": "private"}) == []
    assert findings({"resources": [], "cacheScope": "private"}) == [
        ("RESOURCES-SHAPE", "resources/list answered with a result without an integer ttlMs")
    ]
    assert findings({"resources": [], "ttlMs": 5, "cacheScope": "shared"}) == [
        ("RESOURCES-SHAPE", 'resources/list answered with cacheScope "shared", none of private, public')
    ]


LOG = {"method": "notifications/message", "params": {"level": "info", "data": {"any": ["value"]}}}


@pytest.mark.spec("SERVER-MESSAGE-SHAPE")
def test_a_message_written_unasked_without_the_params_its_schema_requires_fails_saying_what_it_lacks() -> None:
    assert wrote(LOG) == []
    assert said(wrote({"method": "notifications/message", "params": {"data": 1}})) == [
        ("SERVER-MESSAGE-SHAPE", "wrote notifications/message with params without a string level")
    ]
    loud = wrote({"method": "notifications/message", "params": {"level": "loud", "data": 1}})[0]
    assert loud.message.startswith('wrote notifications/message with params.level "loud", none of alert, critical')
    assert loud.expected == "params {level, data}"
    assert said(wrote({"method": "notifications/resources/updated"})) == [
        ("SERVER-MESSAGE-SHAPE", "wrote notifications/resources/updated without params")
    ]
    sampling = {"method": "sampling/createMessage", "id": "s1", "params": {"messages": [], "maxTokens": 1.5}}
    declared = [encode(initialize(0, "2025-06-18", {"sampling": {}})), encode(INITIALIZED), encode(request(1, "ping"))]
    output = [
        _opened("2025-06-18")[1],
        _line({"jsonrpc": "2.0", **sampling}),
        _line({"jsonrpc": "2.0", "id": 1, "result": {}}),
    ]
    assert said(_judge(declared, output)) == [
        ("SERVER-MESSAGE-SHAPE", "wrote sampling/createMessage with params without an integer maxTokens")
    ]
    # A method whose params the schema does not require, or that the version lacks, is not judged here.
    assert wrote({"method": "notifications/unknown/thing", "params": 3}) == []
    assert wrote({"method": "notifications/tasks/status", "params": {}}) == []


@pytest.mark.spec("SERVER-MESSAGE-SHAPE", "RPC-CANCEL-OWN")
def test_a_cancellation_names_its_request_but_a_task_cancellation_of_2025_11_25_need_not() -> None:
    bare = {"method": "notifications/cancelled", "params": {"reason": "stop"}}
    assert said(wrote(bare)) == [
        ("SERVER-MESSAGE-SHAPE", "wrote notifications/cancelled with params without a string or an integer requestId")
    ]
    assert "SERVER-MESSAGE-SHAPE" not in {f.rule for f in wrote(bare, version="2025-11-25")}
    assert said(wrote({"method": "notifications/cancelled", "params": []}, version="2025-11-25")) == [
        ("SERVER-MESSAGE-SHAPE", "wrote notifications/cancelled with params that is not an object")
    ]


@pytest.mark.spec(
    "SERVER-MESSAGE-SHAPE", "PROGRESS-TOKEN", "CAP-RESOURCE-SUBSCRIBED", "CAP-ELICIT-COMPLETE", "RPC-CANCEL-OWN"
)
@pytest.mark.parametrize(
    ("message", "version"),
    [
        ({"method": "notifications/progress", "params": {"progressToken": True, "progress": 1}}, "2025-06-18"),
        ({"method": "notifications/progress", "params": {"progressToken": "t", "progress": "half"}}, "2025-06-18"),
        ({"method": "notifications/resources/updated", "params": {"uri": 7}}, "2025-06-18"),
        ({"method": "notifications/elicitation/complete", "params": {"elicitationId": 7}}, "2025-11-25"),
        ({"method": "notifications/cancelled", "params": {"requestId": None}}, "2025-06-18"),
    ],
)
def test_a_malformed_message_is_one_finding_under_its_shape_not_also_under_what_it_refers_to(
    message: dict[str, Any], version: str
) -> None:
    assert [finding.rule for finding in wrote(message, version=version)] == ["SERVER-MESSAGE-SHAPE"]


@pytest.mark.spec("SERVER-MESSAGE-SHAPE")
def test_the_shapes_of_2025_11_25_elicitation_and_sampling() -> None:
    url = {"mode": "url", "message": "m", "url": "https://x", "elicitationId": "e"}
    form = {"message": "m", "requestedSchema": {"type": "object", "properties": {}}}
    assert shape_problem(Tagged("mode", {"url": Obj({"url": str})}, Obj({"message": str})), form, "params") is None
    declared = {"elicitation": {"form": {}, "url": {}}, "sampling": {"tools": {}}}
    lines = [encode(initialize(0, "2025-11-25", declared)), encode(INITIALIZED), encode(request(1, "ping"))]

    def asked(method: str, params: dict[str, Any]) -> list[tuple[str, str]]:
        output = [_opened("2025-11-25")[1], _line({"jsonrpc": "2.0", "id": "s", "method": method, "params": params})]
        return said(_judge(lines, [*output, _line({"jsonrpc": "2.0", "id": 1, "result": {}})]))

    assert asked("elicitation/create", url) == [] and asked("elicitation/create", form) == []
    assert asked("elicitation/create", {**url, "elicitationId": None}) == [
        ("SERVER-MESSAGE-SHAPE", "wrote elicitation/create with params without a string elicitationId")
    ]
    assert asked("elicitation/create", {"message": "m", "requestedSchema": {"type": "array", "properties": {}}}) == [
        ("SERVER-MESSAGE-SHAPE", 'wrote elicitation/create with params.requestedSchema.type "array", none of object')
    ]
    use = {"type": "tool_use", "id": "u", "name": "n", "input": {}}
    result = {"type": "tool_result", "toolUseId": "u", "content": [{"type": "text"}]}
    sampled = {
        "messages": [{"role": "assistant", "content": [use]}, {"role": "user", "content": result}],
        "maxTokens": 9,
    }
    assert asked("sampling/createMessage", sampled) == [
        (
            "SERVER-MESSAGE-SHAPE",
            "wrote sampling/createMessage with params.messages[1].content.content[0] without a string text",
        )
    ]


def test_the_outline_a_finding_expects() -> None:
    assert outline(Obj({"completion": Obj({"values": Items(str)})})) == "{completion: {values: [a string, ...]}}"
    assert (
        outline(Obj({"content": ListOr(Tagged("type", {}))}, ("text", "blob"))) == "{content: {type, ...}, text | blob}"
    )
    assert outline(Enum(frozenset({"a"}))) == ""
    assert shape_problem(ListOr(str), ["a", 1], "x") == "x[1] that is not a string"
    assert shape_problem((int, type(None)), None, "ttl") is None
    assert shape_problem(Obj({"ttl": (int, type(None))}), {"ttl": "1"}, "") == "a result without an integer or null ttl"
    assert (
        shape_problem(Obj({"n": float, "b": bool, "o": object}), {"n": 1, "b": 1, "o": None}, "p")
        == "p without a boolean b"
    )
    assert shape_problem(Obj({"l": list}), {"l": {}}, "p") == "p without an array l"


@pytest.mark.spec("SERVER-MESSAGE-SHAPE", "PROGRESS-INCREASING")
def test_before_any_version_is_known_no_message_is_held_to_a_versions_shape() -> None:
    asking = encode(request(1, "ping", {"_meta": {"progressToken": "t"}}))
    progress = [
        _line({"jsonrpc": "2.0", "method": "notifications/progress", "params": {"progressToken": "t", "progress": p}})
        for p in ("half", 1)
    ]
    found = {
        finding.rule for finding in _judge([asking], [*progress, _line({"jsonrpc": "2.0", "id": 1, "result": {}})])
    }
    assert not found & {"SERVER-MESSAGE-SHAPE", "PROGRESS-INCREASING", "PROGRESS-TOKEN"}


@pytest.mark.spec("SERVER-MESSAGE-SHAPE", "MOD-LOG-LEVEL")
def test_a_modern_server_is_held_to_the_modern_shapes() -> None:
    discovered = {"supportedVersions": ["2026-07-28"], "capabilities": ANNOUNCED, "resultType": "complete"}
    enveloped = MODERN.request(1, "tools/list", {}, V2026_07_28)
    acknowledged = {
        "jsonrpc": "2.0",
        "method": "notifications/subscriptions/acknowledged",
        "params": {"notifications": []},
    }
    output = (
        _line(acknowledged),
        _line({"jsonrpc": "2.0", "id": SENTINEL_IDS[0], "result": discovered}),
    )
    findings = said(judge(encode(enveloped), Observation(output, b"", True, SENTINEL_IDS)))
    assert (
        "SERVER-MESSAGE-SHAPE",
        "wrote notifications/subscriptions/acknowledged with params without an object notifications",
    ) in findings
