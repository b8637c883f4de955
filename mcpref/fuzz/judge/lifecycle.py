"""The lifecycle of a legacy session (LIFE-*): initialize and the version it settles, requests before
the session is ready, ping.

In: a ``Session``, a request's line index, and the one answer the request drew. Out: findings under
LIFE-* (and RPC-BATCH-INITIALIZE, RPC-INVALID-PARAMS for initialize's own params), and the server's
choices once it accepts an initialize (``Session.target``: version, capabilities), against which
later requests are judged.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence

from mcpref.fuzz.judge.lines import read_input
from mcpref.fuzz.judge.modern import (
    LEGACY_NAMES,
    LISTEN_FILTER_OF,
    MODERN_NAMES,
    UNSUPPORTED_PROTOCOL_VERSION,
    error_code,
    show,
)
from mcpref.fuzz.judge.reading import Notification, Request, initialize_params_problem, is_valid_id, parse_line
from mcpref.fuzz.judge.session import Session, Target, answered, id_key, result_of
from mcpref.fuzz.judge.tools import listed
from mcpref.reference.messages import INVALID_PARAMS, INVALID_REQUEST, JsonObject, JsonValue, RequestId
from mcpref.reference.versions import KNOWN, SUPPORTED_NAMES

# Published versions, plus the 2024-10-07 pre-release that some SDKs still negotiate.
RECOGNISED_VERSIONS = frozenset(v.name for v in KNOWN) | {"2024-10-07"}


def ping(session: Session, index: int, answer: JsonObject) -> None:
    if result_of(answer) is None:
        session.find("LIFE-PING", index, "ping was not answered with a result", "an empty result", show(answer))


def early(session: Session, index: int, request: Request, answer: JsonObject) -> None:
    """LIFE-PRE-INIT-REFUSED; LIFE-INITIALIZED-EARLY where an early notifications/initialized is seen
    to open the session: a request before it was refused, one after it served. A server that serves
    (or refuses with another code) with or without the notification shows one cause, the gate's."""
    code = error_code(answer)
    opened = session.target.accepted_init
    if not opened and session.off_script_from is not None and index > session.off_script_from:
        # MOD-DUAL-ERA: an initialize after a discover the server answered was refused. What the
        # server serves then follows from the session the discover opened for it, one cause with
        # that refusal (LIFE-VERSION-ACCEPT or LIFE-VERSION-UNSUPPORTED), not a pre-init gate left open.
        return
    if code is not None and not opened and not session.initialized_early:
        session.refused_early = True
    if code == INVALID_REQUEST:
        return
    how = answered(answer)
    if request.method == "tools/call" and code == INVALID_PARAMS and not listed(request, session.target):
        # The error a call of a tool it does not list gets (TOOLS-UNKNOWN): the call's own answer as
        # much as a refusal, so it is said as seen.
        how = "answered a call of a tool it has not listed with -32602, the error such a call gets,"
    if opened:
        session.find("LIFE-PRE-INIT-REFUSED", index, f"{how} before notifications/initialized", "-32600", show(answer))
    elif session.initialized_early and session.refused_early and code is None:
        message = (
            f"{how} after a notifications/initialized that came before any initialize was accepted,"
            " where a request before it was refused"
        )
        session.find("LIFE-INITIALIZED-EARLY", index, message, "-32600", show(answer))
    else:
        after = ", after an early notifications/initialized" if session.initialized_early else ""
        session.find("LIFE-PRE-INIT-REFUSED", index, f"{how} before initialize{after}", "-32600", show(answer))


