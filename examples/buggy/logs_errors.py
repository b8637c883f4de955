"""Bug: every error answer is preceded by a ``notifications/message`` that nobody asked for.

The reference writes no log message. Here each error answer (a line that is not JSON, an
invalid request, a refused modern request) first writes an ``error``-level log notification,
though the server declares no ``logging`` capability and no modern request asked for a level.
Imitates: the Python SDK's server, which logs "Internal Server Error" that way after a line it
cannot read (seen in the field).
Caught as: CAP-LOGGING-DECLARED, profile ``spec`` (legacy sessions at 2025-06-18 and later), and
MOD-LOG-LEVEL (``--protocol-version 2026-07-28``).
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # examples/, for the shared _harness

from _harness import run

LOG = b'{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"error","data":"Internal Server Error"}}\n'


def rewrite(data: bytes) -> bytes:
    return LOG + data if b'"error"' in data else data


if __name__ == "__main__":
    raise SystemExit(run(rewrite=rewrite))
