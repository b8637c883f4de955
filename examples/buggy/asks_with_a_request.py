"""Bug: a modern tool call is preceded by an ``elicitation/create`` request on stdout.

The reference asks for input in an ``input_required`` result, as 2026-07-28 has it. Here every
modern ``tools/call`` first writes a legacy-style request to the client, then is served as the
reference serves it: in 2026-07-28 the server never sends a request, and a modern client on
stdio never answers one.
Imitates: servers ported from the legacy era that still ask the client with a request.
Caught as: MOD-NO-SERVER-REQUESTS, profile ``spec`` (``mcpref fuzz --protocol-version 2026-07-28``).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # examples/, for the shared _harness

from _harness import Handle, enveloped_request, run

from mcpref.reference.eras import META_VERSION
from mcpref.reference.session_types import Effect, Send


def on_line(line: bytes, handle: Handle) -> list[Effect]:
    found = enveloped_request(line)
    if found is None or found[0].method != "tools/call" or META_VERSION not in found[1]:
        return handle(line)
    ask = {
        "jsonrpc": "2.0",
        "id": f"ask-{found[0].id}",
        "method": "elicitation/create",
        "params": {"message": "Continue?", "requestedSchema": {"type": "object", "properties": {}}},
    }
    return [Send(json.dumps(ask).encode() + b"\n"), *handle(line)]


if __name__ == "__main__":
    raise SystemExit(run(on_line=on_line))
