"""Lawful: requests sent before the handshake is complete are served, not refused.

Rule: LIFE-PRE-INIT-REFUSED (reference decision). The reference answers legacy requests
other than ``ping`` and ``initialize`` with -32600 "Not initialized" until
``notifications/initialized``; this server serves them, as the TypeScript SDK does: at the
version ``initialize`` negotiated, or at 2025-11-25 (its latest) before any.
Permitted: SPEC_NOTES LIFE-PRE-INIT-REFUSED, Alternatives ("the TypeScript SDK serves the
requests; the spec profile accepts any answer with a warning"); MCP 2025-11-25, Lifecycle,
Initialization (the client SHOULD NOT send them; no reaction of the server is given).
Expected under ``spec``: a LIFE-PRE-INIT-REFUSED warning at most, no failure.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # examples/, for the shared _harness

from _harness import Handle, message_of, run

from mcpref.reference.dispatcher import ServerSession
from mcpref.reference.handshake import Phase
from mcpref.reference.messages import INVALID_REQUEST, Request, encode, error_answer
from mcpref.reference.session_types import Effect, Send
from mcpref.reference.versions import LATEST

session = ServerSession()


def served_as_ready(line: bytes, handle: Handle) -> list[Effect]:
    """What the session answers once ready, at the negotiated version or the latest; its state is kept."""
    phase, version = session.handshake.phase, session.version
    session.handshake.phase, session.version = Phase.READY, version or LATEST
    try:
        return handle(line)
    finally:
        session.handshake.phase, session.version = phase, version


def on_line(line: bytes, handle: Handle) -> list[Effect]:
    effects = handle(line)
    message = message_of(line)
    if isinstance(message, Request) and effects == [
        Send(encode(error_answer(message.id, INVALID_REQUEST, "Not initialized")))
    ]:
        return served_as_ready(line, handle)
    return effects


if __name__ == "__main__":
    raise SystemExit(run(on_line=on_line, session=session))
