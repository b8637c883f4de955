"""Lawful: a server of the handshake versions up to 2025-06-18, the newest it implements.

Rule: LIFE-VERSION-UNSUPPORTED (MUST). An ``initialize`` for 2025-11-25, or for a version it
does not know, is answered with a result naming 2025-06-18, and the session follows
2025-06-18's rules; 2024-11-05, 2025-03-26 and 2025-06-18 are served as asked. It serves no
modern request. The rules of 2025-11-25 alone (CAP-ELICIT-COMPLETE, TASKS-TERMINAL) are then
not for it: ``check`` gives them n/a, not pass.
Permitted: SPEC_NOTES LIFE-VERSION-UNSUPPORTED; MCP 2025-11-25, Lifecycle, Version negotiation
(a server that does not support the version asked answers with another one it does support).
Expected under ``spec``: no failure.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # examples/, for the shared _harness

from _harness import counter_offering, run

from mcpref.reference.dispatcher import ServerSession
from mcpref.reference.session_types import Eras, VersionPolicy
from mcpref.reference.versions import V2025_06_18, only

session = ServerSession(version_policy=VersionPolicy.COUNTER_OFFER, eras=Eras.LEGACY)
SERVED = only("2024-11-05", "2025-03-26", "2025-06-18")

if __name__ == "__main__":
    raise SystemExit(run(on_line=counter_offering(session, V2025_06_18, SERVED), session=session))
