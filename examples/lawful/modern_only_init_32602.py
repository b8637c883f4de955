"""Lawful: a server of the modern era alone that refuses ``initialize`` with -32602 instead of -32022.

Rule: MOD-LEGACY-INIT (SHOULD) and MOD-DUAL-ERA. Under ``--eras modern`` the reference
answers every ``initialize`` with -32022 and ``data`` ``{"supported": ["2026-07-28"],
"requested": ...}``; this modern-only server answers -32602 (the handshake era's code for an
unsupported version, which a legacy client knows) with the same message and ``data``.
Permitted: SPEC_NOTES MOD-LEGACY-INIT ("The specification leaves the code to the
implementation"; the SHOULD asks only that the error name the versions served); MCP
2026-07-28, Versioning, Backward compatibility with initialization-based versions.
Expected under ``spec``: no failure with ``--protocol-version 2026-07-28``.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # examples/, for the shared _harness

from _harness import Answer, Handle, edit_answers, message_of, run

from mcpref.reference.dispatcher import ServerSession
from mcpref.reference.messages import INVALID_PARAMS, Request
from mcpref.reference.session_types import Effect, Eras, Send

UNSUPPORTED_PROTOCOL_VERSION = -32022


def recode(answer: Answer) -> None:
    error = answer.get("error")
    if isinstance(error, dict) and error["code"] == UNSUPPORTED_PROTOCOL_VERSION:
        error["code"] = INVALID_PARAMS


def on_line(line: bytes, handle: Handle) -> list[Effect]:
    effects = handle(line)
    message = message_of(line)
    if not (isinstance(message, Request) and message.method == "initialize"):
        return effects  # a modern request's -32022 stays (MOD-VERSION-UNSUPPORTED)
    return [Send(edit_answers(e.data, recode)) if isinstance(e, Send) else e for e in effects]


if __name__ == "__main__":
    raise SystemExit(run(on_line=on_line, session=ServerSession(eras=Eras.MODERN)))
