"""Lawful: a request sent before the handshake is complete gets -32602 instead of -32600.

Rule: LIFE-PRE-INIT-REFUSED (reference decision). The reference answers legacy requests
other than ``ping`` and ``initialize`` before ``notifications/initialized`` with -32600 "Not
initialized"; this server answers them -32602, as the Python SDK does.
Permitted: SPEC_NOTES LIFE-PRE-INIT-REFUSED, Alternatives ("the Python SDK answers -32602,
and the TypeScript SDK serves the requests; the spec profile accepts any answer with a
warning"); MCP 2025-11-25, Lifecycle, Initialization (clients SHOULD NOT send such
requests; the server's reaction is not given).
Expected under ``spec``: a LIFE-PRE-INIT-REFUSED warning at most, no failure.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # examples/, for the shared _harness

from _harness import Answer, edit_answers, run

from mcpref.reference.messages import INVALID_PARAMS, INVALID_REQUEST


def recode(answer: Answer) -> None:
    error = answer.get("error")
    if isinstance(error, dict) and error["code"] == INVALID_REQUEST and error["message"] == "Not initialized":
        answer["error"] = {"code": INVALID_PARAMS, "message": "Received request before initialization was complete"}


if __name__ == "__main__":
    raise SystemExit(run(rewrite=lambda data: edit_answers(data, recode)))
