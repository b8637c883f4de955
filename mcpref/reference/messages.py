"""What a line means: decoding, JSON parsing, and JSON-RPC classification; and answers out.

``parse_line`` turns the bytes of one line into a JSON value, ``BLANK``, or a
``ParseFailure`` (which the dispatcher answers with -32700). ``classify`` turns one
JSON value into exactly one of ``Request``, ``Notification``, ``ClientResponse`` or
``Invalid`` (an answer is owed). Nothing here depends on the session's state; the one
version-dependent question, whether an array is a batch, is the dispatcher's.

Every failure of the peer becomes a value; an exception escaping from here is a bug.
"""

from __future__ import annotations

import enum
import json
import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Final, TypeAlias, TypeGuard

try:
    from _json import make_encoder as _make_encoder
except ImportError:  # pragma: no cover (CPython always has it)
    _make_encoder = None  # type: ignore[assignment,misc]

JsonValue: TypeAlias = bool | int | float | str | list["JsonValue"] | dict[str, "JsonValue"] | None
JsonObject: TypeAlias = dict[str, JsonValue]
RequestId: TypeAlias = int | str

PARSE_ERROR: Final = -32700
INVALID_REQUEST: Final = -32600
METHOD_NOT_FOUND: Final = -32601
INVALID_PARAMS: Final = -32602
INTERNAL_ERROR: Final = -32603

MAX_DEPTH: Final = 256  # RPC-JSON-LIMITS

# JSON whitespace (RFC 8259 section 2); a line made only of it carries no message.
_JSON_WHITESPACE: Final = b" \t\r"


class Blank(enum.Enum):
    BLANK = "blank line"


BLANK = Blank.BLANK


@dataclass(frozen=True, slots=True)
class ParseFailure:
    reason: str


@dataclass(frozen=True, slots=True)
class Request:
    id: RequestId
    method: str
    params: JsonObject | None


@dataclass(frozen=True, slots=True)
class Notification:
    method: str
    params: JsonObject | None


@dataclass(frozen=True, slots=True)
class ClientResponse:
    """An object with ``result`` or ``error`` and no ``method``: never answered."""

    id: JsonValue
    well_formed: bool


@dataclass(frozen=True, slots=True)
class Invalid:
    """Valid JSON that is not a valid message: owed an error answer."""

    id: RequestId | None
    code: int
    reason: str


Message: TypeAlias = Request | Notification | ClientResponse | Invalid


class _Rejected(ValueError):
    pass


def _reject_constant(name: str) -> JsonValue:
    raise _Rejected(f"{name} is not JSON")  # RPC-JSON-EXTENSIONS: NaN and Infinity are not JSON


def _finite_float(lexeme: str) -> float:
    value = float(lexeme)
    if math.isinf(value):
        raise _Rejected("number overflows a double")  # RPC-JSON-LIMITS
    return value


_DECODER: Final = json.JSONDecoder(parse_constant=_reject_constant, parse_float=_finite_float)
# The C scanner that ``raw_decode`` wraps in a Python frame; JSONDecoder sets it, typeshed omits it.
_SCAN_ONCE: Final[Callable[[str, int], tuple[JsonValue, int]]] = _DECODER.scan_once  # type: ignore[attr-defined]


def _decode(text: str) -> JsonValue:
    """``_DECODER.decode(text)``, without its two whitespace regex matches in the usual case.

    ``scan_once`` (the C scanner ``raw_decode`` calls) stops before trailing whitespace and
    finds no value at leading whitespace, so a text it takes whole has none and ``decode``
    would give the same value; a ValueError it raises, ``decode`` would raise from the same
    scan. The rest (surrounding whitespace, StopIteration for a missing value) goes through
    ``decode`` for its exact answer.
    """
    try:
        value, end = _SCAN_ONCE(text, 0)
        if end == len(text):
            return value
    except StopIteration:
        pass
    decoded: JsonValue = _DECODER.decode(text)
    return decoded


def parse_line(line: bytes) -> JsonValue | Blank | ParseFailure:
    """Decode and parse one line (without its LF)."""
    if not line.strip(_JSON_WHITESPACE):
        return BLANK  # FRAME-BLANK-LINE
    try:
        text = line.decode("utf-8")  # FRAME-UTF8: strict, and a BOM stays a BOM (FRAME-BOM)
    except UnicodeDecodeError:
        return ParseFailure("line is not valid UTF-8")
    try:
        value = _decode(text)
    except RecursionError:
        return ParseFailure("nesting too deep")  # RPC-JSON-LIMITS
    except ValueError as exc:  # JSONDecodeError, our rejections, and the int digit limit
        return ParseFailure(str(exc).partition(":")[0])
    # Nesting deeper than MAX_DEPTH takes more than MAX_DEPTH brackets, hence as many bytes.
    if len(line) > MAX_DEPTH and line.count(b"[") + line.count(b"{") > MAX_DEPTH and _deeper_than(value, MAX_DEPTH):
        return ParseFailure("nesting too deep")  # RPC-JSON-LIMITS
    return value


