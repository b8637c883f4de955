"""Bug: a call that needs a client capability the request did not declare is refused with -32602.

The reference refuses such a call (``demander`` without ``elicitation``) with -32021, naming the
missing capability in ``data.requiredCapabilities``. Here that error goes out as -32602 "Invalid
params", with no data; with ``elicitation`` declared, the same call still asks for input as the
reference does, which shows what it needs.
Imitates: servers ported from the legacy era, where a missing capability had no error of its own.
Caught as: MOD-CAP-REQUIRED, profile ``spec`` (``mcpref fuzz --protocol-version 2026-07-28``).
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # examples/, for the shared _harness

from _harness import Answer, edit_answers, run


def as_invalid_params(answer: Answer) -> None:
    error = answer.get("error")
    if isinstance(error, dict) and error.get("code") == -32021:
        answer["error"] = {"code": -32602, "message": "Invalid params"}


if __name__ == "__main__":
    raise SystemExit(run(rewrite=lambda data: edit_answers(data, as_invalid_params)))
