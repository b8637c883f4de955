"""Bug: the client falls back to ``initialize`` only when ``server/discover`` draws -32601.

The reference falls back on any error that is not a modern one (-32020 to -32022). Run with
``--protocol-version 2026-07-28``.
Caught as: CLIENT-MOD-FALLBACK, profile ``strict``.
"""

from __future__ import annotations

from _client_harness import HookedClient, run

from mcpref.reference.client import ClientInput, Closed, Event
from mcpref.reference.messages import JsonValue


class FallsBackOn32601Only(HookedClient):
    def _discovered(self, result: JsonValue, error: JsonValue) -> list[Event]:
        if isinstance(error, dict) and error.get("code") not in (-32601, -32020, -32021, -32022):
            self._move(ClientInput.REFUSED)
            return [Closed(f"server/discover failed: {error}")]
        return super()._discovered(result, error)


if __name__ == "__main__":
    raise SystemExit(run(FallsBackOn32601Only))
