"""The fixed corpus of ``mcpref check``: the seeds' scripts and one scenario per edge.

Each scenario names the requirement IDs it exercises; ``check`` reports a rule as pass
when every scenario exercising it shows no divergence from it, warn or fail otherwise.
Scenarios are deterministic: the same bytes, cut the same way, every run.
"""

from __future__ import annotations

from dataclasses import dataclass

from mcpref.fuzz.generate.case import Case
from mcpref.fuzz.generate.messages import INITIALIZED, encode, initialize, notification, request
from mcpref.reference.versions import SUPPORTED_NAMES, Era


@dataclass(frozen=True)
class Scenario:
    name: str
    rules: tuple[str, ...]
    case: Case
    era: Era = Era.LEGACY  # the era of the probe, and of the corpus the scenario belongs to

    @property
    def eof(self) -> bool:
        """Whether the scenario ends by closing stdin instead of probing."""
        return self.case.eof


def lines(*messages: object) -> tuple[bytes, ...]:
    return tuple(m if isinstance(m, bytes) else encode(m) for m in messages)


def _ready(version: str = "2025-11-25") -> tuple[bytes, ...]:
    return lines(initialize(0, version), INITIALIZED)


# The handshakes the corpus opens with. A scenario without cuts of its own writes one of them
# as a chunk of its own, as a client that awaits the handshake does, so that ``check`` may
# run the rest in a process kept after it with the very same chunks (``fuzz.integrate.check_runs``).
KEPT_HEAD_OF = {name: b"".join(_ready(name)) for name in SUPPORTED_NAMES}
KEPT_HEADS = frozenset(KEPT_HEAD_OF.values())


def scenario(
    name: str,
    rules: tuple[str, ...],
    *lines: bytes,
    cuts: tuple[int, ...] = (),
    eof: bool = False,
    era: Era = Era.LEGACY,
) -> Scenario:
    settle = 0.15 if any(b'"attendre"' in line for line in lines) else 0.0
    head = b"".join(lines[:2])
    if not cuts and len(lines) > 2 and head in KEPT_HEADS:
        cuts = (len(head),)
    return Scenario(name, rules, Case(tuple(lines), cuts, settle, eof), era)


def call(request_id: object, name: object, arguments: object = None, progress: object = None) -> dict[str, object]:
    params: dict[str, object] = {"name": name}
    if arguments is not None:
        params["arguments"] = arguments
    if progress is not None:
        params["_meta"] = {"progressToken": progress}
    return request(request_id, "tools/call", params)


# Lesson "Comment un serveur MCP répond à initialize": seven messages, six answers.
SEED_HANDSHAKE: list[object] = [
    request(1, "tools/list"),
    initialize(2, "1999-01-01"),
    initialize(3, "2024-11-05"),
    request(4, "tools/list"),
    INITIALIZED,
    request(5, "tools/list"),
    request(6, "resources/list"),
]
# Lesson "MCP à la main : JSON-RPC sur stdio": the tool-calling client, six answers.
SEED_TOOLS: list[object] = [
    initialize(1, "2024-11-05"),
    INITIALIZED,
    request(2, "tools/list"),
    call(3, "lire_prix", {"produit": "croissant"}),
    call(4, "lire_prix", {"produit": "kiwi"}),
    call(5, "tout_effacer", {}),
    request(6, "resources/list"),
]
_PING = encode(request(3, "ping"))
# Requests every server has, many at once: a server that drops what it owes at EOF drops some of
# them in every run, not only when a race goes its way (seen in the field: 9 to 12 of 20).
_BURST = lines(*(request(i, "tools/list" if i % 2 else "ping") for i in range(1, 21)))
_SEED_FRAMING = (
    encode(call(1, "attendre", {"ms": 80})),
    encode(call(2, "attendre", {"ms": 10})),
    _PING[:12],
    _PING[12:]
    + b"pas du json\n"
    + encode({"jsonrpc": "2.0", "id": 5, "method": 5})
    + encode(notification("notifications/x")),
)


def _offsets(lines: tuple[bytes, ...]) -> tuple[int, ...]:
    total, cuts = 0, []
    for line in lines[:-1]:
        total += len(line)
        cuts.append(total)
    return tuple(cuts)


