"""Bug: an invalid request is answered with -32700 and id null, although its id is readable.

The reference answers `{"jsonrpc":"2.0","id":5,"method":5}` with -32600 and id 5. Here
every -32600 with an id becomes -32700 "Parse error" with id null, so the client never
learns which of its requests failed.
Imitates: mcp-go 0.4x (`mcp-time`), whose struct decoder rejects the whole message when a
member has the wrong type, id included.
Caught as: RPC-INVALID-REQUEST, profile ``spec``; never as RPC-NOTIFICATION-SILENT, even
when a notification follows: the id-null error is the invalid request's own answer.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # examples/, for the shared _harness

from _harness import Answer, edit_answers, run

from mcpref.reference.messages import INVALID_REQUEST, PARSE_ERROR


def unread_id(answer: Answer) -> None:
    error = answer.get("error")
    if isinstance(error, dict) and error.get("code") == INVALID_REQUEST and answer.get("id") is not None:
        answer["id"] = None
        answer["error"] = {"code": PARSE_ERROR, "message": "Parse error"}


if __name__ == "__main__":
    raise SystemExit(run(rewrite=lambda data: edit_answers(data, unread_id)))
