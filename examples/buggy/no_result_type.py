"""Bug: modern results carry no ``resultType``.

Every result to a 2026-07-28 request comes back as a handshake-era result would: the
``resultType`` member is dropped (``_meta`` and everything else stay).
Imitates: servers ported from the handshake era that forgot the new required member.
Caught as: MOD-RESULT-TYPE, profile ``spec`` (``mcpref fuzz --protocol-version 2026-07-28``).
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # examples/, for the shared _harness

from _harness import run, without_result_member

from mcpref.reference.dispatcher import ServerSession
from mcpref.reference.session_types import Eras

if __name__ == "__main__":
    raise SystemExit(run(rewrite=without_result_member("resultType"), session=ServerSession(eras=Eras.MODERN)))