SCENARIOS: tuple[Scenario, ...] = (
    scenario(
        "handshake: versions, early requests, tools/list",
        (
            "LIFE-PRE-INIT-REFUSED",
            "LIFE-VERSION-REJECT",
            "LIFE-VERSION-UNSUPPORTED",
            "LIFE-VERSION-ACCEPT",
            "LIFE-INIT-RESULT",
            "CAP-UNANNOUNCED-METHOD",
            "TOOLS-LIST-SHAPE",
            "LIFE-SERVER-EARLY",
        ),
        *lines(*SEED_HANDSHAKE),
        # notifications/initialized a write of its own, as a client that awaits the initialize
        # answer sends it: what the server writes before receiving it can be seen.
        cuts=(len(b"".join(lines(*SEED_HANDSHAKE[:4]))),),
    ),
    scenario(
        "tool calls: served, failing, unknown",
        ("TOOLS-CALL-RESULT", "TOOLS-EXEC-ERROR", "TOOLS-UNKNOWN", "CAP-ANNOUNCED-METHODS", "CAP-CLIENT-DECLARED"),
        *lines(*SEED_TOOLS),
    ),
    scenario(
        "lines cut across reads, concurrent calls, bad lines",
        (
            "FRAME-CHUNK-INVARIANT",
            "RPC-CONCURRENT",
            "RPC-PARSE-ERROR",
            "RPC-INVALID-REQUEST",
            "RPC-NOTIFICATION-SILENT",
        ),
        *_ready("2025-06-18"),
        *_SEED_FRAMING,
        cuts=_offsets((*_ready("2025-06-18"), *_SEED_FRAMING)),
    ),
    scenario("ping before initialize", ("LIFE-PING",), *lines(request("p", "ping"))),
    scenario("second initialize", ("LIFE-SECOND-INIT",), *_ready(), *lines(initialize(9, "2024-11-05"))),
    # A request before the notification shows what the server does without it: only a change in the
    # answer shows that the notification opened the session (LIFE-INITIALIZED-EARLY).
    scenario(
        "initialized before initialize",
        ("LIFE-INITIALIZED-EARLY", "LIFE-PRE-INIT-REFUSED"),
        *lines(request(1, "tools/list"), INITIALIZED, request(2, "tools/list")),
    ),
    scenario(
        "malformed initialize params",
        ("RPC-INVALID-PARAMS",),
        *lines(request(1, "initialize", {"protocolVersion": 2025}), request(2, "initialize", {})),
    ),
    scenario(
        "not JSON", ("RPC-PARSE-ERROR", "RPC-ERROR-ID-NULL", "STDIO-SURVIVE", "CAP-LOGGING-DECLARED"), *_ready(), b"pas du json\n"
    ),
    scenario("NaN", ("RPC-JSON-EXTENSIONS", "RPC-PARSE-ERROR"), *_ready(), b'{"jsonrpc":"2.0","id":1,"method":"ping","params":{"x":NaN}}\n'),
    scenario(
        "deep nesting",
        ("RPC-JSON-LIMITS", "STDIO-SURVIVE"),
        *_ready(),
        b'{"jsonrpc":"2.0","id":1,"method":"ping","params":{"x":' + b"[" * 100_000 + b"]" * 100_000 + b"}}\n",
    ),
    scenario(
        "invalid UTF-8",
        ("FRAME-UTF8",),
        *_ready(),
        b'{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{"text":"\xff"}}}\n',
    ),
    scenario("byte order mark", ("FRAME-BOM",), *_ready(), b'\xef\xbb\xbf{"jsonrpc":"2.0","id":1,"method":"ping"}\n'),
    scenario("CRLF", ("FRAME-CRLF",), *_ready(), b'{"jsonrpc":"2.0","id":1,"method":"ping"}\r\n'),
    # No schema closes a request: a member JSON-RPC does not define leaves it a request, owed its answer.
    scenario("an extra member", ("RPC-ONE-ANSWER",), *_ready(), b'{"jsonrpc":"2.0","id":7,"method":"ping","extra":true}\n'),
    scenario("blank lines", ("FRAME-BLANK-LINE",), *_ready(), b"\n", b"  \t\r\n", *lines(request(1, "ping"))),
    scenario("raw CR between tokens", ("FRAME-LF-ONLY",), *_ready(), b'{"jsonrpc":"2.0",\r"id":1,"method":"ping"}\n'),
    scenario(
        "raw U+2028 and U+2029 in a string",
        ("FRAME-LF-ONLY", "FRAME-OUTPUT-ASCII"),
        *_ready(),
        *lines(call(1, "echo", {"text": "a\u2028b\u2029c\u0085d"})),
    ),
    scenario(
        "multi-byte characters cut across writes",
        ("FRAME-CHUNK-INVARIANT", "RPC-ID-ECHO"),
        *_ready(),
        *lines(request("é日本", "ping"), request("\u2028", "ping")),
        cuts=tuple(range(1, 400)),
    ),
    scenario(
        "two messages in one write",
        ("FRAME-CHUNK-INVARIANT",),
        *_ready(),
        *lines(request(1, "ping"), request(2, "ping"), request(3, "ping")),
    ),
    scenario(
        "ids kept exactly",
        ("RPC-ID-ECHO", "RPC-ID-TYPE"),
        *_ready(),
        *lines(
            request("7", "ping"),
            request(9007199254740993, "ping"),
            request(1, "ping"),
            request("1", "ping"),
            request(-5, "ping"),
        ),
    ),
    scenario(
        "invalid ids",
        ("RPC-ID-TYPE", "RPC-INVALID-REQUEST"),
        *_ready(),
        *lines(request(None, "ping"), request(True, "ping"), request(1.5, "ping"), request({}, "ping")),
    ),
    scenario(
        "invalid requests",
        ("RPC-INVALID-REQUEST", "RPC-PARAMS-OBJECT", "CAP-LOGGING-DECLARED"),
        *_ready(),
        *lines(
            {"jsonrpc": "2.0", "id": 5, "method": 5},
            {"jsonrpc": "1.0", "id": 6, "method": "ping"},
            {"jsonrpc": "2.0", "id": 7, "method": "ping", "params": [1]},
            {"jsonrpc": "2.0", "id": 8, "method": "ping", "params": "x"},
            {"jsonrpc": "2.0", "id": 10},
            42,
        ),
    ),
    scenario(
        "invalid object without id",
        ("RPC-INVALID-NO-ID",),
        *_ready(),
        *lines({"jsonrpc": "2.0", "method": 1, "params": "bar"}),
    ),
    scenario(
        "notifications are never answered",
        ("RPC-NOTIFICATION-SILENT",),
        *_ready(),
        *lines(
            notification("notifications/unknown"),
            notification("bogus", {"x": 1}),
            notification("notifications/cancelled", {"requestId": 99}),
        ),
    ),
    scenario(
        "unknown method", ("RPC-METHOD-NOT-FOUND",), *_ready(), *lines(request(1, "bogus/x"), request(2, "Tools/List"))
    ),
    scenario(
        "unannounced capabilities",
        ("CAP-UNANNOUNCED-METHOD", "CAP-ANNOUNCED-METHODS", "RESOURCES-SHAPE", "PROMPTS-SHAPE"),
        *_ready(),
        *lines(
            request(1, "resources/list"),
            request(2, "prompts/list"),
            request(3, "logging/setLevel", {"level": "info"}),
            request(4, "tools/list"),
        ),
    ),
    scenario(
        "client responses",
        ("RPC-CLIENT-RESPONSE",),
        *_ready(),
        *lines(
            {"jsonrpc": "2.0", "id": "c1", "result": {}},
            {"jsonrpc": "2.0", "id": "c2", "error": {"code": 1, "message": "x"}},
        ),
    ),
    scenario(
        "unsupported version string",
        ("LIFE-VERSION-KNOWN", "LIFE-VERSION-UNSUPPORTED"),
        *lines(initialize(1, "1999-01-01")),
    ),
    scenario(
        "each supported version", ("LIFE-VERSION-ACCEPT", "LIFE-VERSION-KNOWN"), *lines(initialize(1, "2025-03-26"))
    ),
    scenario(
        "tool arguments under 2025-06-18",
        ("TOOLS-ARGS-INVALID", "RPC-INVALID-PARAMS"),
        *_ready("2025-06-18"),
        *lines(request(1, "tools/list"), call(2, "lire_prix", {"produit": 5}), call(3, 5), call(4, "echo", "x")),
    ),
    scenario(
        "tool arguments under 2025-11-25",
        ("TOOLS-ARGS-INVALID", "TOOLS-CALL-RESULT", "TOOLS-EXEC-ERROR"),
        *_ready("2025-11-25"),
        # A valid call too: the one legacy call under a version with structured output.
        *lines(
            request(1, "tools/list"),
            call(2, "lire_prix", {"produit": 5}),
            call(3, "lire_prix", {}),
            call(4, "echo", {"text": "x"}),
        ),
    ),
    scenario(
        "tools listed per version", ("TOOLS-LIST-SHAPE",), *_ready("2025-03-26"), *lines(request(1, "tools/list"))
    ),
    scenario(
        "a slow call does not hold back a fast one",
        ("RPC-CONCURRENT",),
        *_ready(),
        *lines(call(1, "attendre", {"ms": 100}), request(2, "ping")),
    ),
    scenario(
        "cancellation",
        ("RPC-CANCEL", "RPC-CANCEL-OWN"),
        *_ready(),
        *lines(call(1, "attendre", {"ms": 100}), notification("notifications/cancelled", {"requestId": 1})),
    ),
    scenario(
        "batch under 2025-03-26",
        ("RPC-BATCH", "RPC-BATCH-INITIALIZE"),
        *_ready("2025-03-26"),
        *lines(
            [request(1, "ping"), notification("notifications/x"), 7],
            [notification("notifications/x")],
            [],
            [initialize(2, "2025-03-26")],
        ),
    ),
    scenario(
        "batch under 2025-06-18",
        ("RPC-BATCH-UNSUPPORTED",),
        *_ready("2025-06-18"),
        *lines([1, 2], [request(1, "ping")]),
    ),
    scenario(
        "line over 1 MiB",
        ("FRAME-MAX-LINE", "STDIO-SURVIVE", "STDIO-LATENCY"),
        *_ready(),
        *lines(call(1, "echo", {"text": "x" * 1_200_000})),
    ),
    # The burst first: a server that drops answers at EOF shows it on terminated lines, and the
    # last line's silence is then no evidence about its framing (the oracle says so).
    scenario(
        "unterminated last line at EOF",
        ("FRAME-EOF-PARTIAL", "STDIO-EOF-DRAIN"),
        *_ready(),
        *_BURST,
        b'{"jsonrpc":"2.0","id":21,"method":"ping"}',
        eof=True,
    ),
    scenario(
        "EOF with work in flight", ("STDIO-EOF-DRAIN",), *_ready(), *lines(call(1, "attendre", {"ms": 100})), eof=True
    ),
    scenario(
        "EOF after a burst of requests",
        ("STDIO-EOF-DRAIN",),
        *_ready(),
        *_BURST,
        eof=True,
    ),
    scenario(
        "duplicate keys", ("RPC-DUPLICATE-KEYS",), *_ready(), b'{"jsonrpc":"2.0","jsonrpc":"2.0","id":1,"method":"ping"}\n'
    ),
    # The client declares no capability, and asks for progress: what the server then writes on
    # its own is judged against both, and against what it announced.
    scenario(
        "what the server writes unasked",
        (
            "CAP-CLIENT-DECLARED",
            "CAP-LIST-CHANGED",
            "CAP-RESOURCE-SUBSCRIBED",
            "CAP-LOGGING-DECLARED",
            "PROGRESS-TOKEN",
            "PROGRESS-INCREASING",
            "RPC-CANCEL-OWN",
            "CAP-ELICIT-COMPLETE",
            "TASKS-TERMINAL",
            "SERVER-MESSAGE-SHAPE",
        ),
        *_ready(),
        *lines(
            request(1, "tools/list"),
            call(2, "attendre", {"ms": 50}, progress="p-2"),
            call(3, "echo", {"text": "x"}, progress=3),
            call(4, "lire_prix", {"produit": "croissant"}),
        ),
    ),
    # The client declares sampling and elicitation naming no mode: what the server asks of it is
    # judged against the modes 2025-11-25 names (sampling with tools, url-mode elicitation).
    scenario(
        "a client that declares sampling and elicitation",
        ("CAP-CLIENT-DECLARED",),
        *lines(initialize(0, "2025-11-25", {"sampling": {}, "elicitation": {}}), INITIALIZED),
        *lines(request(1, "tools/list"), call(2, "echo", {"text": "x"}), call(3, "lire_prix", {"produit": "kiwi"})),
    ),
    scenario(
        "answers are single JSON lines",
        ("FRAME-NO-EMBEDDED-NEWLINE", "STDIO-STDOUT-MESSAGES-ONLY", "RPC-RESPONSE-SHAPE", "RPC-ONE-ANSWER"),
        *_ready(),
        *lines(request(1, "tools/list"), call(2, "echo", {"text": "line\nbreak"})),
    ),
)
