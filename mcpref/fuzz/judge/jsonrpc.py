"""JSON-RPC (RPC-*): the answers' shape, and each client line as messages: batches, notifications,
responses, invalid objects and requests, each request then judged by the rules of its method.

In: a ``Session``; the server's messages one by one (``record_answer``), then the client's lines one
by one (``judge_line``). Out: the answers recorded by id (or as id null), findings under the RPC-*
rules of messages and batches, ``NullSlot``s for the lines that may draw an id-null error, and each
request with its one answer handed to ``lifecycle``, ``capabilities`` or the modern judge.
"""

from __future__ import annotations

from mcpref.fuzz.judge import answers, capabilities, lifecycle, refusable
from mcpref.fuzz.judge.lines import InputLine
from mcpref.fuzz.judge.modern import error_code, is_modern, show
from mcpref.fuzz.judge.reading import (
    ClientResponse,
    Invalid,
    Message,
    Notification,
    Request,
    is_integral_float,
    is_valid_id,
)
from mcpref.fuzz.judge.session import Answer, NullSlot, Session, id_key, result_of
from mcpref.reference.messages import (
    INTERNAL_ERROR,
    INVALID_PARAMS,
    INVALID_REQUEST,
    METHOD_NOT_FOUND,
    PARSE_ERROR,
    JsonObject,
    JsonValue,
)


def record_answer(session: Session, position: int, value: JsonValue, in_array: bool) -> None:
    """One message the server wrote, at output line ``position``: kept by id, or judged malformed."""
    if not isinstance(value, dict):
        session.find(
            "RPC-RESPONSE-SHAPE",
            None,
            "a batch answer holds something that is not an object",
            "response objects",
            show(value),
        )
        return
    if "method" in value:
        session.server_messages.append((position, value))  # not an answer
        return
    problem = _shape_problem(value)
    if problem is not None:
        session.find("RPC-RESPONSE-SHAPE", None, problem, "a JSON-RPC response", show(value))
        return
    if "id" not in value:
        session.find("RPC-ERROR-ID-NULL", None, "an error without an id", '"id": null', show(value), mandatory=False)
    answer_id = value.get("id")
    if answer_id is None:
        session.nulls.append(value)
    elif is_valid_id(answer_id) or is_integral_float(answer_id):
        # RPC-ID-ECHO: 1.0 and 1 are one JSON number (JSON Schema's equality), kept under the integer.
        answer_id = int(answer_id) if isinstance(answer_id, float) else answer_id
        if isinstance(answer_id, str) and answer_id in session.observation.sentinels:
            session.probe_answers.append(value)  # not judged, but it shows the server's era
        else:
            session.by_id.setdefault(id_key(answer_id), []).append(Answer(value, in_array))
            session.answered_at.setdefault(id_key(answer_id), position)
    else:
        session.find(
            "RPC-RESPONSE-SHAPE",
            None,
            "an answer id that is neither string, integer nor null",
            "a valid id",
            show(value),
        )


def _shape_problem(answer: JsonObject) -> str | None:
    """RPC-RESPONSE-SHAPE: what is wrong with an object offered as a response."""
    if answer.get("jsonrpc") != "2.0":
        return 'jsonrpc is not "2.0"'
    if ("result" in answer) == ("error" in answer):
        return "a response has exactly one of result and error"
    if "result" in answer:
        return None if isinstance(answer["result"], dict) else "result is not an object"
    error = answer["error"]
    if not (isinstance(error, dict) and type(error.get("code")) is int and isinstance(error.get("message"), str)):
        return "error is not {code: integer, message: string}"
    return None


def judge_line(session: Session, index: int, line: InputLine) -> None:
    if refusable.without_message(line):
        served = refusable.judge_without_message(session, index, line)
        if served is not None:
            judge_request(session, index, line.data, served, in_batch=False)
        return
    value = line.value
    if isinstance(value, list):
        _batch(session, index, value, line.messages)
        return
    (message,) = line.messages
    if line.ambiguous:
        refusable.ambiguous(session, index, line.data)
        return
    if isinstance(message, Request) and refusable.refused(session, index, line.data, message):
        return
    anonymous = isinstance(value, dict) and "id" not in value
    raw_id = value.get("id") if isinstance(value, dict) else None
    _message(session, index, line.data, message, in_batch=False, anonymous=anonymous, raw_id=raw_id)


