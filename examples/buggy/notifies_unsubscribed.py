"""Bug: a modern tool call is followed by a tools list-changed notification nobody subscribed to.

The reference writes no list-changed notification. Here every modern ``tools/call`` that is
served is followed by ``notifications/tools/list_changed``: in 2026-07-28 such notifications
travel only on a ``subscriptions/listen`` stream that asked for them, and mcpref opens none.
Imitates: servers ported from the legacy era that still broadcast list changes to every client.
Caught as: MOD-LISTEN-ONLY, profile ``spec`` (``mcpref fuzz --protocol-version 2026-07-28``).
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # examples/, for the shared _harness

from _harness import Handle, enveloped_request, notification, run, served_at_once

from mcpref.reference.eras import META_VERSION
from mcpref.reference.session_types import Effect


def on_line(line: bytes, handle: Handle) -> list[Effect]:
    effects = handle(line)
    found = enveloped_request(line)
    if found is None or found[0].method != "tools/call" or META_VERSION not in found[1] or not served_at_once(effects):
        return effects
    return [*effects, notification("notifications/tools/list_changed")]


if __name__ == "__main__":
    raise SystemExit(run(on_line=on_line))
