"""Bug: each legacy tool result is followed by a completion of a url-mode elicitation the server never started.

The reference starts no elicitation in the legacy era and sends no completion. Here every legacy
``tools/call`` the reference serves at once is followed by
``notifications/elicitation/complete`` with the ``elicitationId`` ``"elicitation-0"``, which no
``elicitation/create`` of this session set.
Imitates: servers that announce the end of an out-of-band flow to every connected client, or
under the id of another session.
Caught as: CAP-ELICIT-COMPLETE, profile ``spec``, in sessions that negotiated 2025-11-25 (the only
version with the notification).
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # examples/, for the shared _harness

from _harness import notification, notifying_after, run

on_line = notifying_after("tools/call", notification("notifications/elicitation/complete", {"elicitationId": "elicitation-0"}))

if __name__ == "__main__":
    raise SystemExit(run(on_line=on_line))
