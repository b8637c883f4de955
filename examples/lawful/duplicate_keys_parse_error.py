"""Lawful: an object with a repeated member name is refused with -32700 and id null, even when the values are equal.

Rule: RPC-DUPLICATE-KEYS (reference decision). The reference keeps the last value; this
server's parser refuses the text, so ``{"jsonrpc":"2.0","jsonrpc":"2.0","id":1,"method":"ping"}``
gets -32700 with id null instead of ``{}``.
Permitted: SPEC_NOTES RPC-DUPLICATE-KEYS, Alternatives ("a peer may keep the first value or
reject the object (-32700 or -32600)"); RFC 8259 section 4 ("The names within an object
SHOULD be unique"; receivers' behaviour is left open) and section 9 (a parser may limit the
texts it accepts).
Expected under ``spec``: an RPC-DUPLICATE-KEYS warning at most, no failure.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # examples/, for the shared _harness

from _harness import Handle, run

from mcpref.reference.messages import PARSE_ERROR, Blank, ParseFailure, encode, error_answer, parse_line
from mcpref.reference.session_types import Effect, Send


class Repeated(ValueError):
    pass


def unique(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    names = [name for name, _ in pairs]
    if len(set(names)) != len(names):
        raise Repeated
    return dict(pairs)


def on_line(line: bytes, handle: Handle) -> list[Effect]:
    if isinstance(parse_line(line), Blank | ParseFailure):
        return handle(line)
    try:
        json.loads(line.decode("utf-8"), object_pairs_hook=unique)
    except Repeated:
        return [Send(encode(error_answer(None, PARSE_ERROR, "Parse error: duplicate member name")))]
    return handle(line)


if __name__ == "__main__":
    raise SystemExit(run(on_line=on_line))
