"""Bug: a message with a top-level member JSON-RPC does not define is dropped, unanswered.

``{"jsonrpc":"2.0","id":7,"method":"ping","extra":true}`` is still a request: neither JSON-RPC
2.0 nor the MCP schema closes the request object, so it is owed its one answer.
Imitates: readers that validate messages against a closed model and drop what fails it.
Caught as: RPC-ONE-ANSWER, profile ``spec``.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # examples/, for the shared _harness

from _harness import Handle, run

from mcpref.reference.session_types import Effect

DEFINED = frozenset({"jsonrpc", "id", "method", "params", "result", "error"})


def on_line(line: bytes, handle: Handle) -> list[Effect]:
    try:
        value = json.loads(line)
    except (ValueError, RecursionError):  # not JSON to this reader: the reference's answer
        return handle(line)
    if isinstance(value, dict) and not set(value) <= DEFINED:
        return []
    return handle(line)


if __name__ == "__main__":
    raise SystemExit(run(on_line=on_line))
