"""Bug: each read of the server's output is decoded to text on its own, then framed.

A UTF-8 character cut between two reads becomes replacement characters: the answer still
parses, but the tool's text the client shows is not the text the server sent. The reference
cuts the bytes into lines first and decodes only whole lines.
Caught as: CLIENT-READ-CHUNKS, profile ``spec``, in both eras ("an answer cut into pieces",
"a modern server: an answer cut into pieces").
"""

from __future__ import annotations

from _client_harness import HookedClient, run

from mcpref.reference.framer import FrameEvent, LineFramer


class DecodeEachRead(LineFramer):
    def receive_data(self, data: bytes) -> list[FrameEvent]:
        return super().receive_data(data.decode("utf-8", "replace").encode("utf-8"))  # the bug: per read


class DecodesEachRead(HookedClient):
    def new_framer(self) -> LineFramer:
        return DecodeEachRead()


if __name__ == "__main__":
    raise SystemExit(run(DecodesEachRead))
