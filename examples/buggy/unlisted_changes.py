"""Bug: after each legacy tool list it announces a change of the list, without ``listChanged``.

The reference announces ``tools`` with ``listChanged`` false and writes no list-changed
notification. Here every legacy ``tools/list`` that is served is followed by
``notifications/tools/list_changed``; the capabilities stay the reference's.
Imitates: servers that re-register their tools on each listing and notify, whatever they announced.
Caught as: CAP-LIST-CHANGED, profile ``strict`` only (a reference decision).
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # examples/, for the shared _harness

from _harness import notification, notifying_after, run

on_line = notifying_after("tools/list", notification("notifications/tools/list_changed"))


if __name__ == "__main__":
    raise SystemExit(run(on_line=on_line))
