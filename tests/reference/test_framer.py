"""Tests for ``reference.framer``: cutting a byte stream into lines.

The central property is chunking invariance: however the bytes are cut into reads, the
framer produces the same events as when it is fed the whole stream at once. The model
below (``expected_events``) states what those events are, so the framer is checked
against it and not only against itself.
"""

from __future__ import annotations

import itertools
import json

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from mcpref.reference.framer import DEFAULT_MAX_LINE_BYTES, LINE_TOO_LONG, FrameEvent, LineFramer

# --- helpers -------------------------------------------------------------------------


def cut(data: bytes, positions: set[int]) -> list[bytes]:
    """``data`` cut at the given offsets (offsets outside ``1..len-1`` are ignored)."""
    bounds = [0, *sorted(p for p in positions if 0 < p < len(data)), len(data)]
    return [data[a:b] for a, b in itertools.pairwise(bounds)]


def feed(framer: LineFramer, chunks: list[bytes]) -> list[FrameEvent]:
    """Every event from feeding ``chunks`` then end of input; checks the memory bound on the way."""
    events: list[FrameEvent] = []
    for chunk in chunks:
        events.extend(framer.receive_data(chunk))
        assert framer.buffered <= framer.max_line_bytes
    events.extend(framer.receive_eof())
    assert framer.buffered == 0
    return events


def expected_events(stream: bytes, limit: int) -> list[FrameEvent]:
    """The model: split at LF only; a line over the limit is one LINE_TOO_LONG; a non-empty tail counts."""
    *lines, tail = stream.split(b"\n")
    if tail:
        lines.append(tail)
    return [line if len(line) <= limit else LINE_TOO_LONG for line in lines]


def one_byte_at_a_time(data: bytes) -> list[bytes]:
    return [data[i : i + 1] for i in range(len(data))]


# --- strategies ----------------------------------------------------------------------

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False) | st.text(),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(), children, max_size=4),
    max_leaves=20,
)

# Serialized without ASCII escaping, so multi-byte UTF-8 characters (and raw U+2028,
# U+2029, U+0085 in strings) end up in the stream and get cut by the chunking.
json_lines = json_values.map(lambda value: json.dumps(value, ensure_ascii=False).encode("utf-8"))

# Bytes that are not LF: raw CR, VT, FF, NEL and the encodings of U+2028/U+2029 included.
LINE_BREAK_LOOKALIKES = [b"\r", b"\x0b", b"\x0c", b"\x85", "\u0085".encode(), "\u2028".encode(), "\u2029".encode()]
raw_lines = st.lists(
    st.sampled_from(LINE_BREAK_LOOKALIKES) | st.binary(max_size=8).map(lambda b: b.replace(b"\n", b"")),
    max_size=6,
).map(b"".join)

streams = st.tuples(
    st.lists(json_lines | raw_lines, max_size=8),
    st.binary(max_size=6).map(lambda b: b.replace(b"\n", b"")),
).map(lambda parts: b"".join(line + b"\n" for line in parts[0]) + parts[1])


@st.composite
def stream_and_cuts(draw: st.DrawFn, stream_strategy: st.SearchStrategy[bytes] = streams) -> tuple[bytes, list[bytes]]:
    stream = draw(stream_strategy, label="stream")
    positions = draw(st.sets(st.integers(min_value=1, max_value=max(len(stream) - 1, 1))), label="cuts")
    return stream, cut(stream, positions)


# --- the seeds' buffer table ---------------------------------------------------------


@pytest.mark.spec("FRAME-LF-ONLY", "FRAME-CHUNK-INVARIANT")
def test_seed_buffer_table_messages_ready_after_each_chunk() -> None:
    framer = LineFramer()
    table = [
        (b'{"id":1}\n{"id', b'{"id', [b'{"id":1}']),
        (b'":2}\n', b"", [b'{"id":2}']),
        (b'{"i', b'{"i', []),
    ]
    for chunk, buffer_after, ready in table:
        assert framer.receive_data(chunk) == ready
        assert framer.buffered == len(buffer_after)
    assert framer.receive_eof() == [b'{"i']


# --- chunking invariance -------------------------------------------------------------


@pytest.mark.spec("FRAME-CHUNK-INVARIANT", "FRAME-LF-ONLY", "FRAME-EOF-PARTIAL")
@given(stream_and_cuts())
@example((b'{"a":"\xc3\xa9"}\n', [b'{"a":"\xc3', b'\xa9"}\n']))
def test_any_cutting_gives_the_events_of_the_whole_stream(case: tuple[bytes, list[bytes]]) -> None:
    stream, chunks = case
    whole = feed(LineFramer(), [stream])
    assert feed(LineFramer(), chunks) == whole
    assert whole == expected_events(stream, DEFAULT_MAX_LINE_BYTES)


