"""Paths and commands shared by the peer tests and make_peers.py: the pinned official SDKs and their servers.

The Python SDK (PyPI ``mcp``) comes with the ``dev`` extras. The TypeScript SDK and
server-everything (npm, pinned in ``package.json`` and ``package-lock.json``) are installed
by ``make test`` into ``tests/peers/node_modules``, which git ignores; without ``node`` or
without that folder the tests that need them skip and say why.
"""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

PEERS = Path(__file__).resolve().parent
ROOT = PEERS.parents[1]
NODE_MODULES = PEERS / "node_modules"
REFERENCE = [sys.executable, "-m", "mcpref.reference"]
PYTHON_SERVER = [sys.executable, str(PEERS / "python_server.py")]
TS_SERVER = ["node", str(PEERS / "ts_server.mjs")]
EVERYTHING = ["node", str(NODE_MODULES / "@modelcontextprotocol" / "server-everything" / "dist" / "index.js"), "stdio"]
# The versions both the reference and each official SDK negotiate through initialize.
SHARED_VERSIONS = ("2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25")


def node_missing() -> str | None:
    """Why the TypeScript peers cannot run here, or None when they can."""
    if shutil.which("node") is None:
        return "node is not installed: the TypeScript SDK peers cannot run"
    if not (NODE_MODULES / "@modelcontextprotocol" / "sdk" / "package.json").exists():
        return "tests/peers/node_modules is missing: run make test (it runs npm ci there; needs npm)"
    return None
