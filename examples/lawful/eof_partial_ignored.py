"""Lawful: bytes after the last LF when stdin ends are ignored, not read as a last line.

Rule: FRAME-EOF-PARTIAL (reference decision). The reference processes an unterminated final
line as if its LF had come; this server's framer drops it, since only a newline ends a
message.
Permitted: SPEC_NOTES FRAME-EOF-PARTIAL, Alternatives ("a peer may ignore an unterminated
final line, since the transport defines a message as newline-delimited"); MCP 2025-11-25,
Transports, stdio ("messages are delimited by newlines").
Expected under ``spec``: a FRAME-EOF-PARTIAL warning at most, no failure.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # examples/, for the shared _harness

from _harness import run

from mcpref.reference.framer import FrameEvent, LineFramer


class DropsTail(LineFramer):
    def receive_eof(self) -> list[FrameEvent]:
        super().receive_eof()
        return []


if __name__ == "__main__":
    raise SystemExit(run(framer=DropsTail()))
