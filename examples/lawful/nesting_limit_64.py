"""Lawful: JSON nested more than 64 deep is refused with -32700 and id null (the reference allows 256).

Rule: RPC-JSON-LIMITS (reference decision). The reference refuses nesting deeper than 256;
this server's parser stops at 64 levels, with the same answer.
Permitted: SPEC_NOTES RPC-JSON-LIMITS, Alternatives ("a peer may use other limits [...] all
are conforming parsers"); RFC 8259 section 9 ("An implementation may set limits on the
maximum depth of nesting").
Expected under ``spec``: an RPC-JSON-LIMITS warning at most, no failure.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # examples/, for the shared _harness

from _harness import Handle, run

from mcpref.reference.messages import PARSE_ERROR, encode, error_answer, parse_line
from mcpref.reference.session_types import Effect, Send

LIMIT = 64


def deeper_than(value: object, limit: int) -> bool:
    stack: list[tuple[object, int]] = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        children = list(item.values()) if isinstance(item, dict) else item if isinstance(item, list) else None
        if children is None:
            continue
        if depth > limit:
            return True
        stack.extend((child, depth + 1) for child in children)
    return False


def on_line(line: bytes, handle: Handle) -> list[Effect]:
    if deeper_than(parse_line(line), LIMIT):
        return [Send(encode(error_answer(None, PARSE_ERROR, f"Parse error: nesting deeper than {LIMIT}")))]
    return handle(line)


if __name__ == "__main__":
    raise SystemExit(run(on_line=on_line))
