"""Answers matched to what asked for them: by id to requests, and id-null ones to the lines that may
draw one, in the way most favourable to the server; then answers nothing asked for.

In: a ``Session`` whose answers are recorded (``jsonrpc.record_answer``) and whose lines are judged
(their ``NullSlot``s and pending requests noted). Out: each request's one answer (``single``,
``shared``), and findings for answers missing, repeated, under a changed id, lost to id null, or
unasked for (RPC-ONE-ANSWER, RPC-ID-ECHO, RPC-NOTIFICATION-SILENT, RPC-CLIENT-RESPONSE, and the rule
of each ``NullSlot``).
"""

from __future__ import annotations

import collections
import json

from mcpref.fuzz.judge import framing
from mcpref.fuzz.judge.findings import NOTHING
from mcpref.fuzz.judge.modern import error_code, show
from mcpref.fuzz.judge.reading import is_integral_float, is_valid_id
from mcpref.fuzz.judge.session import NullSlot, Session, beyond_doubles, id_key
from mcpref.reference.messages import INVALID_REQUEST, PARSE_ERROR, JsonObject, JsonValue, RequestId


def single(
    session: Session, index: int, request_id: RequestId, rule_if_missing: str, *, cancellable: bool = True
) -> JsonObject | None:
    """The one answer to ``request_id``, reporting a missing or repeated one; None when there is none
    to judge. A request (``cancellable``) may have been cancelled; an invalid message is answered at
    once, whatever a cancellation names."""
    answers = session.take(request_id)
    if len(answers) > 1:
        session.find(
            "RPC-ONE-ANSWER",
            index,
            f"answered {len(answers)} times",
            "exactly one answer",
            show([a.value for a in answers]),
        )
    cancelled = cancellable and id_key(request_id) in session.cancelled
    if answers:
        framing.partial_line_read(session, index)
        # RPC-CANCEL: after a cancellation an answer is allowed as silence is, whatever the
        # interrupted work left in it ("context canceled"): its content is not judged.
        return None if cancelled else answers[0].value
    retyped = session.retyped(request_id)
    if retyped is not None:
        changed = f"answered with id {show(retyped.get('id'))} for id {show(request_id)}"
        answered_id = retyped.get("id")
        if beyond_doubles(request_id) and type(answered_id) is int and float(answered_id) == float(request_id):
            # RFC 8259 section 6: beyond 2^53 a peer may read a number as the nearest double.
            session.find("RPC-JSON-LIMITS", index, changed, show(request_id), show(answered_id), False)
        else:
            session.find("RPC-ID-ECHO", index, changed, show(request_id), show(answered_id))
        return None
    if cancelled or not session.observation.survived:
        return None  # RPC-CANCEL: silence is allowed after a cancellation; a dead server is STDIO-SURVIVE's
    if session.input[index].false_line_end and any(error_code(n) == PARSE_ERROR for n in session.nulls):
        # Split at a false line end, the pieces draw -32700s: silence alone proves no split, and a
        # -32700 that another line explains proves none either. Settled then.
        session.split.append((index, request_id, rule_if_missing))
        return None
    if any(error_code(n) is not None for n in session.nulls):
        # RPC-ID-ECHO: an id-null error left over once the id-null answers are matched is this
        # request's answer, its id lost, not an answer to a notification. Settled then.
        session.unanswered.append((index, request_id, rule_if_missing))
        return None
    framing.missing(session, index, rule_if_missing, f"an answer with id {show(request_id)}")
    return None


def shared(session: Session, index: int, request_id: RequestId) -> bool:
    """An id several requests used: one answer each, in any order, contents not judged.

    The reference refuses a reused in-flight id (RPC-DUPLICATE-ID) and serves one reused
    after its answer; which answer belongs to which request cannot be told from outside.
    """
    key = id_key(request_id)
    if session.id_uses[key] < 2:
        return False
    if key in session.by_id:
        session.take_first(key)
    elif key not in session.cancelled and session.observation.survived:
        framing.missing(session, index, "RPC-ONE-ANSWER", f"an answer with id {show(request_id)}")
    return True


# Answers with id null, and answers to nothing.


