"""Bug: a modern request is served with the envelope of an earlier one.

The server keeps the last whole ``_meta`` it was sent (version and client capabilities)
and fills in what a later request leaves out or gets wrong from it, as if the connection
were a session. A request with a broken envelope is refused only until a whole one came.
Imitates: servers that cache the "negotiated" version and capabilities per connection.
Caught as: MOD-STATELESS, profile ``spec`` (``mcpref fuzz --protocol-version 2026-07-28``).
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # examples/, for the shared _harness

from _harness import Handle, enveloped_request, run, with_meta

from mcpref.reference.dispatcher import ServerSession
from mcpref.reference.eras import META_CAPABILITIES, META_VERSION
from mcpref.reference.session_types import Effect, Eras

KEYS = (META_VERSION, META_CAPABILITIES)
remembered: dict[str, object] = {}


def on_line(line: bytes, handle: Handle) -> list[Effect]:
    found = enveloped_request(line)
    if found is None:
        return handle(line)
    request, envelope = found
    if isinstance(envelope.get(META_VERSION), str) and isinstance(envelope.get(META_CAPABILITIES), dict):
        remembered.update((key, envelope[key]) for key in KEYS)
        return handle(line)
    if not remembered:
        return handle(line)
    return handle(with_meta(request, {**envelope, **remembered}))


if __name__ == "__main__":
    raise SystemExit(run(on_line=on_line, session=ServerSession(eras=Eras.MODERN)))