def initialize(session: Session, index: int, request: Request, answer: JsonObject, in_batch: bool) -> None:
    result = result_of(answer)
    if in_batch:
        if result is not None:
            session.find(
                "RPC-BATCH-INITIALIZE", index, "initialize was accepted inside a batch", "-32600", show(answer)
            )
        return
    if session.target.accepted_init:
        session.witnessed.add("LIFE-SECOND-INIT")  # a pass needs an initialize after an accepted one
        if error_code(answer) != INVALID_REQUEST:
            message = f"a second initialize was {answered(answer)}"
            session.find("LIFE-SECOND-INIT", index, message, "-32600", show(answer))
        if result is not None:
            _accept(session, result, replaced=session.target.version)
        return
    params = request.params or {}
    if initialize_params_problem(params) is not None:
        if result is not None:
            session.find(
                "RPC-INVALID-PARAMS",
                index,
                "accepted an initialize with malformed params",
                "-32602",
                show(answer),
                decision=True,  # the schema's required members bind the client; no text asks a refusal
            )
            _accept(session, result)
        elif error_code(answer) != INVALID_PARAMS:
            session.find(
                "RPC-INVALID-PARAMS",
                index,
                "malformed initialize params not refused with -32602",
                "-32602",
                show(answer),
            )
        return
    requested = params.get("protocolVersion")
    if result is None:
        _refused_initialize(session, index, requested, answer)
        return
    _before_initialize_answer(session, index, request.id)
    session.witnessed.add("LIFE-INIT-RESULT")
    chosen = result.get("protocolVersion")
    chosen = chosen if isinstance(chosen, str) else None  # read as absent: a list or object would not hash
    info = result.get("serverInfo")
    if not (
        isinstance(chosen, str)
        and isinstance(result.get("capabilities"), dict)
        and isinstance(info, dict)
        and isinstance(info.get("name"), str)
        and isinstance(info.get("version"), str)
    ):
        session.find(
            "LIFE-INIT-RESULT",
            index,
            "the initialize result lacks a required field",
            "protocolVersion, capabilities, serverInfo{name, version}",
            show(result),
        )
    if chosen not in RECOGNISED_VERSIONS:
        session.find(
            "LIFE-VERSION-KNOWN",
            index,
            "answered with a protocol version that does not exist",
            "a published version",
            show(chosen),
        )
    elif requested in SUPPORTED_NAMES and chosen != requested and chosen not in LEGACY_NAMES:
        # Another handshake version is a lawful counter-offer from a server that does not support
        # the one requested, which cannot be told from outside: only a version no handshake has is.
        session.find(
            "LIFE-VERSION-ACCEPT",
            index,
            "answered another version than the one requested",
            show(requested),
            show(chosen),
            mandatory=False,
        )
    # Another version for one the server does not support is what the negotiation requires ("MUST
    # respond with another protocol version it supports"): a counter-offer is no finding.
    _accept(session, result)


def _before_initialize_answer(session: Session, index: int, request_id: RequestId) -> None:
    """LIFE-SERVER-EARLY: before its answer nothing is negotiated, so nothing but ping and logging is due."""
    answered_at = session.answered_at[id_key(request_id)]
    session.witnessed.add("LIFE-SERVER-EARLY")  # the window before an accepted initialize's answer was seen
    # What a modern server writes before the legacy session opens is the modern era's to judge: its
    # requests (MOD-NO-SERVER-REQUESTS) and its subscription notifications (MOD-LISTEN-ONLY).
    modern = (
        {position for position, value in session.server_messages if "id" in value or value.get("method") in LISTEN_FILTER_OF}
        if session.modern.server.speaks
        else set()
    )
    received = _initialized_received(session)
    early_methods = [
        show(value.get("method"))
        for position, value in session.server_messages
        if position < answered_at
        and value.get("method") not in ("ping", "notifications/message")
        and position not in modern
        and not received(position)
    ]
    if early_methods:
        session.find(
            "LIFE-SERVER-EARLY",
            index,
            "sent before its initialize answer: " + ", ".join(early_methods),
            "only ping and log messages before it",
            ", ".join(early_methods),
        )


def _initialized_received(session: Session) -> Callable[[int], bool]:
    """Whether the server may have received a notifications/initialized before writing an output line.

    The rule's words are "before receiving the initialized notification": a server that reads one
    sent right behind initialize (as mcpref may send it) and then writes before its initialize
    answer keeps to them. What had been sent when the line was read bounds what the server had
    received when it wrote it; the line gets the benefit of the doubt. Unmeasured: not received.
    """
    marks = session.observation.sent_before
    end = 0
    for line in session.input:
        end += len(line.data) + 1
        if any(isinstance(message, Notification) and message.method == "notifications/initialized" for message in line.messages):
            last = min(end, session.stream_size)  # an unterminated last line may be read at EOF
            return lambda position: bool(marks) and marks[position] >= last
    return lambda position: False


