"""Lawful: a tool that ran and failed is reported as a JSON-RPC error, not as an ``isError`` result.

Rule: TOOLS-EXEC-ERROR (SHOULD). The reference answers ``fail`` and ``lire_prix`` of an
unknown product with a result carrying ``isError: true``; this server answers them with
-32603 and the tool's text in ``data``. Arguments that fail the input schema keep the
reference's answer (TOOLS-ARGS-INVALID).
Permitted: SPEC_NOTES TOOLS-EXEC-ERROR, Alternatives ("a peer may report a tool failure as
a JSON-RPC error; the spec profile warns"); MCP 2025-11-25, Tools, Error handling (tool
errors SHOULD be reported in the result; a recommendation).
Expected under ``spec``: a TOOLS-EXEC-ERROR warning at most, no failure.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # examples/, for the shared _harness

from _harness import Answer, Handle, edit_answers, message_of, run

from mcpref.reference import tools
from mcpref.reference.messages import INTERNAL_ERROR, Request, error_answer
from mcpref.reference.session_types import Effect, Send


def ran(message: object) -> bool:
    """A tools/call whose tool exists and whose arguments fit its schema."""
    if not (isinstance(message, Request) and message.method == "tools/call" and message.params):
        return False
    tool = tools.BY_NAME.get(message.params.get("name"))  # type: ignore[arg-type]
    arguments = message.params.get("arguments", {})
    return (
        tool is not None
        and isinstance(arguments, dict)
        and tools.argument_problem(tool.input_schema, arguments) is None
    )


def on_line(line: bytes, handle: Handle) -> list[Effect]:
    effects = handle(line)
    message = message_of(line)
    if not ran(message):
        return effects
    assert isinstance(message, Request)

    def as_error(answer: Answer) -> None:
        result = answer.get("result")
        if isinstance(result, dict) and result.get("isError") is True:
            text = result["content"][0]["text"]
            answer.clear()
            answer.update(error_answer(message.id, INTERNAL_ERROR, "Tool execution failed", {"text": text}))

    return [Send(edit_answers(e.data, as_error)) if isinstance(e, Send) else e for e in effects]


if __name__ == "__main__":
    raise SystemExit(run(on_line=on_line))
