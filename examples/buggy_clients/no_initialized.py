"""Bug: ``notifications/initialized`` is never sent; the tool call follows the handshake's answer.

The reference sends ``notifications/initialized`` as soon as ``initialize`` is answered with
a version it accepts, before any other request.
Caught as: CLIENT-INITIALIZED, profile ``spec``.
"""

from __future__ import annotations

from _client_harness import HookedClient, message_in, run

from mcpref.reference.eras import INITIALIZED


class NoInitialized(HookedClient):
    def rewrite(self, line: bytes) -> bytes:
        message = message_in(line)
        return b"" if message is not None and message.get("method") == INITIALIZED else line


if __name__ == "__main__":
    raise SystemExit(run(NoInitialized))