def _refused_initialize(session: Session, index: int, requested: JsonValue, answer: JsonObject) -> None:
    served = [call.request.method for call in session.modern.calls if result_of(call.answer) is not None]
    if served and error_code(answer) not in (UNSUPPORTED_PROTOCOL_VERSION, INVALID_PARAMS):
        # MOD-DUAL-ERA: a connection may keep the era its first requests chose and refuse the other's;
        # the refusal is that state carried over, not version negotiation (whose errors are judged below).
        many = len(served) > 1
        message = (
            f"initialize was {answered(answer)}, after {len(served)} modern request{'s' if many else ''}"
            f" ({', '.join(sorted(set(served)))}) {'were' if many else 'was'} served: the connection kept"
            f" the modern era {'they' if many else 'it'} opened"
        )
        expected = "an initialize answered as on a fresh connection, or -32022"
        session.find("MOD-DUAL-ERA", index, message, expected, show(answer), mandatory=False)
    elif requested in SUPPORTED_NAMES:
        session.find(
            "LIFE-VERSION-ACCEPT",
            index,
            "refused an initialize for a published version",
            "a result",
            show(answer),
            mandatory=False,
        )
    elif session.modern.server.speaks and error_code(answer) == UNSUPPORTED_PROTOCOL_VERSION:
        return  # MOD-LEGACY-INIT: a modern server names its versions with the modern error
    elif error_code(answer) != INVALID_PARAMS:
        session.find(
            "LIFE-VERSION-UNSUPPORTED",
            index,
            "refused an unsupported version without the -32602 version error",
            "-32602",
            show(answer),
        )
    else:
        error = answer["error"]
        assert isinstance(error, dict)
        data = error.get("data")
        if not (
            isinstance(data, dict)
            and data.get("requested") == requested
            and isinstance(data.get("supported"), list)
        ):
            session.find(
                "LIFE-VERSION-REJECT",
                index,
                "the version error lacks data {requested, supported}",
                "data {requested, supported}",
                show(answer),
            )


def _accept(session: Session, result: JsonObject, replaced: str | None = None) -> None:
    """``replaced``: the version in force before, for a second initialize the server accepted."""
    version = result.get("protocolVersion")
    capabilities = result.get("capabilities")
    version = version if isinstance(version, str) else None
    session.target = Target(
        accepted_init=True,
        ready=session.target.ready,
        version=version,
        capabilities=capabilities if isinstance(capabilities, dict) else {},
        replaced_version=replaced if replaced != version else None,
    )


def negotiated_versions(stream: bytes, output: Sequence[bytes]) -> frozenset[str]:
    """The versions named by the results the server gave ``stream``'s initialize requests outside
    batches: those ``_accept`` follows, one after another, and the judges of a version's rules see."""
    versions = ((result_of(answer) or {}).get("protocolVersion") for answer in _initialize_answers(stream, output))
    return frozenset(version for version in versions if isinstance(version, str))


def refused_as_modern_only(stream: bytes, output: Sequence[bytes]) -> bool:
    """Whether the server refused an initialize with an error whose message names a modern version and
    no legacy one: the other way MOD-LEGACY-INIT lets a server of the modern era alone name its
    versions (``modern.ModernServer.learn`` reads the first, ``data.supported``)."""
    for answer in _initialize_answers(stream, output):
        error = answer.get("error")
        message = error.get("message") if isinstance(error, dict) else None
        if isinstance(message, str) and any(name in message for name in MODERN_NAMES):
            return not any(name in message for name in LEGACY_NAMES)
    return False


def _initialize_answers(stream: bytes, output: Sequence[bytes]) -> Iterator[JsonObject]:
    """The answers the server gave ``stream``'s initialize requests outside batches."""
    asked = {
        id_key(message.id)
        for line in read_input(stream)
        if isinstance(line.value, dict)
        for message in line.messages
        if isinstance(message, Request) and message.method == "initialize"
    }
    for raw in output:
        value = parse_line(raw)
        for item in value if isinstance(value, list) else [value]:
            if isinstance(item, dict) and is_valid_id(answer_id := item.get("id")) and id_key(answer_id) in asked:
                yield item
