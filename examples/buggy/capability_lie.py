"""Bug: the initialize result announces ``resources`` and ``prompts``, which do not work.

Capabilities are ``{"tools":{"listChanged":false},"resources":{},"prompts":{}}`` while
``resources/list`` and ``prompts/list`` still answer -32601, as in the reference.
Imitates: servers that copy a capabilities block from an example or a template.
Caught as: CAP-ANNOUNCED-METHODS, profile ``spec``.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # examples/, for the shared _harness

from _harness import Answer, edit_answers, run

CAPABILITIES = {"tools": {"listChanged": False}, "resources": {}, "prompts": {}}


def announce_more(answer: Answer) -> None:
    result = answer.get("result")
    if isinstance(result, dict) and "serverInfo" in result:  # only an initialize result has it
        result["capabilities"] = CAPABILITIES


if __name__ == "__main__":
    raise SystemExit(run(rewrite=lambda data: edit_answers(data, announce_more)))
