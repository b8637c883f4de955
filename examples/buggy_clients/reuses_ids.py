"""Bug: every request has id 1: ``initialize``, then the tool call once the first is answered.

The reference numbers its requests 1, 2, 3... and never uses an id twice in a session.
Caught as: CLIENT-ID-UNIQUE, profile ``spec``.
"""

from __future__ import annotations

from _client_harness import HookedClient, run

from mcpref.reference.messages import JsonObject, RequestId


class SameId(HookedClient):
    def _request(self, method: str, params: JsonObject, retries: int = 0) -> RequestId:
        self._next_id = 0  # the reference counts from here: always 1
        return super()._request(method, params, retries)


if __name__ == "__main__":
    raise SystemExit(run(SameId))
