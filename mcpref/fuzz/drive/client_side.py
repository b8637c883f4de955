"""What the driver reads in a target's stdout line as the client it stands for (``inspect_line``):
an answer to one of its liveness probes, or a request from the server, to be answered as a client
without capabilities answers it: ``-32601``, and ``{}`` for ``ping``."""

from __future__ import annotations

import json

from mcpref.fuzz.drive.echoes import Written

SENTINEL_ID = "mcpref-sentinel"
SENTINEL_IDS = (SENTINEL_ID, SENTINEL_ID + "-2")


def inspect_line(line: bytes, probes: tuple[str, ...], sent: Written) -> tuple[bool, bytes | None]:
    """Whether ``line`` answers one of ``probes``, and the reply to the request it holds, if any:
    none to a message the client wrote (``sent``), which an echo writes back."""
    # Only lines that may be a probe's answer or a request are parsed; a \u escape may spell either.
    if SENTINEL_ID.encode() not in line and b'"method"' not in line and b"\\u" not in line:
        return False, None
    try:
        value = json.loads(line)
    except (ValueError, RecursionError):
        return False, None
    if not isinstance(value, dict):
        return False, None
    if value.get("id") in probes and "method" not in value:
        return True, None
    if not (isinstance(value.get("method"), str) and "id" in value) or sent.echoed(value):
        return False, None  # answered, an echo would carry the answer back as the target's
    result: dict[str, object] = {"jsonrpc": "2.0", "id": value["id"]}
    if value["method"] == "ping":
        result["result"] = {}
    else:
        result["error"] = {"code": -32601, "message": "Method not found"}
    return False, (json.dumps(result) + "\n").encode()
