"""Bug: modern requests are refused until a legacy ``initialize`` has been accepted.

The reference serves a modern request whatever came before it on the connection. Here a request
of the modern era (``server/discover``, or one whose ``_meta`` names a version) is refused with
-32600 "Server not initialized" until an ``initialize`` has been served; from then on every
request is the reference's.
Imitates: servers that put the modern era behind the legacy session they already had.
Caught as: MOD-STATELESS, profile ``spec`` (``mcpref fuzz --protocol-version 2026-07-28``),
named as the gate: what the refused requests would break on their own is not filed.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # examples/, for the shared _harness

from _harness import Handle, enveloped_request, message_of, run, served_at_once

from mcpref.reference.eras import META_VERSION
from mcpref.reference.messages import Request
from mcpref.reference.session_types import Effect, Send

OPENED: list[bool] = []  # an initialize was served: the gate is open


def on_line(line: bytes, handle: Handle) -> list[Effect]:
    found = enveloped_request(line)
    if not OPENED and found is not None and (META_VERSION in found[1] or found[0].method == "server/discover"):
        refusal = {"jsonrpc": "2.0", "id": found[0].id, "error": {"code": -32600, "message": "Server not initialized"}}
        return [Send(json.dumps(refusal).encode() + b"\n")]
    effects = handle(line)
    message = message_of(line)
    if isinstance(message, Request) and message.method == "initialize" and served_at_once(effects):
        OPENED.append(True)
    return effects


if __name__ == "__main__":
    raise SystemExit(run(on_line=on_line))
