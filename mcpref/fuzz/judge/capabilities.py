"""Requests of an operating session, by the capability their method belongs to (CAP-*, and
RPC-METHOD-NOT-FOUND for a method of none): announced capabilities work, unannounced ones do not.

In: a ``Session``, a request served once the session is ready (or a modern request), the one answer
it drew, and the ``Target`` that says what the server announced. Out: findings under
CAP-ANNOUNCED-METHODS, CAP-UNANNOUNCED-METHOD and RPC-METHOD-NOT-FOUND; tools/list and tools/call
go on to ``tools``, the results of resources, prompts and completion to ``server_shapes``.
"""

from __future__ import annotations

from mcpref.fuzz.judge import server_shapes, tools
from mcpref.fuzz.judge.modern import MODERN_NAMES, capability_of, error_code, show
from mcpref.fuzz.judge.reading import Request
from mcpref.fuzz.judge.session import Session, Target
from mcpref.reference.messages import METHOD_NOT_FOUND, JsonObject

# Methods of the modern core with no capability of their own, beyond what is judged here.
MODERN_METHODS = frozenset({"subscriptions/listen", "server/discover"})

# Methods a server must answer once it announces their capability (CAP-ANNOUNCED-METHODS).
CAPABILITY_METHODS = frozenset(
    {
        "tools/list",
        "tools/call",
        "resources/list",
        "resources/read",
        "prompts/list",
        "prompts/get",
        "logging/setLevel",
        "completion/complete",
    }
)


def operating(session: Session, index: int, request: Request, answer: JsonObject, target: Target) -> None:
    capability = capability_of(request.method)
    code = error_code(answer)
    announced = target.capabilities is not None and capability in target.capabilities
    if announced and request.method in CAPABILITY_METHODS:
        session.witnessed.add("CAP-ANNOUNCED-METHODS")  # a pass needs such a method asked of the server
    if capability is None and target.version in MODERN_NAMES and request.method in MODERN_METHODS:
        return  # a method of the modern core beyond what mcpref judges
    if capability is None:
        if code != METHOD_NOT_FOUND:
            session.find(
                "RPC-METHOD-NOT-FOUND",
                index,
                "an unknown method was not refused with -32601",
                "-32601",
                show(answer),
            )
    elif target.capabilities is not None and not announced:
        session.witnessed.add("CAP-UNANNOUNCED-METHOD")  # a pass needs such a method asked of the server
        if code != METHOD_NOT_FOUND:
            session.find(
                "CAP-UNANNOUNCED-METHOD",
                index,
                "a method of an unannounced capability was not refused with -32601",
                "-32601",
                show(answer),
            )
    elif request.method in server_shapes.RULE_OF and code is None:
        server_shapes.judge_result(session, index, request.method, answer, target)
    elif request.method not in CAPABILITY_METHODS:
        return  # another method of an announced capability: nothing more is known of it
    elif request.method == "tools/call" and tools.malformed_call(request):
        tools.judge_call(session, index, request, answer, target)  # RPC-INVALID-PARAMS, whatever the tool
    elif request.method == "tools/call" and code is not None and tools.takes_calls_as_tasks(target):
        return  # a server that takes calls as tasks may refuse one that is none, and one of a tool that is none
    elif request.method == "tools/call" and tools.creates_task(request, answer, target):
        server_shapes.judge_created_task(session, index, answer)  # TASKS-SHAPE: no CallToolResult (TOOLS-*)
    elif request.method == "tools/call" and code == METHOD_NOT_FOUND and not tools.listed(request, target):
        tools.unlisted_refused_as_unknown_method(session, index, answer)
    elif code is not None and (code == METHOD_NOT_FOUND or request.method == "tools/list"):
        session.find(
            "CAP-ANNOUNCED-METHODS",
            index,
            f"capability {capability} was announced but {request.method} fails",
            "a working method",
            show(answer),
        )
    elif request.method == "tools/list":
        tools.judge_list(session, index, request, answer, target)
    elif request.method == "tools/call":
        tools.judge_call(session, index, request, answer, target)

