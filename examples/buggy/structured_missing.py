"""Bug: a tool listed with an ``outputSchema`` answers without ``structuredContent``.

From 2025-06-18 the server lists ``echo`` with an output schema (``{"text": string}`` through
2025-11-25, a string from 2026-07-28), but its results still carry the text alone.
Imitates: servers that declare an output schema (often generated from a return type) on a
code path that builds the result by hand; the SDK clients refuse such a result ("has an
output schema but did not return structured content").
Caught as: TOOLS-CALL-RESULT, profile ``spec``, in both eras (``mcpref check``, and with
``--protocol-version 2026-07-28``).
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # examples/, for the shared _harness

from _harness import Answer, Handle, edit_answers, request_version, run

from mcpref.reference.dispatcher import ServerSession
from mcpref.reference.session_types import Effect, Send

session = ServerSession()


def on_line(line: bytes, handle: Handle) -> list[Effect]:
    effects = handle(line)
    version = request_version(session, line, "tools/list")
    if version is None or version < "2025-06-18":
        return effects
    schema = {"type": "string"} if version >= "2026-07-28" else {"type": "object", "required": ["text"]}

    def declared(answer: Answer) -> None:
        for tool in (answer.get("result") or {}).get("tools", []):
            if tool.get("name") == "echo":
                tool["outputSchema"] = schema

    return [Send(edit_answers(e.data, declared)) if isinstance(e, Send) else e for e in effects]


if __name__ == "__main__":
    raise SystemExit(run(on_line=on_line, session=session))
