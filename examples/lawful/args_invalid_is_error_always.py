"""Lawful: arguments that fail the tool's input schema get an ``isError`` result in every version.

Rule: TOOLS-ARGS-INVALID (SHOULD). Under 2024-11-05, 2025-03-26 and 2025-06-18 the reference
answers such a call with -32602 "Invalid arguments: ..."; this server answers a tools/call
result with the problem's text and ``isError: true`` there too, as 2025-11-25 does.
Permitted: SPEC_NOTES TOOLS-ARGS-INVALID, Alternatives ("a peer may use either form in any
version"); MCP 2025-06-18, Tools, Error handling (the forms are examples, hence SHOULD).
Expected under ``spec``: a TOOLS-ARGS-INVALID warning at most, no failure.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # examples/, for the shared _harness

from _harness import Answer, edit_answers, run

from mcpref.reference.messages import INVALID_PARAMS

PREFIX = "Invalid arguments: "


def as_result(answer: Answer) -> None:
    error = answer.get("error")
    if isinstance(error, dict) and error["code"] == INVALID_PARAMS and error["message"].startswith(PREFIX):
        del answer["error"]
        text = error["message"].removeprefix(PREFIX)
        answer["result"] = {"content": [{"type": "text", "text": text}], "isError": True}


if __name__ == "__main__":
    raise SystemExit(run(rewrite=lambda data: edit_answers(data, as_result)))