def match_nulls(session: Session) -> None:
    """Pair the id-null answers with the lines that may draw one, in the way most favourable to the
    server: as many lines explained as can be, first those that only an id-null error explains,
    then those that may draw one instead of their own answer, then those whose silence only warns.
    A line left without is then the one that has no other explanation, whatever the answers'
    order. Lines where an answer is optional take what is left once readable ids have theirs."""
    required = [slot for slot in session.slots if slot.required]
    answer_of = _explain(session, required, session.nulls)
    unmatched = [slot for index, slot in enumerate(required) if index not in answer_of]
    taken = set(answer_of.values())
    leftover = [answer for index, answer in enumerate(session.nulls) if index not in taken]
    for slot in unmatched:
        if not session.observation.survived:
            break
        codes = " or ".join(str(code) for code in sorted(slot.codes))
        read = _read_as(session, slot.raw_id)
        if read is not None and is_integral_float(slot.raw_id) and read.get("id") == slot.raw_id:
            # RPC-ID-TYPE: the schema's RequestId is "integer" in JSON Schema, where 1.0 is one and equal
            # to 1; refusing it is the reference's decision.
            message = f"read id {show(slot.raw_id)} as the integer {int(slot.raw_id)} and answered with"
            message += f" id {show(read.get('id'))}, where the reference refuses it"
            session.find(slot.rule, slot.line, message, f"error {codes} with id null", show(read), decision=True)
        elif read is not None:
            message = f"answered with id {show(read.get('id'))} for id {show(slot.raw_id)}"
            session.find(slot.rule, slot.line, message, f"error {codes} with id null", show(read), slot.mandatory)
        elif leftover:
            actual = show(leftover.pop(0))
            session.find(
                slot.rule,
                slot.line,
                "answered with another error code",
                f"error {codes} with id null",
                actual,
                slot.mandatory,
            )
        elif session.observation.eof:
            framing.missing(session, slot.line, slot.rule, f"error {codes} with id null")
        else:
            session.find(slot.rule, slot.line, "no answer", f"error {codes} with id null", NOTHING, slot.mandatory)
    _settle_unread_ids(session, leftover)
    # A line cut at a false line end claims its pieces' -32700s before the lines where an id-null
    # error is optional: taken by those, it would be left without an answer, a MUST broken where
    # the split may be an open reading (FRAME-LF-ONLY).
    framing.settle_split(session, leftover)
    taken = set(_explain(session, [slot for slot in session.slots if not slot.required], leftover).values())
    leftover = [answer for index, answer in enumerate(leftover) if index not in taken]
    _settle_unanswered(session, leftover)
    for answer in leftover:
        _unexpected(session, answer)


def _explain(session: Session, slots: list[NullSlot], answers: list[JsonObject]) -> dict[int, int]:
    """Slot index -> answer index, in the matching ``_explain_nulls`` finds; a line the reference
    serves or skips that drew an answer so is a warning under its rule."""
    owner = _explain_nulls(
        [error_code(value) for value in answers],
        [sorted(slot.codes) for slot in slots],
        sorted(range(len(slots)), key=lambda i: _rank(slots[i])),
    )
    answer_of = {slot: answer for answer, slot in enumerate(owner) if slot is not None}
    for index, slot in enumerate(slots):
        if index in answer_of and slot.answered_rule is not None:
            message = "refused a line the reference serves or skips"
            answer = answers[answer_of[index]]
            session.find(slot.answered_rule, slot.line, message, "no error", show(answer), False)
            session.refusals.append((slot.line, session.findings[-1], answer))
    return answer_of


def _read_as(session: Session, raw_id: JsonValue) -> JsonObject | None:
    """An answer no request's own, under an id a peer could read from ``raw_id`` (1 for true or 1.5)."""
    if raw_id is None or is_valid_id(raw_id):
        return None
    readings: list[JsonValue] = [json.dumps(raw_id)]
    if isinstance(raw_id, bool | float):  # finite: the oracle's reading refuses what overflows
        readings += [int(raw_id), round(raw_id)]
    for reading in readings:
        if is_valid_id(reading) and session.unsent(key := id_key(reading)) and key in session.by_id:
            return session.take_first(key)
    return None


def _settle_unread_ids(session: Session, leftover: list[JsonObject]) -> None:
    """Invalid messages with an id and no answer by it take an id-null error left over, if any: a
    peer that failed to decode one may not have read its id."""
    for index, request_id, rule in session.unread_ids:
        answer = _take_error(leftover, (PARSE_ERROR, INVALID_REQUEST))
        if answer is None:
            single(session, index, request_id, rule)
        else:
            _id_lost(session, rule, index, request_id, answer)


