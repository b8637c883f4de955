"""Bug: after each legacy tool call it reports a resource updated, though nothing was subscribed.

The reference writes no resource update. Here every legacy ``tools/call`` that is served is
followed by ``notifications/resources/updated`` for ``file:///log``, though the client never
sent ``resources/subscribe``; the capabilities stay the reference's.
Imitates: servers that push every change of a resource to every client, subscribed or not.
Caught as: CAP-RESOURCE-SUBSCRIBED, profile ``strict`` only (a reference decision).
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # examples/, for the shared _harness

from _harness import notification, notifying_after, run

on_line = notifying_after("tools/call", notification("notifications/resources/updated", {"uri": "file:///log"}))


if __name__ == "__main__":
    raise SystemExit(run(on_line=on_line))
