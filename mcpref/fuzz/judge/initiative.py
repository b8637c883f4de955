"""What a server writes on its own initiative, judged against what the session settled.

In: a ``Session`` whose answers and lines are read, and whose ``Target`` holds what the server
accepted. Out: findings, once for the session per cause: log messages without the ``logging``
capability (CAP-LOGGING-DECLARED), requests for a client capability the client did not declare
(CAP-CLIENT-DECLARED), list-changed notifications without ``listChanged`` (CAP-LIST-CHANGED), resource updates for
URIs the client did not subscribe to (CAP-RESOURCE-SUBSCRIBED),
progress notifications for no request in progress, or going backwards (PROGRESS-TOKEN,
PROGRESS-INCREASING: in both eras, progress being the requester's in each), completions of
url-mode elicitations the server never started (CAP-ELICIT-COMPLETE), task statuses leaving a
terminal one (TASKS-TERMINAL), and cancellations of requests it never sent (RPC-CANCEL-OWN). Requests and
list-changed notifications written before the legacy session opens are LIFE-SERVER-EARLY's (or
the modern era's, MOD-NO-SERVER-REQUESTS and MOD-LOG-LEVEL): each cause is filed once. A
message without the params its method's schema requires is SERVER-MESSAGE-SHAPE's
(``server_shapes``), not read here for what it refers to. Each rule is kept only where a message
of its kind was read (``Session.witnessed``): a server that wrote none was not seen keeping it.
"""

from __future__ import annotations

from collections import Counter

from mcpref.fuzz.judge.modern import show, updated_uri
from mcpref.fuzz.judge.reading import Request, is_valid_id
from mcpref.fuzz.judge.server_shapes import well_formed
from mcpref.fuzz.judge.session import IdKey, Session, id_key
from mcpref.reference.messages import JsonObject, JsonValue
from mcpref.reference.versions import Era, since

_LEGACY_SINCE_2025_06_18 = frozenset(version.name for version in since("2025-06-18") if version.era is Era.LEGACY)
# The versions whose logging page requires the capability of a server that logs.
LOGGING_DECLARED = _LEGACY_SINCE_2025_06_18
# "Use only negotiated capabilities" (Lifecycle, Operation) is a SHOULD before 2025-06-18, a MUST from it.
CLIENT_CAPABILITY_MUST = _LEGACY_SINCE_2025_06_18
# The versions whose client capabilities name modes: sampling ``tools``, elicitation ``form`` and ``url``.
SUB_CAPABILITIES = frozenset(version.name for version in since("2025-11-25") if version.era is Era.LEGACY)

# The server's requests that use a capability of the client.
CLIENT_CAPABILITY_OF = {"roots/list": "roots", "sampling/createMessage": "sampling", "elicitation/create": "elicitation"}
# The server's notifications that the ``listChanged`` of one of its own capabilities announces.
LIST_CHANGED_OF = {
    "notifications/tools/list_changed": "tools",
    "notifications/prompts/list_changed": "prompts",
    "notifications/resources/list_changed": "resources",
}


def judge(session: Session) -> None:
    _logging_declared(session)
    _client_declared(session)
    _list_changed(session)
    _resource_updates(session)
    _progress(session)
    _elicitations_completed(session)
    _task_statuses(session)
    _cancellations(session)


def _judged(session: Session) -> list[tuple[int, JsonObject]]:
    """The server's own messages where legacy rules hold: all of them for a server seen speaking no
    modern era, else those after its legacy session opened."""
    return _in_session(session) if session.modern.server.speaks else session.server_messages


def _in_session(session: Session) -> list[tuple[int, JsonObject]]:
    """The server's own messages after the answer that opened its legacy session."""
    start = session.legacy_from
    return [] if start is None else [(at, value) for at, value in session.server_messages if at > start]


