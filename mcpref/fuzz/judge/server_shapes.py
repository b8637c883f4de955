"""What a server writes, held to the shapes each version's schema requires (RESOURCES-SHAPE,
PROMPTS-SHAPE, COMPLETION-SHAPE, TASKS-SHAPE, SERVER-MESSAGE-SHAPE).

In: a ``Session``, and a result to a request of an announced capability (``judge_result``), or the
notifications and requests the server wrote unasked (``judge_unasked``). Out: one finding per
result found lacking, and per method of the unasked messages, saying what it lacks; and
``well_formed``, for the rules that read what a message refers to. The tables (``RESULTS``, ``MESSAGES``) list, by
version, only the members the schema requires, with their JSON types, recursively; the tests derive
them from each version's ``schema.json`` and hold these equal (tests/fuzz/test_official_schema.py).
A result's ``resultType`` is MOD-RESULT-TYPE's; a message's envelope (jsonrpc, id) RPC-*'s.
"""

from __future__ import annotations

from typing import Final

from mcpref.fuzz.judge.modern import MODERN_NAMES, show
from mcpref.fuzz.judge.session import Session, Target
from mcpref.fuzz.judge.shapes import (
    CONTENT_BLOCKS,
    RESOURCE_BODIES,
    Enum,
    Items,
    ListOr,
    Obj,
    Shape,
    Tagged,
    outline,
    shape_problem,
)
from mcpref.reference.messages import JsonObject
from mcpref.reference.versions import KNOWN

ID = (str, int)  # a request id or progress token: a string or an integer
ROLE = Enum(frozenset({"user", "assistant"}))
LEVEL = Enum(frozenset({"debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"}))
CACHE: Final[dict[str, Shape]] = {"ttlMs": int, "cacheScope": Enum(frozenset({"public", "private"}))}
RESOURCE_BODY = Obj({"uri": str}, RESOURCE_BODIES)  # TextResourceContents or BlobResourceContents
# A task (2025-11-25): what tasks/get and tasks/cancel answer, tasks/list lists, and a status notification holds.
TASK_STATUS = Enum(frozenset({"working", "input_required", "completed", "failed", "cancelled"}))
TASK = Obj({"taskId": str, "status": TASK_STATUS, "createdAt": str, "lastUpdatedAt": str, "ttl": (int, type(None))})
CREATED_TASK = Obj({"task": TASK})  # CreateTaskResult: what a task-augmented request is answered with
# The content blocks each version defines (AudioContent from 2025-03-26, ResourceLink from 2025-06-18).
BLOCKS_OF: Final = {
    "2024-11-05": ("text", "image", "resource"),
    "2025-03-26": ("text", "image", "audio", "resource"),
}
LATER_BLOCKS: Final = ("text", "image", "audio", "resource_link", "resource")


def blocks(version: str, kinds: tuple[str, ...] | None = None) -> Tagged:
    """The content blocks of ``version`` (or those of ``kinds`` among them), each with its members."""

    def members(kind: str) -> Obj:
        found: dict[str, Shape] = dict(CONTENT_BLOCKS[kind])
        return Obj(found | {"resource": RESOURCE_BODY} if kind == "resource" else found)

    chosen = kinds or BLOCKS_OF.get(version, LATER_BLOCKS)
    return Tagged("type", {kind: members(kind) for kind in chosen})


def sampling_content(version: str) -> Shape:
    """A sampling message's content: one block of text, image (audio from 2025-03-26); from
    2025-11-25 tool uses and results too, alone or in an array."""
    kinds = ("text", "image") if version == "2024-11-05" else ("text", "image", "audio")
    if version in BLOCKS_OF or version == "2025-06-18":
        return blocks(version, kinds)
    tools = {
        "tool_use": Obj({"id": str, "name": str, "input": dict}),
        "tool_result": Obj({"toolUseId": str, "content": Items(blocks(version))}),
    }
    plain = blocks(version, kinds)
    return ListOr(Tagged("type", {**plain.cases, **tools}))


def results(version: str) -> dict[str, Obj]:
    """The results of ``version`` judged here, by method."""
    cached = CACHE if version in MODERN_NAMES else {}
    tasks: dict[str, Obj] = {"tasks/list": Obj({"tasks": Items(TASK)}), "tasks/get": TASK, "tasks/cancel": TASK}
    return ({} if version != "2025-11-25" else tasks) | {
        "resources/list": Obj({"resources": Items(Obj({"uri": str, "name": str})), **cached}),
        "resources/templates/list": Obj({"resourceTemplates": Items(Obj({"uriTemplate": str, "name": str})), **cached}),
        "resources/read": Obj({"contents": Items(RESOURCE_BODY), **cached}),
        "prompts/list": Obj({"prompts": Items(Obj({"name": str})), **cached}),
        "prompts/get": Obj({"messages": Items(Obj({"role": ROLE, "content": blocks(version)}))}),
        "completion/complete": Obj({"completion": Obj({"values": Items(str)})}),
    }


