"""Lawful: a string holding an escaped lone surrogate (``"\\ud800"``) makes the line a parse error.

Rule: RPC-JSON-LIMITS (reference decision). The reference accepts escaped lone surrogates
and writes them back escaped; this server refuses the line with -32700 and id null, as a
parser does that decodes every string to well-formed Unicode.
Permitted: SPEC_NOTES RPC-JSON-LIMITS, Alternatives ("a peer may [...] reject lone
surrogates; all are conforming parsers"); RFC 8259 section 8.2 (the behaviour of software
receiving such strings is unpredictable; they are grammatical but not interoperable).
Expected under ``spec``: an RPC-JSON-LIMITS warning at most, no failure.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # examples/, for the shared _harness

from _harness import Handle, run

from mcpref.reference.messages import PARSE_ERROR, encode, error_answer, parse_line
from mcpref.reference.session_types import Effect, Send


def has_lone_surrogate(value: object) -> bool:
    stack: list[object] = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            try:
                item.encode("utf-8")
            except UnicodeEncodeError:
                return True
        elif isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return False


def on_line(line: bytes, handle: Handle) -> list[Effect]:
    if has_lone_surrogate(parse_line(line)):
        return [Send(encode(error_answer(None, PARSE_ERROR, "Parse error: lone surrogate in a string")))]
    return handle(line)


if __name__ == "__main__":
    raise SystemExit(run(on_line=on_line))
