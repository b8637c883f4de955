"""Bug: refused with -32022, the client asks again with the same version, one the server did not list.

The reference stops and reports when the server lists no modern version it speaks. Run with
``--protocol-version 2026-07-28``.
Caught as: CLIENT-MOD-VERSION-RETRY, profile ``strict``.
"""

from __future__ import annotations

from _client_harness import HookedClient, run

from mcpref.reference.client import Event
from mcpref.reference.eras import DISCOVER
from mcpref.reference.messages import JsonValue


class RetriesUnlistedVersion(HookedClient):
    retried = False

    def _discovered(self, result: JsonValue, error: JsonValue) -> list[Event]:
        if isinstance(error, dict) and error.get("code") == -32022 and not self.retried:
            self.retried = True
            self._request(DISCOVER, {})  # the same version again
            return []
        return super()._discovered(result, error)


if __name__ == "__main__":
    raise SystemExit(run(RetriesUnlistedVersion))
