"""Lawful: answers are written as raw UTF-8, without ``\\uXXXX`` escapes for non-ASCII characters.

Rule: FRAME-OUTPUT-ASCII (reference decision). The reference escapes every non-ASCII
character; this server writes them as UTF-8 bytes, U+2028 and U+2029 included (a string
holding an escaped lone surrogate, which has no UTF-8 form, is still written escaped).
Permitted: SPEC_NOTES FRAME-OUTPUT-ASCII, Alternatives ("a peer may write raw UTF-8 (still
conforming, since UTF-8 is what MCP requires)"); RFC 8259 sections 7 and 8.1; MCP
2025-11-25, Transports, stdio (messages are UTF-8 encoded).
Expected under ``spec``: a FRAME-OUTPUT-ASCII warning at most, no failure.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # examples/, for the shared _harness

from _harness import run


def raw(data: bytes) -> bytes:
    text = json.dumps(json.loads(data), ensure_ascii=False, allow_nan=False, separators=(",", ":"))
    try:
        return text.encode("utf-8") + b"\n"
    except UnicodeEncodeError:  # a lone surrogate: only its escape is valid UTF-8
        return data


if __name__ == "__main__":
    raise SystemExit(run(rewrite=raw))
