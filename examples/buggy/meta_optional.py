"""Bug: a modern request without its ``_meta`` envelope is served anyway.

Where the version or the client capabilities are missing or malformed, the server
assumes 2026-07-28 and no capabilities instead of refusing the request with -32602.
Imitates: servers that default what the client did not send.
Caught as: MOD-META-REQUIRED, profile ``spec`` (``mcpref fuzz --protocol-version 2026-07-28``).
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # examples/, for the shared _harness

from _harness import Handle, enveloped_request, run, with_meta

from mcpref.reference.dispatcher import ServerSession
from mcpref.reference.eras import META_CAPABILITIES, META_VERSION
from mcpref.reference.session_types import Effect, Eras


def on_line(line: bytes, handle: Handle) -> list[Effect]:
    found = enveloped_request(line)
    if found is None:
        return handle(line)
    request, envelope = found
    if not isinstance(envelope.get(META_VERSION), str):
        envelope[META_VERSION] = "2026-07-28"
    if not isinstance(envelope.get(META_CAPABILITIES), dict):
        envelope[META_CAPABILITIES] = {}
    return handle(with_meta(request, envelope))


if __name__ == "__main__":
    raise SystemExit(run(on_line=on_line, session=ServerSession(eras=Eras.MODERN)))
