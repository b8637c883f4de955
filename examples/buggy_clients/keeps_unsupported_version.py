"""Bug: the version the server answers is never checked: the client goes on with any.

The reference disconnects when ``initialize`` is answered with a version it did not offer
and does not know; this client sends ``notifications/initialized`` and the tool call all the
same.
Caught as: CLIENT-VERSION-UNSUPPORTED, profile ``strict``.
"""

from __future__ import annotations

from _client_harness import HookedClient, run

from mcpref.reference.client import ClientPhase, Event
from mcpref.reference.messages import JsonObject


class KeepsVersion(HookedClient):
    def _opened(self, result: JsonObject | None) -> list[Event]:
        if self.phase is ClientPhase.OPENING and result is not None:
            result = {**result, "protocolVersion": self.offered.name}  # whatever was answered
        return super()._opened(result)


if __name__ == "__main__":
    raise SystemExit(run(KeepsVersion))
