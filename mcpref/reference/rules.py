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

from .versions import ALL, LEGACY, MODERN, Versions, only, since


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
    versions: Versions
    summary: str


_M, _MN, _S, _D = Level.MUST, Level.MUST_NOT, Level.SHOULD, Level.DECISION

RULES: tuple[Rule, ...] = (
    # Framing of the byte stream.
    Rule("FRAME-LF-ONLY", _M, ALL, "Messages end at LF only; CR, U+2028, U+2029, U+0085, VT and FF never split one."),
    Rule("FRAME-CHUNK-INVARIANT", _M, ALL, "The messages read do not depend on how the bytes were cut into reads."),
    Rule("FRAME-UTF8", _M, since("2025-03-26"), "Each line is decoded strictly as UTF-8; a line that is not gets -32700."),
    Rule("FRAME-CRLF", _D, ALL, "A CR just before the LF is JSON whitespace: CRLF lines are accepted."),
    Rule("FRAME-BLANK-LINE", _D, ALL, "Empty and whitespace-only lines are skipped without an answer."),
    Rule("FRAME-BOM", _D, ALL, "A byte order mark is not JSON whitespace: the line gets -32700."),
    Rule("FRAME-EOF-PARTIAL", _D, ALL, "An unterminated last line is processed at end of input."),
    Rule(
        "FRAME-MAX-LINE",
        _D,
        ALL,
        "An over-long line gets one -32700, is discarded to the next LF, and the stream goes on.",
    ),
    Rule("FRAME-NO-EMBEDDED-NEWLINE", _MN, ALL, "A message written never contains a raw LF."),
    Rule(
        "FRAME-OUTPUT-ASCII",
        _D,
        ALL,
        "Output JSON is ASCII-only, so no raw U+2028, U+2029 or CR reaches a naive reader.",
    ),
    # The stdio process.
    Rule("STDIO-STDOUT-MESSAGES-ONLY", _MN, ALL, "Nothing but MCP messages is written to stdout; logs go to stderr."),
    Rule("STDIO-SURVIVE", _M, ALL, "No input line ends the session: later requests are still read and answered."),
    Rule(
        "STDIO-LATENCY",
        Level.MEASUREMENT,
        ALL,
        "Once started, the server reads each chunk and answers within 2 s; a warning with the time, never a failure.",
    ),
    Rule(
        "STDIO-EOF-DRAIN",
        _D,
        ALL,
        "At stdin EOF in-flight requests finish, their answers are written, and the exit status is 0.",
    ),
    Rule("STDIO-SIGNALS", _D, ALL, "SIGTERM and SIGINT stop the server promptly; a closed stdout ends it quietly."),
    # JSON-RPC 2.0 envelope and dispatch.
    Rule("RPC-PARSE-ERROR", _M, ALL, "A line that is not a JSON text gets -32700 with id null."),
    Rule(
        "RPC-JSON-LIMITS",
        _D,
        ALL,
        "Nesting over 256, integers over 4300 digits and floats overflowing to infinity are parse errors.",
    ),
    Rule("RPC-DUPLICATE-KEYS", _D, ALL, "When a member name repeats, the last value wins."),
    Rule("RPC-JSON-EXTENSIONS", _D, ALL, "NaN, Infinity and -Infinity are not JSON: such a line gets -32700."),
    Rule(
        "RPC-INVALID-REQUEST",
        _M,
        ALL,
        "Valid JSON that is not a valid message gets -32600, with its id when readable, else null.",
    ),
    Rule(
        "RPC-INVALID-NO-ID",
        _S,
        ALL,
        "An invalid object without an id is answered -32600 with id null, not taken for a notification.",
    ),
    Rule(
        "RPC-ID-TYPE",
        _M,
        ALL,
        "Request ids are strings or integers; null, booleans, fractions and structures are invalid.",
    ),
    Rule("RPC-ID-ECHO", _M, ALL, "An answer carries its request's id unchanged in type and value."),
    Rule(
        "RPC-ERROR-ID-NULL",
        _D,
        ALL,
        "An error whose request id cannot be read carries id null rather than omitting it.",
    ),
    Rule("RPC-NOTIFICATION-SILENT", _MN, ALL, "A notification is never answered, whatever its method or params."),
    Rule("RPC-ONE-ANSWER", _M, ALL, "Every request gets exactly one answer unless it was cancelled."),
    Rule(
        "RPC-RESPONSE-SHAPE",
        _M,
        ALL,
        "An answer has jsonrpc 2.0, an id, and exactly one of an object result or a well-formed error.",
    ),
    Rule("RPC-METHOD-NOT-FOUND", _M, ALL, "A request for a method the server does not have gets -32601."),
    Rule("RPC-INVALID-PARAMS", _M, ALL, "Params that do not fit the method get -32602 (not -32603)."),
    Rule(
        "RPC-PARAMS-OBJECT", _M, ALL, "MCP params are an object: an array gets -32602, any other non-object -32600."
    ),
    Rule(
        "RPC-CLIENT-RESPONSE",
        _D,
        ALL,
        "Responses from the client are never answered; one matching no request of ours is dropped.",
    ),
    Rule(
        "RPC-DUPLICATE-ID", _D, ALL, "A request reusing an in-flight id gets -32600 with that id; the first goes on."
    ),
    Rule("RPC-CONCURRENT", _D, ALL, "Requests run concurrently and answers leave in completion order."),
    Rule("RPC-CANCEL", _S, ALL, "notifications/cancelled stops an in-flight request and suppresses its answer."),
    Rule(
        "RPC-BATCH",
        _M,
        only("2025-03-26"),
        "A batch gets one array of answers, none for its notifications, nothing if none is due.",
    ),
    Rule("RPC-BATCH-INITIALIZE", _MN, only("2025-03-26"), "initialize is refused inside a batch."),
    Rule(
        "RPC-BATCH-UNSUPPORTED",
        _D,
        only("2024-11-05", "2025-06-18", "2025-11-25", "2026-07-28"),
        "Where batches do not exist, an array gets one -32600 with id null.",
    ),
    # Lifecycle: the initialize handshake.
    Rule("LIFE-VERSION-ACCEPT", _M, LEGACY, "A supported requested version is answered with that same version."),
    Rule(
        "LIFE-VERSION-UNSUPPORTED",
        _M,
        LEGACY,
        "An unsupported version is answered with a supported version or the -32602 version error.",
    ),
    Rule(
        "LIFE-VERSION-REJECT",
        _D,
        LEGACY,
        "By default an unsupported version gets -32602 with data {requested, supported}.",
    ),
    Rule(
        "LIFE-VERSION-COUNTER-OFFER",
        _D,
        LEGACY,
        "Optionally, an unsupported version is answered with the latest supported one.",
    ),
    Rule("LIFE-VERSION-KNOWN", _M, LEGACY, "The version in an initialize result is a published protocol version."),
    Rule(
        "LIFE-INIT-RESULT",
        _M,
        LEGACY,
        "The initialize result has protocolVersion, capabilities and serverInfo {name, version}.",
    ),
    Rule(
        "LIFE-PRE-INIT-REFUSED",
        _D,
        LEGACY,
        "Before notifications/initialized, requests other than ping and initialize get -32600.",
    ),
    Rule("LIFE-SECOND-INIT", _D, LEGACY, "A second initialize gets -32600 and changes nothing."),
    Rule("LIFE-PING", _M, LEGACY, "ping is answered with an empty result in every state."),
    Rule(
        "LIFE-INITIALIZED-EARLY",
        _D,
        LEGACY,
        "notifications/initialized before a successful initialize is ignored.",
    ),
    Rule(
        "LIFE-SERVER-EARLY",
        _S,
        LEGACY,
        "Before its initialize answer the server sends no request or notification but ping and log messages.",
    ),
    # The modern era (2026-07-28): stateless requests, each carrying its own metadata.
    Rule("MOD-META-REQUIRED", _M, MODERN, "A modern request without a string _meta protocolVersion and an object clientCapabilities gets -32602."),
    Rule("MOD-VERSION-UNSUPPORTED", _M, MODERN, "A request naming a version the server does not serve gets -32022 with data {supported, requested}."),
    Rule("MOD-RESULT-TYPE", _M, MODERN, "Every result to a modern request carries a resultType the protocol defines."),
    Rule("MOD-DISCOVER", _M, MODERN, "server/discover is answered with supportedVersions (naming the version requested), capabilities and resultType."),
    Rule("MOD-CAP-REQUIRED", _M, MODERN, "A request needing a client capability its _meta does not declare gets -32021 naming the capability."),
    Rule("MOD-STATELESS", _MN, MODERN, "A modern request is served from its own _meta: what an earlier request declared never changes its answer."),
    Rule("MOD-TOOLS-CACHE", _M, MODERN, "A modern tools/list result carries ttlMs (an integer, at least 0) and cacheScope (public or private)."),
    Rule("MOD-PING-GONE", _D, MODERN, "ping does not exist in the modern era: a modern ping gets -32601."),
    Rule("MOD-NO-SERVER-REQUESTS", _MN, MODERN, "A modern server writes no JSON-RPC request to stdout: it asks for input in results."),
    Rule("MOD-LOG-LEVEL", _MN, MODERN, "A modern server writes notifications/message only for a request whose _meta asks for a log level."),
    Rule("MOD-LISTEN-ONLY", _MN, MODERN, "A modern server writes list_changed and resources/updated only on a subscriptions/listen stream that asked for them."),
    Rule("MOD-SERVER-CANCEL", _MN, MODERN, "A modern server writes notifications/cancelled only to end a subscriptions/listen stream."),
    Rule("MOD-LEGACY-INIT", _S, MODERN, "A server that serves no legacy version answers initialize with an error naming the versions it serves."),
    Rule("MOD-DUAL-ERA", _D, ALL, "By default the reference serves both eras at once: initialize opens a legacy session, modern requests go on."),
    # Capabilities.
    Rule("CAP-ANNOUNCED-METHODS", _M, ALL, "A server announces only capabilities whose methods work."),
    Rule("CAP-UNANNOUNCED-METHOD", _D, ALL, "A method of a capability group not announced gets -32601."),
    Rule("CAP-LOGGING-DECLARED", _M, since("2025-06-18"), "A server that writes notifications/message declares the logging capability."),
    Rule("CAP-CLIENT-DECLARED", _M, LEGACY, "A server sends roots/list, sampling/createMessage or elicitation/create only if the client declared that capability."),
    Rule("CAP-LIST-CHANGED", _D, LEGACY, "A list_changed notification comes only from a capability announced with listChanged true."),
    Rule("CAP-RESOURCE-SUBSCRIBED", _D, LEGACY, "notifications/resources/updated names only a resource the client subscribed to."),
    Rule("RPC-CANCEL-OWN", _M, LEGACY, "A server's notifications/cancelled names a request the server itself sent."),
    # Progress.
    Rule("CAP-ELICIT-COMPLETE", _M, only("2025-11-25"), "A notifications/elicitation/complete names the elicitationId of a url-mode elicitation the server started with this client."),
    Rule("PROGRESS-TOKEN", _M, ALL, "A progress notification names the progressToken of a request not yet answered."),
    Rule("PROGRESS-INCREASING", _M, ALL, "The progress value of a token increases with each notification."),
    Rule("TASKS-TERMINAL", _MN, only("2025-11-25"), "A task notified in a terminal status is never notified in another one."),
    # Tools.
    Rule(
        "TOOLS-LIST-SHAPE",
        _M,
        ALL,
        "A tools/list result lists tools, each with a string name and an inputSchema of type object; other members are lawful.",
    ),
    Rule(
        "TOOLS-CALL-RESULT",
        _M,
        ALL,
        "A successful tools/call result is a content list; the demo tools answer with text.",
    ),
    Rule(
        "TOOLS-EXEC-ERROR",
        _S,
        ALL,
        "A tool that ran and failed gives a result with isError true, not a protocol error.",
    ),
    Rule("TOOLS-UNKNOWN", _D, ALL, "A call to an unknown tool gets -32602."),
    Rule(
        "TOOLS-ARGS-INVALID",
        _S,
        ALL,
        "Arguments failing inputSchema get -32602 up to 2025-06-18 and an isError result from 2025-11-25.",
    ),
    # Resources, prompts, completion, and what a server writes unasked: the members each version's schema requires.
    Rule("RESOURCES-SHAPE", _M, ALL, "resources/list, resources/templates/list and resources/read results hold the members the schema requires."),
    Rule("PROMPTS-SHAPE", _M, ALL, "prompts/list and prompts/get results hold the members the schema requires, messages with a role and a content block."),
    Rule("COMPLETION-SHAPE", _M, ALL, "A completion/complete result holds completion.values, an array of strings."),
    Rule("TASKS-SHAPE", _M, only("2025-11-25"), "tasks/list, tasks/get and tasks/cancel results hold the members the schema requires of each task."),
    Rule("SERVER-MESSAGE-SHAPE", _M, ALL, "A notification or request a server writes holds the params its method's schema requires."),
)

