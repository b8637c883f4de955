"""Bug: each line is decoded correctly, then cut again with ``str.splitlines()``.

U+2028, U+2029, U+0085, VT, FF, FS, GS, RS or a bare CR inside a line (a JSON string may
hold the first three raw) splits the message, and each piece gets -32700.
Imitates: servers that read the whole input or a chunk as text and iterate ``splitlines()``.
Caught as: FRAME-LF-ONLY, profile ``spec``.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # examples/, for the shared _harness

from _harness import Handle, run

from mcpref.reference.session_types import Effect


def on_line(line: bytes, handle: Handle) -> list[Effect]:
    try:
        text = line.decode("utf-8")
    except UnicodeDecodeError:
        return handle(line)  # not UTF-8: the reference's -32700
    return [effect for piece in text.splitlines() for effect in handle(piece.encode())]


if __name__ == "__main__":
    raise SystemExit(run(on_line=on_line))
