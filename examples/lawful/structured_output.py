"""Lawful: tools with an output schema, and structured results that conform to it.

Rule: TOOLS-CALL-RESULT (MUST). From 2025-06-18 this server lists ``echo`` and ``lire_prix`` with an
``outputSchema``, and each success of theirs carries ``structuredContent`` beside its text:
``{"text": ...}`` and ``{"centimes": ...}`` through 2025-11-25; from 2026-07-28 ``echo``'s schema is
``{"type": "string"}`` and its structured content the bare string. ``lire_prix``'s error result (an
unknown product) carries none. Before 2025-06-18 nothing changes.
Permitted: MCP 2025-06-18, Server, Tools, Structured Content and Output Schema (a tool may give an
output schema; its structured results then conform); MCP 2026-07-28, the same sections (any JSON
value); the schema's ``CallToolResult``. An error result is not held to the schema: SPEC_NOTES
TOOLS-CALL-RESULT, Decision.
Expected under ``spec``: no failure.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # examples/, for the shared _harness

from _harness import Answer, Handle, edit_answers, message_of, request_version, run

from mcpref.reference.dispatcher import ServerSession
from mcpref.reference.messages import Request
from mcpref.reference.session_types import Effect, Send

session = ServerSession()
PRICE = {"type": "object", "properties": {"centimes": {"type": "integer"}}, "required": ["centimes"]}
ECHO = {"type": "object", "properties": {"text": {"type": "string"}}, "required": ["text"]}


def on_line(line: bytes, handle: Handle) -> list[Effect]:
    effects = handle(line)
    request = message_of(line)
    if not isinstance(request, Request) or request.method not in ("tools/list", "tools/call"):
        return effects
    version = request_version(session, line, request.method)
    if version is None or version < "2025-06-18":  # no structured output before
        return effects
    modern = version >= "2026-07-28"
    name = (request.params or {}).get("name")

    def structured(answer: Answer) -> None:
        result = answer.get("result")
        if not isinstance(result, dict):
            return
        for tool in result.get("tools", []):
            if tool.get("name") in ("echo", "lire_prix"):
                tool["outputSchema"] = PRICE if tool["name"] == "lire_prix" else {"type": "string"} if modern else ECHO
        if request.method == "tools/call" and result.get("isError") is False:
            text = result["content"][0]["text"]
            if name == "echo":
                result["structuredContent"] = text if modern else {"text": text}
            elif name == "lire_prix":
                result["structuredContent"] = {"centimes": int(text.split()[0])}

    return [Send(edit_answers(e.data, structured)) if isinstance(e, Send) else e for e in effects]


if __name__ == "__main__":
    raise SystemExit(run(on_line=on_line, session=session))
