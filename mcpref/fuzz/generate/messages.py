"""The messages mcpref writes.

``encode`` makes one line of a message; ``request``, ``notification`` and ``initialize``
build the JSON-RPC objects, ``INITIALIZED`` and ``PLAIN_HANDSHAKES`` the plain handshake.
The ids requests carry are drawn by ``ids``: this module imports no Hypothesis, so the
commands that only run fixed scenarios (check, replay ...) start without it.
"""

from __future__ import annotations

import json

from mcpref.reference import eras
from mcpref.reference.versions import SUPPORTED_NAMES

JsonDict = dict[str, object]


def encode(obj: object) -> bytes:
    """One message line, with raw non-ASCII characters so that multi-byte UTF-8 gets cut."""
    return json.dumps(obj, ensure_ascii=False, separators=(",", ":")).encode() + b"\n"


def request(request_id: object, method: str, params: JsonDict | None = None) -> JsonDict:
    message: JsonDict = {"jsonrpc": "2.0", "id": request_id, "method": method}
    if params is not None:
        message["params"] = params
    return message


def notification(method: str, params: JsonDict | None = None) -> JsonDict:
    message: JsonDict = {"jsonrpc": "2.0", "method": method}
    if params is not None:
        message["params"] = params
    return message


CLIENT_INFO: JsonDict = dict(eras.CLIENT_INFO)


def initialize(request_id: object, version: object, capabilities: JsonDict | None = None) -> JsonDict:
    params = {"protocolVersion": version, "capabilities": capabilities or {}, "clientInfo": CLIENT_INFO}
    return request(request_id, "initialize", params)


INITIALIZED = notification("notifications/initialized")
# The plain handshake of each version, which most cases start with: see ``Case.kept_handshake``.
PLAIN_HANDSHAKES = frozenset(encode(initialize("init-1", v)) + encode(INITIALIZED) for v in SUPPORTED_NAMES)