BATCH_VERSION = "2025-03-26"  # the only version with JSON-RPC batches


def _batch(session: Session, index: int, items: list[JsonValue], members: tuple[Message, ...]) -> None:
    target = session.target
    served = [m for m in members if isinstance(m, Request) and id_key(m.id) in session.by_id]
    batches = target.accepted_init and target.version == BATCH_VERSION
    if target.replaced_version is not None and BATCH_VERSION in (target.version, target.replaced_version):
        # After a second initialize changed the version to or from 2025-03-26, either may govern:
        # the batch is judged by the one the server's answer follows.
        batches = bool(served)
    if not batches:
        # Processing it as 2025-03-26 does is allowed, with a warning: each invalid member may then
        # draw its own id-null error.
        codes = frozenset({INVALID_REQUEST, INVALID_PARAMS})
        for member in members:
            if isinstance(member, Invalid) and member.id is None:
                unsupported = "RPC-BATCH-UNSUPPORTED"
                session.slots.append(NullSlot(index, False, codes, unsupported, False, unsupported))
        if served:
            session.find(
                "RPC-BATCH-UNSUPPORTED",
                index,
                "served a batch where batches do not exist",
                "one -32600 with id null",
                "answers to its members",
            )
            for member_request in served:
                session.take(member_request.id)
            return
        # The client sent what is no message in this version: silence is allowed, with a warning.
        session.slots.append(NullSlot(index, True, frozenset({INVALID_REQUEST}), "RPC-BATCH-UNSUPPORTED", False))
        return
    # A server that cannot read batches answers the line, once, with -32700: RPC-BATCH (a warning
    # here; the requests in it go unanswered, which fails), not an answer to its notifications.
    session.slots.append(NullSlot(index, False, frozenset({PARSE_ERROR}), "RPC-BATCH", False, "RPC-BATCH"))
    if not items:
        session.slots.append(NullSlot(index, True, frozenset({INVALID_REQUEST}), "RPC-BATCH", True))
        return
    for item, member in zip(items, members, strict=True):
        anonymous = isinstance(item, dict) and "id" not in item
        raw_id = item.get("id") if isinstance(item, dict) else None
        _message(session, index, b"", member, in_batch=True, anonymous=anonymous, raw_id=raw_id)


def _message(
    session: Session,
    index: int,
    line: bytes,
    message: Message,
    in_batch: bool,
    anonymous: bool,
    raw_id: JsonValue = None,
) -> None:
    """``raw_id``: the id member as sent, whatever its type, for an answer under it said so."""
    if isinstance(message, Request):
        judge_request(session, index, line, message, in_batch)
    elif isinstance(message, Notification):
        session.saw_notification = True
        if message.method == "notifications/initialized":
            session.target.ready = session.target.accepted_init
            session.initialized_early |= not session.target.accepted_init
    elif isinstance(message, ClientResponse):
        # A response to no request of the server's may draw an id-null error (a warning): -32600 for
        # one whose id was read (a response is no method call: -32601 answers a notification), any
        # code for one whose id was not.
        if is_valid_id(message.id):
            session.response_ids.add(id_key(message.id))
            codes = frozenset({INVALID_REQUEST})
        else:
            codes = frozenset({PARSE_ERROR, INVALID_REQUEST, METHOD_NOT_FOUND, INVALID_PARAMS, INTERNAL_ERROR})
        session.slots.append(NullSlot(index, False, codes, "RPC-CLIENT-RESPONSE", False, "RPC-CLIENT-RESPONSE"))
    elif message.id is None:
        # RPC-INVALID-NO-ID: an invalid object without an id should still be answered.
        rule = "RPC-INVALID-NO-ID" if anonymous else "RPC-INVALID-REQUEST"
        codes = frozenset({INVALID_REQUEST, INVALID_PARAMS})
        session.slots.append(NullSlot(index, True, codes, rule, rule == "RPC-INVALID-REQUEST", raw_id=raw_id))
    else:
        _invalid(session, index, message)


