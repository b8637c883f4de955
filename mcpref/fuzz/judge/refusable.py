"""Lines where conforming readers may differ from the reference: over-long, blank, not UTF-8, with a
BOM, a CR before the LF, JSON extensions (NaN), nesting or numbers past a parser's limits, repeated
member names. What the reference refuses a peer may serve, and what it serves a peer may refuse;
ignoring either is never allowed.

In: a ``Session`` and one of its lines (or a request's line with its answer). Out: ``NullSlot``s
for the id-null answers such a line may draw (matched later by ``answers``), warnings under the
line's own rule (FRAME-MAX-LINE, FRAME-CRLF, FRAME-BOM, FRAME-UTF8, FRAME-BLANK-LINE,
RPC-JSON-EXTENSIONS, RPC-JSON-LIMITS, RPC-DUPLICATE-KEYS), and the request a peer served from a line
the reference refuses, for ``jsonrpc`` to judge as any request.
"""

from __future__ import annotations

import re

from mcpref.fuzz.judge.lines import BOM, InputLine, key_values, repeated_names
from mcpref.fuzz.judge.modern import error_code, show
from mcpref.fuzz.judge.reading import BLANK, ClientResponse, Invalid, Notification, ParseFailure, Request, is_valid_id
from mcpref.fuzz.judge.session import NullSlot, Session, answered, id_key
from mcpref.reference.framer import DEFAULT_MAX_LINE_BYTES
from mcpref.reference.messages import INVALID_PARAMS, INVALID_REQUEST, METHOD_NOT_FOUND, PARSE_ERROR, JsonObject

# Lines over this size may meet a peer's own line limit (FRAME-MAX-LINE allows one).
LONG_LINE = 64 * 1024
_SURROGATE_ESCAPE = re.compile(rb"\\u[dD][89a-fA-F]")
_LONG_NUMBER = re.compile(rb"\d{16}")


def refusal_allowed(line: bytes) -> str | None:
    """The rule under which a peer may refuse, with an id-null error, a line the reference serves.

    Line length, nesting, numbers beyond 2^53, escaped surrogates, a CR before the LF and repeated
    member names are all places where conforming parsers differ; refusing is allowed, ignoring is not.
    """
    if len(line) > LONG_LINE:
        return "FRAME-MAX-LINE"
    if line.endswith(b"\r"):
        return "FRAME-CRLF"
    if line.count(b"[") + line.count(b"{") > 64 or _SURROGATE_ESCAPE.search(line) or _LONG_NUMBER.search(line):
        return "RPC-JSON-LIMITS"
    if repeated_names(line):
        return "RPC-DUPLICATE-KEYS"  # RFC 8259 section 4: a parser may reject repeated names
    return None


def without_message(line: InputLine) -> bool:
    """Whether the reference reads no message in the line: over-long, blank, or not JSON to it."""
    return len(line.data) > DEFAULT_MAX_LINE_BYTES or line.value is BLANK or isinstance(line.value, ParseFailure)


def judge_without_message(session: Session, index: int, line: InputLine) -> Request | None:
    """A line ``without_message``; returns the request a peer served from it, if any, to judge."""
    if len(line.data) > DEFAULT_MAX_LINE_BYTES:
        return _refusable(session, index, line, "FRAME-MAX-LINE")
    if line.value is BLANK:
        codes = frozenset({PARSE_ERROR, INVALID_REQUEST})
        session.slots.append(NullSlot(index, False, codes, "FRAME-BLANK-LINE", False, "FRAME-BLANK-LINE"))
        return None
    if line.data.startswith(BOM):
        return _refusable(session, index, line, "FRAME-BOM")
    if not line.utf8:
        version = session.target.version
        # Serving it after a lenient decoding is allowed (RFC 8259 section 9); ignoring it is not,
        # from 2025-03-26 on, where the rule is the line's own.
        silence = "RPC-PARSE-ERROR" if version is None or version == "2024-11-05" else "FRAME-UTF8"
        return _refusable(session, index, line, "FRAME-UTF8", served="is not UTF-8", silence=silence)
    if line.json_beyond_limits:
        return _refusable(session, index, line, "RPC-JSON-LIMITS")
    if line.lenient_message is not None:
        # RFC 8259 section 9: a parser MAY accept non-JSON forms (NaN, Infinity): serving is allowed.
        return _refusable(
            session, index, line, "RPC-JSON-EXTENSIONS", served="is JSON only with an extension (NaN, Infinity)"
        )
    # No parser can read a request in it: only -32700 will do.
    session.slots.append(NullSlot(index, True, frozenset({PARSE_ERROR}), "RPC-PARSE-ERROR", True))
    return None


