"""Lawful: the server pings the client during each legacy tool listing, then cancels its own ping.

Rule: RPC-CANCEL-OWN (either side MAY cancel a request it sent). The reference sends no request;
this server, before the answer to each legacy ``tools/list`` it serves, writes a ``ping`` request
of its own and a ``notifications/cancelled`` naming that ping (the client may have answered it
already: what the server believed in progress is its own business).
Permitted: SPEC_NOTES RPC-CANCEL-OWN, LIFE-SERVER-EARLY; MCP 2025-11-25, Utilities, Ping ("either
party can initiate a ping") and Cancellation ("Either side can send a cancellation notification").
Expected under ``spec``: no failure, no warning.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # examples/, for the shared _harness

from _harness import Handle, legacy_request, notification, run, served_at_once

from mcpref.reference.session_types import Effect, Send


def on_line(line: bytes, handle: Handle) -> list[Effect]:
    found = legacy_request(line, "tools/list")
    effects = handle(line)
    if found is None or not served_at_once(effects):
        return effects
    own = f"own-{found[0].id}"
    ping = Send(json.dumps({"jsonrpc": "2.0", "id": own, "method": "ping"}).encode() + b"\n")
    return [ping, notification("notifications/cancelled", {"requestId": own, "reason": "no longer needed"}), *effects]


if __name__ == "__main__":
    raise SystemExit(run(on_line=on_line))