def _logging_declared(session: Session) -> None:
    """CAP-LOGGING-DECLARED: in a legacy session at 2025-06-18 or later, a server that wrote
    ``notifications/message`` declared ``logging`` in its initialize result. A modern server's
    log messages before that session opened are MOD-LOG-LEVEL's (no request asked for them)."""
    target = session.target
    if not target.accepted_init or target.version not in LOGGING_DECLARED or target.capabilities is None:
        return
    after = session.legacy_from if session.modern.server.speaks and session.legacy_from is not None else -1
    logs = [position for position in session.logs if position >= after]
    if logs:
        session.witnessed.add("CAP-LOGGING-DECLARED")  # a pass needs a log message read, not silence
    if logs and "logging" not in target.capabilities:
        session.find(
            "CAP-LOGGING-DECLARED",
            None,
            f"wrote {len(logs)} notifications/message without declaring the logging capability",
            '"logging" among the capabilities of its initialize result',
            show(target.capabilities),
        )


def _client_declared(session: Session) -> None:
    """CAP-CLIENT-DECLARED: the server asks the client only for what the client declared in the
    initialize that opened the session (roots, sampling, elicitation, and from 2025-11-25 their
    modes: sampling with tools, elicitation in url or form mode); one finding per method."""
    declared = session.client_capabilities if isinstance(session.client_capabilities, dict) else {}
    missing: dict[str, list[str]] = {}  # method -> what each of its requests needed and lacked
    for _, value in _in_session(session):
        method = value.get("method")
        if "id" in value and isinstance(method, str) and method in CLIENT_CAPABILITY_OF:
            session.witnessed.add("CAP-CLIENT-DECLARED")  # a pass needs such a request read
            need = _needed(method, value.get("params"), session.target.version)
            if not _declares(declared, need):
                missing.setdefault(method, []).append(need)
    for method, needs in missing.items():
        lacking = ", ".join(dict.fromkeys(needs))
        session.find(
            "CAP-CLIENT-DECLARED",
            None,
            f"sent {method} {_times(len(needs))}, though the client declared no {lacking} capability",
            f"no {method} unless the client's initialize declares {lacking}",
            show(session.client_capabilities),
            mandatory=session.target.version in CLIENT_CAPABILITY_MUST,
        )


def _needed(method: str, params: JsonValue, version: str | None) -> str:
    """The client capability a server request needs: ``sampling.tools`` for sampling with tools and
    ``elicitation.url`` or ``elicitation.form`` by its mode, where 2025-11-25 names them."""
    capability = CLIENT_CAPABILITY_OF[method]
    if version not in SUB_CAPABILITIES or not isinstance(params, dict):
        return capability
    if method == "sampling/createMessage":
        return "sampling.tools" if "tools" in params else capability
    if method == "elicitation/create":
        return "elicitation.url" if params.get("mode") == "url" else "elicitation.form"  # no mode is form
    return capability


def _declares(declared: JsonObject, need: str) -> bool:
    capability, _, mode = need.partition(".")
    if capability not in declared or not mode:
        return capability in declared
    granted = declared[capability]
    modes = granted if isinstance(granted, dict) else {}
    if capability == "elicitation" and not {"form", "url"} & modes.keys():
        return mode == "form"  # an elicitation capability naming no mode is form mode only
    return mode in modes


def _list_changed(session: Session) -> None:
    """CAP-LIST-CHANGED: a list-changed notification comes from a server whose initialize result
    set ``listChanged`` on that capability; one finding per notification method."""
    capabilities = session.target.capabilities or {}
    for method, count in _written(session, LIST_CHANGED_OF, requests=False).items():
        session.witnessed.add("CAP-LIST-CHANGED")  # a pass needs such a notification read
        announced = capabilities.get(LIST_CHANGED_OF[method])
        if isinstance(announced, dict) and announced.get("listChanged") is True:
            continue
        session.find(
            "CAP-LIST-CHANGED",
            None,
            f"wrote {method} {_times(count)} without announcing listChanged for {LIST_CHANGED_OF[method]}",
            f'"listChanged": true in the {LIST_CHANGED_OF[method]} capability of its initialize result',
            show(announced),
        )


