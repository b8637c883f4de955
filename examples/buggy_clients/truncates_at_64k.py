"""Bug: a line of the server's output is read into a 64 KiB buffer: whatever is longer is cut.

The cut line does not parse and is dropped, and the client waits for an answer it was sent,
until its ``--timeout``; a scanner with a 64 KiB default (Go's ``bufio.Scanner``) does this. The
reference reads lines up to 32 MiB.
Caught as: CLIENT-READ-LONG-LINE, profile ``strict`` (a reference decision), in both eras ("a 4
MiB answer", "a modern server: a 4 MiB answer").
"""

from __future__ import annotations

from _client_harness import HookedClient, run

from mcpref.reference.framer import LineFramer

BUFFER = 64 * 1024


class TruncatesAt64K(HookedClient):
    def new_framer(self) -> LineFramer:
        return LineFramer(BUFFER)  # a longer line is one the client cannot read


if __name__ == "__main__":
    raise SystemExit(run(TruncatesAt64K))
