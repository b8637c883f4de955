"""Bug: the tool call is sent whatever capabilities the server announced.

The reference sends no request of a server capability (``tools``, ``resources``, ``prompts``,
``completions``, ``logging``) that the server did not announce, and ends with an error
instead. In 2025-06-18 and later, the version this client offers by default, that is a
MUST; before, a SHOULD.
Caught as: CLIENT-CAP-ANNOUNCED, profile ``spec``.
"""

from __future__ import annotations

from _client_harness import HookedClient, run

from mcpref.reference.client import ClientInput
from mcpref.reference.messages import JsonObject, RequestId


class CallsUnannounced(HookedClient):
    def request(self, method: str, params: JsonObject) -> RequestId | None:
        self._move(ClientInput.REQUEST)
        return self._request(method, params)  # no look at what the server announced


if __name__ == "__main__":
    raise SystemExit(run(CallsUnannounced))
