"""Lawful: the server sends a ``ping`` request of its own at start, before any ``initialize``.

Rule: LIFE-SERVER-EARLY (SHOULD). The reference writes nothing before its initialize answer;
this server pings the client first (id ``"lawful-ping"``) and drops the client's response
when it comes (RPC-CLIENT-RESPONSE), like any response that matches nothing it waits for.
Permitted: SPEC_NOTES LIFE-SERVER-EARLY ("The server SHOULD NOT send requests other than
pings and logging before receiving the initialized notification"); MCP 2025-11-25,
Lifecycle, Initialization, and Utilities, Ping ("either party can initiate a ping").
Expected under ``spec``: no failure, not even a LIFE-SERVER-EARLY warning.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # examples/, for the shared _harness

from _harness import run

PING = b'{"jsonrpc":"2.0","id":"lawful-ping","method":"ping"}\n'

if __name__ == "__main__":
    os.write(1, PING)
    raise SystemExit(run())
