"""Lawful: a second ``initialize`` is answered like a first one; nothing is renegotiated.

Rule: LIFE-SECOND-INIT (reference decision). The reference refuses any ``initialize`` after an
accepted one with -32600 "Already initialized"; this server answers it as a fresh session
would (an initialize result, or -32602 for bad params) and keeps the version and state it
has (the behaviour of ``examples/buggy/second_initialize.py``, which ``strict`` fails).
Permitted: SPEC_NOTES LIFE-SECOND-INIT, Alternatives ("the Python and TypeScript SDKs answer
a second initialize again; the spec profile warns"); MCP 2025-11-25, Lifecycle,
Initialization (the specification does not forbid it).
Expected under ``spec``: a LIFE-SECOND-INIT warning at most, no failure.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # examples/, for the shared _harness

from _harness import Handle, message_of, run

from mcpref.reference.dispatcher import ServerSession
from mcpref.reference.messages import INVALID_REQUEST, Request, encode, error_answer
from mcpref.reference.session_types import Effect, Send


def on_line(line: bytes, handle: Handle) -> list[Effect]:
    effects = handle(line)
    message = message_of(line)
    if not (isinstance(message, Request) and message.method == "initialize"):
        return effects
    if effects == [Send(encode(error_answer(message.id, INVALID_REQUEST, "Already initialized")))]:
        return ServerSession().receive_data(line + b"\n")
    return effects


if __name__ == "__main__":
    raise SystemExit(run(on_line=on_line))
