"""Lawful: a line that ends with CR before its LF (a CRLF line) is refused with -32700, id null.

Rule: FRAME-CRLF (reference decision). The reference accepts ``{...}\\r\\n`` exactly like
``{...}\\n``; this server reads the CR as a byte that does not belong to a message of a
LF-delimited stream and refuses the line as a parse error. Blank lines stay skipped.
Permitted: SPEC_NOTES FRAME-CRLF, Alternatives ("a peer that rejects CRLF lines with -32700
diverges from the reference and gets a warning under the spec profile"); MCP names no
newline but the LF of its examples (MCP 2025-11-25, Transports, stdio).
Expected under ``spec``: a FRAME-CRLF warning at most, no failure.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # examples/, for the shared _harness

from _harness import Handle, run

from mcpref.reference.messages import PARSE_ERROR, encode, error_answer
from mcpref.reference.session_types import Effect, Send


def on_line(line: bytes, handle: Handle) -> list[Effect]:
    if line.endswith(b"\r") and line.strip(b" \t\r"):
        return [Send(encode(error_answer(None, PARSE_ERROR, "Parse error: CR before LF")))]
    return handle(line)


if __name__ == "__main__":
    raise SystemExit(run(on_line=on_line))