def messages(version: str) -> dict[str, Shape]:
    """The params of the notifications and requests a server of ``version`` may write, by method
    (those whose params the schema requires)."""
    cancelled: Obj | type = dict if version == "2025-11-25" else Obj({"requestId": ID})  # a task's has none
    params: dict[str, Shape] = {
        "notifications/cancelled": cancelled,
        "notifications/progress": Obj({"progressToken": ID, "progress": float}),
        "notifications/resources/updated": Obj({"uri": str}),
        "notifications/message": Obj({"level": LEVEL, "data": object}),
        "sampling/createMessage": Obj(
            {"messages": Items(Obj({"role": ROLE, "content": sampling_content(version)})), "maxTokens": int}
        ),
    }
    form = Obj({"message": str, "requestedSchema": Obj({"type": Enum(frozenset({"object"})), "properties": dict})})
    url: dict[str, Shape] = {"message": str, "url": str}
    if version == "2025-06-18":
        params["elicitation/create"] = form
    if version == "2025-11-25":
        params["elicitation/create"] = Tagged("mode", {"url": Obj(url | {"elicitationId": str}), "form": form}, form)
        params |= {"notifications/elicitation/complete": Obj({"elicitationId": str})}
        task = Obj({"taskId": str})
        params |= {"tasks/get": task, "tasks/result": task, "tasks/cancel": task}
        params["notifications/tasks/status"] = TASK
    if version in MODERN_NAMES:
        # No request of a modern server is written to stdout: its sampling is asked in a result.
        del params["sampling/createMessage"]
        params["notifications/subscriptions/acknowledged"] = Obj({"notifications": dict})
    return params


RESULTS: Final = {version.name: results(version.name) for version in KNOWN}
MESSAGES: Final = {version.name: messages(version.name) for version in KNOWN}
# The rule that names each result's shape, by the page that defines its method.
RULE_OF: Final = {
    "resources/list": "RESOURCES-SHAPE",
    "resources/templates/list": "RESOURCES-SHAPE",
    "resources/read": "RESOURCES-SHAPE",
    "prompts/list": "PROMPTS-SHAPE",
    "prompts/get": "PROMPTS-SHAPE",
    "completion/complete": "COMPLETION-SHAPE",
    "tasks/list": "TASKS-SHAPE",
    "tasks/get": "TASKS-SHAPE",
    "tasks/cancel": "TASKS-SHAPE",
}


def judge_result(session: Session, index: int, method: str, answer: JsonObject, target: Target) -> None:
    """A result to ``method``, held to its version's shape (RESOURCES-SHAPE, PROMPTS-SHAPE,
    COMPLETION-SHAPE, TASKS-SHAPE). A version the tables do not know is held to the oldest's, whose
    members every later version requires too; a method its version does not define (tasks/list but
    under 2025-11-25) is not judged."""
    shape = RESULTS.get(target.version or "", RESULTS[KNOWN[0].name]).get(method)
    if shape is not None:
        _judge(session, index, RULE_OF[method], method, shape, answer)


def judge_created_task(session: Session, index: int, answer: JsonObject) -> None:
    """TASKS-SHAPE: the result of a task-augmented tools/call (2025-11-25), a CreateTaskResult: the
    task created, not the call's result, which tasks/result gives once the task is done."""
    _judge(session, index, "TASKS-SHAPE", "a task-augmented tools/call", CREATED_TASK, answer)


def _judge(session: Session, index: int, rule: str, asked: str, shape: Obj, answer: JsonObject) -> None:
    session.witnessed.add(rule)
    problem = shape_problem(shape, answer.get("result"), "")  # an object: RPC-RESPONSE-SHAPE holds the rest
    if problem is not None:
        session.find(rule, index, f"{asked} answered with {problem}", outline(shape), show(answer))


def judge_unasked(session: Session) -> None:
    """SERVER-MESSAGE-SHAPE: each notification or request the server wrote, with params of its
    method's shape; a modern server's by the modern version until it opened a legacy session. One
    finding per method, saying what the first malformed one lacks and how many there were."""
    malformed: dict[str, list[tuple[str, Shape, JsonObject]]] = {}
    for at, value in session.server_messages:
        shape = _shape_at(session, at, value)
        if shape is not None:
            session.witnessed.add("SERVER-MESSAGE-SHAPE")  # a pass needs a message read, not silence
        if shape is not None and (problem := params_problem(shape, value)) is not None:
            malformed.setdefault(str(value["method"]), []).append((problem, shape, value))
    for method, found in malformed.items():
        problem, shape, value = found[0]
        times = f" (one of {len(found)} such messages)" if len(found) > 1 else ""
        expected = f"params {outline(shape)}".rstrip()
        session.find("SERVER-MESSAGE-SHAPE", None, f"wrote {method} {problem}{times}", expected, show(value))


def params_problem(shape: Shape, message: JsonObject) -> str | None:
    """What a message's params lack of ``shape``, as "without params" or "with params...", or None."""
    if "params" not in message:
        return "without params"
    problem = shape_problem(shape, message["params"], "params")
    return None if problem is None else f"with {problem}"


def well_formed(session: Session, at: int, message: JsonObject) -> bool:
    """Whether a message the server wrote at output line ``at`` has its method's shape: a rule that
    reads what it refers to (a token, a request id, a URI) leaves a malformed one to
    SERVER-MESSAGE-SHAPE, one finding for one cause."""
    shape = _shape_at(session, at, message)
    return shape is None or params_problem(shape, message) is None


def _shape_at(session: Session, at: int, message: JsonObject) -> Shape | None:
    """The shape of the params of a message written at output line ``at``, by the version then
    followed: a modern server's the modern version until it opened a legacy session."""
    version = session.target.version
    if session.modern.server.speaks and (session.legacy_from is None or at < session.legacy_from):
        version = session.modern_target.version
    method = message.get("method")
    return MESSAGES.get(version or "", {}).get(method) if isinstance(method, str) else None
