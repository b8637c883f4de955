"""Lawful: methods of a capability the server did not announce get -32600 instead of -32601.

Rule: CAP-UNANNOUNCED-METHOD (reference decision). The reference answers ``resources/*``,
``prompts/*``, ``logging/*`` and ``completion/*`` with -32601 naming the missing capability;
this server answers -32600 (the request is not valid for what was negotiated), with the
same message.
Permitted: SPEC_NOTES CAP-UNANNOUNCED-METHOD, Alternatives ("a peer may answer another error
code; the spec profile warns"); MCP 2025-11-25, Lifecycle, Capability negotiation (no error
is prescribed for the legacy versions).
Expected under ``spec``: a CAP-UNANNOUNCED-METHOD warning at most, no failure.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # examples/, for the shared _harness

from _harness import Answer, edit_answers, run

from mcpref.reference.messages import INVALID_REQUEST, METHOD_NOT_FOUND


def recode(answer: Answer) -> None:
    error = answer.get("error")
    if isinstance(error, dict) and error["code"] == METHOD_NOT_FOUND and error["message"].startswith("Capability not"):
        error["code"] = INVALID_REQUEST


if __name__ == "__main__":
    raise SystemExit(run(rewrite=lambda data: edit_answers(data, recode)))
