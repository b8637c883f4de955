"""Lawful: a request whose ``_meta`` names a legacy version is served as a legacy request.

Rule: MOD-VERSION-UNSUPPORTED (MUST; its decision on legacy versions). The reference answers
a ``_meta`` naming, say, 2025-11-25 with -32022, since a legacy version is never a per-request
version; this dual-era server reads such a request as one of the legacy session (its
``_meta`` ignored): served after the handshake, "Not initialized" before it.
Permitted: SPEC_NOTES MOD-VERSION-UNSUPPORTED, Oracle ("For a legacy version named in _meta
the text does not say what to answer: any error is accepted, and a result is a warning under
spec"); MCP 2026-07-28, Versioning, Backward compatibility (era-ambiguous requests may be
processed under legacy semantics).
Expected under ``spec``: a MOD-VERSION-UNSUPPORTED warning at most, no failure.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # examples/, for the shared _harness

from _harness import Handle, enveloped_request, run

from mcpref.reference.eras import DISCOVER, META_VERSION
from mcpref.reference.session_types import Effect
from mcpref.reference.versions import SUPPORTED


def on_line(line: bytes, handle: Handle) -> list[Effect]:
    found = enveloped_request(line)
    legacy = {version.name for version in SUPPORTED}
    if found is None or found[0].method == DISCOVER or found[1].get(META_VERSION) not in legacy:
        return handle(line)
    request = found[0]
    params = {name: value for name, value in (request.params or {}).items() if name != "_meta"}
    return handle(json.dumps({"jsonrpc": "2.0", "id": request.id, "method": request.method, "params": params}).encode())


if __name__ == "__main__":
    raise SystemExit(run(on_line=on_line))
