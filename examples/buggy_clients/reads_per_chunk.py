"""Bug: each read of the server's output is taken as whole lines: split at LF, nothing kept over.

A line cut across two reads becomes two pieces that do not parse, and both are dropped; the
client then waits for an answer it has already been sent, until its ``--timeout``. The
reference keeps the unfinished tail of a read and completes it with the next ones. The same
loss draws two more findings: a 4 MiB answer always spans many reads (CLIENT-READ-LONG-LINE,
strict), and in the scenario of cut answers the ``initialize`` answer itself is lost, so
``notifications/initialized`` is never sent (CLIENT-INITIALIZED, spec).
Caught as: CLIENT-READ-CHUNKS, profile ``spec``.
"""

from __future__ import annotations

from _client_harness import HookedClient, run

from mcpref.reference.framer import FrameEvent, LineFramer


class PerChunk(LineFramer):
    def receive_data(self, data: bytes) -> list[FrameEvent]:
        return list(data.split(b"\n"))  # a piece that does not parse is dropped by the client

    def receive_eof(self) -> list[FrameEvent]:
        return []


class ReadsPerChunk(HookedClient):
    def new_framer(self) -> LineFramer:
        return PerChunk()


if __name__ == "__main__":
    raise SystemExit(run(ReadsPerChunk))