@pytest.mark.spec("FRAME-CHUNK-INVARIANT")
@given(streams)
def test_one_byte_at_a_time_gives_the_events_of_the_whole_stream(stream: bytes) -> None:
    assert feed(LineFramer(), one_byte_at_a_time(stream)) == feed(LineFramer(), [stream])


@pytest.mark.spec("FRAME-CHUNK-INVARIANT", "FRAME-UTF8")
@pytest.mark.parametrize(
    "stream",
    [
        b"",
        b"\n",
        b"\n\n\n",
        '{"mot":"caf\u00e9","jp":"\u65e5\u672c","emoji":"\U0001f956"}\n'.encode(),
        b'{"id":1}\n{"id":2}\n{"i',
        b"no newline at all",
    ],
)
def test_whole_stream_and_one_byte_at_a_time_extremes(stream: bytes) -> None:
    expected = expected_events(stream, DEFAULT_MAX_LINE_BYTES)
    assert feed(LineFramer(), [stream]) == expected
    assert feed(LineFramer(), one_byte_at_a_time(stream)) == expected


@pytest.mark.spec("FRAME-CHUNK-INVARIANT", "FRAME-UTF8")
@given(st.lists(json_lines, min_size=1, max_size=6), st.data())
def test_multibyte_characters_cut_across_reads_are_rejoined_intact(lines: list[bytes], data: st.DataObject) -> None:
    stream = b"".join(line + b"\n" for line in lines)
    positions = data.draw(st.sets(st.integers(min_value=1, max_value=len(stream) - 1)), label="cuts")
    events = feed(LineFramer(), cut(stream, positions))
    assert events == lines
    for event in events:
        assert isinstance(event, bytes)
        json.loads(event.decode("utf-8"))  # every line decodes: no character was split


@pytest.mark.spec("FRAME-LF-ONLY")
@pytest.mark.parametrize(
    "separator",
    [*LINE_BREAK_LOOKALIKES, b"\x1c", b"\x1d", b"\x1e", b"\r\r"],
    ids=lambda b: repr(b),
)
def test_only_lf_ends_a_line(separator: bytes) -> None:
    line = b'{"a":1}' + separator + b'{"b":2}'
    assert feed(LineFramer(), [line + b"\n"]) == [line]
    assert feed(LineFramer(), one_byte_at_a_time(line + b"\n")) == [line]


@pytest.mark.spec("FRAME-CRLF", "FRAME-LF-ONLY")
def test_crlf_keeps_the_cr_in_the_line() -> None:
    # The CR is JSON whitespace for ``messages`` to skip; the framer does not touch it.
    assert feed(LineFramer(), [b'{"a":1}\r\n{"b":2}\r\n']) == [b'{"a":1}\r', b'{"b":2}\r']


@pytest.mark.spec("FRAME-BLANK-LINE")
def test_empty_lines_are_delivered_as_empty_lines() -> None:
    assert feed(LineFramer(), [b"\n\n"]) == [b"", b""]


# --- over-long lines -----------------------------------------------------------------

long_line_streams = st.tuples(
    st.integers(min_value=1, max_value=12),
    st.lists(st.binary(max_size=30).map(lambda b: b.replace(b"\n", b"")), max_size=6),
    st.binary(max_size=30).map(lambda b: b.replace(b"\n", b"")),
)


@pytest.mark.spec("FRAME-MAX-LINE", "FRAME-CHUNK-INVARIANT")
@given(long_line_streams, st.data())
def test_over_long_lines_give_one_line_too_long_wherever_the_cuts_fall(
    case: tuple[int, list[bytes], bytes], data: st.DataObject
) -> None:
    limit, lines, tail = case
    stream = b"".join(line + b"\n" for line in lines) + tail
    positions = data.draw(st.sets(st.integers(min_value=1, max_value=max(len(stream) - 1, 1))), label="cuts")
    events = feed(LineFramer(limit), cut(stream, positions))  # feed() checks buffered <= limit
    assert events == expected_events(stream, limit)
    assert events == feed(LineFramer(limit), [stream])
    assert events == feed(LineFramer(limit), one_byte_at_a_time(stream))
    too_long = [line for line in [*lines, tail] if len(line) > limit]
    assert events.count(LINE_TOO_LONG) == len(too_long)