def _invalid(session: Session, index: int, message: Invalid) -> None:
    assert message.id is not None
    if answers.shared(session, index, message.id):
        return
    rule = (
        "RPC-PARAMS-OBJECT"
        if message.code == INVALID_PARAMS or "params" in message.reason
        else "RPC-INVALID-REQUEST"
    )
    if id_key(message.id) not in session.by_id:
        # A peer that failed to decode the message may answer it with id null (JSON-RPC's rule for
        # an id it could not detect): an id-null error left over is this line's answer, not an
        # answer to a notification. Settled once the id-null answers are matched.
        session.unread_ids.append((index, message.id, rule))
        return
    answer = answers.single(session, index, message.id, rule, cancellable=False)
    assert answer is not None  # its id has an answer
    codes = {INVALID_PARAMS, INVALID_REQUEST} if rule == "RPC-PARAMS-OBJECT" else {INVALID_REQUEST}
    if rule == "RPC-PARAMS-OBJECT" and "result" in answer:
        # "params MUST be a Structured value" (JSON-RPC) and MCP's objects bind the sender: serving any
        # params is allowed, the reference's refusal a decision of its own.
        message_text = f"served a request whose {message.reason}"
        session.find(rule, index, message_text, f"error {message.code}", show(answer), decision=True)
    elif error_code(answer) not in codes:
        session.find(
            rule, index, "an invalid message was not refused as invalid", f"error {message.code}", show(answer)
        )
    elif error_code(answer) != message.code:
        # Only RPC-PARAMS-OBJECT admits two codes: JSON-RPC names no code for params a receiver
        # declines to read, so the other of -32600 and -32602 is the reference's choice.
        message_text = "refused with another code than the reference"
        session.find(rule, index, message_text, f"error {message.code}", show(answer), decision=True)


def judge_request(session: Session, index: int, line: bytes, request: Request, in_batch: bool) -> None:
    """A request and its one answer: the answer's envelope here, its content by the method's rules."""
    if answers.shared(session, index, request.id):
        return
    rule = "RPC-BATCH" if in_batch else "RPC-ONE-ANSWER"
    key = id_key(request.id)
    arrived_in_array = [a.in_array for a in session.by_id.get(key, [])]
    if request.method == "initialize" and session.discovered and session.off_script_from is None:
        session.off_script_from = index
    # Clients MUST NOT cancel initialize (Cancellation): its answer opens the session whatever came.
    answer = answers.single(session, index, request.id, rule, cancellable=request.method != "initialize")
    if answer is None:
        return
    session.discovered |= request.method == "server/discover" and result_of(answer) is not None
    if refusable.refused_repeated_names(session, index, line, answer):
        return
    if in_batch and not all(arrived_in_array):
        session.find(
            "RPC-BATCH",
            index,
            "a batch member was answered outside an array",
            "one array of answers",
            show(answer),
        )
    since = len(session.findings)
    _judge_answer(session, index, request, answer, in_batch)
    refusable.refused_past_limits(session, index, line, answer, since)


def _judge_answer(session: Session, index: int, request: Request, answer: JsonObject, in_batch: bool) -> None:
    """What the answer to a request holds, by the era's and the method's rules."""
    server = session.modern.server
    if server.speaks and not in_batch and (is_modern(request) or server.only):
        if not session.modern.judge(index, request, answer, legacy_open=session.target.accepted_init):
            capabilities.operating(session, index, request, answer, session.modern_target)
    elif request.method == "initialize":
        lifecycle.initialize(session, index, request, answer, in_batch)
    elif _malformed_modern(session, request, answer):
        return  # MOD-META-REQUIRED: before any legacy session, a modern server may read it so
    elif is_modern(request) and ("error" in answer or not session.target.accepted_init):
        # MOD-DUAL-ERA: a server never seen to speak the modern era may refuse its requests, or serve
        # them as legacy ones; before an initialize opens a legacy session, no legacy gate judges them.
        return
    elif request.method == "ping":
        lifecycle.ping(session, index, answer)
    elif not session.target.ready:
        lifecycle.early(session, index, request, answer)
    else:
        capabilities.operating(session, index, request, answer, session.target)


def _malformed_modern(session: Session, request: Request, answer: JsonObject) -> bool:
    """A request without modern metadata refused as a malformed modern one (or a ping as a method the
    era removed), by a server that speaks the modern era and has opened no legacy session: whether
    it serves legacy at all is unknown."""
    if not session.modern.server.speaks or session.target.accepted_init:
        return False
    code = error_code(answer)
    return code == INVALID_PARAMS or (request.method == "ping" and code == METHOD_NOT_FOUND)
