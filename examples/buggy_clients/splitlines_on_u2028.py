"""Bug: each line of the server's output is decoded, then cut again with ``str.splitlines()``.

U+2028 and U+2029 (which JSON lets a string hold raw), U+0085, VT, FF, FS, GS, RS and a bare
CR inside a line split the message; the pieces do not parse and are dropped, and the client
waits for the answer until its ``--timeout``. The reference cuts the bytes at LF only.
Caught as: CLIENT-READ-LF-ONLY, profile ``spec``.
"""

from __future__ import annotations

from _client_harness import HookedClient, run

from mcpref.reference.framer import FrameEvent, LineFramer


class SplitLines(LineFramer):
    def receive_data(self, data: bytes) -> list[FrameEvent]:
        return [piece for line in super().receive_data(data) for piece in self.split(line)]

    def receive_eof(self) -> list[FrameEvent]:
        return [piece for line in super().receive_eof() for piece in self.split(line)]

    @staticmethod
    def split(line: FrameEvent) -> list[FrameEvent]:
        if not isinstance(line, bytes):
            return [line]
        try:
            return [piece.encode() for piece in line.decode("utf-8").splitlines()]
        except UnicodeDecodeError:
            return [line]


class SplitsOnU2028(HookedClient):
    def new_framer(self) -> LineFramer:
        return SplitLines()


if __name__ == "__main__":
    raise SystemExit(run(SplitsOnU2028))
