"""Bug: a line nested more than 64 levels deep crashes the process (traceback on stderr, exit 1).

Brackets are counted outside JSON strings, whether or not the line is valid JSON. The
reference parses up to 256 levels and answers -32700 beyond; this one dies instead.
Imitates: a recursive-descent JSON parser with a small recursion limit whose
RecursionError nobody catches.
Caught as: STDIO-SURVIVE, profile ``spec``.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # examples/, for the shared _harness

from _harness import Handle, run

from mcpref.reference.session_types import Effect

MAX_DEPTH = 64
TOKENS = re.compile(rb'"(?:[^"\\]|\\.)*"?|[\[\]{}]')  # a string (skipped whole) or a bracket


def depth(line: bytes) -> int:
    level = deepest = 0
    for token in TOKENS.findall(line):
        level += {b"[": 1, b"{": 1, b"]": -1, b"}": -1}.get(token, 0)
        deepest = max(deepest, level)
    return deepest


def on_line(line: bytes, handle: Handle) -> list[Effect]:
    if line.count(b"[") + line.count(b"{") > MAX_DEPTH and depth(line) > MAX_DEPTH:
        raise RecursionError("maximum recursion depth exceeded while decoding a JSON array")
    return handle(line)


if __name__ == "__main__":
    raise SystemExit(run(on_line=on_line))
