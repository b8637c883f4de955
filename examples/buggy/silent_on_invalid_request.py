"""Bug: valid JSON that is not a valid message gets no answer, instead of -32600.

For example ``{"jsonrpc":"2.0","id":5,"method":5}``, ``42``, or a wrong ``jsonrpc``.
Lines that are not JSON still get -32700; arrays (batches) are handled as the reference does.
Imitates: servers that validate messages with a schema and drop whatever fails it.
Caught as: RPC-INVALID-REQUEST, profile ``spec`` (and RPC-PARAMS-OBJECT, for params that are not an object).
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # examples/, for the shared _harness

from _harness import Handle, message_of, run

from mcpref.reference.messages import INVALID_REQUEST, Invalid
from mcpref.reference.session_types import Effect


def on_line(line: bytes, handle: Handle) -> list[Effect]:
    message = message_of(line)
    if isinstance(message, Invalid) and message.code == INVALID_REQUEST:
        return []
    return handle(line)


if __name__ == "__main__":
    raise SystemExit(run(on_line=on_line))
