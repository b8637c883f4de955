"""What a server that speaks the modern era (2026-07-28) writes on its own initiative.

In: a surveyed ``Session``: the server's own messages by output line, where a legacy session
opened (``legacy_from``: from there on the legacy era's rules hold, MOD-DUAL-ERA), and the
requests of the input. Out: one finding for the session per cause, and only for a server seen
speaking the era:
- ``no_requests``: no JSON-RPC request on stdout; input is asked for in an ``input_required``
  result (MOD-NO-SERVER-REQUESTS);
- ``no_logs_unasked``: no ``notifications/message`` but for a request whose ``_meta`` asked for
  a log level, before its answer (MOD-LOG-LEVEL);
- ``listen_only``: list-changed and resource-updated notifications only of a type that a
  ``subscriptions/listen`` request of the input asked for (MOD-LISTEN-ONLY);
- ``cancels_listens_only``: ``notifications/cancelled`` only for a ``subscriptions/listen`` request
  of the input, which it ends (MOD-SERVER-CANCEL).
"""

from __future__ import annotations

from mcpref.fuzz.judge.findings import counted
from mcpref.fuzz.judge.modern import LISTEN_FILTER_OF, show, task_id, updated_uri
from mcpref.fuzz.judge.reading import Request, is_valid_id
from mcpref.fuzz.judge.server_shapes import well_formed
from mcpref.fuzz.judge.session import Session, id_key
from mcpref.reference.messages import JsonObject, JsonValue

# The filter members that ask for a type of notification as a whole (resource updates go by URI,
# task notifications by task id).
_NAMED_BY = {"notifications/resources/updated": "resourceSubscriptions", "notifications/tasks": "taskIds"}
_FILTER_NAMES = frozenset(LISTEN_FILTER_OF.values()) - set(_NAMED_BY.values())


def judge(session: Session) -> None:
    if session.modern.server.speaks:
        no_requests(session)
        no_logs_unasked(session)
        listen_only(session)
        cancels_listens_only(session)


def _before_legacy(session: Session, position: int) -> bool:
    """Whether output line ``position`` comes before the legacy session opened, if one did."""
    return session.legacy_from is None or position < session.legacy_from


def no_requests(session: Session) -> None:
    """MOD-NO-SERVER-REQUESTS: the server writes no request; one finding naming every one."""
    methods = [method for position, method in session.server_requests if _before_legacy(session, position)]
    if methods:
        session.find(
            "MOD-NO-SERVER-REQUESTS",
            None,
            f"wrote {counted(len(methods), 'JSON-RPC request')} to stdout: " + ", ".join(methods),
            "no request: input asked for in an input_required result",
            ", ".join(methods),
        )


def no_logs_unasked(session: Session) -> None:
    """MOD-LOG-LEVEL: on stdio a log names no request, so one is judged unasked only when no asking
    request was in progress: each had its answer written before it (or none was sent)."""
    asked_until = [session.answered_at.get(id_key(asker)) for asker in session.log_askers]
    unasked = [
        position
        for position in session.logs
        if _before_legacy(session, position) and all(end is not None and end < position for end in asked_until)
    ]
    if unasked:
        session.find(
            "MOD-LOG-LEVEL",
            None,
            f"wrote {len(unasked)} notifications/message while no request asking for a log level was in progress",
            "no log message but for a request with io.modelcontextprotocol/logLevel in its _meta, before its answer",
            f"{len(unasked)} notifications/message",
        )


def listen_only(session: Session) -> None:
    """MOD-LISTEN-ONLY: a notification of a subscriptions/listen stream is written only when a listen
    request asked for its type (for a resource update, its URI; for a task's, its id); mcpref's
    cases send none."""
    types, named = _listened(session)
    unasked = [
        method
        for position, value in session.server_messages
        if "id" not in value
        and isinstance(method := value.get("method"), str)
        and method in LISTEN_FILTER_OF
        and _before_legacy(session, position)
        and well_formed(session, position, value)  # else SERVER-MESSAGE-SHAPE's: one finding for one cause
        and not (LISTEN_FILTER_OF[method] in types or (isinstance(key := _named(value), str) and (method, key) in named))
    ]
    if unasked:
        session.find(
            "MOD-LISTEN-ONLY",
            None,
            f"wrote {counted(len(unasked), 'notification')} no subscriptions/listen asked for: " + ", ".join(unasked),
            "list_changed, resources/updated and task notifications only on a subscriptions/listen stream that asked for them",
            ", ".join(unasked),
        )


def cancels_listens_only(session: Session) -> None:
    """MOD-SERVER-CANCEL: a modern server cancels nothing but a subscriptions/listen request of the
    client, to end its stream; one finding naming every other id."""
    listens = {id_key(listen.id) for listen in _listens(session)}
    named: list[str] = []
    for position, value in session.server_messages:
        if "id" in value or value.get("method") != "notifications/cancelled" or not _before_legacy(session, position):
            continue
        params = value.get("params")
        request_id = params.get("requestId") if isinstance(params, dict) else None
        if not (is_valid_id(request_id) and id_key(request_id) in listens):
            named.append(show(request_id))
    if named:
        ids = ", ".join(dict.fromkeys(named))
        session.find(
            "MOD-SERVER-CANCEL",
            None,
            f"wrote {len(named)} notifications/cancelled for {ids}: no subscriptions/listen request",
            "notifications/cancelled only to end a subscriptions/listen stream",
            ids,
        )


def _listened(session: Session) -> tuple[set[str], set[tuple[str, str]]]:
    """What the input's subscriptions/listen requests asked for: the filter members set to true,
    and the resource URIs of their ``resourceSubscriptions`` with the task ids of their ``taskIds``."""
    types: set[str] = set()
    named: set[tuple[str, str]] = set()
    for listen in _listens(session):
        wanted = (listen.params or {}).get("notifications")
        if isinstance(wanted, dict):
            types.update(name for name, value in wanted.items() if value is True and name in _FILTER_NAMES)
            for method, member in _NAMED_BY.items():
                listed = wanted.get(member)
                if isinstance(listed, list):
                    named.update((method, key) for key in listed if isinstance(key, str))
    return types, named


def _listens(session: Session) -> list[Request]:
    """The input's subscriptions/listen requests."""
    return [
        message
        for line in session.input
        for message in line.messages
        if isinstance(message, Request) and message.method == "subscriptions/listen"
    ]


def _named(value: JsonObject) -> JsonValue:
    """What a listen filter names a notification by: a resource update's URI, a task's id."""
    return updated_uri(value) if value.get("method") == "notifications/resources/updated" else task_id(value)

