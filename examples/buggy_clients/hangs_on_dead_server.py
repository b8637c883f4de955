"""Bug: the server's end of output is not taken as the end: the client waits on, with no limit.

The reference ends at once when the server's output ends (and after ``--timeout`` seconds of
silence): its answer can no longer come. Here the wait outlasts even ``--timeout``, which
only bounds a silence, and the client must be killed.
Imitates: the Python SDK's client session before its fix, whose pending request waited
forever once the server died (python-sdk issue #332).
Caught as: CLIENT-SERVER-GONE, profile ``strict`` (a reference decision).
"""

from __future__ import annotations

import threading

from _client_harness import HookedClient, run

from mcpref.reference.client import Event


class HangsOnDeadServer(HookedClient):
    def on_eof(self) -> list[Event]:
        threading.Event().wait()  # for an answer: nothing will ever set it
        return []


if __name__ == "__main__":
    raise SystemExit(run(HangsOnDeadServer))
