"""Lawful: once a modern request was served, the connection keeps that era and refuses initialize.

Rule: MOD-DUAL-ERA (reference decision). The reference serves both eras on one connection; this
server, after serving a request carrying the modern ``_meta`` (or ``server/discover``), answers a
later ``initialize`` with an error of code 0, "duplicate initialize received", as an SDK that
takes the first modern request for the connection's opening does.
Permitted: SPEC_NOTES MOD-DUAL-ERA, Alternatives (a connection may keep the era its first
requests chose and refuse the other's); MCP 2026-07-28, Versioning, backward compatibility ("MAY
serve both eras concurrently": serving one per connection is allowed).
Expected under ``spec``: a MOD-DUAL-ERA note at most, no failure; no finding under the version negotiation rules.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # examples/, for the shared _harness

from _harness import Handle, enveloped_request, message_of, run

from mcpref.reference.eras import META_VERSION
from mcpref.reference.messages import Request, encode
from mcpref.reference.session_types import Effect, Send

served_modern = False


def on_line(line: bytes, handle: Handle) -> list[Effect]:
    global served_modern
    message = message_of(line)
    if served_modern and isinstance(message, Request) and message.method == "initialize":
        refused = {"jsonrpc": "2.0", "id": message.id, "error": {"code": 0, "message": 'duplicate "initialize" received'}}
        return [Send(encode(refused))]
    effects = handle(line)
    found = enveloped_request(line)
    if found is not None and (found[0].method == "server/discover" or META_VERSION in found[1]):
        served_modern |= any(isinstance(e, Send) and b'"result"' in e.data for e in effects)
    return effects


if __name__ == "__main__":
    raise SystemExit(run(on_line=on_line))
