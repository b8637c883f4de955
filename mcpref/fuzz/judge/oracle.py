"""The oracle: what a conforming stdio server may answer to a session, and where one did not.

``judge(stream, observation)`` reads the bytes a client sent and what the server wrote
back, and returns every ``Finding``: a divergence, the requirement ID it breaks, and
whether it breaks a MUST of the specification (``mandatory``). The two profiles differ
only in how findings are counted: ``spec`` fails on mandatory findings and warns on the
rest; ``strict`` fails on all of them, that is on every divergence from the reference's
documented behaviour.

How the oracle reads a session:
- Input is cut into lines as the reference cuts it; each line is parsed and classified
  by the oracle's own reading (``reading``), never by the reference's functions: the
  oracle does not borrow the decisions it judges. A property test holds the two readings
  to the same answers.
- Answers are matched to requests by id, in type and value, never by position
  (RPC-ID-ECHO, RPC-CONCURRENT). Answers with id null are matched, in order, to the lines
  that may draw one (parse errors, invalid objects without a readable id).
- The server's own choices are followed where the specification allows several: the
  version it answered, the capabilities it announced, the tools it listed, whether it
  accepted an initialize. Later lines are judged against that state, so one permitted
  choice never turns into a cascade of false alarms.
"""

from __future__ import annotations

import collections
import enum
import functools
import json
import re
from collections import Counter
from dataclasses import dataclass, field, replace
from typing import Final, TypeAlias

from mcpref.fuzz.drive.observation import Observation
from mcpref.fuzz.judge.arguments import argument_problem
from mcpref.fuzz.judge.oracle_modern import (
    LEGACY_NAMES,
    MODERN_NAMES,
    UNSUPPORTED_PROTOCOL_VERSION,
    ModernJudge,
    ModernServer,
    capability_of,
    error_code,
    is_modern,
    show,
)
from mcpref.fuzz.judge.reading import (
    BLANK,
    Blank,
    ClientResponse,
    Invalid,
    Message,
    Notification,
    ParseFailure,
    Request,
    classify,
    initialize_params_problem,
    is_valid_id,
    parse_line,
)
from mcpref.reference.framer import DEFAULT_MAX_LINE_BYTES
from mcpref.reference.messages import (
    INTERNAL_ERROR,
    INVALID_PARAMS,
    INVALID_REQUEST,
    METHOD_NOT_FOUND,
    PARSE_ERROR,
    JsonObject,
    JsonValue,
    RequestId,
)
from mcpref.reference.rules import BY_ID, Level
from mcpref.reference.versions import BY_NAME, KNOWN, SUPPORTED_NAMES

# Ids 1 and "1" differ (RPC-ID-ECHO), and so must their keys.
IdKey: TypeAlias = tuple[bool, RequestId]


def id_key(request_id: RequestId) -> IdKey:
    return (isinstance(request_id, str), request_id)


class Profile(enum.Enum):
    SPEC = "spec"
    STRICT = "strict"


class Status(enum.Enum):
    WARN = "warn"
    FAIL = "fail"


# What a finding shows as ``actual`` for an answer not seen, and as ``expected`` where none is owed.
NOTHING: Final = "nothing"


@dataclass(frozen=True)
class Finding:
    rule: str
    mandatory: bool  # the divergence breaks a MUST or MUST NOT of the specification
    line: int | None  # index of the input line it concerns; None for the session as a whole
    message: str
    expected: str
    actual: str

    @property
    def answer_missing(self) -> bool:
        """Whether what failed is an answer not seen (one that may yet come late)."""
        return self.actual == NOTHING

    def status(self, profile: Profile) -> Status:
        if BY_ID[self.rule].level is Level.MEASUREMENT:
            return Status.WARN  # the machine's speed is in it: never a verdict
        return Status.FAIL if self.mandatory or profile is Profile.STRICT else Status.WARN


# Published versions, plus the 2024-10-07 pre-release that some SDKs still negotiate.
RECOGNISED_VERSIONS = frozenset(v.name for v in KNOWN) | {"2024-10-07"}

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

# Bytes that str.splitlines() or Node's readline take for line ends (FRAME-LF-ONLY).
_FALSE_LINE_ENDS = (b"\r", b"\x0b", b"\x0c", b"\x1c", b"\x1d", b"\x1e", b"\xc2\x85", b"\xe2\x80\xa8", b"\xe2\x80\xa9")
_BOM = b"\xef\xbb\xbf"


def has_false_line_end(line: bytes) -> bool:
    """Whether a line holds a byte some readers take for a line end (a CRLF's CR does not count)."""
    body = line[:-1] if line.endswith(b"\r") else line
    return any(end in body for end in _FALSE_LINE_ENDS)


def only_cr_line_ends(line: bytes) -> bool:
    """Whether a line's only false line ends are bare CRs: whether a CR is a newline is an open reading
    of "delimited by newlines" (FRAME-LF-ONLY), where U+2028 and the others are not."""
    body = line[:-1] if line.endswith(b"\r") else line
    return b"\r" in body and not any(end in body for end in _FALSE_LINE_ENDS if end != b"\r")


# A wait for the server longer than this, once it has started, is reported (STDIO-LATENCY).
LATE_SECONDS = 2.0

# Lines over this size may meet a peer's own line limit (FRAME-MAX-LINE allows one).
LONG_LINE = 64 * 1024
_SURROGATE_ESCAPE = re.compile(rb"\\u[dD][89a-fA-F]")
_LONG_NUMBER = re.compile(rb"\d{16}")


_EXACT_IN_A_DOUBLE = 2**53


def _beyond_doubles(request_id: RequestId) -> bool:
    """Whether an id is an integer that a double does not hold exactly (RPC-JSON-LIMITS)."""
    return type(request_id) is int and abs(request_id) > _EXACT_IN_A_DOUBLE


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
    if _repeated_names(line):
        return "RPC-DUPLICATE-KEYS"  # RFC 8259 section 4: a parser may reject repeated names
    return None


def _repeated_names(line: bytes) -> bool:
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




def split_lines(stream: bytes) -> list[bytes]:
    """The lines of a stream as the reference frames them (FRAME-LF-ONLY, FRAME-EOF-PARTIAL)."""
    lines = stream.split(b"\n")
    if lines[-1] == b"":
        lines.pop()
    return lines


