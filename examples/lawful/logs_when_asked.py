"""Lawful: a modern request that asks for a log level gets a log message before its answer.

Rule: MOD-LOG-LEVEL (a server MAY log for a request that asked). The reference writes no log
message; this server writes a ``notifications/message`` at the level asked before the answer of
each modern request whose ``_meta`` carries ``io.modelcontextprotocol/logLevel``.
Permitted: SPEC_NOTES MOD-LOG-LEVEL; MCP 2026-07-28 changelog (log messages go to requests that
include the field, and to no other).
Expected under ``spec``: no failure, no warning.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # examples/, for the shared _harness

from _harness import Handle, enveloped_request, notification, run

from mcpref.reference.eras import META_LOG_LEVEL
from mcpref.reference.session_types import Effect


def on_line(line: bytes, handle: Handle) -> list[Effect]:
    found = enveloped_request(line)
    if found is None or not isinstance(level := found[1].get(META_LOG_LEVEL), str):
        return handle(line)
    return [notification("notifications/message", {"level": level, "data": f"handling {found[0].method}"}), *handle(line)]


if __name__ == "__main__":
    raise SystemExit(run(on_line=on_line))
