"""Lawful: a UTF-8 byte order mark at the start of a line is ignored and the message served.

Rule: FRAME-BOM (reference decision). The reference answers a line starting with EF BB BF
with -32700 and id null; this server drops the three bytes and reads the rest of the line.
Permitted: SPEC_NOTES FRAME-BOM, Alternatives ("a peer may ignore a leading BOM and process
the message, which RFC 8259 explicitly allows"); RFC 8259 section 8.1 ("implementations
that parse JSON texts MAY ignore the presence of a byte order mark").
Expected under ``spec``: a FRAME-BOM warning at most, no failure.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # examples/, for the shared _harness

from _harness import Handle, run

from mcpref.reference.session_types import Effect

BOM = b"\xef\xbb\xbf"


def on_line(line: bytes, handle: Handle) -> list[Effect]:
    return handle(line.removeprefix(BOM))


if __name__ == "__main__":
    raise SystemExit(run(on_line=on_line))
