"""The prose of docs/peers.md: why each kind of finding matters to a client, and notes on particular ones.

``IMPACT`` says, per requirement ID, what a client experiences when a server breaks the rule.
``NOTES`` adds what a reader of one finding should know: the cause seen in the SDK source, or
where the oracle's attribution is imprecise. Keys of ``NOTES`` are (column, ID) or (``"*"``, ID).
"""

from __future__ import annotations

IMPACT: dict[str, str] = {
    "FRAME-LF-ONLY": (
        "a request whose JSON holds a raw CR (legal whitespace between tokens) or a raw U+2028 is cut in "
        "two and dropped: the client waits for an answer that never comes, and nothing in the output says why."
    ),
    "FRAME-CHUNK-INVARIANT": (
        "what the server reads depends on how the pipe happened to cut the bytes, so a session that works "
        "in testing fails under load or on another platform."
    ),
    "FRAME-UTF8": (
        "from 2025-03-26 a line that is not UTF-8 must be refused with -32700; a server that replaces the bad "
        "bytes with U+FFFD and serves the request acts on text the client never sent (an argument, a path, "
        "a name silently changed)."
    ),
    "FRAME-EOF-PARTIAL": (
        "a client that writes its last request without a final LF and closes stdin (a shell pipeline, "
        "`printf ... | server`) gets no answer."
    ),
    "FRAME-OUTPUT-ASCII": (
        "raw U+2028, U+2029 or non-ASCII bytes in answers are legal JSON, but a client reading lines with "
        "`str.splitlines()` or a JavaScript line reader cuts the answer in two and cannot parse it."
    ),
    "FRAME-MAX-LINE": "a long request must be answered or refused, never met with silence or an exit.",
    "STDIO-SURVIVE": "one hostile or malformed line ends the whole session: every later request is lost.",
    "STDIO-EOF-DRAIN": (
        "a client that sends its requests and closes stdin (batch use, `printf ... | server`) loses the "
        "answers still in flight."
    ),
    "STDIO-STDOUT-MESSAGES-ONLY": "anything but a message on stdout breaks the client's parser.",
    "RPC-PARSE-ERROR": (
        "a client that sends a line that is not JSON (a bug, a truncated write, NaN from a careless "
        "serializer) gets no -32700 and cannot tell a rejected line from a slow server: it waits until its "
        "own timeout and has no error to report."
    ),
    "RPC-JSON-LIMITS": (
        "JSON beyond the reference's limits (deeper than 256 levels) is refused by the reference and "
        "served by this peer; both are conforming parsers, so a client must not rely on either."
    ),
    "RPC-INVALID-REQUEST": (
        "a malformed message that carries an id (a wrong `jsonrpc`, a non-string method, an invalid id) gets "
        "no -32600: the client's request with that id stays pending forever instead of failing at once."
    ),
    "RPC-INVALID-NO-ID": (
        "an invalid message without an id is silently dropped instead of drawing -32600 with id null, so "
        "the client never learns that what it sent was wrong."
    ),
    "RPC-ID-TYPE": "ids of other types must be refused, not served or dropped.",
    "RPC-ID-ECHO": "the client matches answers to requests by id; a changed id leaves its request pending.",
    "RPC-NOTIFICATION-SILENT": "an answer to a notification is an answer nothing asked for: it confuses the client.",
    "RPC-ONE-ANSWER": (
        "a request that is never answered hangs the client until its own timeout, and nothing tells it why; "
        "a server that cannot read a line may refuse it with an id-null error, but not ignore it."
    ),
    "RPC-INVALID-PARAMS": (
        "wrong params get -32603 (internal error) with a raw validation dump as the message instead of "
        "-32602: the client is told the server broke, not that its own request was wrong, and cannot "
        "correct it."
    ),
    "RPC-PARAMS-OBJECT": (
        "MCP params are objects; `params` given as an array or a string gets no answer, and the request "
        "with that id stays pending."
    ),
    "RPC-METHOD-NOT-FOUND": "the client cannot tell a missing method from other failures.",
    "RPC-BATCH": (
        "under 2025-03-26, the one version whose transport requires JSON-RPC batches, a client that sends a "
        "batch gets nothing back: every request in it hangs."
    ),
    "RPC-BATCH-UNSUPPORTED": (
        "where batches do not exist, an array is not a message; silence leaves the client waiting instead "
        "of telling it with one -32600."
    ),
    "RPC-CANCEL": "a cancelled request should stop; its answer, if any, is ignored by the client.",
    "LIFE-VERSION-ACCEPT": "a client that requests a supported version must get that version.",
    "LIFE-VERSION-UNSUPPORTED": "a client must get an answer it can act on for an unsupported version.",
    "LIFE-VERSION-REJECT": (
        "an unsupported version is answered with the latest supported one instead of the -32602 error the "
        "reference gives; both are allowed, and a client must handle both (see SPEC_NOTES.md)."
    ),
    "LIFE-VERSION-KNOWN": "a version that does not exist gives the client no rules to follow.",
    "LIFE-INIT-RESULT": "a client cannot start a session without the fields of the initialize result.",
    "LIFE-PRE-INIT-REFUSED": (
        "requests before the handshake completes are served (or refused with another code), so a client "
        "that skips or races the handshake does not learn it did."
    ),
    "LIFE-SECOND-INIT": (
        "a second `initialize` is answered as a new handshake and may change the version mid-session, under "
        "messages both sides already exchanged on the old terms."
    ),
    "LIFE-PING": "ping is how a client checks that the server is alive.",
    "LIFE-INITIALIZED-EARLY": "an early notifications/initialized must not open the session.",
    "CAP-ANNOUNCED-METHODS": "a client trusts the announced capabilities and calls their methods.",
    "CAP-UNANNOUNCED-METHOD": "methods of capabilities not announced should be refused with -32601.",
    "TOOLS-LIST-SHAPE": (
        "a Tool field that the negotiated version does not define (`title` before 2025-06-18) may be "
        "rejected by a strict client of that version."
    ),
    "TOOLS-CALL-RESULT": "a tool result without content gives the client nothing to show.",
    "TOOLS-EXEC-ERROR": "a failing tool should be a result with isError true, which the model can read.",
    "TOOLS-UNKNOWN": (
        "a call to a tool that does not exist comes back as a successful result with isError true rather "
        "than -32602, so a client sees a tool failure where there was a protocol mistake."
    ),
    "TOOLS-ARGS-INVALID": "invalid arguments should be reported in the form the negotiated version asks for.",
}

