"""Lawful: an array, where batches are not part of the version, gets no answer at all.

Rule: RPC-BATCH-UNSUPPORTED (reference decision). The reference answers such an array with
one -32600 and id null; this server drops it silently (under 2025-03-26 it processes
batches as the reference does, RPC-BATCH).
Permitted: SPEC_NOTES RPC-BATCH-UNSUPPORTED, Alternatives ("a peer may process batches in
every version, or stay silent"); MCP 2025-06-18 changelog (batching removed) and
Transports, stdio (only JSON-RPC messages of the version are exchanged).
Expected under ``spec``: an RPC-BATCH-UNSUPPORTED warning at most, no failure.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # examples/, for the shared _harness

from _harness import Handle, run

from mcpref.reference.dispatcher import ServerSession
from mcpref.reference.messages import parse_line
from mcpref.reference.session_types import Effect, Log

session = ServerSession()


def on_line(line: bytes, handle: Handle) -> list[Effect]:
    if isinstance(parse_line(line), list) and (session.version is None or not session.version.batches):
        return [Log("ignored an array: no batches in this version")]
    return handle(line)


if __name__ == "__main__":
    raise SystemExit(run(on_line=on_line, session=session))
