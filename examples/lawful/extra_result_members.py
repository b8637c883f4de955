"""Lawful: results carry members the reference does not send: ``instructions`` and a vendor extension.

Rule: LIFE-INIT-RESULT (MUST; the reference sends "nothing else (no instructions)") and
RPC-RESPONSE-SHAPE. This server adds ``instructions`` to every initialize result and a
member ``x-lawful`` (an object) to every result, legacy and modern alike.
Permitted: the MCP schema gives InitializeResult an optional ``instructions`` string and
lets every Result carry further members ("[key: string]: unknown"), in every version (MCP
2025-11-25, Lifecycle, Initialization; schema.ts, ``Result``); JSON-RPC 2.0 section 5
(``result`` is defined by the method).
Expected under ``spec``: no failure.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # examples/, for the shared _harness

from _harness import Answer, edit_answers, run


def extend(answer: Answer) -> None:
    result = answer.get("result")
    if not isinstance(result, dict):
        return
    if "protocolVersion" in result and "serverInfo" in result:
        result["instructions"] = "Outils de démonstration : lire_prix, echo, fail, attendre."
    result["x-lawful"] = {"extension": True}


if __name__ == "__main__":
    raise SystemExit(run(rewrite=lambda data: edit_answers(data, extend)))
