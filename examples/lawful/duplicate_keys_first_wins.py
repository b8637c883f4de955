"""Lawful: when a member name repeats in an object, the first value is kept, not the last.

Rule: RPC-DUPLICATE-KEYS (reference decision). The reference keeps the last value at every
level (``{"id":1,"id":2,...}`` is answered with id 2); this server keeps the first (id 1).
Permitted: SPEC_NOTES RPC-DUPLICATE-KEYS, Alternatives ("a peer may keep the first value or
reject the object"); RFC 8259 section 4 (names SHOULD be unique; with duplicates "the
behavior of software that receives such an object is unpredictable").
Expected under ``spec``: an RPC-DUPLICATE-KEYS warning at most, no failure.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # examples/, for the shared _harness

from _harness import Handle, run

from mcpref.reference.messages import Blank, ParseFailure, parse_line
from mcpref.reference.session_types import Effect


def first_wins(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    kept: dict[str, Any] = {}
    for name, value in pairs:
        kept.setdefault(name, value)
    return kept


def on_line(line: bytes, handle: Handle) -> list[Effect]:
    if isinstance(parse_line(line), Blank | ParseFailure):
        return handle(line)
    value = json.loads(line.decode("utf-8"), object_pairs_hook=first_wins)  # parse_line accepted it
    return handle(json.dumps(value).encode())


if __name__ == "__main__":
    raise SystemExit(run(on_line=on_line))
