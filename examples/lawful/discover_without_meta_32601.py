"""Lawful: ``server/discover`` without a ``_meta`` version is read as a legacy request: -32601.

Rule: MOD-DISCOVER (MUST; its decision on a malformed discover) and MOD-META-REQUIRED. The
reference takes ``server/discover`` as modern by its name and answers it without a good
``_meta`` with -32602; this dual-era server, like the Python SDK 2.3.0, reads a discover
whose ``_meta`` names no version as a legacy request for a method the legacy era does not
have: -32601 with its id (a well-formed modern discover is served as by the reference).
Permitted: SPEC_NOTES MOD-DISCOVER, Decision ("A dual-era server may instead read it as a
legacy request for an unknown method and answer -32601, as the Python SDK 2.3.0 does; the
spec profile accepts both"); MCP 2026-07-28, server/discover.
Expected under ``spec``: no failure with ``--protocol-version 2026-07-28``.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # examples/, for the shared _harness

from _harness import Handle, enveloped_request, run

from mcpref.reference.eras import DISCOVER, META_VERSION
from mcpref.reference.messages import METHOD_NOT_FOUND, encode, error_answer
from mcpref.reference.session_types import Effect, Send


def on_line(line: bytes, handle: Handle) -> list[Effect]:
    found = enveloped_request(line)
    if found is None or found[0].method != DISCOVER or META_VERSION in found[1]:
        return handle(line)
    request = found[0]
    return [Send(encode(error_answer(request.id, METHOD_NOT_FOUND, f"Method not found: {DISCOVER}")))]


if __name__ == "__main__":
    raise SystemExit(run(on_line=on_line))