@dataclass(frozen=True)
class _InputLine:
    """A line of the stream judged, read once for all the judges of the stream (``_read_input``):
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
        return self.lenient_request or _leading_request(self.data)


@functools.lru_cache(maxsize=4)
def _read_input(stream: bytes) -> tuple[_InputLine, ...]:
    """The stream's lines, read: once a stream, which a campaign judges two or three times (a kept
    run, its read-on, a fresh confirmation). The judge never changes what is read, so that judges
    may share it."""
    return tuple(_InputLine(line, parse_line(line)) for line in split_lines(stream))


def judge(stream: bytes, observation: Observation) -> list[Finding]:
    return _Judge(stream, observation).run()


@dataclass
class _Target:
    """What the server under test has shown of its state so far."""

    accepted_init: bool = False
    ready: bool = False
    version: str | None = None
    capabilities: JsonObject | None = field(default_factory=dict)  # None: never shown (no DiscoverResult seen)
    tools: dict[str, JsonObject] | None = None


@dataclass(frozen=True)
class _NullSlot:
    """A line that may draw an answer with id null."""

    line: int
    required: bool
    codes: frozenset[int]
    rule: str  # broken when a required answer is missing or has another code
    mandatory: bool
    answered_rule: str | None = None  # the reference stays silent here: answering is a divergence
    raw_id: JsonValue = None  # an id member that is no valid id (true, 1.5): an answer may come under a reading of it


@dataclass
class _Answer:
    value: JsonObject
    in_array: bool


def _result(answer: JsonObject) -> JsonObject | None:
    result = answer.get("result")
    return result if isinstance(result, dict) else None


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


_LEADING_ID = re.compile(rb'^\s*\{[^{}\[\]]*?"id"\s*:\s*(-?\d{1,30}|"(?:[^"\\]|\\.)*")')


def _leading_request(line: bytes) -> Request | None:
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


def _lenient_request(line: bytes) -> Request | None:
    """The request a lenient peer could read from a line the reference refuses."""
    return _as_request(_lenient_message(line))


class _Judge:
    def __init__(self, stream: bytes, observation: Observation) -> None:
        self.input = _read_input(stream)
        self.unterminated = not stream.endswith(b"\n")
        self.observation = observation
        self.findings: list[Finding] = []
        self.target = _Target()
        self.by_id: dict[IdKey, list[_Answer]] = {}
        self.nulls: list[JsonObject] = []
        self.slots: list[_NullSlot] = []
        self.cancelled: set[IdKey] = set()
        self.id_uses: Counter[IdKey] = Counter()
        self.response_ids: set[IdKey] = set()
        self.saw_notification = False
        self.probe_answers: list[JsonObject] = []
        self.unread_ids: list[tuple[int, RequestId, str]] = []  # invalid requests whose id got no answer
        self.unanswered: list[tuple[int, RequestId, str]] = []  # requests without an answer, while id-null errors came
        self.split: list[tuple[int, RequestId, str]] = []  # the same, with a false line end in their line
        self.initialized_early = False  # notifications/initialized before any initialize was accepted
        self.answered_at: dict[IdKey, int] = {}  # where the first answer to each id was written
        self.server_messages: list[tuple[int, str]] = []  # requests and notifications of the server
        self.discovered = False  # a server/discover was answered with a result
        self.off_script_from: int | None = None  # the line of an initialize sent after that
        self.modern = ModernJudge(ModernServer(), self.find)
        # Modern requests are judged against what the server showed of the modern era.
        self.modern_target = _Target(accepted_init=True, ready=True, version=min(MODERN_NAMES), capabilities=None)

    def find(
        self, rule: str, line: int | None, message: str, expected: str, actual: str, mandatory: bool | None = None
    ) -> None:
        if mandatory is None:
            mandatory = BY_ID[rule].level.mandatory
        if mandatory and line is not None and self.off_script_from is not None and line >= self.off_script_from:
            # MOD-DUAL-ERA: what follows initialize after a discover that succeeded is a session no
            # compliant client opens, so no MUST of either era was written for it.
            mandatory, message = False, f"{message} (after initialize that followed a successful server/discover)"
        self.findings.append(Finding(rule, mandatory, line, message, expected, actual))

    def run(self) -> list[Finding]:
        self._read_output()
        if not self.observation.survived:
            self.find(
                "STDIO-SURVIVE",
                None,
                "the server died or stopped answering",
                "a live server",
                self.observation.ending or "no answer to the liveness ping",
            )
        if self.observation.latency > LATE_SECONDS:
            self.find(
                "STDIO-LATENCY",
                None,
                f"the server took {self.observation.latency:.1f} s to read or answer",
                f"at most {LATE_SECONDS:g} s",
                f"{self.observation.latency:.1f} s",
            )
        self._survey()
        for index, line in enumerate(self.input):
            self._line(index, line)
        self._match_nulls()
        self._leftovers()
        self._partial_line_judged()
        return self.findings

    def _partial_line_judged(self) -> None:
        """FRAME-EOF-PARTIAL only when no terminated line's answer was lost at EOF too: a peer that
        loses those may have read the last line and lost its answer the same way (the Python SDK
        does, in its race to exit). Once every other finding is in, whatever order made them."""
        if not any(f.rule == "STDIO-EOF-DRAIN" for f in self.findings):
            return
        self.findings = [
            replace(f, rule="STDIO-EOF-DRAIN", message=f"{f.message}; answers of terminated lines were lost too, "
                    "so its framing cannot be judged")
            if f.rule == "FRAME-EOF-PARTIAL"
            else f
            for f in self.findings
        ]  # fmt: skip

    # Output.

    def _read_output(self) -> None:
        for position, raw in enumerate(self.observation.output):
            value = parse_line(raw)
            if not raw.isascii():
                self.find(
                    "FRAME-OUTPUT-ASCII",
                    None,
                    "output with raw non-ASCII bytes",
                    "ASCII-escaped JSON",
                    show(raw.decode("utf-8", "replace")),
                )
            if isinstance(value, list):
                for member in value:
                    self._answer(position, member, in_array=True)
            elif isinstance(value, dict):
                self._answer(position, value, in_array=False)
            elif value is not BLANK or raw:
                self.find(
                    "STDIO-STDOUT-MESSAGES-ONLY",
                    None,
                    "stdout carried a line that is not a message",
                    "JSON-RPC messages only",
                    show(raw.decode("utf-8", "replace")),
                )
        if self.observation.trailing:
            self.find(
                "STDIO-STDOUT-MESSAGES-ONLY",
                None,
                "stdout ended inside a line",
                "LF after every message",
                show(self.observation.trailing.decode("utf-8", "replace")),
            )

    def _answer(self, position: int, value: JsonValue, in_array: bool) -> None:
        if not isinstance(value, dict):
            self.find(
                "RPC-RESPONSE-SHAPE",
                None,
                "a batch answer holds something that is not an object",
                "response objects",
                show(value),
            )
            return
        if "method" in value:
            self.server_messages.append((position, show(value.get("method"))))  # not an answer
            return
        problem = _shape_problem(value)
        if problem is not None:
            self.find("RPC-RESPONSE-SHAPE", None, problem, "a JSON-RPC response", show(value))
            return
        if "id" not in value:
            self.find("RPC-ERROR-ID-NULL", None, "an error without an id", '"id": null', show(value), mandatory=False)
        answer_id = value.get("id")
        if answer_id is None:
            self.nulls.append(value)
        elif is_valid_id(answer_id):
            if isinstance(answer_id, str) and answer_id in self.observation.sentinels:
                self.probe_answers.append(value)  # not judged, but it shows the server's era
            else:
                self.by_id.setdefault(id_key(answer_id), []).append(_Answer(value, in_array))
                self.answered_at.setdefault(id_key(answer_id), position)
        else:
            self.find(
                "RPC-RESPONSE-SHAPE",
                None,
                "an answer id that is neither string, integer nor null",
                "a valid id",
                show(value),
            )

    def _survey(self) -> None:
        """Cancellations, ids used by more than one request (RPC-DUPLICATE-ID), and the server's eras."""
        server = self.modern.server
        refused_initialize = accepted_initialize = False
        for answers in self.by_id.values():
            for answer in answers:
                server.learn(answer.value)
        for probe_answer in self.probe_answers:
            server.learn(probe_answer)
        for line in self.input:
            for message in line.messages:
                if isinstance(message, Request | Invalid) and message.id is not None:
                    self.id_uses[id_key(message.id)] += 1
                if (
                    isinstance(message, Request)
                    and message.method == "initialize"
                    and initialize_params_problem(message.params or {}) is None
                    and (message.params or {}).get("protocolVersion") in LEGACY_NAMES
                ):
                    answers = self.by_id.get(id_key(message.id), [])
                    refused_initialize |= any("error" in answer.value for answer in answers)
                    accepted_initialize |= any("result" in answer.value for answer in answers)
                if isinstance(message, Notification) and message.method == "notifications/cancelled" and message.params:
                    request_id = message.params.get("requestId")
                    if is_valid_id(request_id):
                        self.cancelled.add(id_key(request_id))
        # Modern only: it refused to open a legacy session for a legacy version, and never opened one.
        server.only = server.speaks and refused_initialize and not accepted_initialize
        if server.capabilities is not None:
            self.modern_target.capabilities = server.capabilities

    # Input, line by line.

    def _line(self, index: int, line: _InputLine) -> None:
        data, value = line.data, line.value
        if len(data) > DEFAULT_MAX_LINE_BYTES:
            self._refusable(index, line, "FRAME-MAX-LINE")
            return
        if value is BLANK:
            codes = frozenset({PARSE_ERROR, INVALID_REQUEST})
            self.slots.append(_NullSlot(index, False, codes, "FRAME-BLANK-LINE", False, "FRAME-BLANK-LINE"))
        elif isinstance(value, ParseFailure):
            self._parse_failure(index, line)
        elif isinstance(value, list):
            self._batch(index, value, line.messages)
        else:
            (message,) = line.messages
            if line.ambiguous:
                self._ambiguous(index, data)
                return
            if isinstance(message, Request) and self._refused(index, data, message):
                return
            anonymous = isinstance(value, dict) and "id" not in value
            raw_id = value.get("id") if isinstance(value, dict) else None
            self._message(index, data, message, in_batch=False, anonymous=anonymous, raw_id=raw_id)

    def _refused(self, index: int, line: bytes, request: Request) -> bool:
        """A peer refused, under a limit of its own, a line the reference serves: allowed, not ignoring it."""
        key = id_key(request.id)
        if key in self.by_id or key in self.cancelled:
            return False
        rule = refusal_allowed(line)
        if rule is None:
            return False
        # Only then: a look at every answer's id, for each request, made long sessions quadratic.
        if any(self._unsent(other) and _same_id_changed(other[1], request.id) for other in self.by_id):
            return False
        codes = frozenset({PARSE_ERROR, INVALID_REQUEST})
        self.slots.append(_NullSlot(index, True, codes, "RPC-ONE-ANSWER", True, rule))
        return True

    def _ambiguous(self, index: int, line: bytes) -> None:
        """RPC-DUPLICATE-KEYS: a repeated envelope key with different values; any one reading may be served."""
        ids = [value for value in _key_values(line, "id") if is_valid_id(value)]
        if any(self._take(request_id) for request_id in ids):
            return
        codes = frozenset({PARSE_ERROR, INVALID_REQUEST, METHOD_NOT_FOUND, INVALID_PARAMS})
        self.slots.append(_NullSlot(index, True, codes, "RPC-DUPLICATE-KEYS", False))

    def _parse_failure(self, index: int, line: _InputLine) -> None:
        if line.data.startswith(_BOM):
            self._refusable(index, line, "FRAME-BOM")
        elif not line.utf8:
            version = self.target.version
            # Serving it after a lenient decoding is allowed (RFC 8259 section 9); ignoring it is not,
            # from 2025-03-26 on, where the rule is the line's own.
            silence = "RPC-PARSE-ERROR" if version is None or version == "2024-11-05" else "FRAME-UTF8"
            self._refusable(index, line, "FRAME-UTF8", served="is not UTF-8", silence=silence)
        elif line.json_beyond_limits:
            self._refusable(index, line, "RPC-JSON-LIMITS")
        elif line.lenient_message is not None:
            # RFC 8259 section 9: a parser MAY accept non-JSON forms (NaN, Infinity): serving is allowed.
            self._refusable(index, line, "RPC-JSON-EXTENSIONS", served="is JSON only with an extension (NaN, Infinity)")
        else:
            # No parser can read a request in it: only -32700 will do.
            self.slots.append(_NullSlot(index, True, frozenset({PARSE_ERROR}), "RPC-PARSE-ERROR", True))

    def _refusable(
        self,
        index: int,
        line: _InputLine,
        rule: str,
        served: str = "the reference refuses",
        silence: str = "RPC-PARSE-ERROR",
    ) -> None:
        """The reference refuses this line with -32700; a peer may also read the request in it (a
        warning under ``rule``, the line ``served``), but not ignore it (``silence``)."""
        request, readable = line.lenient_request, line.readable_request
        if readable is not None and id_key(readable.id) in self.by_id:
            self.find(rule, index, f"served a line that {served}", "-32700 with id null", "an answer to it", False)
            if request is None:
                self._take(readable.id)  # too deep to read beyond its id: the answer is not judged
            else:
                self._request(index, line.data, request, in_batch=False)
            return
        # A peer that reads the line leniently may find the message in it invalid (-32600), or a
        # notification, which it leaves unanswered: a warning, for silence cannot tell it from ignoring.
        lenient = line.lenient_message
        invalid = rule == "FRAME-MAX-LINE" or isinstance(lenient, Invalid)
        codes = {PARSE_ERROR, INVALID_REQUEST} if invalid else {PARSE_ERROR}
        if isinstance(lenient, Notification | ClientResponse):
            self.slots.append(_NullSlot(index, True, frozenset(codes), rule, False))
        else:
            self.slots.append(_NullSlot(index, True, frozenset(codes), silence, True))

    def _batch(self, index: int, items: list[JsonValue], members: tuple[Message, ...]) -> None:
        if self.target.version != "2025-03-26" or not self.target.accepted_init:
            # Processing it as 2025-03-26 does is allowed, with a warning: each invalid member may then
            # draw its own id-null error.
            codes = frozenset({INVALID_REQUEST, INVALID_PARAMS})
            for member in members:
                if isinstance(member, Invalid) and member.id is None:
                    unsupported = "RPC-BATCH-UNSUPPORTED"
                    self.slots.append(_NullSlot(index, False, codes, unsupported, False, unsupported))
            served = [m for m in members if isinstance(m, Request) and id_key(m.id) in self.by_id]
            if served:
                self.find(
                    "RPC-BATCH-UNSUPPORTED",
                    index,
                    "served a batch where batches do not exist",
                    "one -32600 with id null",
                    "answers to its members",
                )
                for request in served:
                    self._take(request.id)
                return
            # The client sent what is no message in this version: silence is allowed, with a warning.
            self.slots.append(_NullSlot(index, True, frozenset({INVALID_REQUEST}), "RPC-BATCH-UNSUPPORTED", False))
            return
        # A server that cannot read batches answers the line, once, with -32700: RPC-BATCH (a warning
        # here; the requests in it go unanswered, which fails), not an answer to its notifications.
        self.slots.append(_NullSlot(index, False, frozenset({PARSE_ERROR}), "RPC-BATCH", False, "RPC-BATCH"))
        if not items:
            self.slots.append(_NullSlot(index, True, frozenset({INVALID_REQUEST}), "RPC-BATCH", True))
            return
        for item, member in zip(items, members, strict=True):
            anonymous = isinstance(item, dict) and "id" not in item
            raw_id = item.get("id") if isinstance(item, dict) else None
            self._message(index, b"", member, in_batch=True, anonymous=anonymous, raw_id=raw_id)

    def _message(
        self,
        index: int,
        line: bytes,
        message: Message,
        in_batch: bool,
        anonymous: bool,
        raw_id: JsonValue = None,
    ) -> None:
        """``raw_id``: the id member as sent, whatever its type, for an answer under it said so."""
        if isinstance(message, Request):
            self._request(index, line, message, in_batch)
        elif isinstance(message, Notification):
            self.saw_notification = True
            if message.method == "notifications/initialized":
                self.target.ready = self.target.accepted_init
                self.initialized_early |= not self.target.accepted_init
        elif isinstance(message, ClientResponse):
            # A response to no request of the server's may draw an id-null error (a warning): -32600 for
            # one whose id was read (a response is no method call: -32601 answers a notification), any
            # code for one whose id was not.
            if is_valid_id(message.id):
                self.response_ids.add(id_key(message.id))
                codes = frozenset({INVALID_REQUEST})
            else:
                codes = frozenset({PARSE_ERROR, INVALID_REQUEST, METHOD_NOT_FOUND, INVALID_PARAMS, INTERNAL_ERROR})
            self.slots.append(_NullSlot(index, False, codes, "RPC-CLIENT-RESPONSE", False, "RPC-CLIENT-RESPONSE"))
        elif message.id is None:
            # RPC-INVALID-NO-ID: an invalid object without an id should still be answered.
            rule = "RPC-INVALID-NO-ID" if anonymous else "RPC-INVALID-REQUEST"
            codes = frozenset({INVALID_REQUEST, INVALID_PARAMS})
            self.slots.append(_NullSlot(index, True, codes, rule, rule == "RPC-INVALID-REQUEST", raw_id=raw_id))
        else:
            self._invalid(index, message)

    def _invalid(self, index: int, message: Invalid) -> None:
        assert message.id is not None
        if self._shared(index, message.id):
            return
        rule = (
            "RPC-PARAMS-OBJECT"
            if message.code == INVALID_PARAMS or "params" in message.reason
            else "RPC-INVALID-REQUEST"
        )
        if id_key(message.id) not in self.by_id:
            # A peer that failed to decode the message may answer it with id null (JSON-RPC's rule for
            # an id it could not detect): an id-null error left over is this line's answer, not an
            # answer to a notification. Settled once the id-null answers are matched.
            self.unread_ids.append((index, message.id, rule))
            return
        answer = self._single(index, message.id, rule)
        assert answer is not None  # its id has an answer
        codes = {INVALID_PARAMS, INVALID_REQUEST} if rule == "RPC-PARAMS-OBJECT" else {INVALID_REQUEST}
        if message.code == INVALID_PARAMS and "result" in answer:
            # Positional params are valid JSON-RPC; that MCP's are objects binds the sender: serving them is allowed.
            self.find(rule, index, "served a request whose params are an array", "error -32602", show(answer), False)
        elif error_code(answer) not in codes:
            self.find(
                rule, index, "an invalid message was not refused as invalid", f"error {message.code}", show(answer)
            )
        elif error_code(answer) != message.code:
            self.find(
                rule,
                index,
                "refused with another code than the reference",
                f"error {message.code}",
                show(answer),
                mandatory=False,
            )

    def _single(self, index: int, request_id: RequestId, rule_if_missing: str) -> JsonObject | None:
        """The one answer to ``request_id``, reporting a missing or repeated one."""
        answers = self._take(request_id)
        if len(answers) > 1:
            self.find(
                "RPC-ONE-ANSWER",
                index,
                f"answered {len(answers)} times",
                "exactly one answer",
                show([a.value for a in answers]),
            )
        if answers:
            return answers[0].value
        if id_key(request_id) in self.cancelled or not self.observation.survived:
            return None  # RPC-CANCEL: silence is allowed after a cancellation
        retyped = self._retyped(request_id)
        if retyped is not None:
            changed = f"answered with id {show(retyped.get('id'))} for id {show(request_id)}"
            if _beyond_doubles(request_id) and type(retyped.get("id")) is int:
                # RFC 8259 section 6: beyond 2^53 a peer may read a number as the nearest double.
                self.find("RPC-JSON-LIMITS", index, changed, show(request_id), show(retyped.get("id")), False)
            else:
                self.find("RPC-ID-ECHO", index, changed, show(request_id), show(retyped.get("id")))
            return None
        if self.input[index].false_line_end and any(error_code(n) == PARSE_ERROR for n in self.nulls):
            # Split at a false line end, the pieces draw -32700s: silence alone proves no split, and a
            # -32700 that another line explains proves none either. Settled then.
            self.split.append((index, request_id, rule_if_missing))
            return None
        if any(error_code(n) is not None for n in self.nulls):
            # RPC-ID-ECHO: an id-null error left over once the id-null answers are matched is this
            # request's answer, its id lost, not an answer to a notification. Settled then.
            self.unanswered.append((index, request_id, rule_if_missing))
            return None
        self._missing(index, rule_if_missing, f"an answer with id {show(request_id)}")
        return None

    def _shared(self, index: int, request_id: RequestId) -> bool:
        """An id several requests used: one answer each, in any order, contents not judged.

        The reference refuses a reused in-flight id (RPC-DUPLICATE-ID) and serves one reused
        after its answer; which answer belongs to which request cannot be told from outside.
        """
        key = id_key(request_id)
        if self.id_uses[key] < 2:
            return False
        if key in self.by_id:
            self._take_first(key)
        elif key not in self.cancelled and self.observation.survived:
            self._missing(index, "RPC-ONE-ANSWER", f"an answer with id {show(request_id)}")
        return True

    def _missing(self, index: int, rule: str, expected: str) -> None:
        if self.observation.eof:
            # STDIO-EOF-DRAIN, FRAME-EOF-PARTIAL: after EOF a peer may exit without finishing.
            partial = index == len(self.input) - 1 and self.unterminated
            rule = "FRAME-EOF-PARTIAL" if partial else "STDIO-EOF-DRAIN"  # see _partial_line_judged
            self.find(rule, index, "no answer before the exit that followed EOF", expected, NOTHING, False)
        else:
            self.find(rule, index, "no answer", expected, NOTHING)

    def _take(self, request_id: RequestId) -> list[_Answer]:
        return self.by_id.pop(id_key(request_id), [])

    def _retyped(self, request_id: RequestId) -> JsonObject | None:
        """The answer to ``request_id`` under another id: its type changed, or its value through a float."""
        for key in list(self.by_id):
            if self._unsent(key) and _same_id_changed(key[1], request_id):
                return self.by_id.pop(key)[0].value
        return None

    def _unsent(self, key: IdKey) -> bool:
        """Whether no request of the session has this id: an answer by it is no other request's own."""
        return self.id_uses[key] == 0

    # Requests.

    def _request(self, index: int, line: bytes, request: Request, in_batch: bool) -> None:
        if self._shared(index, request.id):
            return
        rule = "RPC-BATCH" if in_batch else "RPC-ONE-ANSWER"
        key = id_key(request.id)
        arrived_in_array = [a.in_array for a in self.by_id.get(key, [])]
        if request.method == "initialize" and self.discovered and self.off_script_from is None:
            self.off_script_from = index
        answer = self._single(index, request.id, rule)
        if answer is None:
            return
        self.discovered |= request.method == "server/discover" and _result(answer) is not None
        if error_code(answer) in (PARSE_ERROR, INVALID_REQUEST) and line and _repeated_names(line):
            # RFC 8259 section 4: a parser may reject an object whose names repeat, id readable or not.
            message = f"{answered(answer)}: a line with repeated member names"
            self.find("RPC-DUPLICATE-KEYS", index, message, "the request served", show(answer), False)
            return
        if in_batch and not all(arrived_in_array):
            self.find(
                "RPC-BATCH",
                index,
                "a batch member was answered outside an array",
                "one array of answers",
                show(answer),
            )
        server = self.modern.server
        if server.speaks and not in_batch and (is_modern(request) or server.only):
            if not self.modern.judge(index, request, answer, legacy_open=self.target.accepted_init):
                self._operating(index, request, answer, self.modern_target)
        elif request.method == "initialize":
            self._initialize(index, request, answer, in_batch)
        elif self._malformed_modern(request, answer):
            return  # MOD-META-REQUIRED: before any legacy session, a modern server may read it so
        elif is_modern(request) and "error" in answer:
            return  # MOD-DUAL-ERA: a server never seen to speak the modern era may refuse its requests
        elif request.method == "ping":
            if _result(answer) is None:
                self.find("LIFE-PING", index, "ping was not answered with a result", "an empty result", show(answer))
        elif not self.target.ready:
            self._early(index, answer)
        else:
            self._operating(index, request, answer, self.target)

    def _early(self, index: int, answer: JsonObject) -> None:
        """LIFE-PRE-INIT-REFUSED, or LIFE-INITIALIZED-EARLY when an early notifications/initialized came first."""
        code = error_code(answer)
        if code == INVALID_REQUEST:
            return
        how = answered(answer)
        if self.target.accepted_init:
            self.find("LIFE-PRE-INIT-REFUSED", index, f"{how} before notifications/initialized", "-32600", show(answer))
        elif self.initialized_early:
            message = f"{how} after a notifications/initialized that came before any initialize"
            self.find("LIFE-INITIALIZED-EARLY", index, message, "-32600", show(answer))
        else:
            self.find("LIFE-PRE-INIT-REFUSED", index, f"{how} before initialize", "-32600", show(answer))

    def _malformed_modern(self, request: Request, answer: JsonObject) -> bool:
        """A request without modern metadata refused as a malformed modern one (or a ping as a method the
        era removed), by a server that speaks the modern era and has opened no legacy session: whether
        it serves legacy at all is unknown."""
        if not self.modern.server.speaks or self.target.accepted_init:
            return False
        code = error_code(answer)
        return code == INVALID_PARAMS or (request.method == "ping" and code == METHOD_NOT_FOUND)

    def _initialize(self, index: int, request: Request, answer: JsonObject, in_batch: bool) -> None:
        result = _result(answer)
        if in_batch:
            if result is not None:
                self.find(
                    "RPC-BATCH-INITIALIZE", index, "initialize was accepted inside a batch", "-32600", show(answer)
                )
            return
        if self.target.accepted_init:
            if error_code(answer) != INVALID_REQUEST:
                message = f"a second initialize was {answered(answer)}"
                self.find("LIFE-SECOND-INIT", index, message, "-32600", show(answer))
            if result is not None:
                self._accept(result)
            return
        params = request.params or {}
        if initialize_params_problem(params) is not None:
            if result is not None:
                self.find(
                    "RPC-INVALID-PARAMS",
                    index,
                    "accepted an initialize with malformed params",
                    "-32602",
                    show(answer),
                    mandatory=False,
                )
                self._accept(result)
            elif error_code(answer) != INVALID_PARAMS:
                self.find(
                    "RPC-INVALID-PARAMS",
                    index,
                    "malformed initialize params not refused with -32602",
                    "-32602",
                    show(answer),
                )
            return
        requested = params.get("protocolVersion")
        if result is None:
            self._refused_initialize(index, requested, answer)
            return
        self._before_initialize_answer(index, request.id)
        chosen = result.get("protocolVersion")
        info = result.get("serverInfo")
        if not (
            isinstance(chosen, str)
            and isinstance(result.get("capabilities"), dict)
            and isinstance(info, dict)
            and isinstance(info.get("name"), str)
            and isinstance(info.get("version"), str)
        ):
            self.find(
                "LIFE-INIT-RESULT",
                index,
                "the initialize result lacks a required field",
                "protocolVersion, capabilities, serverInfo{name, version}",
                show(result),
            )
        if chosen not in RECOGNISED_VERSIONS:
            self.find(
                "LIFE-VERSION-KNOWN",
                index,
                "answered with a protocol version that does not exist",
                "a published version",
                show(chosen),
            )
        elif requested in SUPPORTED_NAMES and chosen != requested and chosen not in LEGACY_NAMES:
            # Another handshake version is a lawful counter-offer from a server that does not support
            # the one requested, which cannot be told from outside: only a version no handshake has is.
            self.find(
                "LIFE-VERSION-ACCEPT",
                index,
                "answered another version than the one requested",
                show(requested),
                show(chosen),
                mandatory=False,
            )
        elif requested not in SUPPORTED_NAMES and chosen != requested:
            self.find(
                "LIFE-VERSION-REJECT",
                index,
                "counter-offered an unsupported version",
                "-32602 with data {requested, supported}",
                show(chosen),
            )
        self._accept(result)

    def _before_initialize_answer(self, index: int, request_id: RequestId) -> None:
        """LIFE-SERVER-EARLY: before its answer nothing is negotiated, so nothing but ping and logging is due."""
        answered_at = self.answered_at[id_key(request_id)]
        early = [
            method
            for position, method in self.server_messages
            if position < answered_at and method not in ('"ping"', '"notifications/message"')
        ]
        if early:
            self.find(
                "LIFE-SERVER-EARLY",
                index,
                "sent before its initialize answer: " + ", ".join(early),
                "only ping and log messages before it",
                ", ".join(early),
            )

    def _refused_initialize(self, index: int, requested: JsonValue, answer: JsonObject) -> None:
        if requested in SUPPORTED_NAMES:
            self.find(
                "LIFE-VERSION-ACCEPT",
                index,
                "refused an initialize for a published version",
                "a result",
                show(answer),
                mandatory=False,
            )
        elif self.modern.server.speaks and error_code(answer) == UNSUPPORTED_PROTOCOL_VERSION:
            return  # MOD-LEGACY-INIT: a modern server names its versions with the modern error
        elif error_code(answer) != INVALID_PARAMS:
            self.find(
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
                self.find(
                    "LIFE-VERSION-REJECT",
                    index,
                    "the version error lacks data {requested, supported}",
                    "data {requested, supported}",
                    show(answer),
                )

    def _accept(self, result: JsonObject) -> None:
        version = result.get("protocolVersion")
        capabilities = result.get("capabilities")
        self.target = _Target(
            accepted_init=True,
            ready=self.target.ready,
            version=version if isinstance(version, str) else None,
            capabilities=capabilities if isinstance(capabilities, dict) else {},
        )

    def _operating(self, index: int, request: Request, answer: JsonObject, target: _Target) -> None:
        capability = capability_of(request.method)
        code = error_code(answer)
        if capability is None and target.version in MODERN_NAMES and request.method in MODERN_METHODS:
            return  # a method of the modern core beyond what mcpref judges
        if capability is None:
            if code != METHOD_NOT_FOUND:
                self.find(
                    "RPC-METHOD-NOT-FOUND",
                    index,
                    "an unknown method was not refused with -32601",
                    "-32601",
                    show(answer),
                )
        elif target.capabilities is not None and capability not in target.capabilities:
            if code != METHOD_NOT_FOUND:
                self.find(
                    "CAP-UNANNOUNCED-METHOD",
                    index,
                    "a method of an unannounced capability was not refused with -32601",
                    "-32601",
                    show(answer),
                )
        elif request.method not in CAPABILITY_METHODS:
            return  # another method of an announced capability: nothing more is known of it
        elif request.method == "tools/call" and _malformed_call(request):
            self._tools_call(index, request, answer, target)  # RPC-INVALID-PARAMS, whatever the tool
        elif request.method == "tools/call" and code == METHOD_NOT_FOUND and not self._listed(request, target):
            self.find("TOOLS-UNKNOWN", index, "a call to an unlisted tool refused with -32601", "-32602", show(answer))
        elif code is not None and (code == METHOD_NOT_FOUND or request.method == "tools/list"):
            self.find(
                "CAP-ANNOUNCED-METHODS",
                index,
                f"capability {capability} was announced but {request.method} fails",
                "a working method",
                show(answer),
            )
        elif request.method == "tools/list":
            self._tools_list(index, answer, target)
        elif request.method == "tools/call":
            self._tools_call(index, request, answer, target)

    def _listed(self, request: Request, target: _Target) -> bool:
        """Whether a tools/call names a tool the server listed (unknown when it never listed them)."""
        name = (request.params or {}).get("name")
        return target.tools is not None and isinstance(name, str) and name in target.tools

    def _tools_list(self, index: int, answer: JsonObject, target: _Target) -> None:
        result = _result(answer) or {}
        listed = result.get("tools")
        if not isinstance(listed, list) or not all(_is_tool(tool) for tool in listed):
            self.find(
                "TOOLS-LIST-SHAPE",
                index,
                "tools/list result is malformed",
                "{tools: [{name, inputSchema}]}",
                show(answer),
            )
            return
        target.tools = {}
        for tool in listed:
            assert isinstance(tool, dict) and isinstance(tool["name"], str) and isinstance(tool["inputSchema"], dict)
            target.tools[tool["name"]] = tool["inputSchema"]
            undefined = _undefined_tool_fields(tool, target.version)
            if undefined:
                self.find(
                    "TOOLS-LIST-SHAPE",
                    index,
                    f"Tool fields {target.version} does not define: {', '.join(undefined)}",
                    f"only the Tool fields of {target.version}",
                    show(tool),
                    mandatory=False,
                )

    def _tools_call(self, index: int, request: Request, answer: JsonObject, target: _Target) -> None:
        params = request.params or {}
        name = params.get("name")
        arguments = params.get("arguments", {})
        code = error_code(answer)
        if _malformed_call(request):
            if code != INVALID_PARAMS:
                message = f"a tools/call with malformed params was {answered(answer)}"
                self.find("RPC-INVALID-PARAMS", index, message, "-32602", show(answer))
            return
        assert isinstance(name, str) and isinstance(arguments, dict)
        tools = target.tools
        if tools is None:
            self._call_result(index, answer, known_tool=False)
            return
        if name not in tools:
            if code != INVALID_PARAMS:
                self.find(
                    "TOOLS-UNKNOWN",
                    index,
                    "a call to an unlisted tool was not refused with -32602",
                    "-32602",
                    show(answer),
                )
            return
        schema = tools[name]
        problem = argument_problem(schema, arguments) if _checkable(schema) else None
        if problem is None:
            self._call_result(index, answer, known_tool=True)
            return
        version = BY_NAME.get(target.version or "")
        result = _result(answer)
        if version is not None and version.invalid_arguments_are_tool_errors:
            if result is None or result.get("isError") is not True:
                self.find(
                    "TOOLS-ARGS-INVALID",
                    index,
                    f"invalid arguments ({problem}) not a tool error",
                    "a result with isError true",
                    show(answer),
                )
        elif code != INVALID_PARAMS:
            self.find(
                "TOOLS-ARGS-INVALID",
                index,
                f"invalid arguments ({problem}) not refused with -32602",
                "-32602",
                show(answer),
            )

    def _call_result(self, index: int, answer: JsonObject, known_tool: bool) -> None:
        result = _result(answer)
        if result is None:
            if known_tool:
                self.find(
                    "TOOLS-EXEC-ERROR",
                    index,
                    "a valid tool call ended in a protocol error",
                    "a result (isError true on failure)",
                    show(answer),
                )
            return
        content = result.get("content")
        if not isinstance(content, list) or not all(
            isinstance(c, dict) and isinstance(c.get("type"), str) for c in content
        ):
            self.find(
                "TOOLS-CALL-RESULT",
                index,
                "a tools/call result without a content list",
                "{content: [...]}",
                show(answer),
            )
        elif "isError" in result and not isinstance(result["isError"], bool):
            self.find("TOOLS-CALL-RESULT", index, "isError is not a boolean", "isError: true or false", show(answer))

    # Answers with id null, and answers to nothing.

    def _match_nulls(self) -> None:
        """Pair the id-null answers with the lines that may draw one, in the way most favourable to the
        server: as many lines explained as can be, first those that only an id-null error explains,
        then those that may draw one instead of their own answer, then those whose silence only warns.
        A line left without is then the one that has no other explanation, whatever the answers'
        order. Lines where an answer is optional take what is left once readable ids have theirs."""
        required = [slot for slot in self.slots if slot.required]
        answer_of = self._explain(required, self.nulls)
        unmatched = [slot for index, slot in enumerate(required) if index not in answer_of]
        taken = set(answer_of.values())
        leftover = [answer for index, answer in enumerate(self.nulls) if index not in taken]
        for slot in unmatched:
            if not self.observation.survived:
                break
            codes = " or ".join(str(code) for code in sorted(slot.codes))
            read = self._read_as(slot.raw_id)
            if read is not None:
                message = f"answered with id {show(read.get('id'))} for id {show(slot.raw_id)}"
                self.find(slot.rule, slot.line, message, f"error {codes} with id null", show(read), slot.mandatory)
            elif leftover:
                actual = show(leftover.pop(0))
                self.find(
                    slot.rule,
                    slot.line,
                    "answered with another error code",
                    f"error {codes} with id null",
                    actual,
                    slot.mandatory,
                )
            elif self.observation.eof:
                self._missing(slot.line, slot.rule, f"error {codes} with id null")
            else:
                self.find(slot.rule, slot.line, "no answer", f"error {codes} with id null", NOTHING, slot.mandatory)
        self._settle_unread_ids(leftover)
        taken = set(self._explain([slot for slot in self.slots if not slot.required], leftover).values())
        leftover = [answer for index, answer in enumerate(leftover) if index not in taken]
        self._settle_unanswered(leftover)
        for answer in leftover:
            self._unexpected(answer)

    def _explain(self, slots: list[_NullSlot], answers: list[JsonObject]) -> dict[int, int]:
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
                self.find(slot.answered_rule, slot.line, message, "no error", show(answers[answer_of[index]]), False)
        return answer_of

    def _read_as(self, raw_id: JsonValue) -> JsonObject | None:
        """An answer no request's own, under an id a peer could read from ``raw_id`` (1 for true or 1.5)."""
        if raw_id is None or is_valid_id(raw_id):
            return None
        readings: list[JsonValue] = [json.dumps(raw_id)]
        if isinstance(raw_id, bool | float):  # finite: the oracle's reading refuses what overflows
            readings += [int(raw_id), round(raw_id)]
        for reading in readings:
            if is_valid_id(reading) and self._unsent(key := id_key(reading)) and key in self.by_id:
                return self._take_first(key)
        return None

    def _take_first(self, key: IdKey) -> JsonObject:
        """The first answer under ``key``, which has one, taken from the answers still unclaimed."""
        answers = self.by_id[key]
        answer = answers.pop(0).value
        if not answers:
            del self.by_id[key]
        return answer

    def _settle_split(self, leftover: list[JsonObject]) -> None:
        """FRAME-LF-ONLY for a request unanswered whose line has a false line end, when -32700s that
        no other line explains are left: its pieces drew them, one finding for the line and its pieces."""
        for index, request_id, rule in self.split:
            pieces = [answer for answer in leftover if error_code(answer) == PARSE_ERROR]
            if not pieces:
                self.unanswered.append((index, request_id, rule))
                continue
            for answer in pieces:
                leftover.remove(answer)
            expected = f"an answer with id {show(request_id)}"
            cr_only = only_cr_line_ends(self.input[index].data)
            message = "no answer; the line drew -32700s, as if cut at a " + ("CR" if cr_only else "false line end")
            self.find("FRAME-LF-ONLY", index, message, expected, show(list[JsonValue](pieces)), not cr_only)

    def _settle_unread_ids(self, leftover: list[JsonObject]) -> None:
        """Invalid messages with an id and no answer by it take an id-null error left over, if any: a
        peer that failed to decode one may not have read its id."""
        for index, request_id, rule in self.unread_ids:
            answer = _take_error(leftover, (PARSE_ERROR, INVALID_REQUEST))
            if answer is None:
                self._single(index, request_id, rule)
            else:
                self._id_lost(rule, index, request_id, answer)

    def _settle_unanswered(self, leftover: list[JsonObject]) -> None:
        """Requests unanswered while id-null errors came take one left over, if any, as their answer
        with the id lost; those with a false line end take the -32700s of their pieces first."""
        self._settle_split(leftover)
        for index, request_id, rule in self.unanswered:
            answer = _take_error(leftover, None)
            if answer is None:
                self._missing(index, rule, f"an answer with id {show(request_id)}")
            else:
                self._id_lost("RPC-ID-ECHO", index, request_id, answer)

    def _id_lost(self, rule: str, index: int, request_id: RequestId, answer: JsonObject) -> None:
        expected = f"an answer with id {show(request_id)}"
        if _beyond_doubles(request_id):
            # RFC 8259 section 6: an integer beyond 2^53 may be unreadable to a peer, as the id of
            # any line, valid or not: answering with id null is allowed.
            message = "answered with id null: its id is beyond 2^53, where a peer may not read it"
            self.find("RPC-JSON-LIMITS", index, message, expected, show(answer), False)
            return
        self.find(rule, index, "answered with id null, though its id is readable", expected, show(answer))

    def _leftovers(self) -> None:
        for key, answers in self.by_id.items():
            for answer in answers:
                if key in self.response_ids:
                    self.find(
                        "RPC-CLIENT-RESPONSE",
                        None,
                        "answered a response sent by the client",
                        NOTHING,
                        show(answer.value),
                    )
                else:
                    self._unexpected(answer.value)

    def _unexpected(self, answer: JsonObject) -> None:
        pieces = answer.get("id") is None and error_code(answer) == PARSE_ERROR
        if pieces and any(line.false_line_end for line in self.input):
            # A reader that splits a line at a false line end refuses each piece as not JSON: one
            # finding for all the pieces, and a reading of a bare CR as a line end is an open one.
            if not any(f.rule == "FRAME-LF-ONLY" for f in self.findings):
                cr_only = all(only_cr_line_ends(line.data) for line in self.input if line.false_line_end)
                self.find("FRAME-LF-ONLY", None, "an answer no line asked for", NOTHING, show(answer), not cr_only)
        elif self.saw_notification and answer.get("id") is None:
            # An answer to a notification can only carry id null: notifications have none.
            self.find("RPC-NOTIFICATION-SILENT", None, "an answer no request asked for", NOTHING, show(answer))
        else:
            self.find("RPC-ONE-ANSWER", None, "an answer no request asked for", NOTHING, show(answer))


def _malformed_call(request: Request) -> bool:
    """Whether a tools/call's params cannot name a tool call: a name that is no string, arguments no object."""
    params = request.params or {}
    return not isinstance(params.get("name"), str) or not isinstance(params.get("arguments", {}), dict)


# The codes JSON-RPC reserves for its pre-defined errors, -32768 to -32000; the rest are applications'.
_JSON_RPC_CODES = range(-32768, -31999)


def answered(answer: JsonObject) -> str:
    """How a request was answered, in words: served, or refused with which code."""
    code = error_code(answer)
    if code is None:
        return "served"
    if code in _JSON_RPC_CODES:
        return f"refused with {code}"
    return f"refused with code {code}, outside JSON-RPC's reserved range"


def _rank(slot: _NullSlot) -> int:
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


_ENVELOPE_KEYS = ("id", "method", "jsonrpc", "params")
_QUOTED_ENVELOPE_KEY = re.compile(b'"(?:' + b"|".join(key.encode() for key in _ENVELOPE_KEYS) + b')"')


def _same_id_changed(answered: RequestId, sent: RequestId) -> bool:
    """Whether an answer's id is the id sent with its type changed ("7" for 7), or an integer id
    rounded to a double (2**53 + 1 answered as 2**53): the answer of a peer that read it so. Never the
    id itself: an answer by it was taken as the request's own."""
    if str(answered) == str(sent):
        return True
    return type(sent) is int and type(answered) is int and float(sent) == float(answered)


def _key_values(line: bytes, key: str) -> list[JsonValue]:
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
    return any(len({json.dumps(v, sort_keys=True) for v in _key_values(line, key)}) > 1 for key in _ENVELOPE_KEYS)


def _no_constant(name: str) -> JsonValue:
    raise ValueError(name)


# The version that gave Tool each of its fields (schema/<version>/schema.ts, interface Tool); "" for
# the fields every version has.
TOOL_FIELDS: Final = {
    "name": "",
    "description": "",
    "inputSchema": "",
    "annotations": "2025-03-26",
    "title": "2025-06-18",
    "outputSchema": "2025-06-18",
    "_meta": "2025-06-18",
    "icons": "2025-11-25",
    "execution": "2025-11-25",
}


def _undefined_tool_fields(tool: JsonObject, version: str | None) -> list[str]:
    """The fields of ``tool`` that ``version`` does not define, each with the version that has it."""
    undefined = []
    for name in sorted(tool):
        since = TOOL_FIELDS.get(name)
        if since is None:
            undefined.append(f"{name} (in no version)")
        elif version is not None and version < since:  # versions are ISO dates: they sort as text
            undefined.append(f"{name} (from {since})")
    return undefined


def _is_tool(tool: JsonValue) -> bool:
    return isinstance(tool, dict) and isinstance(tool.get("name"), str) and isinstance(tool.get("inputSchema"), dict)


def _checkable(schema: JsonObject) -> bool:
    """Whether a listed inputSchema is within the subset ``argument_problem`` understands."""
    properties = schema.get("properties")
    required = schema.get("required")
    if (
        schema.get("additionalProperties") is not False
        or not isinstance(properties, dict)
        or not isinstance(required, list)
    ):
        return False
    return all(_checkable_property(spec) for spec in properties.values()) and all(isinstance(r, str) for r in required)


def _checkable_property(spec: JsonValue) -> bool:
    """Only plain strings and bounded integers: other keywords (enum, pattern...) are not checked here."""
    if not isinstance(spec, dict) or not set(spec) <= {"type", "description", "title", "minimum", "maximum"}:
        return False
    if spec.get("type") == "string":
        return set(spec) <= {"type", "description", "title"}
    return spec.get("type") == "integer" and type(spec.get("minimum")) is int and type(spec.get("maximum")) is int
