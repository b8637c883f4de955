"""The oracle's own reading of what a client sent: a line's bytes to a JSON value, a value to a message.

Why this exists: the oracle judges the reference server among others, so it must not borrow the
decisions it judges. Were it to read lines with the reference's ``parse_line`` and ``classify``, a
mistake there would be a mistake the oracle shares, and the reference would pass every check by
construction. This module reads a line a second time, written apart from ``mcpref/reference/messages.py``
and in another shape (decode first, then strip; nesting measured on the text before parsing; the
envelope matched by patterns); ``tests/fuzz/test_reading.py`` checks that the two readings agree.
Only vocabulary is shared with the reference: the JSON type aliases, the error codes, the depth limit.

As in the reference, whatever a peer sends becomes a value: nothing here raises on bad input.
"""

from __future__ import annotations

import enum
import json
import re
import sys
from dataclasses import dataclass
from typing import Final, TypeAlias, TypeGuard

from mcpref.reference.messages import INVALID_PARAMS, INVALID_REQUEST, MAX_DEPTH, JsonObject, JsonValue, RequestId

# The four whitespace characters of RFC 8259 section 2; only three of them make a line blank.
_JSON_SPACE: Final = " \t\n\r"


class Blank(enum.Enum):
    """A line that carries no message: the one value of this enum, ``BLANK``."""

    BLANK = "no message on this line"


BLANK: Final = Blank.BLANK


@dataclass(frozen=True, slots=True)
class ParseFailure:
    """The line is not a JSON text: a peer owes -32700 with id null (RPC-PARSE-ERROR)."""

    reason: str


@dataclass(frozen=True, slots=True)
class Invalid:
    """JSON, but not a message: owed an error answer with ``code``, and ``id`` when one was readable."""

    id: RequestId | None
    code: int
    reason: str


@dataclass(frozen=True, slots=True)
class ClientResponse:
    """What the client sent as an answer (``result`` or ``error`` without ``method``): never answered."""

    id: JsonValue  # as sent, of any type, absent read as None
    well_formed: bool


@dataclass(frozen=True, slots=True)
class Notification:
    """A valid envelope without an id: never answered."""

    method: str
    params: JsonObject | None  # None also when a notification's params were an array


@dataclass(frozen=True, slots=True)
class Request:
    """A valid envelope with a valid id: owed exactly one answer."""

    id: RequestId
    method: str
    params: JsonObject | None


Message: TypeAlias = Request | Notification | ClientResponse | Invalid


class _NotJson(ValueError):
    """Something Python's json takes that JSON or our limits do not; raised inside the scanner."""


def _refuse_constant(literal: str) -> JsonValue:
    raise _NotJson(f"{literal} is not a JSON literal")  # RPC-PARSE-ERROR: NaN, Infinity, -Infinity


def _double(lexeme: str) -> float:
    number = float(lexeme)
    if abs(number) > sys.float_info.max:  # RPC-JSON-LIMITS: 1e400 overflows to infinity; underflow is kept
        raise _NotJson(f"{lexeme[:20]} overflows a double")
    return number


# Python's scanner gives the grammar, last-wins duplicate keys (RPC-DUPLICATE-KEYS), lone surrogate
# escapes, and the 4300-digit int limit (RPC-JSON-LIMITS) as a ValueError; the hooks add the rest.
_DECODER: Final = json.JSONDecoder(parse_constant=_refuse_constant, parse_float=_double)

# A JSON string, so that brackets inside strings are not taken for nesting. Possessive, so that an
# unterminated quote costs one pass and no backtracking.
_STRING: Final = re.compile(r'"(?:[^"\\]++|\\.)*+"', re.DOTALL)
# Runs of opening or closing brackets: the depth peaks at the end of an opening run, and a
# hostile line of 100,000 levels is two runs, not 200,000 steps. Other characters leave it as is.
_RUN: Final = re.compile(r"[\[{]+|[\]}]+")


def _nested_too_deep(text: str) -> bool:
    """Whether the brackets outside strings open more than MAX_DEPTH levels at some point.

    Measured on the text, before parsing: for a JSON text this is its nesting depth, and for
    anything else the answer is a parse failure either way. Parsing never recurses past the
    limit then, so the answer cannot depend on the stack's depth.
    """
    depth, outside = 0, _STRING.sub("", text)
    for run in _RUN.finditer(outside):
        if outside[run.start()] in "[{":
            depth += run.end() - run.start()
            if depth > MAX_DEPTH:
                return True
        else:
            depth -= run.end() - run.start()
    return False


