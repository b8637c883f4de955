"""Bug: an unsupported protocol version gets -32602, as the handshake era's example had it, not -32022.

A 2026-07-28 request naming a version the server does not serve is refused with the
legacy ``initialize`` error code, -32602 (its ``data`` kept).
Imitates: servers that kept their handshake-era version error for the per-request check.
Caught as: MOD-VERSION-UNSUPPORTED, profile ``spec`` (``mcpref fuzz --protocol-version 2026-07-28``).
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # examples/, for the shared _harness

from _harness import Answer, edit_answers, run

from mcpref.reference.dispatcher import ServerSession
from mcpref.reference.session_types import Eras
from mcpref.reference.stateless import UNSUPPORTED_PROTOCOL_VERSION


def legacy_code(answer: Answer) -> None:
    error = answer.get("error")
    if isinstance(error, dict) and error.get("code") == UNSUPPORTED_PROTOCOL_VERSION:
        error["code"] = -32602


if __name__ == "__main__":
    session = ServerSession(eras=Eras.MODERN)
    raise SystemExit(run(rewrite=lambda data: edit_answers(data, legacy_code), session=session))
