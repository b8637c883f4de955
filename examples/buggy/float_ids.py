"""Bug: numeric ids pass through a 64-bit float, so ids beyond 2**53 come back rounded.

The reference echoes every id exactly (`9007199254740993` comes back as itself). Here each
integer id of an answer is rounded to the nearest double: `9007199254740993` comes back as
`9007199254740992`, an id the client never sent.
Imitates: mcp-go 0.4x (`mcp-time`) and any server that decodes ids as JSON numbers into a
float.
Caught as: RPC-ID-ECHO (the answer changed the id), profile ``spec``.
"""

from __future__ import annotations

from _harness import Answer, edit_answers, run


def through_a_float(answer: Answer) -> None:
    request_id = answer.get("id")
    if type(request_id) is int:
        answer["id"] = int(float(request_id))


if __name__ == "__main__":
    raise SystemExit(run(rewrite=lambda data: edit_answers(data, through_a_float)))
