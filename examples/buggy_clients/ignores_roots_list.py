"""Bug: the client declares ``roots`` (``--root``) but never answers the server's ``roots/list``.

The reference answers it with the roots it was given. Here the request is dropped: the scripted
server waits 10 s for the response before it answers anything else, so a client that gives up
sooner (``--timeout 3``) never gets the answer to its call, in any scenario. The read-path rules
then stay untested: no crafted answer was ever written to it.
Caught as: CLIENT-ANSWERS-REQUESTS, profile ``spec``.
"""

from __future__ import annotations

from _client_harness import HookedClient, message_in, run

from mcpref.reference.client import Event
from mcpref.reference.framer import FrameEvent


class IgnoresRootsList(HookedClient):
    def on_line(self, line: FrameEvent) -> list[Event]:
        message = message_in(line)
        if message is not None and message.get("method") == "roots/list" and "id" in message:
            return []
        return self.handle(line)


if __name__ == "__main__":
    raise SystemExit(run(IgnoresRootsList))
