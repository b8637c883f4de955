"""Bug: numeric ids pass through a 64-bit float, so ids beyond 2**53 come back rounded.

The reference echoes every id exactly (`9007199254740993` comes back as itself). Here each
integer id of an answer is rounded to the nearest double: `9007199254740993` comes back as
`9007199254740992`, an id the client never sent.
Imitates: mcp-go 0.4x (`mcp-time`) and any server that decodes ids as JSON numbers into a
float.
Caught as: RPC-JSON-LIMITS, profile ``strict``: RFC 8259 section 6 lets a peer read a number
beyond 2**53 as the nearest double, so ``spec`` warns only (SPEC_NOTES RPC-JSON-LIMITS).
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # examples/, for the shared _harness

from _harness import Answer, edit_answers, run


def through_a_float(answer: Answer) -> None:
    request_id = answer.get("id")
    if type(request_id) is int:
        answer["id"] = int(float(request_id))


if __name__ == "__main__":
    raise SystemExit(run(rewrite=lambda data: edit_answers(data, through_a_float)))
