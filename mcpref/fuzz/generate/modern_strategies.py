"""Hypothesis strategies for modern (2026-07-28) sessions: requests that each carry their own ``_meta``.

A modern session has no handshake. It may start with ``server/discover`` (a client may
ask first), with the legacy handshake (a dual-era client that fell back), or with nothing.
Its requests are written by the modern dialect (``reference.eras``), then, in a share of
them, their envelope is broken: ``_meta`` missing or not an object, the version missing,
of the wrong type, unknown or a legacy one, the capabilities missing or not an object,
or extra keys. Requests that ask for input (``demander``) come with and without the
``elicitation`` capability, and with an answer to a question asked earlier. Hostile lines
are the legacy ones, built on a modern request instead of a ``ping``.
"""

from __future__ import annotations

import functools
from collections.abc import Callable

from hypothesis import strategies as st

from mcpref.fuzz.generate.case import Case
from mcpref.fuzz.generate.cuts import cut
from mcpref.fuzz.generate.hostile import hostile_body
from mcpref.fuzz.generate.ids import valid_id
from mcpref.fuzz.generate.messages import INITIALIZED, JsonDict, encode, initialize, notification, request
from mcpref.fuzz.generate.strategies import FRESH_MAX_LINES, DrawnLine
from mcpref.reference.eras import INITIALIZE, META_CAPABILITIES, META_LOG_LEVEL, META_VERSION, MODERN, meta
from mcpref.reference.messages import JsonObject
from mcpref.reference.versions import V2025_11_25, V2026_07_28

OPENINGS = st.sampled_from(("none",) * 4 + ("discover", "legacy-fallback", "discover-then-initialize"))

_ENVELOPES: tuple[Callable[[], object], ...] = (  # whole envelopes first, so that shrinking prefers them
    lambda: meta("2026-07-28"),
    lambda: meta("2026-07-28", {"elicitation": {}}),
    lambda: None,  # no _meta at all
    lambda: "2026-07-28",  # _meta not an object
    lambda: {META_CAPABILITIES: {}},  # no version
    lambda: meta(20260728),
    lambda: meta("1999-01-01"),
    lambda: meta("2025-11-25"),
    lambda: meta(""),
    lambda: {META_VERSION: "2026-07-28"},  # no capabilities
    lambda: meta("2026-07-28", []),
    lambda: {**meta("2026-07-28"), "com.example/trace": {"x": 1}},
)
ENVELOPES = st.sampled_from(_ENVELOPES)
WHOLE_SHARE = 6  # in tenths: requests whose envelope is whole

_ASK: JsonObject = {"name": "demander", "arguments": {"question": "Pain ou croissant ?"}}
_CALLS: list[JsonObject] = [
    {"name": "lire_prix", "arguments": {"produit": "croissant"}},
    {"name": "echo", "arguments": {"text": "héllo\u2028wörld"}},
    {"name": "fail", "arguments": {}},
    {"name": "attendre", "arguments": {"ms": 20}},
    _ASK,
    {**_ASK, "inputResponses": {"answer": {"action": "accept", "content": {"answer": "croissant"}}}},
    {**_ASK, "inputResponses": {"answer": {"action": "decline"}}},
    {"name": "lire_prix", "arguments": {"produit": 5}},
    {"name": "tout_effacer", "arguments": {}},
    {"name": 5},
]
CALLS = st.sampled_from(_CALLS)
METHODS = st.sampled_from(
    ("server/discover", "tools/list", "tools/call", "ping", "bogus/x", "resources/list", "initialize")
)
KINDS = st.sampled_from(("request",) * 6 + ("notification", "response", "hostile", "hostile"))


def _params(draw: st.DrawFn, method: str) -> JsonObject:
    if method == "tools/call":
        return dict(draw(CALLS, label="call"))
    return {}


def modern_request(draw: st.DrawFn, index: int) -> JsonDict:
    """A modern request, its envelope whole or broken."""
    method = draw(METHODS, label="method")
    request_id = valid_id(draw, index)
    if method == INITIALIZE:
        return initialize(request_id, draw(st.sampled_from(("2025-11-25", "2026-07-28")), label="version"))
    params = _params(draw, method)
    if draw(st.integers(0, 9), label="envelope") < WHOLE_SHARE:
        whole: JsonDict = {**meta(V2026_07_28.name)}
        if params.get("name") == "echo":  # echo calls ask for log messages (MOD-LOG-LEVEL)
            whole[META_LOG_LEVEL] = "debug"
        if method == "tools/call":  # and every call for progress, by its own id (PROGRESS-TOKEN)
            whole["progressToken"] = request_id
        return request(request_id, method, {**params, "_meta": whole})
    envelope = draw(ENVELOPES, label="broken envelope")()
    broken: JsonDict = {**params} if envelope is None else {**params, "_meta": envelope}
    return request(request_id, method, broken)


def opening(draw: st.DrawFn) -> list[JsonDict]:
    shape = draw(OPENINGS, label="opening")
    discover: JsonDict = {**MODERN.probe("discover-0", V2026_07_28)}
    legacy = [initialize("init-1", V2025_11_25.name), INITIALIZED]
    if shape == "discover":
        return [discover]
    if shape == "legacy-fallback":
        return legacy
    if shape == "discover-then-initialize":
        return [discover, *legacy]
    return []


def _discover(request_id: object) -> JsonDict:
    assert isinstance(request_id, int | str)  # valid_id makes only these
    probe: JsonDict = {**MODERN.probe(request_id, V2026_07_28)}
    return probe


@functools.cache
@st.composite
def modern_line(draw: st.DrawFn, index: int) -> DrawnLine:
    kind = draw(KINDS, label="line")
    if kind == "request":
        return DrawnLine(encode(modern_request(draw, index)))
    if kind == "notification":
        return DrawnLine(encode(notification("notifications/cancelled", {"requestId": index - 1})))
    if kind == "response":
        return DrawnLine(encode({"jsonrpc": "2.0", "id": f"client-{index}", "result": {}}))
    return DrawnLine(hostile_body(draw, index, _discover))


@st.composite
def modern_cases(draw: st.DrawFn, max_lines: int = FRESH_MAX_LINES * 2) -> Case:
    """A modern session: an opening, then requests and hostile lines, cut into chunks anywhere.

    Every case runs in a fresh process: with no handshake to share, a kept process would
    carry what earlier cases sent, which is just what a stateless server must not use.
    """
    lines = [encode(message) for message in opening(draw)]
    count = draw(st.integers(0, max_lines), label="body lines")
    lines += [draw(modern_line(index)).data for index in range(count)]
    return cut(draw, lines, 0)
