"""Bug: before each legacy result, it asks the client for its roots, declared or not.

The reference never asks the client for anything. Here every legacy request (but initialize)
that is served at once first writes a ``roots/list`` request, whatever the client's
``initialize`` declared; everything else is the reference's.
Imitates: servers that look up the client's workspace roots on every request without checking
that the client declared the ``roots`` capability.
Caught as: CAP-CLIENT-DECLARED, profile ``spec`` (sessions at 2025-06-18 and later; a
warning at 2024-11-05 and 2025-03-26, where the rule is a SHOULD).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # examples/, for the shared _harness

from _harness import Handle, enveloped_request, run, served_at_once

from mcpref.reference.eras import META_VERSION
from mcpref.reference.session_types import Effect, Send


def on_line(line: bytes, handle: Handle) -> list[Effect]:
    found = enveloped_request(line)
    effects = handle(line)
    if found is None or META_VERSION in found[1] or not served_at_once(effects):
        return effects  # a modern request, refused, or answered later: asking then would be another bug
    ask = {"jsonrpc": "2.0", "id": f"roots-{found[0].id}", "method": "roots/list"}
    return [Send(json.dumps(ask).encode() + b"\n"), *effects]


if __name__ == "__main__":
    raise SystemExit(run(on_line=on_line))