# What a client writes to the server it started, and what it does with what that server writes
# (``mcpref check-client``). A separate table: a server's verdict never lists a client's rules.
CLIENT_RULES: tuple[Rule, ...] = (
    Rule("CLIENT-INIT-FIRST", _M, LEGACY, "The client's first message is an initialize request."),
    Rule("CLIENT-INIT-ALONE", _S, LEGACY, "Until initialize is answered the client sends no request but ping."),
    Rule("CLIENT-INITIALIZED", _M, LEGACY, "After an accepted initialize the client sends notifications/initialized, never before the answer."),
    Rule("CLIENT-VERSION-UNSUPPORTED", _S, LEGACY, "A client answered with a version it did not offer and does not know disconnects."),
    Rule("CLIENT-STDIN-MESSAGES-ONLY", _M, ALL, "The client writes only JSON-RPC messages to the server's stdin, one per line."),
    Rule("CLIENT-ID-TYPE", _M, ALL, "The client's request ids are strings or integers, never null."),
    Rule("CLIENT-ID-UNIQUE", _MN, LEGACY, "The client never reuses one of its request ids within the session."),
    Rule("CLIENT-PING", _M, LEGACY, "The client answers the server's ping with an empty result carrying its id."),
    Rule("CLIENT-ANSWERS-REQUESTS", _M, LEGACY, "Each request of the server gets exactly one response, carrying its id."),
    Rule("CLIENT-UNDECLARED-REFUSED", _S, LEGACY, "A request for a client capability not declared gets an error, not a result."),
    Rule("CLIENT-NOTIFICATION-SILENT", _MN, ALL, "The client never answers a notification of the server."),
    Rule("CLIENT-CAP-ANNOUNCED", _M, LEGACY, "The client calls no method of a server capability the server did not announce."),
    Rule("CLIENT-READ-CHUNKS", _M, ALL, "What the client does does not depend on how the server's output is cut into reads."),
    Rule("CLIENT-READ-LF-ONLY", _M, ALL, "Only LF ends a line of the server's output: raw U+2028, U+2029 or a bare CR splits nothing."),
    Rule("CLIENT-READ-CRLF", _D, ALL, "A server line ending in CRLF is read as one ending in LF."),
    Rule("CLIENT-READ-LONG-LINE", _D, ALL, "An answer on a line of 4 MiB is read as a short one is."),
    Rule("CLIENT-IGNORES-UNKNOWN", _D, ALL, "An unknown notification or result field from the server changes nothing."),
    Rule("CLIENT-ANSWER-BY-ID", _S, ALL, "Answers are matched to requests by id: one out of order, or to a request no longer awaited, changes nothing."),
    Rule("CLIENT-RESULT-SHOWN", _D, ALL, "A client that shows a tool's result shows the text the server returned, unaltered."),
    Rule("CLIENT-SERVER-GONE", _D, ALL, "A client whose server exits before answering ends within 10 s."),
    Rule("CLIENT-SHUTDOWN", _S, LEGACY, "The client ends the connection by closing the server's stdin before any signal."),
    Rule("CLIENT-TIMEOUT", _S, ALL, "A client whose request gets no answer stops waiting within its run's time limit."),
    Rule("CLIENT-CANCEL", _S, ALL, "A client that gives up on a request cancels it; a cancellation names a request of its own, never initialize."),
    Rule("CLIENT-MOD-META", _M, MODERN, "Every request to a modern server carries _meta with the protocol version and the client's capabilities."),
    Rule("CLIENT-MOD-STAYS-MODERN", _D, MODERN, "A client that learnt its server speaks 2026-07-28 sends no initialize."),
    Rule("CLIENT-MOD-VERSION-RETRY", _S, MODERN, "After -32022 the client names a listed version, or sends nothing more."),
    Rule("CLIENT-MOD-INPUT-RETRY", _M, MODERN, "A retry after input_required has a new id, the inputs asked for, and requestState as sent."),
    Rule("CLIENT-MOD-FALLBACK", _S, ALL, "A dual-era client falls back to initialize on any error to server/discover that is not a modern one."),
)

EVERY_RULE: tuple[Rule, ...] = (*RULES, *CLIENT_RULES)  # SPEC_NOTES.md's entries, in its order
BY_ID: dict[str, Rule] = {rule.id: rule for rule in EVERY_RULE}
