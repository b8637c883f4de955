"""mcpref's Hypothesis strategies, for ``@given`` tests of your own (a client, a framer, a server).

The same generators ``mcpref fuzz`` draws from, each a ``SearchStrategy`` that shrinks as
Hypothesis's own do::

    from hypothesis import given
    from mcpref.fuzz.public_strategies import chunkings, hostile_lines, request_ids, sessions

    @given(sessions())
    def test_my_framer_reads_every_session(session):
        assert my_framer_lines(session.chunks) == list(session.lines)

- ``sessions(version)``: a whole legacy stdio session, a ``Case``: ``lines`` (bytes, each ending
  in LF: a handshake ordering, then well-formed and hostile lines) and ``chunks``, the joined
  stream cut into writes at arbitrary points (inside multi-byte characters too);
- ``modern_sessions()``: the same for the stateless 2026-07-28 era;
- ``hostile_lines()``: one line, LF included, that tests a parser or a framer: not JSON, cut
  short, invalid UTF-8, NaN, deep nesting, a lone surrogate, a raw U+2028 or CR, a BOM, over a
  mebibyte, an odd id, a broken envelope, a duplicate or extra key, or free text;
- ``chunkings(data)``: ``data`` cut into a list of non-empty chunks that join back to it;
- ``request_ids()``: ids a peer must echo exactly: large and negative integers, numeric and
  non-ASCII strings, raw U+2028 inside a string.

Names not listed here (``mcpref.fuzz.generate``) may change from one version to the next.
"""

from __future__ import annotations

import itertools

from hypothesis import strategies as st

from mcpref.fuzz.generate.case import Case
from mcpref.fuzz.generate.hostile import HOSTILE, hostile_line
from mcpref.fuzz.generate.ids import valid_id
from mcpref.fuzz.generate.modern_strategies import modern_cases
from mcpref.fuzz.generate.strategies import cases

__all__ = ["Case", "chunkings", "hostile_lines", "modern_sessions", "request_ids", "sessions"]

_INDEXES = st.integers(0, 10_000)


def sessions(version: str | None = None) -> st.SearchStrategy[Case]:
    """A legacy session (``version``: negotiate only this one; by default any supported)."""
    return cases(version)


def modern_sessions() -> st.SearchStrategy[Case]:
    """A session of the stateless 2026-07-28 era."""
    return modern_cases()


@st.composite
def hostile_lines(draw: st.DrawFn) -> bytes:
    """One hostile line, LF included."""
    return hostile_line(draw, draw(_INDEXES), draw(HOSTILE))


@st.composite
def request_ids(draw: st.DrawFn) -> int | str:
    """A well-formed id in one of the shapes peers mishandle."""
    return valid_id(draw, draw(_INDEXES))


@st.composite
def chunkings(draw: st.DrawFn, data: bytes) -> list[bytes]:
    """``data`` cut into non-empty chunks at arbitrary points; shrinks toward one chunk."""
    points = draw(st.sets(st.integers(1, len(data) - 1), max_size=16)) if len(data) > 1 else set()
    bounds = [0, *sorted(points), len(data)]
    return [data[start:end] for start, end in itertools.pairwise(bounds) if end > start]
