"""Lawful: ``notifications/initialized`` received before any ``initialize`` opens the session.

Rule: LIFE-INITIALIZED-EARLY (reference decision). The reference ignores the early
notification and keeps refusing requests until a handshake; this server takes it as the
client's word that it is ready and serves requests from then on at its latest version,
2025-11-25, until an ``initialize`` negotiates another (a later ``initialize`` is still
accepted as a first one).
Permitted: SPEC_NOTES LIFE-INITIALIZED-EARLY, Alternatives ("a peer may treat the early
notification as completing the handshake; the spec profile warns"); MCP 2025-11-25,
Lifecycle, Initialization (the order is the client's duty; no reaction is prescribed).
Expected under ``spec``: a LIFE-INITIALIZED-EARLY warning at most, no failure.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # examples/, for the shared _harness

from _harness import Handle, message_of, run

from mcpref.reference.dispatcher import ServerSession
from mcpref.reference.handshake import Phase
from mcpref.reference.messages import INVALID_REQUEST, Notification, Request, encode, error_answer
from mcpref.reference.session_types import Effect, Send
from mcpref.reference.versions import LATEST

session = ServerSession()
ready_early = False


def on_line(line: bytes, handle: Handle) -> list[Effect]:
    global ready_early
    effects = handle(line)
    message = message_of(line)
    if isinstance(message, Notification) and message.method == "notifications/initialized":
        ready_early = ready_early or session.handshake.phase is Phase.NEW
    refused = isinstance(message, Request) and effects == [
        Send(encode(error_answer(message.id, INVALID_REQUEST, "Not initialized")))
    ]
    if not (refused and ready_early and session.handshake.phase is Phase.NEW):
        return effects
    session.handshake.phase, session.version = Phase.READY, LATEST
    try:
        return handle(line)
    finally:
        session.handshake.phase, session.version = Phase.NEW, None


if __name__ == "__main__":
    raise SystemExit(run(on_line=on_line, session=session))
