"""Hostile target: sends the client requests it has no capability for, then serves normally.

It answers the client's own requests only once every request it sent was answered as a
client without sampling, roots or elicitation must answer: -32601, and {} for ping.
Until then it stays silent, so a client that never answers sees a deaf server.
"""

import json
import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from mcpref.reference.dispatcher import ServerSession
from mcpref.reference.session_types import Effect, Send, StartTimer

ASKED = {"s1": "sampling/createMessage", "r1": "roots/list", "e1": "elicitation/create", "p1": "ping"}
PARAMS = {  # each as its schema requires: the shape is not what is tried here
    "sampling/createMessage": {"messages": [], "maxTokens": 1},
    "elicitation/create": {"message": "?", "requestedSchema": {"type": "object", "properties": {}}},
}
for request_id, method in ASKED.items():
    request = {"jsonrpc": "2.0", "id": request_id, "method": method, "params": PARAMS.get(method, {})}
    os.write(1, json.dumps(request).encode() + b"\n")
answered: set[str] = set()
held: list[bytes] = []
session = ServerSession()


def perform(effects: list[Effect]) -> None:
    for effect in effects:
        if isinstance(effect, Send):
            os.write(1, effect.data)
        elif isinstance(effect, StartTimer):
            perform(session.complete(effect.token))  # attendre answers at once here
buffer = b""
while chunk := os.read(0, 65536):
    buffer += chunk
    *lines, buffer = buffer.split(b"\n")
    for line in lines:
        try:
            message = json.loads(line)
        except (ValueError, RecursionError):
            message = None
        if (
            isinstance(message, dict)
            and isinstance(message.get("id"), str)
            and message["id"] in ASKED
            and "method" not in message
        ):
            wanted_ping = ASKED[message["id"]] == "ping"
            ok = message.get("result") == {} if wanted_ping else message.get("error", {}).get("code") == -32601
            if ok:
                answered.add(message["id"])
            continue
        held.append(line + b"\n")
    if answered == set(ASKED):
        for line in held:
            perform(session.receive_data(line))
        held = []
