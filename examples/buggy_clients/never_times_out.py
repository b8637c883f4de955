"""Bug: the client waits for an answer with no timeout at all.

A server that stays alive but never answers holds the client until something outside kills it.
The reference gives up after ``--timeout`` seconds of silence, cancels what it waited for, and
ends; here ``--timeout`` is ignored (the end of the server's output still ends the wait).
Caught as: CLIENT-TIMEOUT, profile ``strict`` (a SHOULD), in both eras ("a server that never
answers the call", "a modern server: a server that never answers the call").
"""

from __future__ import annotations

import argparse

from _client_harness import HookedClient, run

from mcpref.reference.versions import ProtocolVersion

YEAR = 365 * 24 * 3600.0  # seconds: a wait with no end, as select() takes one


class NeverTimesOut(HookedClient):
    def __init__(self, version: ProtocolVersion, roots: tuple[str, ...], args: argparse.Namespace) -> None:
        args.timeout = YEAR  # the bug: the loop's wait for an answer has no bound
        super().__init__(version, roots, args)


if __name__ == "__main__":
    raise SystemExit(run(NeverTimesOut))
