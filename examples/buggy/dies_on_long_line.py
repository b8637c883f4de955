"""Bug: a line, or an unfinished line held in the buffer, longer than 1 MiB makes the process exit.

It exits at once with status 1 and a message on stderr, answering nothing more (not even
the complete lines read in the same chunk). The reference accepts lines up to 32 MiB and
answers -32700 to longer ones, then goes on.
Imitates: readers with a fixed buffer cap that treat an overflow as fatal (the TypeScript
SDK's buffer cap, ``asyncio.StreamReader`` with its default ``limit``).
Caught as: STDIO-SURVIVE, profile ``spec``.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # examples/, for the shared _harness

from _harness import run

from mcpref.reference.framer import LINE_TOO_LONG, FrameEvent, LineFramer

CAP = 1024 * 1024


class CappedBuffer(LineFramer):
    def __init__(self) -> None:
        super().__init__(CAP)

    def receive_data(self, data: bytes) -> list[FrameEvent]:
        events = super().receive_data(data)
        if LINE_TOO_LONG in events:
            raise SystemExit(f"line longer than {CAP} bytes: buffer limit exceeded")
        return events


if __name__ == "__main__":
    raise SystemExit(run(framer=CappedBuffer()))
