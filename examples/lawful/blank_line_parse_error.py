"""Lawful: an empty or whitespace-only line is answered with -32700 and id null.

Rule: FRAME-BLANK-LINE (reference decision). The reference skips such a line silently; this
server, whose parser sees no JSON text in it, answers it as any other parse error.
Permitted: SPEC_NOTES FRAME-BLANK-LINE, Alternatives ("a peer may answer a blank line with
-32700 and id null (it is not a JSON text)"); RFC 8259 section 2 (a JSON text is a value),
JSON-RPC 2.0 section 5.1 (-32700 for invalid JSON).
Expected under ``spec``: a FRAME-BLANK-LINE warning at most, no failure.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # examples/, for the shared _harness

from _harness import Handle, run

from mcpref.reference.messages import PARSE_ERROR, encode, error_answer
from mcpref.reference.session_types import Effect, Send


def on_line(line: bytes, handle: Handle) -> list[Effect]:
    if not line.strip(b" \t\r"):
        return [Send(encode(error_answer(None, PARSE_ERROR, "Parse error: no JSON text on the line")))]
    return handle(line)


if __name__ == "__main__":
    raise SystemExit(run(on_line=on_line))
