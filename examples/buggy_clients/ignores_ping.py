"""Bug: the server's ``ping`` gets no response; its other requests get theirs.

The reference answers a ``ping`` with an empty result at once, whatever the phase. Here the
scripted server waits 10 s for the missing response before it answers the tool call, so a
run of its scenario of server requests takes that long.
Caught as: CLIENT-PING, profile ``spec``.
"""

from __future__ import annotations

from _client_harness import HookedClient, message_in, run

from mcpref.reference.client import Event
from mcpref.reference.eras import PING
from mcpref.reference.framer import FrameEvent


class IgnoresPing(HookedClient):
    def on_line(self, line: FrameEvent) -> list[Event]:
        message = message_in(line)
        if message is not None and message.get("method") == PING and "id" in message:
            return []
        return self.handle(line)


if __name__ == "__main__":
    raise SystemExit(run(IgnoresPing))
