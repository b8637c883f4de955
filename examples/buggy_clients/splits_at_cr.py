"""Bug: the server's output is cut into lines at CR as well as at LF (CR LF counting as one end).

A CR between the tokens of a message is JSON whitespace (RFC 8259), so a line may hold one; cut
there, the message falls in pieces that do not parse, and the client waits for its answer until
its ``--timeout``. CR LF line ends still read well. The reference cuts at LF alone.
Caught as: CLIENT-READ-LF-ONLY, profile ``strict`` (a bare CR is an open reading of "newline"),
in both eras ("raw CR between tokens", "a modern server: raw CR between tokens").
"""

from __future__ import annotations

from _client_harness import HookedClient, run

from mcpref.reference.framer import FrameEvent, LineFramer


class UniversalNewlines(LineFramer):
    def receive_data(self, data: bytes) -> list[FrameEvent]:
        return super().receive_data(data.replace(b"\r\n", b"\n").replace(b"\r", b"\n"))


class SplitsAtCr(HookedClient):
    def new_framer(self) -> LineFramer:
        return UniversalNewlines()


if __name__ == "__main__":
    raise SystemExit(run(SplitsAtCr))
