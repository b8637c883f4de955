"""Lawful: a message with a repeated member name (at any level) is refused with -32600.

Rule: RPC-DUPLICATE-KEYS (reference decision). The reference keeps the last value; this
server parses the line but refuses the message as an invalid request, with its id when the
top-level ``id`` member is unique and a valid id, and with id null otherwise (also for an
array).
Permitted: SPEC_NOTES RPC-DUPLICATE-KEYS, Alternatives ("a peer may keep the first value or
reject the object (-32700 or -32600)"); RFC 8259 section 4 (names SHOULD be unique;
receivers' behaviour is left open); JSON-RPC 2.0 section 5.1 (-32600: not a valid Request
object).
Expected under ``spec``: an RPC-DUPLICATE-KEYS warning at most, no failure.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # examples/, for the shared _harness

from _harness import Handle, run

from mcpref.reference.messages import (
    INVALID_REQUEST,
    Blank,
    ParseFailure,
    encode,
    error_answer,
    is_valid_id,
    parse_line,
)
from mcpref.reference.session_types import Effect, Send


class Pairs(list[tuple[str, Any]]):
    """An object as its list of members, repeated names kept."""


def on_line(line: bytes, handle: Handle) -> list[Effect]:
    if isinstance(parse_line(line), Blank | ParseFailure):
        return handle(line)
    repeated: list[Pairs] = []

    def keep(pairs: list[tuple[str, Any]]) -> Pairs:
        names = [name for name, _ in pairs]
        if len(set(names)) != len(names):
            repeated.append(Pairs(pairs))
        return Pairs(pairs)

    top = json.loads(line.decode("utf-8"), object_pairs_hook=keep)
    if not repeated:
        return handle(line)
    ids = [value for name, value in top if name == "id"] if isinstance(top, Pairs) else []
    request_id = ids[0] if len(ids) == 1 and is_valid_id(ids[0]) else None
    return [Send(encode(error_answer(request_id, INVALID_REQUEST, "Invalid request: duplicate member name")))]


if __name__ == "__main__":
    raise SystemExit(run(on_line=on_line))
