"""Bug: of the complete lines in one chunk read from stdin, only the first is handled; the rest are dropped.

The unfinished tail of a chunk is kept correctly, so a client that writes one message
and waits for its answer never notices; two messages arriving in one read lose the second.
Imitates: a ``data`` handler that takes ``buffer.split("\\n")[0]`` instead of looping.
Caught as: FRAME-CHUNK-INVARIANT, profile ``spec``.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # examples/, for the shared _harness

from _harness import run

from mcpref.reference.framer import FrameEvent, LineFramer


class FirstLineOnly(LineFramer):
    def receive_data(self, data: bytes) -> list[FrameEvent]:
        return super().receive_data(data)[:1]


if __name__ == "__main__":
    raise SystemExit(run(framer=FirstLineOnly()))
