"""Lawful: ``initialize`` for an unsupported version is answered with a result naming 2024-11-05.

Rule: LIFE-VERSION-COUNTER-OFFER (reference decision) and LIFE-VERSION-UNSUPPORTED (MUST).
When it counter-offers, the reference names its latest version, 2025-11-25; this server
names its oldest, 2024-11-05, and the session then follows 2024-11-05's rules.
Permitted: SPEC_NOTES LIFE-VERSION-COUNTER-OFFER, Alternatives ("a peer may answer with the
error instead, or counter-offer a different supported version"); MCP 2025-11-25, Lifecycle,
Version negotiation (another version the server supports; the latest is only a SHOULD).
Expected under ``spec``: no failure.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # examples/, for the shared _harness

from _harness import counter_offering, run

from mcpref.reference.dispatcher import ServerSession
from mcpref.reference.session_types import VersionPolicy
from mcpref.reference.versions import LEGACY, V2024_11_05

session = ServerSession(version_policy=VersionPolicy.COUNTER_OFFER)

if __name__ == "__main__":
    raise SystemExit(run(on_line=counter_offering(session, V2024_11_05, LEGACY), session=session))
