"""Bug: the client gives up on a call that got no answer without telling the server.

The reference cancels each request it stops waiting for with ``notifications/cancelled``.
Caught as: CLIENT-CANCEL, profile ``strict``.
"""

from __future__ import annotations

from _client_harness import HookedClient, run


class NeverCancels(HookedClient):
    def give_up(self, reason: str) -> None:
        self._pending.clear()


if __name__ == "__main__":
    raise SystemExit(run(NeverCancels))
