"""Lawful: lines longer than 64 KiB are refused with -32700 and id null (the reference allows 32 MiB).

Rule: FRAME-MAX-LINE (reference decision). The reference's limit is 32 MiB; this server's is
65,536 bytes, with the same behaviour past it: one -32700 with id null as soon as the limit
is passed, the rest of the line dropped up to its LF, and the next line read normally.
Permitted: SPEC_NOTES FRAME-MAX-LINE, Alternatives ("a peer may choose any other limit";
"lines longer than 64 KiB may meet a peer's own limit, so the spec profile accepts a -32700
for them"); RFC 8259 section 9 ("An implementation may set limits on the size of texts that
it accepts").
Expected under ``spec``: no failure.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # examples/, for the shared _harness

from _harness import run

from mcpref.reference.dispatcher import ServerSession

LIMIT = 64 * 1024

if __name__ == "__main__":
    raise SystemExit(run(session=ServerSession(max_line_bytes=LIMIT)))
