"""Bug: a second ``initialize`` after a successful one is answered again like a first one.

The reference refuses it with -32600 "Already initialized". Here it gets the answer a
fresh session would give (a new initialize result, or -32602 for bad params); the
session's state is left as it was, so everything else stays exactly like the reference.
Imitates: servers without a handshake state machine that re-run their initialize handler.
Caught as: LIFE-SECOND-INIT, profile ``strict`` only (the specification does not forbid it).
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
    if isinstance(message, Request) and message.method == "initialize":
        refusal = Send(encode(error_answer(message.id, INVALID_REQUEST, "Already initialized")))
        if effects == [refusal]:
            return ServerSession().receive_data(line + b"\n")
    return effects


if __name__ == "__main__":
    raise SystemExit(run(on_line=on_line))
