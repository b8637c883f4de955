"""Bug: ``server/discover`` is answered without ``supportedVersions``.

The DiscoverResult keeps its capabilities, cache fields and ``resultType`` but leaves out
the versions the server supports, which is what a client asks discovery for.
Imitates: servers that answer discovery with their capabilities only.
Caught as: MOD-DISCOVER, profile ``spec`` (``mcpref fuzz --protocol-version 2026-07-28``).
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # examples/, for the shared _harness

from _harness import run, without_result_member

from mcpref.reference.dispatcher import ServerSession
from mcpref.reference.session_types import Eras

if __name__ == "__main__":
    session = ServerSession(eras=Eras.MODERN)
    raise SystemExit(run(rewrite=without_result_member("supportedVersions"), session=session))
