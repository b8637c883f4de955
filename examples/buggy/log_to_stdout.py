"""Bug: a human log line such as ``handling tools/list`` goes to stdout, before the answer.

Only ``tools/list`` and ``tools/call`` requests are logged, so the handshake still works.
Imitates: a ``print()`` or ``console.log`` left in a handler of a stdio server.
Caught as: STDIO-STDOUT-MESSAGES-ONLY, profile ``spec``.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # examples/, for the shared _harness

from _harness import Handle, message_of, run

from mcpref.reference.messages import Request
from mcpref.reference.session_types import Effect, Send


def on_line(line: bytes, handle: Handle) -> list[Effect]:
    message = message_of(line)
    if isinstance(message, Request) and message.method in ("tools/list", "tools/call"):
        return [Send(f"handling {message.method}\n".encode()), *handle(line)]
    return handle(line)


if __name__ == "__main__":
    raise SystemExit(run(on_line=on_line))
