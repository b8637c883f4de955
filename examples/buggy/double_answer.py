"""Bug: every ``tools/list`` request is answered twice (the same answer written two times).

Imitates: a handler that writes its answer itself and also returns it to a framework
that writes it again.
Caught as: RPC-ONE-ANSWER, profile ``spec``.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # examples/, for the shared _harness

from _harness import Handle, message_of, run

from mcpref.reference.messages import Request
from mcpref.reference.session_types import Effect


def on_line(line: bytes, handle: Handle) -> list[Effect]:
    effects = handle(line)
    message = message_of(line)
    if isinstance(message, Request) and message.method == "tools/list":
        return effects * 2  # tools/list is answered at once: its effects are one Send
    return effects


if __name__ == "__main__":
    raise SystemExit(run(on_line=on_line))
