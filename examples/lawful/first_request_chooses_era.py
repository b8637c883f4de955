"""Lawful: the first request chooses the era of the whole connection; the other era's requests are refused.

Rule: MOD-DUAL-ERA (reference decision). The reference serves both eras on one connection;
this server, like the Python SDK 2.3.0, lets the first request decide. After a legacy first
request (``initialize``, or any request without a ``_meta`` version), a modern request gets
-32600 with its id. After a modern first request, ``initialize`` gets -32022 naming
2026-07-28 (MOD-LEGACY-INIT) and every request is read as a modern one, so one without a
``_meta`` version gets -32602 (MOD-META-REQUIRED).
Permitted: SPEC_NOTES MOD-DUAL-ERA, Alternatives ("the Python SDK 2.3.0 lets the first request
decide the era of the whole connection and then refuses the other era's requests [...] The
specification allows that too"); MCP 2026-07-28, Versioning, Backward compatibility ("A
dual-era server MAY serve both eras concurrently").
Expected under ``spec``: a MOD-DUAL-ERA warning at most, no failure, in both eras.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # examples/, for the shared _harness

from _harness import Handle, message_of, run

from mcpref.reference import stateless
from mcpref.reference.eras import era_of
from mcpref.reference.messages import INVALID_PARAMS, INVALID_REQUEST, Request, encode, error_answer
from mcpref.reference.session_types import Effect, Send
from mcpref.reference.versions import Era

MODERN_ONLY = ["2026-07-28"]
chosen: Era | None = None


def on_line(line: bytes, handle: Handle) -> list[Effect]:
    global chosen
    message = message_of(line)
    if not isinstance(message, Request):
        return handle(line)
    era = era_of(message.method, message.params)
    chosen = chosen or era
    if chosen is Era.LEGACY and era is Era.MODERN:
        return [Send(encode(error_answer(message.id, INVALID_REQUEST, "Invalid request: this connection is legacy")))]
    if chosen is Era.MODERN and message.method == "initialize":
        requested = (message.params or {}).get("protocolVersion")
        return [Send((stateless.unsupported(message, requested, MODERN_ONLY) + "\n").encode())]
    if chosen is Era.MODERN and era is Era.LEGACY:
        problem = "Invalid params: params._meta with a protocol version is required"
        return [Send(encode(error_answer(message.id, INVALID_PARAMS, problem)))]
    return handle(line)


if __name__ == "__main__":
    raise SystemExit(run(on_line=on_line))
