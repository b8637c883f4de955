"""Bug: resources/read answers contents whose items lack their ``uri``.

Unlike the reference, this server announces ``resources``, ``prompts``, ``completions`` and
``tasks.list``, and serves them (``RESULTS``): one resource, one resource template, one prompt with
a required argument, completions, and one task. Its resources/read result is the one bug: each
item of ``contents`` has its text but no ``uri``, which every version's schema requires.
Imitates: servers that build a read result by hand from the file's text alone.
Caught as: RESOURCES-SHAPE, profile ``spec``, in both eras, by ``mcpref check``'s follow-up
scenario that reads the first resource the server listed.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # examples/, for the shared _harness

from _harness import Answer, Handle, edit_answers, enveloped_request, run

from mcpref.reference.eras import META_VERSION
from mcpref.reference.session_types import Effect, Send

ANNOUNCED = {"resources": {}, "prompts": {}, "completions": {}, "tasks": {"list": {}}}
TASK = {
    "taskId": "t-1",
    "status": "completed",
    "createdAt": "2025-11-25T10:30:00Z",
    "lastUpdatedAt": "2025-11-25T10:31:00Z",
    "ttl": None,
}
# The result of each method served, as the schema of every version it exists in requires.
RESULTS: dict[str, Any] = {
    "resources/list": {"resources": [{"uri": "file:///menu.txt", "name": "menu"}]},
    "resources/templates/list": {"resourceTemplates": [{"uriTemplate": "file:///recettes/{plat}", "name": "recette"}]},
    "resources/read": {"contents": [{"uri": "file:///menu.txt", "text": "pain, croissant"}]},
    "prompts/list": {"prompts": [{"name": "commande", "arguments": [{"name": "produit", "required": True}]}]},
    "prompts/get": {"messages": [{"role": "user", "content": {"type": "text", "text": "Un croissant."}}]},
    "completion/complete": {"completion": {"values": ["croissant"]}},
    "tasks/list": {"tasks": [TASK]},
    "tasks/get": TASK,
}
BUG = {"resources/read": {"contents": [{"text": "pain, croissant"}]}}


def announced(answer: Answer) -> None:
    """An initialize result (it has ``serverInfo``) or a DiscoverResult announces ``ANNOUNCED`` too."""
    result = answer.get("result")
    if isinstance(result, dict) and ("serverInfo" in result or "supportedVersions" in result):
        result["capabilities"] = {**result.get("capabilities", {}), **ANNOUNCED}


def serve(results: dict[str, Any]) -> int:
    """Serve as the reference does, but for the methods of ``results``, which the reference refuses
    as unknown (-32601) once the session is open: they get their result instead."""

    def on_line(line: bytes, handle: Handle) -> list[Effect]:
        effects = handle(line)
        found = enveloped_request(line)
        refused = any(isinstance(e, Send) and b'"code":-32601' in e.data.replace(b" ", b"") for e in effects)
        if found is None or found[0].method not in results or not refused:
            return effects
        request, envelope = found
        result = dict(results[request.method])
        if META_VERSION in envelope:  # a modern request: a typed result, with the cache members of 2026-07-28
            result |= {"resultType": "complete", "ttlMs": 0, "cacheScope": "private"}
        answer = {"jsonrpc": "2.0", "id": request.id, "result": result}
        return [Send(json.dumps(answer).encode() + b"\n")]

    return run(on_line=on_line, rewrite=lambda data: edit_answers(data, announced))


if __name__ == "__main__":
    raise SystemExit(serve({**RESULTS, **BUG}))
