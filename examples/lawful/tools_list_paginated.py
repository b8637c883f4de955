"""Lawful: tools/list is paginated, one tool a page.

Rule: TOOLS-UNKNOWN (SHOULD) and TOOLS-LIST-SHAPE. Each tools/list result holds one tool and,
while more follow, a ``nextCursor`` ("p1", "p2", ...); a request whose ``params.cursor`` names
one gets that page. A client that fetched the first page only has not seen the other tools,
which the server still serves when they are called.
Permitted: MCP 2025-11-25, Server, Utilities, Pagination (the page size is the server's, and
``tools/list`` is one of the paginated operations), as in every version from 2024-11-05;
SPEC_NOTES TOOLS-UNKNOWN, Oracle.
Expected under ``spec``: no failure, and no warning for a call to a tool of a page not fetched
(TOOLS-UNKNOWN is untested: no scenario fetches every page).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # examples/, for the shared _harness

from _harness import Answer, Handle, edit_answers, message_of, run

from mcpref.reference.messages import Request
from mcpref.reference.session_types import Effect, Send


def on_line(line: bytes, handle: Handle) -> list[Effect]:
    message = message_of(line)
    if not (isinstance(message, Request) and message.method == "tools/list"):
        return handle(line)
    params = dict(message.params or {})
    cursor = params.pop("cursor", None)
    page = int(cursor[1:]) if isinstance(cursor, str) and cursor[1:].isdigit() else 0
    if cursor is not None:  # the reference's own list knows no cursor
        request = json.loads(line)
        request["params"] = params
        line = json.dumps(request).encode()

    def paged(answer: Answer) -> None:
        result = answer.get("result")
        if isinstance(result, dict) and isinstance(result.get("tools"), list):
            tools = result["tools"]
            result["tools"] = tools[page : page + 1]
            if page + 1 < len(tools):
                result["nextCursor"] = f"p{page + 1}"

    return [Send(edit_answers(e.data, paged)) if isinstance(e, Send) else e for e in handle(line)]


if __name__ == "__main__":
    raise SystemExit(run(on_line=on_line))
