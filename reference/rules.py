"""The requirement registry: every rule the reference enforces, by stable ID.

SPEC_NOTES.md is the citable text of each rule; this table is its machine-readable
index (ID, level, versions, one-line summary). A test keeps the two in step: an ID
here without an entry there, or with a different level, fails the suite.

The level decides how a divergence is reported: the ``spec`` profile fails only on
MUST and MUST NOT rules and warns on the rest; the ``strict`` profile fails on all but
measurements, which carry the machine's speed and are warnings in every profile.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass


class Level(enum.Enum):
    MUST = "MUST"
    MUST_NOT = "MUST NOT"
    SHOULD = "SHOULD"
    DECISION = "reference decision"
    MEASUREMENT = "measurement"  # what was measured on this machine: a warning in every profile

    @property
    def mandatory(self) -> bool:
        """True where the specification itself leaves a conforming peer no choice."""
        return self in (Level.MUST, Level.MUST_NOT)


@dataclass(frozen=True)
class Rule:
    id: str
    level: Level
    versions: str
    summary: str


_M, _MN, _S, _D = Level.MUST, Level.MUST_NOT, Level.SHOULD, Level.DECISION

RULES: tuple[Rule, ...] = (
    # Framing of the byte stream.
    Rule("FRAME-LF-ONLY", _M, "all", "Messages end at LF only; CR, U+2028, U+2029, U+0085, VT and FF never split one."),
    Rule("FRAME-CHUNK-INVARIANT", _M, "all", "The messages read do not depend on how the bytes were cut into reads."),
    Rule("FRAME-UTF8", _M, "2025-03-26+", "Each line is decoded strictly as UTF-8; a line that is not gets -32700."),
    Rule("FRAME-CRLF", _D, "all", "A CR just before the LF is JSON whitespace: CRLF lines are accepted."),
    Rule("FRAME-BLANK-LINE", _D, "all", "Empty and whitespace-only lines are skipped without an answer."),
    Rule("FRAME-BOM", _D, "all", "A byte order mark is not JSON whitespace: the line gets -32700."),
    Rule("FRAME-EOF-PARTIAL", _D, "all", "An unterminated last line is processed at end of input."),
    Rule(
        "FRAME-MAX-LINE",
        _D,
        "all",
        "An over-long line gets one -32700, is discarded to the next LF, and the stream goes on.",
    ),
    Rule("FRAME-NO-EMBEDDED-NEWLINE", _MN, "all", "A message written never contains a raw LF."),
    Rule(
        "FRAME-OUTPUT-ASCII",
        _D,
        "all",
        "Output JSON is ASCII-only, so no raw U+2028, U+2029 or CR reaches a naive reader.",
    ),
    # The stdio process.
    Rule("STDIO-STDOUT-MESSAGES-ONLY", _MN, "all", "Nothing but MCP messages is written to stdout; logs go to stderr."),
    Rule("STDIO-SURVIVE", _M, "all", "No input line ends the session: later requests are still read and answered."),
    Rule(
        "STDIO-LATENCY",
        Level.MEASUREMENT,
        "all",
        "Once started, the server reads each chunk and answers within 2 s; a warning with the time, never a failure.",
    ),
    Rule(
        "STDIO-EOF-DRAIN",
        _D,
        "all",
        "At stdin EOF in-flight requests finish, their answers are written, and the exit status is 0.",
    ),
    Rule("STDIO-SIGNALS", _D, "all", "SIGTERM and SIGINT stop the server promptly; a closed stdout ends it quietly."),
    # JSON-RPC 2.0 envelope and dispatch.
    Rule("RPC-PARSE-ERROR", _M, "all", "A line that is not a JSON text gets -32700 with id null."),
    Rule(
        "RPC-JSON-LIMITS",
        _D,
        "all",
        "Nesting over 256, integers over 4300 digits and floats overflowing to infinity are parse errors.",
    ),
    Rule("RPC-DUPLICATE-KEYS", _D, "all", "When a member name repeats, the last value wins."),
    Rule(
        "RPC-INVALID-REQUEST",
        _M,
        "all",
        "Valid JSON that is not a valid message gets -32600, with its id when readable, else null.",
    ),
    Rule(
        "RPC-INVALID-NO-ID",
        _S,
        "all",
        "An invalid object without an id is answered -32600 with id null, not taken for a notification.",
    ),
    Rule(
        "RPC-ID-TYPE",
        _M,
        "all",
        "Request ids are strings or integers; null, booleans, fractions and structures are invalid.",
    ),
    Rule("RPC-ID-ECHO", _M, "all", "An answer carries its request's id unchanged in type and value."),
    Rule(
        "RPC-ERROR-ID-NULL",
        _D,
        "all",
        "An error whose request id cannot be read carries id null rather than omitting it.",
    ),
    Rule("RPC-NOTIFICATION-SILENT", _MN, "all", "A notification is never answered, whatever its method or params."),
    Rule("RPC-ONE-ANSWER", _M, "all", "Every request gets exactly one answer unless it was cancelled."),
    Rule(
        "RPC-RESPONSE-SHAPE",
        _M,
        "all",
        "An answer has jsonrpc 2.0, an id, and exactly one of an object result or a well-formed error.",
    ),
    Rule("RPC-METHOD-NOT-FOUND", _M, "all", "A request for a method the server does not have gets -32601."),
    Rule("RPC-INVALID-PARAMS", _M, "all", "Params that do not fit the method get -32602 (not -32603)."),
    Rule(
        "RPC-PARAMS-OBJECT", _M, "all", "MCP params are an object: an array gets -32602, any other non-object -32600."
    ),
    Rule(
        "RPC-CLIENT-RESPONSE",
        _D,
        "all",
        "Responses from the client are never answered; one matching no request of ours is dropped.",
    ),
    Rule(
        "RPC-DUPLICATE-ID", _D, "all", "A request reusing an in-flight id gets -32600 with that id; the first goes on."
    ),
    Rule("RPC-CONCURRENT", _D, "all", "Requests run concurrently and answers leave in completion order."),
    Rule("RPC-CANCEL", _S, "all", "notifications/cancelled stops an in-flight request and suppresses its answer."),
    Rule(
        "RPC-BATCH",
        _M,
        "2025-03-26",
        "A batch gets one array of answers, none for its notifications, nothing if none is due.",
    ),
    Rule("RPC-BATCH-INITIALIZE", _MN, "2025-03-26", "initialize is refused inside a batch."),
    Rule(
        "RPC-BATCH-UNSUPPORTED",
        _D,
        "2024-11-05, 2025-06-18, 2025-11-25",
        "Where batches do not exist, an array gets one -32600 with id null.",
    ),
    # Lifecycle: the initialize handshake.
    Rule("LIFE-VERSION-ACCEPT", _M, "handshake", "A supported requested version is answered with that same version."),
    Rule(
        "LIFE-VERSION-UNSUPPORTED",
        _M,
        "handshake",
        "An unsupported version is answered with a supported version or the -32602 version error.",
    ),
    Rule(
        "LIFE-VERSION-REJECT",
        _D,
        "handshake",
        "By default an unsupported version gets -32602 with data {requested, supported}.",
    ),
    Rule(
        "LIFE-VERSION-COUNTER-OFFER",
        _D,
        "handshake",
        "Optionally, an unsupported version is answered with the latest supported one.",
    ),
    Rule("LIFE-VERSION-KNOWN", _M, "handshake", "The version in an initialize result is a published protocol version."),
    Rule(
        "LIFE-INIT-RESULT",
        _M,
        "handshake",
        "The initialize result has protocolVersion, capabilities and serverInfo {name, version}.",
    ),
    Rule(
        "LIFE-PRE-INIT-REFUSED",
        _D,
        "handshake",
        "Before notifications/initialized, requests other than ping and initialize get -32600.",
    ),
    Rule("LIFE-SECOND-INIT", _D, "handshake", "A second initialize gets -32600 and changes nothing."),
    Rule("LIFE-PING", _M, "handshake", "ping is answered with an empty result in every state."),
    Rule(
        "LIFE-INITIALIZED-EARLY",
        _D,
        "handshake",
        "notifications/initialized before a successful initialize is ignored.",
    ),
    # Capabilities.
    Rule("CAP-ANNOUNCED-METHODS", _M, "handshake", "A server announces only capabilities whose methods work."),
    Rule("CAP-UNANNOUNCED-METHOD", _D, "handshake", "A method of a capability group not announced gets -32601."),
    # Tools.
    Rule(
        "TOOLS-LIST-SHAPE",
        _M,
        "all",
        "tools/list gives each tool's name, description and inputSchema, with only fields of the negotiated version.",
    ),
    Rule(
        "TOOLS-CALL-RESULT",
        _M,
        "all",
        "A successful tools/call result is a content list; the demo tools answer with text.",
    ),
    Rule(
        "TOOLS-EXEC-ERROR",
        _S,
        "all",
        "A tool that ran and failed gives a result with isError true, not a protocol error.",
    ),
    Rule("TOOLS-UNKNOWN", _S, "all", "A call to an unknown tool gets -32602."),
    Rule(
        "TOOLS-ARGS-INVALID",
        _S,
        "all",
        "Arguments failing inputSchema get -32602 up to 2025-06-18 and an isError result from 2025-11-25.",
    ),
)

BY_ID: dict[str, Rule] = {rule.id: rule for rule in RULES}
