"""Lawful: a request reusing the id of a request still in flight is served too, not refused.

Rule: RPC-DUPLICATE-ID (reference decision). The reference answers such a request -32600
with that id and lets the first one finish; this server serves both, each with its own
answer (the second computed on the spot: a second ``attendre`` waits in place).
Permitted: SPEC_NOTES RPC-DUPLICATE-ID, Alternatives ("a peer may serve both requests, or
refuse reuse for the whole session"); MCP 2025-11-25, Basic, Requests (the id MUST NOT be
reused by the client; no reaction of the server is prescribed).
Expected under ``spec``: an RPC-DUPLICATE-ID warning at most, no failure.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # examples/, for the shared _harness

from _harness import Handle, message_of, run, waited_out

from mcpref.reference.dispatcher import ServerSession
from mcpref.reference.messages import INVALID_REQUEST, Request, encode, error_answer
from mcpref.reference.session_types import Effect, Send

session = ServerSession()


def on_line(line: bytes, handle: Handle) -> list[Effect]:
    effects = handle(line)
    message = message_of(line)
    if not isinstance(message, Request):
        return effects
    duplicate = Send(encode(error_answer(message.id, INVALID_REQUEST, "id already in use by a request in flight")))
    if effects != [duplicate]:
        return effects
    twin = ServerSession()  # the same state, without the request in flight
    twin.handshake.phase, twin.version = session.handshake.phase, session.version
    return waited_out(twin, twin.receive_data(line + b"\n"))


if __name__ == "__main__":
    raise SystemExit(run(on_line=on_line, session=session))
