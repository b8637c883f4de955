"""Tools (TOOLS-*): tools/list and tools/call, judged against the tools the server listed.

In: a ``Session``, a tools/list or tools/call request's line index, the one answer it drew, and the
``Target`` the request is judged against (legacy or modern). Out: findings under TOOLS-* (and
RPC-INVALID-PARAMS for a tools/call whose params name no call), and the tools listed, kept in the
target: a call is judged against its tool as listed (its inputSchema and outputSchema).
"""

from __future__ import annotations

from typing import Final

from mcpref.fuzz.judge.arguments import argument_problem
from mcpref.fuzz.judge.json_schema import misfit
from mcpref.fuzz.judge.modern import error_code, show
from mcpref.fuzz.judge.reading import Request
from mcpref.fuzz.judge.session import Session, Target, answered, result_of
from mcpref.fuzz.judge.shapes import content_problem
from mcpref.reference.messages import INVALID_PARAMS, JsonObject, JsonValue
from mcpref.reference.versions import BY_NAME, only, since

STRUCTURED: Final = since("2025-06-18")  # structuredContent and outputSchema exist
OBJECT_ONLY: Final = only("2025-06-18", "2025-11-25")  # structuredContent an object (any JSON value after)
TASKS: Final = only("2025-11-25")  # task-augmented requests (an extension from 2026-07-28)


def malformed_call(request: Request) -> bool:
    """Whether a tools/call's params cannot name a tool call: a name that is no string, arguments no object."""
    params = request.params or {}
    return not isinstance(params.get("name"), str) or not isinstance(params.get("arguments", {}), dict)


def task_augmented(request: Request, target: Target) -> bool:
    """Whether a tools/call asks to run as a task: 2025-11-25's ``task`` member of its params. Other
    versions define no such member: there the call is a plain one (SPEC_NOTES TASKS-SHAPE)."""
    return BY_NAME.get(target.version or "") in TASKS and "task" in (request.params or {})


def creates_task(request: Request, answer: JsonObject, target: Target) -> bool:
    """Whether the answer to a task-augmented tools/call is to be read as a CreateTaskResult: a
    result holding a ``task``, or, from a server that takes calls as tasks, one holding no
    ``content`` either. A server that does not MUST ignore the member and answer a CallToolResult
    (tasks#task-support-and-handling); one that does may answer so a call of a tool it runs as no task."""
    result = result_of(answer)
    return (
        task_augmented(request, target)
        and result is not None
        and ("task" in result or ("content" not in result and takes_calls_as_tasks(target)))
    )


def takes_calls_as_tasks(target: Target) -> bool:
    """Whether the server announced ``tasks.requests.tools.call`` under 2025-11-25, so that a
    tools/call may draw an error whatever the tool: such a server MAY require calls as tasks, and MUST refuse with -32601 a
    plain call of a tool it lists with ``execution.taskSupport`` "required"; it SHOULD refuse a call
    as a task of a tool whose taskSupport is "forbidden" or absent."""
    capabilities = target.capabilities or {}
    tasks = capabilities.get("tasks")
    requests = tasks.get("requests") if isinstance(tasks, dict) else None
    tools = requests.get("tools") if isinstance(requests, dict) else None
    return BY_NAME.get(target.version or "") in TASKS and isinstance(tools, dict) and isinstance(tools.get("call"), dict)


def listed(request: Request, target: Target) -> bool:
    """Whether a tools/call names a tool the server listed (unknown when it never listed them)."""
    name = (request.params or {}).get("name")
    return target.tools is not None and isinstance(name, str) and name in target.tools


def unlisted_refused_as_unknown_method(session: Session, index: int, answer: JsonObject) -> None:
    """A call to a tool the server did not list, refused as if tools/call did not exist."""
    session.find("TOOLS-UNKNOWN", index, "a call to an unlisted tool refused with -32601", "-32602", show(answer))


def judge_list(session: Session, index: int, request: Request, answer: JsonObject, target: Target) -> None:
    """A tools/list result: its tools are kept, added to the pages before it where the request asked
    for the page after a cursor (tools/list is paginated in every version: a result with a
    ``nextCursor`` lists only some of the tools)."""
    session.witnessed.add("TOOLS-LIST-SHAPE")
    result = result_of(answer) or {}
    tools = result.get("tools")
    if not isinstance(tools, list) or not all(_is_tool(tool) for tool in tools):
        session.find(
            "TOOLS-LIST-SHAPE",
            index,
            "tools/list result is malformed",
            '{tools: [{name, inputSchema: {type: "object"}}]}',
            show(answer),
        )
        return
    if target.tools is None or (request.params or {}).get("cursor") is None:
        target.tools = {}
    target.all_tools = result.get("nextCursor") is None
    for tool in tools:
        assert isinstance(tool, dict) and isinstance(tool["name"], str) and isinstance(tool["inputSchema"], dict)
        target.tools[tool["name"]] = tool


