"""Lawful: a call naming a tool that does not exist gets -32601 instead of -32602.

Rule: TOOLS-UNKNOWN (SHOULD). The reference answers ``Unknown tool: <name>`` with -32602;
this server uses -32601, as some servers do (the tool, not the method, is missing).
Permitted: SPEC_NOTES TOOLS-UNKNOWN, Alternatives ("some servers answer -32601 or an isError
result; the spec profile warns"); MCP 2025-11-25, Tools, Error handling (the -32602 is an
example).
Expected under ``spec``: a TOOLS-UNKNOWN warning at most, no failure.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # examples/, for the shared _harness

from _harness import Answer, edit_answers, run

from mcpref.reference.messages import INVALID_PARAMS, METHOD_NOT_FOUND


def recode(answer: Answer) -> None:
    error = answer.get("error")
    if isinstance(error, dict) and error["code"] == INVALID_PARAMS and error["message"].startswith("Unknown tool:"):
        error["code"] = METHOD_NOT_FOUND


if __name__ == "__main__":
    raise SystemExit(run(rewrite=lambda data: edit_answers(data, recode)))
