"""Lawful: ``initialize`` for an unsupported version is answered with a result naming 2025-11-25.

Rule: LIFE-VERSION-UNSUPPORTED (MUST), LIFE-VERSION-REJECT and LIFE-VERSION-COUNTER-OFFER
(reference decisions). By default the reference refuses with -32602 "Unsupported protocol
version"; this server counter-offers its latest version, as ``mcpref serve --version-policy
counter-offer`` does, and the session runs at that version.
Permitted: SPEC_NOTES LIFE-VERSION-UNSUPPORTED ("the spec profile accepts both") and
LIFE-VERSION-REJECT, Alternatives ("a peer may counter-offer a supported version instead");
MCP 2025-11-25, Lifecycle, Version negotiation ("the server MUST respond with another
protocol version it supports").
Expected under ``spec``: no failure.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # examples/, for the shared _harness

from _harness import run

from mcpref.reference.dispatcher import ServerSession
from mcpref.reference.session_types import VersionPolicy

if __name__ == "__main__":
    raise SystemExit(run(session=ServerSession(version_policy=VersionPolicy.COUNTER_OFFER)))
