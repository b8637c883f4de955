"""Lawful: a response sent by the client that matches no request of the server's gets -32600 with id null.

Rule: RPC-CLIENT-RESPONSE (reference decision). The reference drops every client response
silently (a line on stderr); this server, which sends no requests, tells the client that
the response answers nothing, without echoing its id (the error is no answer to a request).
Permitted: SPEC_NOTES RPC-CLIENT-RESPONSE, Alternatives ("any answer on stdout to a client
response diverges and the spec profile warns"); JSON-RPC 2.0 section 5 (responses answer
requests; nothing forbids a server from reporting an unexpected one).
Expected under ``spec``: an RPC-CLIENT-RESPONSE warning at most, no failure.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # examples/, for the shared _harness

from _harness import Handle, message_of, run

from mcpref.reference.messages import INVALID_REQUEST, ClientResponse, encode, error_answer
from mcpref.reference.session_types import Effect, Send


def on_line(line: bytes, handle: Handle) -> list[Effect]:
    if isinstance(message_of(line), ClientResponse):
        return [Send(encode(error_answer(None, INVALID_REQUEST, "Invalid request: no request of ours has this id")))]
    return handle(line)


if __name__ == "__main__":
    raise SystemExit(run(on_line=on_line))
