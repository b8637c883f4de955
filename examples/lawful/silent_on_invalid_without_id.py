"""Lawful: an invalid object without an ``id`` member gets no answer, as if it were a notification.

Rule: RPC-INVALID-NO-ID (SHOULD). The reference answers ``{"jsonrpc":"2.0","method":1}``
with -32600 and id null; this server stays silent for every JSON object that has no id
and is not a valid message (a value that is not an object still gets -32600).
Permitted: SPEC_NOTES RPC-INVALID-NO-ID, Alternatives ("a peer may stay silent for any
id-less object, as the TypeScript SDK does for malformed notifications"); JSON-RPC 2.0
section 4.1 (a request without id is a notification and is never answered).
Expected under ``spec``: an RPC-INVALID-NO-ID warning at most, no failure.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # examples/, for the shared _harness

from _harness import Handle, run

from mcpref.reference.messages import Invalid, classify, parse_line
from mcpref.reference.session_types import Effect, Log


def on_line(line: bytes, handle: Handle) -> list[Effect]:
    value = parse_line(line)
    if isinstance(value, dict) and "id" not in value and isinstance(classify(value), Invalid):
        return [Log("ignored an invalid message without id")]
    return handle(line)


if __name__ == "__main__":
    raise SystemExit(run(on_line=on_line))
