"""Bug: at stdin EOF it exits at once, dropping the answers it still owes.

The reference finishes every request in flight at EOF, writes its answer, then exits 0.
Here the pending `attendre` calls are abandoned: their answers are never written.
Imitates: servers on the Python SDK 2.3.0 (`mcp-server-time`, `mcp-server-git`), whose
stdio loop ends the session when stdin closes and cancels the handlers still running.
Caught as: STDIO-EOF-DRAIN by `mcpref check`, profile ``strict`` only (the specification
does not say what becomes of work in flight at EOF); by a campaign in check's scenario that
closes stdin with work in flight, which it runs before it generates.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # examples/, for the shared _harness

from _harness import run

if __name__ == "__main__":
    raise SystemExit(run(drain=False))
