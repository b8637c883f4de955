"""The public strategies, used as a user's own ``@given`` test would use them."""

from __future__ import annotations

from hypothesis import given

from mcpref.fuzz.public_strategies import Case, chunkings, hostile_lines, modern_sessions, request_ids, sessions
from mcpref.reference.framer import LineFramer
from mcpref.reference.messages import is_valid_id


def framed(chunks: tuple[bytes, ...] | list[bytes]) -> list[bytes]:
    framer = LineFramer()
    return [event for chunk in chunks for event in framer.receive_data(chunk) if isinstance(event, bytes)]


@given(sessions())
def test_a_session_is_lines_cut_into_chunks_that_frame_back_to_them(session: Case) -> None:
    assert b"".join(session.chunks) == b"".join(session.lines)
    assert framed(session.chunks) == [line[:-1] for line in session.lines]


@given(modern_sessions())
def test_a_modern_session_is_lines_too(session: Case) -> None:
    assert b"".join(session.chunks) == session.stream == b"".join(session.lines)  # perhaps empty: no opening


@given(hostile_lines())
def test_a_hostile_line_is_one_line(line: bytes) -> None:
    assert line.endswith(b"\n") and b"\n" not in line[:-1]


@given(request_ids())
def test_a_request_id_is_one_a_peer_must_echo(request_id: int | str) -> None:
    assert is_valid_id(request_id)


@given(chunkings(b'{"jsonrpc":"2.0","id":"\xc3\xa9","method":"ping"}\n'))
def test_chunkings_join_back_to_their_data(chunks: list[bytes]) -> None:
    assert b"".join(chunks) == b'{"jsonrpc":"2.0","id":"\xc3\xa9","method":"ping"}\n' and all(chunks)
    assert framed(chunks) == [b'{"jsonrpc":"2.0","id":"\xc3\xa9","method":"ping"}']
