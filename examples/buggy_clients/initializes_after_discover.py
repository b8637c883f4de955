"""Bug: whatever ``server/discover`` draws, the client falls back to ``initialize``, a modern server's result too.

The reference stays modern once the server answered as a modern one. Run with
``--protocol-version 2026-07-28``.
Caught as: CLIENT-MOD-STAYS-MODERN, profile ``strict``.
"""

from __future__ import annotations

from _client_harness import HookedClient, run

from mcpref.reference.client import ClientInput, Event
from mcpref.reference.messages import JsonValue
from mcpref.reference.versions import LATEST


class InitializesAfterDiscover(HookedClient):
    def _discovered(self, result: JsonValue, error: JsonValue) -> list[Event]:
        self._move(ClientInput.FALLBACK)
        self._initialize(LATEST)
        return []


if __name__ == "__main__":
    raise SystemExit(run(InitializesAfterDiscover))