def judge_call(session: Session, index: int, request: Request, answer: JsonObject, target: Target) -> None:
    params = request.params or {}
    name = params.get("name")
    arguments = params.get("arguments", {})
    code = error_code(answer)
    if malformed_call(request):
        if code != INVALID_PARAMS:
            message = f"a tools/call with malformed params was {answered(answer)}"
            session.find("RPC-INVALID-PARAMS", index, message, "-32602", show(answer))
        return
    assert isinstance(name, str) and isinstance(arguments, dict)
    tools = target.tools
    if tools is None or (name not in tools and not target.all_tools):
        _call_result(session, index, answer, None, target)  # a tool the pages not fetched may list
        return
    if name not in tools:
        session.witnessed.add("TOOLS-UNKNOWN")
        if code != INVALID_PARAMS:
            session.find(
                "TOOLS-UNKNOWN",
                index,
                "a call to an unlisted tool was not refused with -32602",
                "-32602",
                show(answer),
            )
        return
    schema = tools[name]["inputSchema"]
    assert isinstance(schema, dict)  # judge_list keeps only tools with an inputSchema object
    # Beyond the subset checked whole, arguments count as invalid only where they surely fail the schema.
    problem = argument_problem(schema, arguments) if _checkable(schema) else misfit(schema, arguments, "arguments")
    if problem is None:
        session.witnessed.add("TOOLS-EXEC-ERROR")
        _call_result(session, index, answer, tools[name], target)
        return
    session.witnessed.add("TOOLS-ARGS-INVALID")
    version = BY_NAME.get(target.version or "")
    result = result_of(answer)
    if version is not None and version.invalid_arguments_are_tool_errors:
        if result is None or result.get("isError") is not True:
            session.find(
                "TOOLS-ARGS-INVALID",
                index,
                f"invalid arguments ({problem}) not a tool error",
                "a result with isError true",
                show(answer),
            )
    elif code != INVALID_PARAMS:
        session.find(
            "TOOLS-ARGS-INVALID",
            index,
            f"invalid arguments ({problem}) not refused with -32602",
            "-32602",
            show(answer),
        )
    if result is not None:  # a result, whatever it answers, has a result's shape
        _call_result(session, index, answer, tools[name], target)


def _call_result(session: Session, index: int, answer: JsonObject, tool: JsonObject | None, target: Target) -> None:
    """A tools/call answer, judged by its shape, and by the ``tool`` listed for it where one was."""
    result = result_of(answer)
    if result is None:
        if tool is not None:
            session.find(
                "TOOLS-EXEC-ERROR",
                index,
                "a valid tool call ended in a protocol error",
                "a result (isError true on failure)",
                show(answer),
            )
        return
    session.witnessed.add("TOOLS-CALL-RESULT")
    output_schema = _output_schema(session, tool)
    content = result.get("content")
    problems = [flaw for block in content if (flaw := content_problem(block))] if isinstance(content, list) else []
    if not isinstance(content, list) or problems:
        message = problems[0] if problems else "a tools/call result without a content list"
        session.find("TOOLS-CALL-RESULT", index, message, "{content: [...]}, each item as its type requires", show(answer))
    elif "isError" in result and not isinstance(result["isError"], bool):
        session.find("TOOLS-CALL-RESULT", index, "isError is not a boolean", "isError: true or false", show(answer))
    elif (problem := _structured_problem(result, output_schema, target.version)) is not None and (
        # After a second initialize the server took, either version may govern (LIFE-SECOND-INIT).
        target.replaced_version is None
        or _structured_problem(result, output_schema, target.replaced_version) is not None
    ):
        session.find("TOOLS-CALL-RESULT", index, *problem, show(answer))


def _output_schema(session: Session, tool: JsonObject | None) -> JsonValue:
    """The outputSchema a result is held to: none once the server wrote tools/list_changed, after
    which the listing the oracle kept may be stale."""
    if tool is None:
        return None
    changed = any(value.get("method") == "notifications/tools/list_changed" for _, value in session.server_messages)
    return None if changed else tool.get("outputSchema")


def _structured_problem(result: JsonObject, output_schema: JsonValue, version: str | None) -> tuple[str, str] | None:
    """What is wrong with a result's structured content, and what was due, or None."""
    known = BY_NAME.get(version or "")
    if known not in STRUCTURED:  # before 2025-06-18, a member like any other; an unknown version has no rule
        return None
    present = "structuredContent" in result
    structured = result.get("structuredContent")
    if present and known in OBJECT_ONLY and not isinstance(structured, dict):
        return "structuredContent is not an object", f"an object under {version}"
    # An error result need not conform: the specification leaves it open (SPEC_NOTES TOOLS-CALL-RESULT).
    if output_schema is None or result.get("isError") is True:
        return None
    expected = "structuredContent conforming to the tool's outputSchema"
    if not present:
        return "a tool listed with an outputSchema answered without structuredContent", expected
    found = misfit(output_schema, structured, "structuredContent")
    return None if found is None else (f"{found}, against the tool's outputSchema", expected)


def _is_tool(tool: JsonValue) -> bool:
    """A name, and an inputSchema of type object: what every version's schema requires of a Tool."""
    if not isinstance(tool, dict) or not isinstance(tool.get("name"), str):
        return False
    schema = tool.get("inputSchema")
    return isinstance(schema, dict) and schema.get("type") == "object"


def _checkable(schema: JsonObject) -> bool:
    """Whether a listed inputSchema is within the subset ``argument_problem`` understands."""
    properties = schema.get("properties")
    required = schema.get("required")
    if (
        schema.get("additionalProperties") is not False
        or not isinstance(properties, dict)
        or not isinstance(required, list)
    ):
        return False
    return all(_checkable_property(spec) for spec in properties.values()) and all(isinstance(r, str) for r in required)


def _checkable_property(spec: JsonValue) -> bool:
    """Only plain strings and bounded integers: other keywords (enum, pattern...) are not checked here."""
    if not isinstance(spec, dict) or not set(spec) <= {"type", "description", "title", "minimum", "maximum"}:
        return False
    if spec.get("type") == "string":
        return set(spec) <= {"type", "description", "title"}
    return spec.get("type") == "integer" and type(spec.get("minimum")) is int and type(spec.get("maximum")) is int
