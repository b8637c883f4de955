"""Item 2: ``mcpref serve`` answers per second for pipelined pings over a real pipe.

After a handshake, the client writes the pings from a thread while it counts answers;
the time runs from the first write to the last answer. The reference point is
``bare_loop`` (read a line, write a canned answer, flush), run the same way and
interleaved with the reference server, best of five each. The official SDK servers of
``tests/peers/`` are measured when they are installed; the Python SDK server gets
fewer pings (it answers about a thousand or two a second) to keep the run short.
"""

from __future__ import annotations

import importlib.util
import shutil
import sys

from .client import Server, TimedOut
from .common import ROOT, SERVE, Row, progress

PINGS = 100_000
PYTHON_SDK_PINGS = 10_000
BARE = [sys.executable, str(ROOT / "bench" / "bare_loop.py")]
PEERS = ROOT / "tests" / "peers"


def pings(count: int) -> bytes:
    return b"".join(b'{"jsonrpc":"2.0","id":%d,"method":"ping"}\n' % i for i in range(1, count + 1))


def rate(argv: list[str], count: int, *, handshake: bool, timeout: float = 300.0) -> float:
    """Answers per second for ``count`` pipelined pings."""
    payload = pings(count)
    with Server(argv) as server:
        if handshake:
            server.handshake()
        return count / server.pipelined(payload, count, timeout)


def _peers() -> list[tuple[str, list[str] | None, int, str]]:
    """(name, argv or None when not installed, pings, why not)."""
    python_server = PEERS / "python_server.py"
    ts_server = PEERS / "ts_server.mjs"
    node = shutil.which("node")
    python_ok = python_server.exists() and importlib.util.find_spec("mcp") is not None
    ts_ok = ts_server.exists() and node is not None and (PEERS / "node_modules" / "@modelcontextprotocol" / "sdk").is_dir()
    return [
        (
            "TypeScript SDK server (McpServer)",
            [node, str(ts_server)] if ts_ok and node else None,
            PINGS,
            "not installed (tests/peers/ts_server.mjs, node, npm ci in tests/peers)",
        ),
        (
            "Python SDK server (MCPServer)",
            [sys.executable, str(python_server)] if python_ok else None,
            PYTHON_SDK_PINGS,
            "not installed (tests/peers/python_server.py and the mcp package)",
        ),
    ]


def run() -> list[Row]:
    progress(f"2 serve: {PINGS:,} pipelined pings, mcpref serve and the bare loop, 5 rounds")
    best_serve = best_bare = 0.0
    for _ in range(5):
        best_serve = max(best_serve, rate(SERVE, PINGS, handshake=True))
        best_bare = max(best_bare, rate(BARE, PINGS, handshake=False))
    ratio = best_serve / best_bare
    rows = [
        Row(
            "2",
            f"mcpref serve: {PINGS // 1000}k pipelined pings",
            ratio,
            "bare Python loop (read line, write canned answer)",
            ">= 0.5",
            ratio >= 0.5,
            f"mcpref {best_serve:,.0f}/s, bare loop {best_bare:,.0f}/s",
        )
    ]
    for name, argv, count, why in _peers():
        if argv is None:
            rows.append(Row("2", f"mcpref serve ÷ {name}", None, name, "> 1", None, why))
            continue
        progress(f"2 serve: {count:,} pipelined pings, {name}")
        try:
            peer = max(rate(argv, count, handshake=True) for _ in range(2 if count == PINGS else 1))
        except TimedOut as exc:
            rows.append(Row("2", f"mcpref serve ÷ {name}", None, name, "> 1", None, f"no result: {exc}"))
            continue
        rows.append(
            Row(
                "2",
                f"mcpref serve ÷ {name}",
                best_serve / peer,
                f"{name}, {count // 1000}k pings",
                "> 1",
                best_serve > peer,
                f"{peer:,.0f}/s ({peer / best_bare:.3f} of the bare loop)",
            )
        )
    return rows
