"""Bug: a bare CR ends a line as well as LF (universal newlines); CRLF still ends one line.

A message with a raw CR as whitespace between JSON tokens is cut in two, and each half
gets -32700.
Imitates: Python servers reading ``sys.stdin`` in text mode, whose newline translation
is this very ``io.IncrementalNewlineDecoder``.
Caught as: FRAME-LF-ONLY, profile ``strict``: whether a bare CR is a "newline" of the
transport is an open reading, so ``spec`` warns only (SPEC_NOTES FRAME-LF-ONLY).
"""

from __future__ import annotations

import io
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # examples/, for the shared _harness

from _harness import run

from mcpref.reference.framer import FrameEvent, LineFramer


class UniversalNewlines(LineFramer):
    def __init__(self) -> None:
        super().__init__()
        self._newlines = io.IncrementalNewlineDecoder(None, translate=True)  # CR and CRLF become LF

    def receive_data(self, data: bytes) -> list[FrameEvent]:
        return super().receive_data(self._newlines.decode(data.decode("latin-1")).encode("latin-1"))

    def receive_eof(self) -> list[FrameEvent]:
        last = self._newlines.decode("", final=True).encode("latin-1")  # a CR held back at the very end
        return super().receive_data(last) + super().receive_eof()


if __name__ == "__main__":
    raise SystemExit(run(framer=UniversalNewlines()))