def _refusable(
    session: Session,
    index: int,
    line: InputLine,
    rule: str,
    served: str = "the reference refuses",
    silence: str = "RPC-PARSE-ERROR",
) -> Request | None:
    """The reference refuses this line with -32700; a peer may also read the request in it (a
    warning under ``rule``, the line ``served``: the request is returned, to judge), but not ignore
    it (``silence``)."""
    request, readable = line.lenient_request, line.readable_request
    if readable is not None and id_key(readable.id) in session.by_id:
        session.find(rule, index, f"served a line that {served}", "-32700 with id null", "an answer to it", False)
        if request is None:
            session.take(readable.id)  # too deep to read beyond its id: the answer is not judged
        return request
    # A peer that reads the line leniently may find the message in it invalid (-32600), or a
    # notification, which it leaves unanswered: a warning, for silence cannot tell it from ignoring.
    lenient = line.lenient_message
    invalid = rule == "FRAME-MAX-LINE" or isinstance(lenient, Invalid)
    codes = {PARSE_ERROR, INVALID_REQUEST} if invalid else {PARSE_ERROR}
    if isinstance(lenient, Notification | ClientResponse):
        session.slots.append(NullSlot(index, True, frozenset(codes), rule, False))
    else:
        session.slots.append(NullSlot(index, True, frozenset(codes), silence, True))
    return None


def refused(session: Session, index: int, line: bytes, request: Request) -> bool:
    """A peer refused, under a limit of its own, a line the reference serves: allowed, not ignoring it."""
    key = id_key(request.id)
    if key in session.by_id or key in session.cancelled:
        return False
    rule = refusal_allowed(line)
    if rule is None:
        return False
    # Only then: a look at every answer's id, for each request, made long sessions quadratic.
    if session.retyped_key(request.id) is not None:
        return False
    codes = frozenset({PARSE_ERROR, INVALID_REQUEST})
    session.slots.append(NullSlot(index, True, codes, "RPC-ONE-ANSWER", True, rule))
    return True


def ambiguous(session: Session, index: int, line: bytes) -> None:
    """RPC-DUPLICATE-KEYS: a repeated envelope key with different values; any one reading may be served."""
    ids = [value for value in key_values(line, "id") if is_valid_id(value)]
    if any(session.take(request_id) for request_id in ids):
        return
    codes = frozenset({PARSE_ERROR, INVALID_REQUEST, METHOD_NOT_FOUND, INVALID_PARAMS})
    session.slots.append(NullSlot(index, True, codes, "RPC-DUPLICATE-KEYS", False))


def refused_repeated_names(session: Session, index: int, line: bytes, answer: JsonObject) -> bool:
    """Whether a request's line with repeated member names was refused as unreadable: allowed (RFC 8259
    section 4: a parser may reject an object whose names repeat, id readable or not), a warning."""
    if not (error_code(answer) in (PARSE_ERROR, INVALID_REQUEST) and line and repeated_names(line)):
        return False
    message = f"{answered(answer)}: a line with repeated member names"
    session.find("RPC-DUPLICATE-KEYS", index, message, "the request served", show(answer), False)
    return True


def refused_past_limits(session: Session, index: int, line: bytes, answer: JsonObject, since: int) -> None:
    """A request's line past some parsers' limits (escaped lone surrogates, nesting, long numbers:
    RFC 8259 sections 8.2 and 9) refused under its own id, with any error (a reader's failure may
    surface as an internal one): what its answer was found to break from finding ``since`` on is
    the refusal the line allows, a warning under RPC-JSON-LIMITS."""
    if error_code(answer) is None or len(session.findings) == since or refusal_allowed(line) != "RPC-JSON-LIMITS":
        return
    request_id = answer.get("id")
    if isinstance(request_id, int) and refusal_allowed(line.replace(str(request_id).encode(), b"0")) is None:
        return  # the only long number is the id, echoed exactly: read whole, so refused for another cause
    del session.findings[since:]
    message = f"{answered(answer)}: a line past some parsers' limits (lone surrogates, nesting, long numbers)"
    session.find("RPC-JSON-LIMITS", index, message, "the request served", show(answer), False)