def _resource_updates(session: Session) -> None:
    """CAP-RESOURCE-SUBSCRIBED: a resource-updated notification names a URI the client subscribed to
    with resources/subscribe; one finding for the session, naming the URIs."""
    subscribed = {
        uri
        for line in session.input
        for message in line.messages
        if isinstance(message, Request)
        and message.method == "resources/subscribe"
        and isinstance(uri := (message.params or {}).get("uri"), str)
    }
    updated = [
        updated_uri(value)
        for at, value in _in_session(session)
        if "id" not in value and value.get("method") == "notifications/resources/updated" and well_formed(session, at, value)
    ]
    if updated:
        session.witnessed.add("CAP-RESOURCE-SUBSCRIBED")  # a pass needs an update read
    stray = [show(uri) for uri in updated if not (isinstance(uri, str) and uri in subscribed)]
    if stray:
        session.find(
            "CAP-RESOURCE-SUBSCRIBED",
            None,
            f"wrote notifications/resources/updated for {', '.join(stray)}, which the client never subscribed to",
            "resource updates only for a URI the client's resources/subscribe named",
            ", ".join(stray),
        )


def _written(session: Session, methods: dict[str, str], *, requests: bool) -> dict[str, int]:
    """How many of its requests (or notifications) of each of ``methods`` the server wrote in its
    legacy session, in the order first written."""
    written = Counter(
        method
        for _, value in _in_session(session)
        if ("id" in value) is requests and isinstance(method := value.get("method"), str)
    )
    return {method: count for method, count in written.items() if method in methods}


def _progress(session: Session) -> None:
    """PROGRESS-TOKEN: a progress notification names the token of a request whose answer is not yet
    written; PROGRESS-INCREASING: each token's progress grows. One finding per rule. The same in
    both eras: a token is a request's, whichever era the request belongs to."""
    judged = session.server_messages
    stray: list[str] = []
    backwards: list[str] = []
    last: dict[IdKey, float] = {}
    for position, value in judged:
        params = value.get("params")
        if "id" in value or value.get("method") != "notifications/progress" or not isinstance(params, dict):
            continue
        if not well_formed(session, position, value):
            continue  # SERVER-MESSAGE-SHAPE's: a token that is no id, a progress that is no number
        session.witnessed.add("PROGRESS-TOKEN")  # a pass needs a progress notification read
        token = params.get("progressToken")
        if not is_valid_id(token) or not _active(session, id_key(token), position):
            stray.append(show(token))
            continue
        progress = params.get("progress")
        if isinstance(progress, int | float) and not isinstance(progress, bool):
            key = id_key(token)
            if key in last:
                session.witnessed.add("PROGRESS-INCREASING")  # a second value of the token to compare
            if key in last and progress <= last[key]:
                backwards.append(f"{show(token)}: {show(last[key])} then {show(progress)}")
            last[key] = progress
    if stray:
        session.find(
            "PROGRESS-TOKEN",
            None,
            f"wrote {len(stray)} notifications/progress for no request in progress (tokens {', '.join(stray)})",
            "progress only for the token of a request not yet answered",
            ", ".join(stray),
        )
    if backwards:
        session.find(
            "PROGRESS-INCREASING",
            None,
            "progress did not increase: " + "; ".join(backwards),
            "a greater progress value in each notification for a token",
            "; ".join(backwards),
        )