NOTES: dict[tuple[str, str], str] = {
    ("python-sdk", "FRAME-LF-ONLY"): (
        "the SDK reads stdin through a text wrapper with universal newlines, which ends a line at a bare CR "
        "(`mcp/server/stdio.py`)."
    ),
    ("*", "RPC-PARSE-ERROR"): (
        "both SDKs pass a line that fails to parse to an error callback and write nothing; neither ever writes "
        "-32700 on stdio."
    ),
    ("*", "RPC-INVALID-PARAMS"): (
        "the TypeScript SDK lets the zod validation error of `initialize` and `tools/call` params escape its "
        "handler, and its generic error path maps it to -32603."
    ),
    ("python-sdk", "RPC-ONE-ANSWER"): (
        "pydantic's JSON parser rejects the escape `\\ud800` (a lone surrogate, which JSON's grammar allows), and "
        "the SDK drops the line without a word."
    ),
    ("typescript-sdk", "RPC-ONE-ANSWER"): (
        "the SDK's id schema takes only safe integers, so the request with id 9007199254740993 fails validation "
        "and is dropped; its message schemas are also strict, so a request with one extra top-level member is "
        "dropped the same way."
    ),
    ("server-everything", "RPC-ONE-ANSWER"): (
        "the same SDK underneath: ids past 2^53 and requests with an extra top-level member (`\"extra\": true`) "
        "are dropped."
    ),
    ("typescript-sdk", "FRAME-LF-ONLY"): (
        "the name is imprecise: the corpus's CR and U+2028 scenarios pass "
        "(the SDK cuts lines at LF only). The shrunk case's last request carries an extra top-level member, "
        "which the SDK's strict message schema rejects, so the request is dropped; its id also holds a raw "
        "U+2028, and the oracle names a missing answer on such a line FRAME-LF-ONLY. The broken requirement "
        "is an answer per request (RPC-ONE-ANSWER)."
    ),
    ("server-everything", "FRAME-LF-ONLY"): (
        "the same case and cause as for `typescript-sdk` (the same SDK underneath): an extra top-level member "
        "makes the SDK drop the request."
    ),
    ("server-everything", "TOOLS-LIST-SHAPE"): (
        "server-everything lists `title` on its tools whatever version was negotiated, including 2024-11-05."
    ),
    ("server-everything", "FRAME-OUTPUT-ASCII"): (
        "its initialize result carries `instructions` with raw non-ASCII characters."
    ),
}
