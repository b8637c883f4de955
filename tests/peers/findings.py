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

# The modern era (2026-07-28): its section of docs/peers.md. Each column's era and what its cells show.
MODERN_COLUMNS: dict[str, tuple[str, str]] = {
    "reference": (
        "dual-era",
        "the expected answers: by default (`--eras both`) each request gets its era on its own, and both eras "
        "are served on one connection (MOD-DUAL-ERA).",
    ),
    "python-sdk": (
        "dual-era",
        "the first request decides the era of the whole connection: after a modern request, `initialize` gets "
        "-32022 and a request without `_meta` -32602; after a legacy one (`initialize`, or `server/discover` "
        "without `_meta`, which gets -32601), every enveloped request gets -32600.",
    ),
    "typescript-sdk": (
        "legacy only",
        "`n/a` on every MOD rule: it answers `server/discover` with -32601 and serves enveloped requests as "
        "legacy ones (results without `resultType`), so it never shows it speaks the era. What it is judged "
        "on is the legacy rules the corpus touches on the way.",
    ),
}

# Why a finding of the modern era's own rules matters; the legacy rules keep their IMPACT.
MODERN_IMPACT: dict[str, str] = {
    "MOD-META-REQUIRED": (
        "a request whose `_meta` lacks the version or the capabilities, or holds them with the wrong type, "
        "must be refused with -32602, so that a client with a broken envelope learns its request is malformed."
    ),
    "MOD-VERSION-UNSUPPORTED": (
        "a client that names a version the server does not serve must get -32022 with the versions it does, "
        "so that it can retry with one of them."
    ),
    "MOD-RESULT-TYPE": "a modern client reads `resultType` to tell a final result from a request for input.",
    "MOD-DISCOVER": "a dual-era client probes with `server/discover` to learn the server's era and versions.",
    "MOD-CAP-REQUIRED": (
        "a server that needs a capability the request did not declare must say so with -32021, not ask the "
        "client for something it cannot give."
    ),
    "MOD-STATELESS": (
        "a server that serves a request with what an earlier request declared works only as long as the "
        "requests come down one connection in that order."
    ),
    "MOD-TOOLS-CACHE": "a client decides how long to keep a tool list from `ttlMs` and `cacheScope`.",
    "MOD-PING-GONE": "`ping` is removed in 2026-07-28; a server that still answers it diverges from the reference.",
    "MOD-LEGACY-INIT": "a legacy client of a modern-only server can only show the user why it cannot connect.",
    "MOD-DUAL-ERA": "a client of one era on a connection opened in the other is refused instead of served.",
}