@pytest.mark.spec("FRAME-MAX-LINE")
def test_line_too_long_is_reported_as_soon_as_the_limit_is_passed() -> None:
    framer = LineFramer(4)
    assert framer.receive_data(b"abcd") == []
    assert framer.buffered == 4
    assert framer.receive_data(b"e") == [LINE_TOO_LONG]
    assert framer.buffered == 0
    assert framer.receive_data(b"fghij" * 10) == []  # still inside the long line: dropped
    assert framer.buffered == 0
    assert framer.receive_data(b"xyz\nok\nne") == [b"ok"]  # the stream goes on after the next LF
    assert framer.buffered == 2
    assert framer.receive_eof() == [b"ne"]


@pytest.mark.spec("FRAME-MAX-LINE")
def test_line_of_exactly_the_limit_is_accepted() -> None:
    assert feed(LineFramer(4), [b"abcd\n"]) == [b"abcd"]
    assert feed(LineFramer(4), [b"ab", b"cd", b"\n"]) == [b"abcd"]
    assert feed(LineFramer(4), [b"abcd"]) == [b"abcd"]
    assert feed(LineFramer(4), [b"abcde\n"]) == [LINE_TOO_LONG]


@pytest.mark.spec("FRAME-MAX-LINE")
def test_several_over_long_lines_in_one_chunk() -> None:
    assert feed(LineFramer(2), [b"ok\ntoo long\nno\nlonger still\n"]) == [b"ok", LINE_TOO_LONG, b"no", LINE_TOO_LONG]


@pytest.mark.spec("FRAME-MAX-LINE", "FRAME-EOF-PARTIAL")
def test_over_long_unterminated_line_at_eof_is_reported_once() -> None:
    framer = LineFramer(3)
    assert framer.receive_data(b"ab\nlong") == [b"ab", LINE_TOO_LONG]
    assert framer.receive_data(b"er") == []
    assert framer.receive_eof() == []


# --- end of input --------------------------------------------------------------------


@pytest.mark.spec("FRAME-EOF-PARTIAL")
def test_eof_delivers_the_unterminated_last_line() -> None:
    framer = LineFramer()
    assert framer.receive_data(b'{"id":1}\n{"id":') == [b'{"id":1}']
    assert framer.receive_data(b"2}") == []
    assert framer.receive_eof() == [b'{"id":2}']


@pytest.mark.spec("FRAME-EOF-PARTIAL")
def test_eof_after_a_complete_line_delivers_nothing() -> None:
    framer = LineFramer()
    assert framer.receive_data(b'{"id":1}\n') == [b'{"id":1}']
    assert framer.receive_eof() == []


@pytest.mark.spec("FRAME-EOF-PARTIAL")
def test_data_after_eof_is_a_usage_error() -> None:
    framer = LineFramer()
    framer.receive_eof()
    with pytest.raises(RuntimeError):
        framer.receive_data(b"{}\n")


@pytest.mark.spec("FRAME-CHUNK-INVARIANT")
def test_empty_chunks_change_nothing() -> None:
    framer = LineFramer()
    assert framer.receive_data(b"") == []
    assert framer.receive_data(b"ab") == []
    assert framer.receive_data(b"") == []
    assert framer.buffered == 2
    assert framer.receive_data(b"\n") == [b"ab"]


@pytest.mark.spec("FRAME-MAX-LINE")
@pytest.mark.parametrize("limit", [0, -1])
def test_limit_below_one_is_refused(limit: int) -> None:
    with pytest.raises(ValueError):
        LineFramer(limit)


# --- one pass over the bytes ---------------------------------------------------------


class CountingBytes(bytes):
    """A chunk that counts how often the framer searches it for LF."""

    searches = 0

    def find(self, sub: bytes, /, *bounds: int) -> int:  # type: ignore[override]
        type(self).searches += 1
        return super().find(sub, *bounds)


@pytest.mark.spec("FRAME-MAX-LINE")
def test_a_16_mib_line_in_4_kib_chunks_is_searched_once_per_chunk() -> None:
    chunk_size, size = 4096, 16 * 1024 * 1024
    piece = b"x" * chunk_size
    chunks = size // chunk_size
    framer = LineFramer()
    CountingBytes.searches = 0
    for _ in range(chunks):
        assert framer.receive_data(CountingBytes(piece)) == []
    assert CountingBytes.searches == chunks  # each chunk searched once, not the whole buffer again
    assert len(framer._pieces) == chunks  # kept as pieces, not re-joined per chunk
    assert framer.buffered == size
    (line,) = framer.receive_data(CountingBytes(b"\n"))
    assert CountingBytes.searches == chunks + 1
    assert line == b"x" * size
    assert framer.buffered == 0
