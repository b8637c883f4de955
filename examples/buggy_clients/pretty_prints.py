"""Bug: each message is written as indented JSON, over several lines.

The reference writes each message as compact JSON on one line ended by LF, as the stdio
transport requires (messages are delimited by newlines and contain none). A server that
reads lines, as the scripted one does, sees no message at all: the client then waits for
the ``initialize`` answer until its ``--timeout`` (30 s by default).
Caught as: CLIENT-STDIN-MESSAGES-ONLY, profile ``spec``.
"""

from __future__ import annotations

import json

from _client_harness import HookedClient, run


class PrettyPrints(HookedClient):
    def rewrite(self, line: bytes) -> bytes:
        return json.dumps(json.loads(line), indent=2).encode() + b"\n"


if __name__ == "__main__":
    raise SystemExit(run(PrettyPrints))
