"""Bug: every request has id null; an answer with id null is taken for the oldest request unanswered.

JSON-RPC 2.0 (section 4) allows null ids but discourages them, and MCP forbids them: a
request id is a string or an integer. The reference numbers its requests 1, 2, 3...
Caught as: CLIENT-ID-TYPE, profile ``spec``.
"""

from __future__ import annotations

from _client_harness import HookedClient, message_in, run

from mcpref.reference.client import Event
from mcpref.reference.framer import FrameEvent
from mcpref.reference.messages import JsonValue, encode


class NullIds(HookedClient):
    waiting: tuple[JsonValue, ...] = ()  # the real ids of the requests written with id null

    def rewrite(self, line: bytes) -> bytes:
        message = message_in(line)
        if message is None or "method" not in message or "id" not in message:
            return line
        self.waiting += (message["id"],)
        return encode({**message, "id": None})

    def on_line(self, line: FrameEvent) -> list[Event]:
        message = message_in(line)
        if (
            message is not None
            and "method" not in message
            and "id" in message
            and message["id"] is None
            and self.waiting
        ):
            line = encode({**message, "id": self.waiting[0]}).rstrip(b"\n")
            self.waiting = self.waiting[1:]
        return self.handle(line)


if __name__ == "__main__":
    raise SystemExit(run(NullIds))
