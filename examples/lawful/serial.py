"""Lawful: requests are processed one at a time and answered in the order they arrived.

Rule: RPC-CONCURRENT (reference decision). The reference runs ``attendre`` calls
concurrently and answers in completion order; this server waits each call out before it
reads the next line, so a slow call holds back the requests after it and a cancellation
arrives after the answer it names (and is then ignored).
Permitted: SPEC_NOTES RPC-CONCURRENT, Alternatives ("a peer may process requests one at a
time and answer in arrival order; the spec profile accepts any order"), and RPC-CANCEL's
("a peer may still send the answer"); JSON-RPC 2.0 section 6 and MCP 2025-11-25, Basic,
Requests (clients correlate answers by id; no order is required).
Expected under ``spec``: no failure.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # examples/, for the shared _harness

from _harness import Handle, run, waited_out

from mcpref.reference.dispatcher import ServerSession
from mcpref.reference.session_types import Effect

session = ServerSession()


def on_line(line: bytes, handle: Handle) -> list[Effect]:
    return waited_out(session, handle(line))


if __name__ == "__main__":
    raise SystemExit(run(on_line=on_line, session=session))
