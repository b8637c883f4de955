"""The client's lines as the oracle reads them: cut as the reference cuts them, each read once.

In: the bytes a client sent. Out: ``InputLine`` values (``read_input``), each with its parsed value
and, read on demand, what lenient readers could make of it (its messages, a lenient request, an id
before any nesting, whether an envelope key repeats, whether a byte may pass for a line end). No
rule is judged here: the judge modules read these facts to judge theirs.
"""

from __future__ import annotations

import functools
import json
import re
from dataclasses import dataclass

from mcpref.fuzz.judge.reading import BLANK, Blank, Message, ParseFailure, Request, classify, is_valid_id, parse_line
from mcpref.reference.messages import JsonValue

# Bytes that str.splitlines() or Node's readline take for line ends (FRAME-LF-ONLY).
_FALSE_LINE_ENDS = (b"\r", b"\x0b", b"\x0c", b"\x1c", b"\x1d", b"\x1e", b"\xc2\x85", b"\xe2\x80\xa8", b"\xe2\x80\xa9")
BOM = b"\xef\xbb\xbf"


def split_lines(stream: bytes) -> list[bytes]:
    """The lines of a stream as the reference frames them (FRAME-LF-ONLY, FRAME-EOF-PARTIAL)."""
    lines = stream.split(b"\n")
    if lines[-1] == b"":
        lines.pop()
    return lines


def has_false_line_end(line: bytes) -> bool:
    """Whether a line holds a byte some readers take for a line end (a CRLF's CR does not count)."""
    return false_line_ends(line) > 0


def false_line_ends(line: bytes) -> int:
    """How many of those a line holds: a reader that splits there cuts it into one piece more."""
    body = line[:-1] if line.endswith(b"\r") else line
    return sum(body.count(end) for end in _FALSE_LINE_ENDS)


def only_cr_line_ends(line: bytes) -> bool:
    """Whether a line's only false line ends are bare CRs: whether a CR is a newline is an open reading
    of "delimited by newlines" (FRAME-LF-ONLY), where U+2028 and the others are not."""
    body = line[:-1] if line.endswith(b"\r") else line
    return b"\r" in body and not any(end in body for end in _FALSE_LINE_ENDS if end != b"\r")


def repeated_names(line: bytes) -> bool:
    """Whether a member name repeats in any object of the line."""
    repeated = False

    def pairs(items: list[tuple[str, JsonValue]]) -> JsonValue:
        nonlocal repeated
        repeated |= len({name for name, _ in items}) < len(items)
        return dict(items)

    try:
        json.loads(line, object_pairs_hook=pairs, parse_int=_lenient_int)
    except (ValueError, RecursionError):
        return False
    return repeated


@dataclass(frozen=True)
class InputLine:
    """A line of the stream judged, read once for all the judges of the stream (``read_input``):
    it may be megabytes long. What only some judges need is read by the first that does."""

    data: bytes
    value: JsonValue | Blank | ParseFailure

    @functools.cached_property
    def messages(self) -> tuple[Message, ...]:
        """The value as a message, or each member of a batch as one; none for a line without a value."""
        if isinstance(self.value, list):
            return tuple(classify(item) for item in self.value)
        if self.value is BLANK or isinstance(self.value, ParseFailure):
            return ()
        return (classify(self.value),)

    @functools.cached_property
    def ambiguous(self) -> bool:
        return _ambiguous_keys(self.data)

    @functools.cached_property
    def false_line_end(self) -> bool:
        return has_false_line_end(self.data)

    @functools.cached_property
    def utf8(self) -> bool:
        try:
            self.data.decode("utf-8")
        except UnicodeDecodeError:
            return False
        return True

    @functools.cached_property
    def json_beyond_limits(self) -> bool:
        """Whether a UTF-8 line the reference cannot parse is JSON all the same, beyond its limits."""
        try:
            json.loads(self.data.decode("utf-8"), parse_constant=_no_constant, parse_int=_lenient_int)
        except RecursionError:
            return True  # deeper than Python can parse: valid or not, it is beyond the limits
        except ValueError:
            return False
        return True

    @functools.cached_property
    def lenient_message(self) -> Message | None:
        return _lenient_message(self.data)

    @functools.cached_property
    def lenient_request(self) -> Request | None:
        return _as_request(self.lenient_message)

    @functools.cached_property
    def readable_request(self) -> Request | None:
        """The request a lenient peer reads, or at least its id, when it comes before any nesting."""
        return self.lenient_request or leading_request(self.data)


@functools.lru_cache(maxsize=4)
def read_input(stream: bytes) -> tuple[InputLine, ...]:
    """The stream's lines, read: once a stream, which a campaign judges two or three times (a kept
    run, its read-on, a fresh confirmation). The judge never changes what is read, so that judges
    may share it."""
    return tuple(InputLine(line, parse_line(line)) for line in split_lines(stream))


_LEADING_ID = re.compile(rb'^\s*\{[^{}\[\]]*?"id"\s*:\s*(-?\d{1,30}|"(?:[^"\\]|\\.)*")')


def leading_request(line: bytes) -> Request | None:
    """For a line too deep for Python to parse: the id, when it comes before any nesting."""
    match = _LEADING_ID.match(line)
    if match is None:
        return None
    try:
        request_id = json.loads(match.group(1))
    except ValueError:
        return None
    return Request(request_id, "", None) if is_valid_id(request_id) else None


def _lenient_int(digits: str) -> int:
    """Integers past CPython's digit limit are valid JSON; their exact value never matters here."""
    return int(digits) if len(digits) <= 4000 else 0


def _lenient_message(line: bytes) -> Message | None:
    """The message a lenient peer could read from a line the reference refuses (a batch's is none)."""
    text = line.decode("utf-8", errors="replace").lstrip("\ufeff")
    try:
        value = json.loads(text, parse_int=_lenient_int)
    except (ValueError, RecursionError):
        return None
    return None if isinstance(value, list) else classify(value)


def _as_request(message: Message | None) -> Request | None:
    return message if isinstance(message, Request) else None


def lenient_request(line: bytes) -> Request | None:
    """The request a lenient peer could read from a line the reference refuses."""
    return _as_request(_lenient_message(line))


_ENVELOPE_KEYS = ("id", "method", "jsonrpc", "params")
_QUOTED_ENVELOPE_KEY = re.compile(b'"(?:' + b"|".join(key.encode() for key in _ENVELOPE_KEYS) + b')"')


def key_values(line: bytes, key: str) -> list[JsonValue]:
    """Every value the top-level object of ``line`` gives ``key``, repeats included."""
    pairs: list[list[tuple[str, JsonValue]]] = []

    def keep(items: list[tuple[str, JsonValue]]) -> JsonValue:
        pairs.append(items)
        return dict(items)

    json.loads(line, object_pairs_hook=keep, parse_int=_lenient_int)  # the line parsed already
    return [value for items in pairs[-1:] for name, value in items if name == key]


def _ambiguous_keys(line: bytes) -> bool:
    """Whether an envelope key repeats with different values, so that readers may disagree."""
    # One scan for the keys, quoted, wherever they are; a real key is always among them.
    quoted = _QUOTED_ENVELOPE_KEY.findall(line)
    if len(quoted) == len(set(quoted)):
        return False
    return any(len({json.dumps(v, sort_keys=True) for v in key_values(line, key)}) > 1 for key in _ENVELOPE_KEYS)


def _no_constant(name: str) -> JsonValue:
    raise ValueError(name)
