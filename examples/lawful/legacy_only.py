"""Lawful: a server of the legacy era alone (``mcpref serve --eras legacy``).

Rule: MOD-DUAL-ERA (reference decision). By default the reference serves both eras on one
connection; this server serves only the handshake versions, so ``server/discover`` is an
unknown method (-32600 "Not initialized" before the handshake, -32601 after) and ``_meta``
is ignored.
Permitted: SPEC_NOTES MOD-DUAL-ERA (``--eras legacy``) and LIFE-PRE-INIT-REFUSED, Interop (a
dual-era client falls back to ``initialize`` on any error but -32022); MCP 2026-07-28,
Versioning, Backward compatibility (a server may implement the initialization-based
versions only), and server/discover (the fallback rule).
Expected under ``spec``: no failure; the modern era's rules are n/a.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # examples/, for the shared _harness

from _harness import run

from mcpref.reference.dispatcher import ServerSession
from mcpref.reference.session_types import Eras

if __name__ == "__main__":
    raise SystemExit(run(session=ServerSession(eras=Eras.LEGACY)))