def _elicitations_completed(session: Session) -> None:
    """CAP-ELICIT-COMPLETE (2025-11-25): a notifications/elicitation/complete names the elicitationId of
    a url-mode elicitation the server started earlier with this client: an ``elicitation/create``
    request of its own, or an elicitation of a -32042 error it answered with. One finding."""
    if session.target.version != "2025-11-25":
        return  # the notification exists in that version only
    started: set[str] = set()
    foreign: list[JsonValue] = []
    for at, value in _in_session(session):
        params = value.get("params")
        if value.get("method") == "elicitation/create" and "id" in value and isinstance(params, dict):
            if isinstance(started_id := params.get("elicitationId"), str):
                started.add(started_id)
        elif (
            value.get("method") == "notifications/elicitation/complete"
            and "id" not in value
            and well_formed(session, at, value)
        ):
            session.witnessed.add("CAP-ELICIT-COMPLETE")  # a pass needs a completion read
            named = params.get("elicitationId") if isinstance(params, dict) else None
            if not (isinstance(named, str) and named in started):
                foreign.append(named)
    # Favourable to the server: an elicitation of a -32042 error counts wherever the error came.
    foreign = [named for named in foreign if not (isinstance(named, str) and named in session.required_elicitations)]
    if foreign:
        ids = ", ".join(dict.fromkeys(map(show, foreign)))  # each id once, however often completed
        session.find(
            "CAP-ELICIT-COMPLETE",
            None,
            f"wrote {len(foreign)} notifications/elicitation/complete for {ids}: no elicitation it started",
            "a completion only for the elicitationId of a url-mode elicitation the server started",
            ids,
        )


# The statuses a task never leaves (2025-11-25, Tasks, Task Status Lifecycle).
TERMINAL_STATUSES = frozenset({"completed", "failed", "cancelled"})


def _task_statuses(session: Session) -> None:
    """TASKS-TERMINAL (2025-11-25): once the server notified a task in a terminal status, no status
    notification of that task names another status. One finding, naming the tasks."""
    if session.target.version != "2025-11-25":
        return  # tasks exist in that version only
    ended: dict[str, str] = {}  # task id -> the terminal status it was notified in
    reopened: list[str] = []
    for _, value in _in_session(session):
        params = value.get("params")
        if "id" in value or value.get("method") != "notifications/tasks/status" or not isinstance(params, dict):
            continue
        task, status = params.get("taskId"), params.get("status")
        if not (isinstance(task, str) and isinstance(status, str)):
            continue
        if task in ended and status != ended[task]:
            reopened.append(f"{show(task)}: {ended[task]} then {status}")
        elif status in TERMINAL_STATUSES:
            session.witnessed.add("TASKS-TERMINAL")  # a pass needs a task seen ending
            ended[task] = status
    if reopened:
        session.find(
            "TASKS-TERMINAL",
            None,
            "notified a task out of a terminal status: " + "; ".join(dict.fromkeys(reopened)),
            "no other status once completed, failed or cancelled",
            "; ".join(dict.fromkeys(reopened)),
        )


def _cancellations(session: Session) -> None:
    """RPC-CANCEL-OWN: a server's notifications/cancelled names a request the server itself wrote
    before it (the same direction); which of its requests it still believes in progress is its own
    knowledge, and is not judged. One finding for the session."""
    issued: set[IdKey] = set()
    foreign: list[str] = []
    for at, value in _judged(session):
        params = value.get("params")
        if "id" in value and is_valid_id(request_id := value.get("id")):
            issued.add(id_key(request_id))
        elif (
            value.get("method") == "notifications/cancelled"
            and isinstance(params, dict)
            and well_formed(session, at, value)
        ):
            session.witnessed.add("RPC-CANCEL-OWN")  # a pass needs a cancellation read
            named = params.get("requestId")
            if not (is_valid_id(named) and id_key(named) in issued):
                foreign.append(show(named))
    if foreign:
        session.find(
            "RPC-CANCEL-OWN",
            None,
            f"wrote notifications/cancelled for {', '.join(foreign)}: no request the server sent",
            "a cancellation only of a request the server sent earlier",
            ", ".join(foreign),
        )


def _active(session: Session, token: IdKey, position: int) -> bool:
    """Whether a request carrying ``token`` was still unanswered at output line ``position``."""
    return any(
        session.answered_at.get(id_key(request_id), position + 1) > position
        for request_id in session.progress_tokens.get(token, [])
    )


def _times(count: int) -> str:
    return {1: "once", 2: "twice"}.get(count, f"{count} times")
