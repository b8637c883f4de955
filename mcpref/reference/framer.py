"""Cutting a byte stream into lines: the stdio framing of MCP.

Rules (SPEC_NOTES.md, Framing):
- A line ends at LF (0x0A) and nowhere else (FRAME-LF-ONLY). Splitting works on bytes,
  before any decoding: 0x0A never occurs inside a multi-byte UTF-8 sequence, so a
  character cut across two reads is rejoined intact (FRAME-CHUNK-INVARIANT).
- Each byte is searched once: a chunk is scanned when it arrives and the unfinished tail
  is kept as a list of pieces, joined only when its LF comes. A 16 MiB line fed in 4 KiB
  chunks costs one pass, not one per chunk.
- A line longer than ``max_line_bytes`` yields one ``LINE_TOO_LONG`` as soon as the limit
  is passed; its bytes are dropped up to the next LF and the stream goes on
  (FRAME-MAX-LINE). Memory held is at most the limit plus one chunk.
- At end of input an unterminated last line is still delivered (FRAME-EOF-PARTIAL).

Lines are handed out as ``bytes`` without the LF; what a line means is the business of
``messages``. Events come out in stream order, so any cutting of the same bytes gives
the same list of events.
"""

from __future__ import annotations

import enum

DEFAULT_MAX_LINE_BYTES = 32 * 1024 * 1024


class TooLong(enum.Enum):
    LINE_TOO_LONG = "line too long"


LINE_TOO_LONG = TooLong.LINE_TOO_LONG

FrameEvent = bytes | TooLong


class LineFramer:
    def __init__(self, max_line_bytes: int = DEFAULT_MAX_LINE_BYTES) -> None:
        if max_line_bytes < 1:
            raise ValueError("max_line_bytes must be at least 1")
        self.max_line_bytes = max_line_bytes
        self._pieces: list[bytes] = []  # the unfinished line, in arrival order
        self._pending = 0  # total size of _pieces
        self._discarding = False  # inside a line already reported too long
        self._ended = False

    @property
    def buffered(self) -> int:
        """Bytes held for the unfinished line (bounded by ``max_line_bytes``)."""
        return self._pending

    def receive_data(self, data: bytes) -> list[FrameEvent]:
        """Feed the next chunk; return the events it completes, in order."""
        if self._ended:
            raise RuntimeError("data received after end of input")
        if self._discarding:
            cut = data.find(b"\n")
            if cut < 0:
                return []
            self._discarding = False
            data = data[cut + 1 :]
        if data.find(b"\n") < 0:
            return self._keep(data)
        pieces = data.split(b"\n")
        first = pieces[0]
        if self._pieces:
            self._pieces.append(first)
            first = b"".join(self._pieces)
            self._pieces = []
            self._pending = 0
        limit = self.max_line_bytes
        events: list[FrameEvent] = [first if len(first) <= limit else LINE_TOO_LONG]
        middle = pieces[1:-1]
        if len(data) <= limit:
            # No piece of a chunk within the limit can exceed it: skip the per-line check.
            events.extend(middle)
        else:
            events.extend(piece if len(piece) <= limit else LINE_TOO_LONG for piece in middle)
        events.extend(self._keep(pieces[-1]))
        return events

    def receive_eof(self) -> list[FrameEvent]:
        """Signal end of input; return the unterminated last line, if any (FRAME-EOF-PARTIAL)."""
        self._ended = True
        if not self._pieces:
            return []
        line = b"".join(self._pieces)
        self._pieces = []
        self._pending = 0
        return [line]

    def _keep(self, tail: bytes) -> list[FrameEvent]:
        if not tail:
            return []
        self._pieces.append(tail)
        self._pending += len(tail)
        if self._pending <= self.max_line_bytes:
            return []
        # FRAME-MAX-LINE: report once, now, and drop the rest of this line as it comes.
        self._pieces = []
        self._pending = 0
        self._discarding = True
        return [LINE_TOO_LONG]
