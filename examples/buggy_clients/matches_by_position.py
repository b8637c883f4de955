"""Bug: each response is taken as the answer to the client's oldest request in flight, whatever its id.

A response to a request the client no longer waits for (one it cancelled, gave up on, or had
its answer to) then stands for the answer to the request that is waiting, and answers written
out of order are swapped. The reference matches a response by its id and ignores one whose id
names no request in flight.
Caught as: CLIENT-ANSWER-BY-ID, profile ``strict`` (a SHOULD), in both eras ("a late answer to an
earlier request first", "a modern server: a late answer to an earlier request first").
"""

from __future__ import annotations

from _client_harness import HookedClient, run

from mcpref.reference.client import Event
from mcpref.reference.messages import JsonObject


class MatchesByPosition(HookedClient):
    def _response(self, value: JsonObject) -> list[Event]:
        oldest = next(iter(self._pending), None)
        return super()._response(value if oldest is None else {**value, "id": oldest})  # the bug: by position


if __name__ == "__main__":
    raise SystemExit(run(MatchesByPosition))
