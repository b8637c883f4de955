"""Lawful: a call naming a tool that does not exist gets an ``isError`` result instead of -32602.

Rule: TOOLS-UNKNOWN (SHOULD). The reference answers ``Unknown tool: <name>`` with -32602;
this server answers a normal tools/call result with that text and ``isError: true`` (typed
with ``resultType`` for a modern request, MOD-RESULT-TYPE).
Permitted: SPEC_NOTES TOOLS-UNKNOWN, Alternatives ("some servers answer -32601 or an isError
result; the spec profile warns"); MCP 2025-11-25, Tools, Error handling.
Expected under ``spec``: a TOOLS-UNKNOWN warning at most, no failure.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # examples/, for the shared _harness

from _harness import Answer, Handle, edit_answers, message_of, run

from mcpref.reference import stateless
from mcpref.reference.dispatcher import SERVER_INFO
from mcpref.reference.eras import era_of
from mcpref.reference.messages import INVALID_PARAMS, JsonObject, Request
from mcpref.reference.session_types import Effect, Send
from mcpref.reference.versions import Era


def on_line(line: bytes, handle: Handle) -> list[Effect]:
    effects = handle(line)
    message = message_of(line)
    if not (isinstance(message, Request) and message.method == "tools/call"):
        return effects
    modern = era_of(message.method, message.params) is Era.MODERN

    def as_result(answer: Answer) -> None:
        error = answer.get("error")
        if isinstance(error, dict) and error["code"] == INVALID_PARAMS and error["message"].startswith("Unknown tool:"):
            result: JsonObject = {"content": [{"type": "text", "text": error["message"]}], "isError": True}
            del answer["error"]
            answer["result"] = stateless.typed(result, SERVER_INFO) if modern else result

    return [Send(edit_answers(e.data, as_result)) if isinstance(e, Send) else e for e in effects]


if __name__ == "__main__":
    raise SystemExit(run(on_line=on_line))
