"""Lawful: under 2025-11-25 an error whose request id cannot be read omits ``id`` instead of writing null.

Rule: RPC-ERROR-ID-NULL (reference decision). The reference writes ``"id": null`` in every
such error; once 2025-11-25 is negotiated this server leaves the member out (parse errors,
invalid ids, non-objects, over-long lines, arrays). Before a version is negotiated, and
under the other versions, it writes null as the reference does.
Permitted: SPEC_NOTES RPC-ERROR-ID-NULL, Alternatives ("under 2025-11-25 a peer may omit id
from such an error, as that version's schema allows"); MCP 2025-11-25, Basic, Error
responses (the id may be omitted when it could not be read).
Expected under ``spec``: an RPC-ERROR-ID-NULL warning at most, no failure.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # examples/, for the shared _harness

from _harness import Answer, edit_answers, run

from mcpref.reference.dispatcher import ServerSession

session = ServerSession()


def omit_null_id(answer: Answer) -> None:
    if "error" in answer and answer.get("id") is None:
        del answer["id"]


def rewrite(data: bytes) -> bytes:
    version = session.version
    if version is None or not version.error_id_may_be_omitted or data.startswith(b"["):
        return data
    return edit_answers(data, omit_null_id)


if __name__ == "__main__":
    raise SystemExit(run(rewrite=rewrite, session=session))
