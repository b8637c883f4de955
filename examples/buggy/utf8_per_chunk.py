"""Bug: each chunk read from stdin is decoded as UTF-8 on its own, then the text is split at "\\n".

A character whose bytes are cut across two reads becomes U+FFFD replacement characters,
so a request whose string id (or any string) is non-ASCII gets an answer that depends
on where the pipe cut the bytes. Only the bytes of a character cut at a chunk's edge
are replaced; other invalid bytes pass through, so that lines which are not UTF-8 still
get their -32700 and this server carries exactly one bug.
Imitates: Node servers doing ``buffer += chunk.toString()`` on each ``data`` event.
Caught as: FRAME-CHUNK-INVARIANT (or RPC-ID-ECHO), profile ``spec``.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # examples/, for the shared _harness

from _harness import run

from mcpref.reference.framer import FrameEvent, LineFramer

_ESCAPED = "".join(chr(code) for code in range(0xDC80, 0xDD00))  # surrogateescape's stand-ins for bad bytes


class PerChunkText(LineFramer):
    """Decode, split at LF, encode: done per chunk, since decoding never makes nor unmakes an LF."""

    def receive_data(self, data: bytes) -> list[FrameEvent]:
        text = data.decode("utf-8", errors="surrogateescape")
        core = text.strip(_ESCAPED)
        lead = len(text) - len(text.lstrip(_ESCAPED))
        mangled = "\ufffd" * lead + core + "\ufffd" * (len(text) - lead - len(core))
        return super().receive_data(mangled.encode("utf-8", errors="surrogateescape"))


if __name__ == "__main__":
    raise SystemExit(run(framer=PerChunkText()))