# How to read a modern-era finding: the SDK's cause, and whether the specification allows what it does.
# Keys as for NOTES; rendered as "Reading".
MODERN_NOTES: dict[tuple[str, str], str] = {
    ("python-sdk", "MOD-META-REQUIRED"): (
        "a reading the specification allows, not a divergence of the SDK. In the shrunk case a modern `ping` "
        "(-32601: removed) is followed by `bogus/x` whose `_meta` has both keys but "
        "`io.modelcontextprotocol/clientCapabilities` is `[]`; the SDK answers -32601 \"Method not found\" with "
        "the request's id, the reference -32602 (a later `initialize` refused with -32022 shows the connection "
        "is modern). The SDK checks before dispatch only that the two keys are present (a missing one gets "
        "-32602), and leaves their types to the params model of the method: `tools/list` with the same `_meta` "
        "gets -32602. So the request is malformed and names a method the server does not have, and the SDK "
        "reports the second. The MUST quoted in SPEC_NOTES.md speaks of a request *missing* a required field, "
        "and neither it nor JSON-RPC orders the two checks; the client gets an error with its id either way. "
        "The oracle counts it under MUST because the reference checks the envelope first."
    ),
    ("python-sdk", "RPC-PARSE-ERROR"): (
        "a divergence of the SDK, the same as in the legacy era: a line that is not JSON goes to an error "
        "callback and nothing is written, whatever the era of the connection."
    ),
    ("python-sdk", "RPC-INVALID-REQUEST"): (
        "a divergence of the SDK, the same as in the legacy era: a message that fails the SDK's JSON-RPC "
        "schema (here an id that is an object) is dropped before any era is looked at, without -32600."
    ),
    ("python-sdk", "RPC-ONE-ANSWER"): (
        "a divergence of the SDK, the legacy finding again: pydantic's JSON parser rejects the escape "
        "`\\ud800` (a lone surrogate, which JSON's grammar allows), here in the params of a modern "
        "`server/discover`, and the SDK drops the line without a word. Or a divergence in its ids: it reads "
        "a string id that Python's `int()` accepts as that number, for correlation, and `int()` skips Unicode "
        "white space, so a `tools/call` with id `\"\\u20282\"` (a raw U+2028 before the 2) is taken for "
        "request 2, and a `notifications/cancelled` for `requestId` 2 that follows cancels it: it is never "
        "answered. JSON-RPC ids `\"\\u20282\"` and 2 are distinct, so that cancellation names no request "
        "in flight."
    ),
    ("python-sdk", "TOOLS-UNKNOWN"): (
        "the SDK's legacy behaviour, and a SHOULD: the unlisted tool is `demander`, the reference's one tool "
        "that needs a client capability (`elicitation`, MOD-CAP-REQUIRED). The SDK server has no such tool and "
        "answers, as for any unknown tool, a result with `isError` true (and `resultType` \"complete\"). So "
        "MOD-CAP-REQUIRED is `untested` for it: it never asked for input, with or without the capability, and "
        "has no tool that asks."
    ),
    ("python-sdk", "FRAME-OUTPUT-ASCII"): (
        "a reference decision, as in the legacy era: the corpus's `echo` of `héllo` comes back with a raw "
        "`é`, which is legal JSON."
    ),
    ("typescript-sdk", "FRAME-OUTPUT-ASCII"): (
        "the same as for `python-sdk`: the `é` of `héllo` is written raw, which is legal JSON."
    ),
    ("typescript-sdk", "LIFE-PRE-INIT-REFUSED"): (
        "the legacy finding seen through the modern corpus, not a modern one: a legacy-only server reads each "
        "enveloped request as a legacy request on a session that never had its handshake, and serves it (or "
        "answers `server/discover` with -32601). A dual-era client never gets there: on that -32601 it falls "
        "back to `initialize` (SPEC_NOTES.md, MOD-DISCOVER)."
    ),
}

# What the Python SDK (mcp 2.3.0) answers differently from the reference in the modern corpus, allowed by
# the specification and passed by both profiles; shown while the strict matrix passes the rule.
MODERN_UNFLAGGED: dict[str, str] = {
    "MOD-VERSION-UNSUPPORTED": (
        "-32022 lists `supported` `[\"2026-07-28\"]` only, where the reference also lists the four legacy "
        "versions it serves through `initialize` on the same connection."
    ),
    "MOD-DISCOVER": (
        "the DiscoverResult names `[\"2026-07-28\"]` and announces `prompts` and `resources` besides `tools`, "
        "each with `listChanged` true (the same server's legacy `initialize` result says false)."
    ),
    "MOD-TOOLS-CACHE": (
        "`tools/list` and `server/discover` carry `ttlMs` 0 and `cacheScope` \"private\" (do not keep, do not "
        "share), the reference 3600000 and \"public\"."
    ),
    "MOD-DUAL-ERA": (
        "after a modern request, `initialize` gets -32022 and a legacy request -32602: one era per connection, "
        "an alternative SPEC_NOTES.md allows (an `initialize` refused with -32022 passes both profiles; a modern "
        "request refused with -32600 after `initialize` would warn under `spec` and fail under `strict`)."
    ),
}
