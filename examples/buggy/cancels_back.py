"""Bug: a cancellation from the client is written back to it, as if the server cancelled the request.

The reference stops a cancelled request and writes nothing for it. Here every
``notifications/cancelled`` the client sends is also echoed to stdout: a cancellation of a request
the server never sent (the client's own), then handled as the reference handles it.
Imitates: servers that relay cancellations to every side of a session.
Caught as: RPC-CANCEL-OWN, profile ``spec``; in the modern era, where a server cancels nothing but
a ``subscriptions/listen`` stream, MOD-SERVER-CANCEL.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # examples/, for the shared _harness

from _harness import Handle, message_of, notification, run

from mcpref.reference.messages import Notification
from mcpref.reference.session_types import Effect


def on_line(line: bytes, handle: Handle) -> list[Effect]:
    message = message_of(line)
    if not isinstance(message, Notification) or message.method != "notifications/cancelled":
        return handle(line)
    return [notification(message.method, dict(message.params or {})), *handle(line)]


if __name__ == "__main__":
    raise SystemExit(run(on_line=on_line))
