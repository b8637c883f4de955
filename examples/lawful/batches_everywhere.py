"""Lawful: JSON-RPC batches are processed under every protocol version, not only 2025-03-26.

Rule: RPC-BATCH-UNSUPPORTED (reference decision). The reference answers an array with one
-32600 and id null unless 2025-03-26 was negotiated; this server treats any array as a
batch, before the handshake and under every version, as the reference does under
2025-03-26 (one array of answers, ``initialize`` refused inside, ``[]`` refused whole).
Permitted: SPEC_NOTES RPC-BATCH-UNSUPPORTED, Alternatives ("a peer may process batches in
every version, or stay silent"); JSON-RPC 2.0 section 6 (batches are part of JSON-RPC,
which MCP builds on).
Expected under ``spec``: an RPC-BATCH-UNSUPPORTED warning at most, no failure.
"""

from __future__ import annotations

import dataclasses
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # examples/, for the shared _harness

from _harness import Handle, run

from mcpref.reference.dispatcher import ServerSession
from mcpref.reference.session_types import Effect
from mcpref.reference.versions import V2025_03_26

session = ServerSession()


def on_line(line: bytes, handle: Handle) -> list[Effect]:
    if not line.lstrip(b" \t\r").startswith(b"[") or (session.version is not None and session.version.batches):
        return handle(line)
    negotiated = session.version
    # The negotiated version with batches, or 2025-03-26's rules before any: only the batch test reads it
    # before the handshake, since the handshake gate refuses every member but ping and initialize.
    session.version = V2025_03_26 if negotiated is None else dataclasses.replace(negotiated, batches=True)
    try:
        return handle(line)
    finally:
        session.version = negotiated


if __name__ == "__main__":
    raise SystemExit(run(on_line=on_line, session=session))
