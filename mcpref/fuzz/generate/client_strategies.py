"""Hypothesis strategies for the scripted server's behaviour: ``ServerScript`` values to fuzz a client with.

Each draw changes up to three things of the plain scenario, the same things the fixed scenarios
of ``check-client`` change one at a time: requests of the server (``ping``, an unknown method,
every capability the client did not declare) and unknown notifications before its answers;
every line cut in up to eight pieces (the first cut inside a UTF-8 character) or at drawn
offsets; CRLF line ends; raw U+2028 and U+2029 in a string; answers of 64 KiB (the default line
limit of many stream readers) or 4 MiB; no capabilities; an unsupported version; an error for the
tool call; answers held up to a second, or written newest first; a server that exits on
``initialize``, on the first request after it, halfway through an answer, or after any number of
bytes of its output; a modern (2026-07-28) server, of another version only; a legacy server that
refuses ``server/discover`` with another code than -32601; a modern server that answers the first
call with ``input_required``; a server that never answers the call; a raw CR between the tokens
of every line; an answer to the client's previous request written before the one it waits for.
Every change of how answers are written and ordered is drawn for a modern server as for a legacy
one. A failure shrinks to fewer changes, each toward the plain one.
"""

from __future__ import annotations

from hypothesis import strategies as st

from mcpref.fuzz.generate.client_scripts import (
    EXITS,
    FEATURES,
    OTHER_MODERN_VERSION,
    PADDING,
    SCRIPTS,
    SEPARATED_TEXT,
    UNSUPPORTED_VERSION,
    ServerScript,
    describe,
    era_of,
    scenario,
)
from mcpref.reference.versions import Era

MAX_CHANGES = 3
_CHANGE = st.sampled_from((False,) * 9 + (True,))
MAX_CUTS = 8
LINE_REACH = 400  # bytes: the plain answers' lines are shorter, but for the tool list's
OUTPUT_REACH = 1000  # bytes: past the plain session's whole output, so that some deaths come after it

# The values each field takes when it is changed, the smallest change first.
_CHANGED: dict[str, st.SearchStrategy[object]] = {
    "asks": st.lists(st.sampled_from(("ping", "mcpref/unknown")), min_size=1, max_size=2, unique=True).map(tuple),
    "asks_undeclared": st.just(True),
    "notices": st.just(True),
    "cuts": st.integers(2, MAX_CUTS),
    "cut_at": st.lists(st.integers(1, LINE_REACH), min_size=1, max_size=MAX_CUTS - 1, unique=True).map(sorted).map(tuple),
    "line_end": st.just("\r\n"),
    "text": st.just(SEPARATED_TEXT),
    "padding": st.sampled_from((64 * 1024, PADDING)),
    "announce": st.just(()),
    "version": st.just(UNSUPPORTED_VERSION),
    "fails": st.just(True),
    "delay": st.sampled_from((0.2, 1.0)),
    "reorder": st.just(True),
    "exits": st.sampled_from(EXITS[1:]),
    "dies_after": st.integers(0, OUTPUT_REACH),
    "discover_code": st.sampled_from((-32603, -32602, -32000)),
    "silent": st.just(True),
    "bare_cr": st.just(True),
    "late": st.just(True),
}
# A modern server, plain first: the versions it serves and input_required are a modern server's only.
_MODERN_SERVERS: st.SearchStrategy[dict[str, object]] = st.sampled_from(
    ({}, {"asks_input": True}, {"supported": (OTHER_MODERN_VERSION,)})
)
_WITH_MODERN = ("supported", "asks_input")
assert set(_CHANGED) | {"modern", *_WITH_MODERN} == set(FEATURES)
_MODERN_ONLY = ("modern", "discover_code")  # never changed for the legacy era


def server_scripts(era: Era | None = None) -> st.SearchStrategy[ServerScript]:
    """A scripted server's behaviour, of ``era`` or of either: half the draws a scenario of
    ``check-client``, so that a campaign plays each early on, whatever its seed; the others changed
    at random. Shrinks toward the plain tool call."""
    fixed = [script for script in SCRIPTS if era is None or era_of(script) is era]
    return st.one_of(_changed(era), st.sampled_from(fixed))


@st.composite
def _changed(draw: st.DrawFn, era: Era | None) -> ServerScript:
    # Each field is changed or not on its own, so that shrinking undoes each change on its own;
    # most bugs need a single change to show, so a change is rare (one in ten; lists would run to
    # their maximum). The same script is drawn again often: a campaign runs it once.
    allowed = [name for name in FEATURES if name not in _WITH_MODERN and (era is not Era.LEGACY or name not in _MODERN_ONLY)]
    changed = [name for name in allowed if draw(_CHANGE)][:MAX_CHANGES]
    if era is Era.MODERN and not {"modern", "discover_code"} & set(changed):
        changed.append("modern")  # a server of the era: a modern one, or a legacy one a client must fall back for
    fields: dict[str, object] = {}
    for name in sorted(changed, key=FEATURES.index):
        changes = {"modern": True, **draw(_MODERN_SERVERS)} if name == "modern" else {name: draw(_CHANGED[name])}
        fields.update(changes)
    script = scenario("", **fields)
    return scenario(describe(script), **fields)
