"""Bug: at stdin EOF it exits at once, dropping the answers it still owes.

The reference finishes every request in flight at EOF, writes its answer, then exits 0.
Here every answer waits 20 ms before it is written, and what is still waiting at EOF
(pending `attendre` calls included) is never written.
Imitates: servers on the Python SDK 2.3.0 (`mcp-server-time`, `mcp-server-git`), whose
stdio loop ends the session when stdin closes and cancels the handlers still running.
It reads an unterminated last line, and loses its answer with the others: that is not
FRAME-EOF-PARTIAL, which the oracle once claimed for those servers in some runs.
Caught as: STDIO-EOF-DRAIN by `mcpref check`, profile ``strict`` only (the specification
does not say what becomes of work in flight at EOF). Campaigns never close stdin early.
"""

from __future__ import annotations

from _harness import run

if __name__ == "__main__":
    raise SystemExit(run(drain=False, hold=0.02))
