"""Bug: it announces a change of its tool list as soon as it starts, before any `initialize`.

The reference writes nothing before its answer to `initialize`. Here every process first
writes `notifications/tools/list_changed`, a notification of a capability the client has
not yet been offered; everything after is the reference's.
Imitates: servers that register their tools, and notify, before the session is open.
Caught as: LIFE-SERVER-EARLY, profile ``strict`` only (a SHOULD NOT).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # examples/, for the shared _harness

from _harness import run

LIST_CHANGED = b'{"jsonrpc":"2.0","method":"notifications/tools/list_changed"}\n'

if __name__ == "__main__":
    os.write(1, LIST_CHANGED)
    raise SystemExit(run())