def parse_line(line: bytes) -> JsonValue | Blank | ParseFailure:
    """One line's bytes (without its LF) as a JSON value, ``BLANK``, or a ``ParseFailure``."""
    try:
        text = line.decode("utf-8")  # FRAME-UTF8: strict; no replacement, no surrogates
    except UnicodeDecodeError:
        return ParseFailure("not UTF-8")
    body = text.strip(_JSON_SPACE)
    if not body:
        # FRAME-BLANK-LINE: space, tab and CR make a blank line; an LF is never part of a framed
        # line, and a text of JSON whitespace alone holds no value.
        return ParseFailure("whitespace but no value") if "\n" in text else BLANK
    # Deeper than MAX_DEPTH takes more than MAX_DEPTH opening brackets: count them first, cheaply.
    if body.count("[") + body.count("{") > MAX_DEPTH and _nested_too_deep(body):
        return ParseFailure(f"nested deeper than {MAX_DEPTH}")  # RPC-JSON-LIMITS
    try:
        # A leading U+FEFF is no whitespace and starts no value (FRAME-BOM, RPC-PARSE-ERROR).
        value, end = _DECODER.raw_decode(body)
    except RecursionError:  # only with the stack already nearly used up: still no value read
        return ParseFailure("nesting exhausted the stack")  # RPC-JSON-LIMITS
    except ValueError as error:  # JSONDecodeError, _NotJson, and the int digit limit
        return ParseFailure(str(error))  # RPC-PARSE-ERROR
    if end != len(body):
        return ParseFailure("more after the JSON value")  # RPC-PARSE-ERROR
    parsed: JsonValue = value
    return parsed


def is_valid_id(value: object) -> TypeGuard[RequestId]:
    """RPC-ID-TYPE: a string or an integer, never a boolean, though Python's bool is an int."""
    return isinstance(value, (str, int)) and not isinstance(value, bool)


def is_integral_float(value: object) -> TypeGuard[float]:
    """A number written with a zero fraction (1.0): an integer in JSON Schema, the official schema's
    dialect, where RequestId is "integer"; the reference refuses it as an id (RPC-ID-TYPE's decision)."""
    return isinstance(value, float) and value.is_integer()


def classify(value: JsonValue) -> Message:
    """The message one JSON value is, received as a line or as a member of a batch."""
    if not isinstance(value, dict):
        return Invalid(None, INVALID_REQUEST, "not an object")  # RPC-INVALID-REQUEST
    if "method" not in value and ("result" in value or "error" in value):
        return ClientResponse(value.get("id"), _answer_shaped(value))  # RPC-CLIENT-RESPONSE
    sent_id = value.get("id")
    # The id an error answer echoes: only a valid one, null otherwise (RPC-INVALID-REQUEST).
    echo = sent_id if is_valid_id(sent_id) else None
    method = value.get("method")
    if not isinstance(method, str) or value.get("jsonrpc") != "2.0":
        return Invalid(echo, INVALID_REQUEST, 'needs jsonrpc "2.0" and a string method')  # RPC-INVALID-REQUEST
    anonymous = "id" not in value
    if echo is None and not anonymous:
        return Invalid(None, INVALID_REQUEST, "id neither a string nor an integer")  # RPC-ID-TYPE
    params: JsonObject | None
    match value:
        case {"params": dict() as params}:
            pass
        case {"params": list()}:
            if anonymous:
                return Notification(method, None)  # JSON-RPC allows it; a notification gets no answer
            return Invalid(echo, INVALID_PARAMS, "params is an array, not an object")  # RPC-PARAMS-OBJECT
        case {"params": _}:
            # Null, a string, a number or a boolean is not structured at all (RPC-PARAMS-OBJECT).
            return Invalid(echo, INVALID_REQUEST, "params is not structured")
        case _:
            params = None
    return Notification(method, params) if echo is None else Request(echo, method, params)


def _answer_shaped(value: JsonObject) -> bool:
    """RPC-CLIENT-RESPONSE: whether a client's response has JSON-RPC's shape (it goes unanswered anyway)."""
    if value.get("jsonrpc") != "2.0" or not is_valid_id(value.get("id")):
        return False
    match value:
        case {"result": result}:
            return isinstance(result, dict) and "error" not in value
        case {"error": {"code": int() as code, "message": str()}}:
            return not isinstance(code, bool)
    return False


# RPC-INVALID-PARAMS: what initialize's params must hold (the schema requires all three).
_INITIALIZE_NEEDS: Final = (
    ("protocolVersion", str, "protocolVersion must be a string"),
    ("capabilities", dict, "capabilities must be an object"),
)


def initialize_params_problem(params: JsonObject) -> str | None:
    """What makes ``initialize``'s params unacceptable, or None when they are acceptable."""
    for key, kind, problem in _INITIALIZE_NEEDS:
        if not isinstance(params.get(key), kind):
            return problem
    match params.get("clientInfo"):
        case {"name": str(), "version": str()}:
            return None
    return "clientInfo must be an object with string name and version"
