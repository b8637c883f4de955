"""Lawful: arguments that fail the tool's input schema get -32602 in every version, 2025-11-25 included.

Rule: TOOLS-ARGS-INVALID (SHOULD). From 2025-11-25 (and in 2026-07-28) the reference answers
such a call with an ``isError`` result describing the problem; this server keeps the older
versions' -32602 "Invalid arguments: ..." everywhere, as many SDKs still do.
Permitted: SPEC_NOTES TOOLS-ARGS-INVALID, Alternatives ("a peer may use either form in any
version (many SDKs still send -32602 under 2025-11-25); the spec profile accepts both with a
warning"); MCP 2025-11-25, Tools, Error handling and changelog (SEP-1303, given as examples).
Expected under ``spec``: a TOOLS-ARGS-INVALID warning at most, no failure.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # examples/, for the shared _harness

from _harness import Answer, Handle, edit_answers, message_of, run

from mcpref.reference import tools
from mcpref.reference.messages import INVALID_PARAMS, Request, error_answer
from mcpref.reference.session_types import Effect, Send


def argument_problem(message: object) -> str | None:
    if not (isinstance(message, Request) and message.method == "tools/call" and message.params):
        return None
    tool = tools.BY_NAME.get(message.params.get("name"))  # type: ignore[arg-type]
    arguments = message.params.get("arguments", {})
    if tool is None or not isinstance(arguments, dict):
        return None
    return tools.argument_problem(tool.input_schema, arguments)


def on_line(line: bytes, handle: Handle) -> list[Effect]:
    effects = handle(line)
    message = message_of(line)
    problem = argument_problem(message)
    if problem is None:
        return effects
    assert isinstance(message, Request)

    def as_error(answer: Answer) -> None:
        result = answer.get("result")
        if isinstance(result, dict) and result.get("isError") is True:
            answer.clear()
            answer.update(error_answer(message.id, INVALID_PARAMS, f"Invalid arguments: {problem}"))

    return [Send(edit_answers(e.data, as_error)) if isinstance(e, Send) else e for e in effects]


if __name__ == "__main__":
    raise SystemExit(run(on_line=on_line))
