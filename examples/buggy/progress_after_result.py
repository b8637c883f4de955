"""Bug: a tool call that asked for progress gets a last progress notification after its result.

The reference reports no progress, which the specification allows. Here, once the result of
a ``tools/call`` carrying ``_meta.progressToken`` (legacy or modern) is written, a
``notifications/progress`` for that token follows it: the operation it reports on is already
complete.
Imitates: servers that report "done" from a callback that runs after the answer is sent.
Caught as: PROGRESS-TOKEN, profile ``spec``, in both eras.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # examples/, for the shared _harness

from _harness import Handle, call_request, notification, progress_token, run

from mcpref.reference.session_types import Effect

# The token of each call that asked for progress, by the call's id as the answer spells it.
TOKENS: dict[str, str | int] = {}


def on_line(line: bytes, handle: Handle) -> list[Effect]:
    found = call_request(line, "tools/call")
    token = None if found is None else progress_token(found[1])
    if found is not None and token is not None:
        TOKENS[json.dumps(found[0].id)] = token
    return handle(line)


def rewrite(data: bytes) -> bytes:
    answer = json.loads(data)
    token = TOKENS.pop(json.dumps(answer.get("id")), None) if isinstance(answer, dict) else None
    if token is None:
        return data
    return data + notification("notifications/progress", {"progressToken": token, "progress": 1}).data


if __name__ == "__main__":
    raise SystemExit(run(on_line=on_line, rewrite=rewrite))