def _settle_unanswered(session: Session, leftover: list[JsonObject]) -> None:
    """Requests unanswered while id-null errors came take one left over, if any, as their answer
    with the id lost."""
    for index, request_id, rule in session.unanswered:
        answer = _take_error(leftover, None)
        if answer is None:
            framing.missing(session, index, rule, f"an answer with id {show(request_id)}")
        else:
            _id_lost(session, "RPC-ID-ECHO", index, request_id, answer)


def _id_lost(session: Session, rule: str, index: int, request_id: RequestId, answer: JsonObject) -> None:
    expected = f"an answer with id {show(request_id)}"
    if beyond_doubles(request_id):
        # RFC 8259 section 6: an integer beyond 2^53 may be unreadable to a peer, as the id of
        # any line, valid or not: answering with id null is allowed.
        message = f"{_without_id(answer)}: its id is beyond 2^53, where a peer may not read it"
        session.find("RPC-JSON-LIMITS", index, message, expected, show(answer), False)
        return
    session.find(rule, index, f"{_without_id(answer)}, though its id is readable", expected, show(answer))


def _without_id(answer: JsonObject) -> str:
    """How an answer without a usable id came back: with id null, or with no id member at all."""
    return "answered with id null" if "id" in answer else "answered without an id member"


def leftovers(session: Session) -> None:
    """Answers by id that no request claimed."""
    for key, answers in session.by_id.items():
        for answer in answers:
            if key in session.response_ids:
                session.find(
                    "RPC-CLIENT-RESPONSE",
                    None,
                    "answered a response sent by the client",
                    NOTHING,
                    show(answer.value),
                )
            else:
                _unexpected(session, answer.value)


def _unexpected(session: Session, answer: JsonObject) -> None:
    if framing.split_piece(session, answer):
        return
    if session.saw_notification and answer.get("id") is None:
        # An answer to a notification can only carry id null: notifications have none.
        session.find("RPC-NOTIFICATION-SILENT", None, "an answer no request asked for", NOTHING, show(answer))
    else:
        session.find("RPC-ONE-ANSWER", None, "an answer no request asked for", NOTHING, show(answer))


def _rank(slot: NullSlot) -> int:
    """Which lines an id-null error explains first: those whose silence breaks a MUST and that only it
    explains, then those that may draw one instead of their own answer, then those whose silence is a
    warning, then those where one is optional."""
    if not slot.required:
        return 3
    if not slot.mandatory:
        return 2
    return 0 if slot.answered_rule is None else 1


def _explain_nulls(answers: list[int | None], slots: list[list[int]], order: list[int]) -> list[int | None]:
    """A maximum matching of answers (their error codes) to slots (the codes each accepts), built slot
    by slot in ``order`` by augmenting paths found breadth first: a slot matched stays matched, so
    that earlier slots are preferred. Returns the slot of each answer, or None."""
    by_code: dict[int | None, list[int]] = {}
    for answer, code in enumerate(answers):
        by_code.setdefault(code, []).append(answer)
    free = {code: collections.deque(found) for code, found in by_code.items()}  # in the order written
    owner: list[int | None] = [None] * len(answers)
    dead: set[int] = set()  # answers no augmenting path runs through, until the matching changes

    def augment(start: int, slot: int, answer: int, reached_by: dict[int, int], parent: dict[int, int]) -> None:
        while True:
            owner[answer] = slot
            if slot == start:
                return
            answer = reached_by[slot]  # what the slot held goes to the slot that reached it
            slot = parent[answer]

    for start in order:
        queue = [start]
        parent: dict[int, int] = {}  # answer -> the slot that reached it
        reached_by: dict[int, int] = {}  # slot -> the answer it held when reached
        for slot in queue:  # grows as it is read
            code = next((code for code in slots[slot] if free.get(code)), None)
            if code is not None:
                augment(start, slot, free[code].popleft(), reached_by, parent)
                dead.clear()
                break
            for answer in (a for code in slots[slot] for a in by_code.get(code, ())):
                if answer not in parent and answer not in dead:
                    parent[answer] = slot
                    holder = owner[answer]
                    assert holder is not None  # an answer of a code with none free is held
                    reached_by[holder] = answer
                    queue.append(holder)
        else:
            dead.update(parent)
    return owner


def _take_error(answers: list[JsonObject], codes: tuple[int, ...] | None) -> JsonObject | None:
    """The first error answer among ``answers`` (of one of ``codes``, if given), removed from them."""
    answer = next((a for a in answers if (code := error_code(a)) is not None and (codes is None or code in codes)), None)
    if answer is not None:
        answers.remove(answer)
    return answer
