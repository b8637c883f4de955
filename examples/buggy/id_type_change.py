"""Bug: in answers, a string id made only of ASCII digits is written back as a number ("7" -> 7).

Imitates: servers that key pending requests by ``Number(id)`` or ``int(id)`` and answer
with the key instead of the id they received.
Caught as: RPC-ID-ECHO, profile ``spec``.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # examples/, for the shared _harness

from _harness import Answer, edit_answers, run

DIGITS = re.compile(r"[0-9]{1,4300}")  # int() refuses longer strings


def numeric_id(answer: Answer) -> None:
    if isinstance(answer["id"], str) and DIGITS.fullmatch(answer["id"]):
        answer["id"] = int(answer["id"])


if __name__ == "__main__":
    raise SystemExit(run(rewrite=lambda data: edit_answers(data, numeric_id)))
