"""Bug: a line that is not JSON (or not UTF-8) gets no answer at all, instead of -32700 with id null.

Imitates: the official SDKs, which log the parse failure and drop the line.
Caught as: RPC-PARSE-ERROR, profile ``spec`` (and FRAME-UTF8, for a line that is not UTF-8).
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # examples/, for the shared _harness

from _harness import Handle, run

from mcpref.reference.messages import ParseFailure, parse_line
from mcpref.reference.session_types import Effect


def on_line(line: bytes, handle: Handle) -> list[Effect]:
    return [] if isinstance(parse_line(line), ParseFailure) else handle(line)


if __name__ == "__main__":
    raise SystemExit(run(on_line=on_line))