def _deeper_than(value: JsonValue, limit: int) -> bool:
    stack: list[tuple[JsonValue, int]] = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict):
            children: list[JsonValue] = list(item.values())
        elif isinstance(item, list):
            children = item
        else:
            continue
        if depth > limit:
            return True
        stack.extend((child, depth + 1) for child in children)
    return False


def is_valid_id(value: JsonValue) -> TypeGuard[RequestId]:
    """RPC-ID-TYPE: a string or an integer; ``bool`` is an ``int`` in Python, hence ``type``."""
    return type(value) is int or type(value) is str


def classify(value: JsonValue) -> Message:
    """Classify one JSON value received as a message (or as one member of a batch)."""
    if not isinstance(value, dict):
        return Invalid(None, INVALID_REQUEST, "message is not a JSON object")  # RPC-INVALID-REQUEST
    raw_id = value.get("id")
    has_id = "id" in value
    answer_id = raw_id if is_valid_id(raw_id) else None
    if "method" not in value and ("result" in value or "error" in value):
        return ClientResponse(raw_id, _well_formed_response(value))  # RPC-CLIENT-RESPONSE
    if value.get("jsonrpc") != "2.0":
        return Invalid(answer_id, INVALID_REQUEST, 'jsonrpc must be "2.0"')
    method = value.get("method")
    if not isinstance(method, str):
        return Invalid(answer_id, INVALID_REQUEST, "method must be a string")
    if has_id and answer_id is None:
        return Invalid(None, INVALID_REQUEST, "id must be a string or an integer")  # RPC-ID-TYPE
    params = value.get("params")
    if params is not None or "params" in value:
        if isinstance(params, list):
            if not has_id:
                return Notification(method, None)  # valid JSON-RPC: a notification is never answered
            return Invalid(answer_id, INVALID_PARAMS, "params must be an object")  # RPC-PARAMS-OBJECT
        if not isinstance(params, dict):
            return Invalid(answer_id, INVALID_REQUEST, "params must be structured")  # RPC-PARAMS-OBJECT
    if answer_id is None:
        return Notification(method, params)
    return Request(answer_id, method, params)


def _well_formed_response(value: JsonObject) -> bool:
    if value.get("jsonrpc") != "2.0" or not is_valid_id(value.get("id")):
        return False
    if "result" in value:
        return "error" not in value and isinstance(value["result"], dict)
    error = value["error"]
    return isinstance(error, dict) and type(error.get("code")) is int and isinstance(error.get("message"), str)


# Answers. FRAME-OUTPUT-ASCII and FRAME-NO-EMBEDDED-NEWLINE: compact, ASCII-escaped JSON on
# one line; allow_nan=False because nothing non-finite can have been parsed.
_ENCODER: Final = json.JSONEncoder(ensure_ascii=True, allow_nan=False, separators=(",", ":"))
# What ``_ENCODER.encode`` builds anew for every call, built once: half the cost of an answer.
# Without circular-reference markers, as answers are trees built here.
_ENCODE: Final = (
    None
    if _make_encoder is None
    else _make_encoder(
        None, _ENCODER.default, json.encoder.encode_basestring_ascii, None, ":", ",", False, False, False
    )
)


def error_answer(request_id: RequestId | None, code: int, message: str, data: JsonValue = None) -> JsonObject:
    """An error answer as a JSON object, for those who edit answers before encoding them."""
    return {"jsonrpc": "2.0", "id": request_id, "error": _error(code, message, data)}


def encode(answer: JsonObject | list[JsonObject]) -> bytes:
    """An answer's object, or the array of a batch's answers, as one line."""
    return answer_line(_text(answer))


def _text(value: JsonValue | list[JsonObject]) -> str:
    if _ENCODE is None:  # pragma: no cover (a Python without the C accelerator of json)
        return _ENCODER.encode(value)
    return "".join(_ENCODE(value, 0))


# The session keeps each answer as its JSON text: the text ``encode`` gives for the
# answer's object, without the LF. A batch's line joins them into an array.
AnswerText: TypeAlias = str


def result_text(request_id: RequestId, result: JsonObject) -> AnswerText:
    return _envelope(request_id, "result", result)


def error_text(request_id: RequestId | None, code: int, message: str, data: JsonValue = None) -> AnswerText:
    """``error_answer`` as the session keeps it."""
    return _envelope(request_id, "error", _error(code, message, data))  # RPC-ERROR-ID-NULL


def _error(code: int, message: str, data: JsonValue) -> JsonObject:
    body: JsonObject = {"code": code, "message": message}
    if data is not None:
        body["data"] = data
    return body


def _envelope(request_id: RequestId | None, key: str, body: JsonObject) -> AnswerText:
    # The text of {"jsonrpc": "2.0", "id": request_id, key: body}, its constant part written
    # out and only the id and the body encoded: the C encoder's cost grows with each member,
    # and encoding the whole object took twice as long.
    return f'{{"jsonrpc":"2.0","id":{_text(request_id)},"{key}":{_text(body)}}}'


def answer_line(answer: AnswerText) -> bytes:
    return (answer + "\n").encode("ascii")


def batch_line(answers: list[AnswerText]) -> bytes:
    return ("[" + ",".join(answers) + "]\n").encode("ascii")
