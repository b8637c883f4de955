"""Lawful: a modern ``ping`` (one whose ``_meta`` names a version) is still answered, with a typed ``{}``.

Rule: MOD-PING-GONE (reference decision). The reference answers a modern ``ping`` that passed
its ``_meta`` checks with -32601 ("removed in 2026-07-28"); this server keeps serving it, with
the empty result typed as every modern result is (``resultType`` "complete").
Permitted: SPEC_NOTES MOD-PING-GONE, Alternatives ("a server that still answers a modern
ping, or refuses it with another code, diverges from the reference: a warning under spec");
MCP 2026-07-28 changelog (ping removed; no reaction prescribed for a server that keeps it).
Expected under ``spec``: a MOD-PING-GONE warning at most, no failure, in both eras.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # examples/, for the shared _harness

from _harness import Handle, message_of, run

from mcpref.reference import stateless
from mcpref.reference.dispatcher import SERVER_INFO
from mcpref.reference.messages import METHOD_NOT_FOUND, Request, answer_line, error_text, result_text
from mcpref.reference.session_types import Effect, Send

GONE = "Method not found: ping (removed in 2026-07-28)"


def on_line(line: bytes, handle: Handle) -> list[Effect]:
    effects = handle(line)
    message = message_of(line)
    if isinstance(message, Request) and effects == [Send(answer_line(error_text(message.id, METHOD_NOT_FOUND, GONE)))]:
        return [Send(answer_line(result_text(message.id, stateless.typed({}, SERVER_INFO))))]
    return effects


if __name__ == "__main__":
    raise SystemExit(run(on_line=on_line))
