"""Hypothesis strategies for the scripted server's behaviour: ``ServerScript`` values to fuzz a client with.

Each draw changes up to three things of the plain scenario, the same things the fixed scenarios
of ``check-client`` change one at a time: requests of the server (``ping``, an unknown method,
every capability the client did not declare) and unknown notifications before its answers;
every line cut in up to eight pieces (the first cut inside a UTF-8 character); CRLF line ends;
raw U+2028 and U+2029 in a string; answers of 64 KiB (the default line limit of many stream
readers) or 4 MiB; no capabilities; an unsupported version; an error for the tool call; answers
held up to a second; a server that exits on ``initialize``, on the first request after it, or
halfway through an answer; a modern (2026-07-28) server, of another version only; a legacy server
that refuses ``server/discover`` with another code than -32601; a modern server that answers the
first call with ``input_required``; a server that never answers the call. A failure shrinks to fewer changes, each toward the plain one.
"""

from __future__ import annotations

from hypothesis import strategies as st

from mcpref.fuzz.generate.client_scripts import (
    EXITS,
    FEATURES,
    OTHER_MODERN_VERSION,
    PADDING,
    SEPARATED_TEXT,
    UNSUPPORTED_VERSION,
    ServerScript,
    describe,
    scenario,
)

MAX_CHANGES = 3
_CHANGE = st.sampled_from((False,) * 9 + (True,))
MAX_CUTS = 8

# The values each field takes when it is changed, the smallest change first.
_CHANGED: dict[str, st.SearchStrategy[object]] = {
    "asks": st.lists(st.sampled_from(("ping", "mcpref/unknown")), min_size=1, max_size=2, unique=True).map(tuple),
    "asks_undeclared": st.just(True),
    "notices": st.just(True),
    "cuts": st.integers(2, MAX_CUTS),
    "line_end": st.just("\r\n"),
    "text": st.just(SEPARATED_TEXT),
    "padding": st.sampled_from((64 * 1024, PADDING)),
    "announce": st.just(()),
    "version": st.just(UNSUPPORTED_VERSION),
    "fails": st.just(True),
    "delay": st.sampled_from((0.2, 1.0)),
    "exits": st.sampled_from(EXITS[1:]),
    "modern": st.just(True),
    "supported": st.just((OTHER_MODERN_VERSION,)),
    "discover_code": st.sampled_from((-32603, -32602, -32000)),
    "asks_input": st.just(True),
    "silent": st.just(True),
}
assert set(_CHANGED) == set(FEATURES)


@st.composite
def server_scripts(draw: st.DrawFn) -> ServerScript:
    """A scripted server's behaviour; shrinks toward the plain tool call."""
    # Each field is changed or not on its own, so that shrinking undoes each change on its own;
    # most bugs need a single change to show, so a change is rare (one in ten; lists would run to
    # their maximum). The same script is drawn again often: a campaign runs it once.
    changed = [name for name in FEATURES if draw(_CHANGE)][:MAX_CHANGES]
    fields = {name: draw(_CHANGED[name]) for name in sorted(changed, key=FEATURES.index)}
    if "supported" in fields or "asks_input" in fields:
        fields["modern"] = True  # the versions a server serves, and input_required, are a modern server's
    script = scenario("", **fields)
    return scenario(describe(script), **fields)
