"""Lawful: at stdin EOF the server exits at once, abandoning the requests still in flight.

Rule: STDIO-EOF-DRAIN (reference decision). The reference finishes every in-flight request
at EOF and writes its answer before exiting; this server exits 0 at once (the behaviour of
``examples/buggy/drops_at_eof.py``, which the ``strict`` profile fails).
Permitted: SPEC_NOTES STDIO-EOF-DRAIN, Alternatives ("a peer may abandon in-flight requests
and exit at once on EOF (2026-07-28 asks servers to exit promptly)"); MCP 2025-11-25,
Lifecycle, Shutdown (closing stdin starts the shutdown; nothing is said of work in flight).
Expected under ``spec``: a STDIO-EOF-DRAIN warning at most, no failure.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # examples/, for the shared _harness

from _harness import run

if __name__ == "__main__":
    raise SystemExit(run(drain=False))
