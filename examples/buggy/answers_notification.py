"""Bug: a notification whose method the server does not know is answered -32601 with id null.

Imitates: a dispatcher that looks the method up first and sends "method not found"
without checking whether the message had an id.
Caught as: RPC-NOTIFICATION-SILENT, profile ``spec``.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # examples/, for the shared _harness

from _harness import Handle, message_of, run

from mcpref.reference.messages import METHOD_NOT_FOUND, Notification, encode, error_answer
from mcpref.reference.session_types import Effect, Send

KNOWN = ("notifications/initialized", "notifications/cancelled")


def on_line(line: bytes, handle: Handle) -> list[Effect]:
    message = message_of(line)
    effects = handle(line)
    if isinstance(message, Notification) and message.method not in KNOWN:
        effects.append(Send(encode(error_answer(None, METHOD_NOT_FOUND, f"Method not found: {message.method}"))))
    return effects


if __name__ == "__main__":
    raise SystemExit(run(on_line=on_line))
