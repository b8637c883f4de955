"""Lawful: a line holding an integer beyond +-(2**53 - 1) is refused with -32700 and id null.

Rule: RPC-JSON-LIMITS (reference decision). The reference parses integers exactly (up to 4300
digits) and echoes a large id digit for digit; this server's parser, like one that reads
every number as a double, accepts only the integers a double holds exactly and refuses the
line otherwise, so ``{"jsonrpc":"2.0","id":9007199254740993,"method":"ping"}`` gets -32700
with id null rather than a rounded id.
Permitted: SPEC_NOTES RPC-JSON-LIMITS, Alternatives ("a peer may use other limits"); RFC
8259 section 9 ("An implementation may set limits on the range and precision of numbers")
and section 6 (interoperable integers are those in [-(2**53)+1, (2**53)-1]).
Expected under ``spec``: an RPC-JSON-LIMITS warning at most, no failure.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # examples/, for the shared _harness

from _harness import Handle, run

from mcpref.reference.messages import PARSE_ERROR, encode, error_answer, parse_line
from mcpref.reference.session_types import Effect, Send

EXACT = 2**53 - 1


def too_large(value: object) -> bool:
    stack: list[object] = [value]
    while stack:
        item = stack.pop()
        if type(item) is int and abs(item) > EXACT:
            return True
        if isinstance(item, dict):
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return False


def on_line(line: bytes, handle: Handle) -> list[Effect]:
    if too_large(parse_line(line)):
        message = "Parse error: integer out of the exact range of a double"
        return [Send(encode(error_answer(None, PARSE_ERROR, message)))]
    return handle(line)


if __name__ == "__main__":
    raise SystemExit(run(on_line=on_line))
