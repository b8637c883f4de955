"""Bug: a client that declared elicitation is asked for input in url mode, which it never declared.

The reference never asks the client for anything. Here, in a session whose initialize declared
``elicitation``, every legacy ``tools/call`` that is served is preceded by an
``elicitation/create`` request in ``url`` mode. At 2025-11-25 an elicitation capability that
names no mode is form mode only: url mode needs ``elicitation.url``.
Imitates: servers that send the user to a web page (a sign-in, a payment) whenever the client
supports elicitation at all.
Caught as: CAP-CLIENT-DECLARED, profile ``spec``.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # examples/, for the shared _harness

from _harness import Handle, legacy_request, message_of, run, served_at_once

from mcpref.reference.messages import Request
from mcpref.reference.session_types import Effect, Send

declared: dict[str, Any] = {}  # the client capabilities of the last initialize


def on_line(line: bytes, handle: Handle) -> list[Effect]:
    message = message_of(line)
    if isinstance(message, Request) and message.method == "initialize":
        capabilities = (message.params or {}).get("capabilities")
        declared.clear()
        declared.update(capabilities if isinstance(capabilities, dict) else {})
    effects = handle(line)
    found = legacy_request(line, "tools/call")
    if found is None or "elicitation" not in declared or not served_at_once(effects):
        return effects
    ask = {
        "jsonrpc": "2.0",
        "id": f"ask-{found[0].id}",
        "method": "elicitation/create",
        "params": {"mode": "url", "message": "Sign in", "url": "https://example.com/sign-in", "elicitationId": "e-1"},
    }
    return [Send(json.dumps(ask).encode() + b"\n"), *effects]


if __name__ == "__main__":
    raise SystemExit(run(on_line=on_line))
