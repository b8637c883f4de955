"""Bug: the call made again after ``input_required`` leaves out the server's ``requestState``.

The reference echoes ``requestState`` exactly, with the inputs asked for and a new id. Run with
``--protocol-version 2026-07-28``.
Caught as: CLIENT-MOD-INPUT-RETRY, profile ``spec``.
"""

from __future__ import annotations

import json

from _client_harness import HookedClient, message_in, run


class ForgetsRequestState(HookedClient):
    def rewrite(self, line: bytes) -> bytes:
        message = message_in(line)
        params = message.get("params") if message is not None else None
        if message is None or not isinstance(params, dict) or "requestState" not in params:
            return line
        return json.dumps({**message, "params": {k: v for k, v in params.items() if k != "requestState"}}).encode() + b"\n"


if __name__ == "__main__":
    raise SystemExit(run(ForgetsRequestState))
