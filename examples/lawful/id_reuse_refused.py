"""Lawful: a request id used once in the session is refused for the rest of it, answered or not.

Rule: RPC-DUPLICATE-ID (reference decision). The reference lets an id be used again once its
request was answered; this server answers any request whose id (same type and value) was
seen before on the connection with -32600 and that id.
Permitted: SPEC_NOTES RPC-DUPLICATE-ID, Alternatives ("a peer may serve both requests, or
refuse reuse for the whole session"); MCP 2025-11-25, Basic, Requests ("The request ID MUST
NOT have been previously used by the requestor within the same session").
Expected under ``spec``: an RPC-DUPLICATE-ID warning at most, no failure.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # examples/, for the shared _harness

from _harness import Handle, message_of, run

from mcpref.reference.dispatcher import IdKey, id_key
from mcpref.reference.messages import INVALID_REQUEST, Request, encode, error_answer
from mcpref.reference.session_types import Effect, Send

seen: set[IdKey] = set()


def on_line(line: bytes, handle: Handle) -> list[Effect]:
    message = message_of(line)
    if not isinstance(message, Request):
        return handle(line)
    key = id_key(message.id)
    if key in seen:
        return [Send(encode(error_answer(message.id, INVALID_REQUEST, "id already used in this session")))]
    seen.add(key)
    return handle(line)


if __name__ == "__main__":
    raise SystemExit(run(on_line=on_line))
