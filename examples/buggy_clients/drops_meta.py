"""Bug: the tool call to a modern server goes without ``_meta``; only ``server/discover`` carries it.

The reference writes every modern request with ``_meta`` naming the protocol version and the
client's capabilities. Run with ``--protocol-version 2026-07-28``.
Caught as: CLIENT-MOD-META, profile ``spec``.
"""

from __future__ import annotations

import json

from _client_harness import HookedClient, message_in, run


class DropsMeta(HookedClient):
    def rewrite(self, line: bytes) -> bytes:
        message = message_in(line)
        params = message.get("params") if message is not None and message.get("method") == "tools/call" else None
        if message is None or not isinstance(params, dict) or "_meta" not in params:
            return line
        return json.dumps({**message, "params": {k: v for k, v in params.items() if k != "_meta"}}).encode() + b"\n"


if __name__ == "__main__":
    raise SystemExit(run(DropsMeta))
