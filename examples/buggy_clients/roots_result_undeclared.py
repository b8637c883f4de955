"""Bug: ``roots/list`` gets a result (an empty list) though the client declared no ``roots``.

The reference declares ``roots`` only when given ``--root``, and answers a request for a
capability it did not declare with -32601.
Caught as: CLIENT-UNDECLARED-REFUSED, profile ``strict``.
"""

from __future__ import annotations

from _client_harness import HookedClient, message_in, run

from mcpref.reference.client import Event
from mcpref.reference.framer import FrameEvent


class RootsUndeclared(HookedClient):
    def on_line(self, line: FrameEvent) -> list[Event]:
        message = message_in(line)
        if message is None or message.get("method") != "roots/list" or "id" not in message:
            return self.handle(line)
        self.send({"jsonrpc": "2.0", "id": message["id"], "result": {"roots": []}})
        return []


if __name__ == "__main__":
    raise SystemExit(run(RootsUndeclared))
