"""The messages mcpref writes, and the ids its requests carry.

``encode`` makes one line of a message; ``request``, ``notification`` and ``initialize``
build the JSON-RPC objects, ``INITIALIZED`` and ``PLAIN_HANDSHAKES`` the plain handshake.

Ids are unique within a case (made from the message's position), so every answer can
be matched to exactly one request; their shapes are the hostile part: huge integers,
negative ones, numeric strings, non-ASCII strings, raw U+2028 inside a string.
"""

from __future__ import annotations

import json
from collections.abc import Callable

from hypothesis import strategies as st

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


# Strategies are built once, here: building one per draw costs Hypothesis more than drawing from it.
_ID_SHAPES: tuple[Callable[[int], int | str], ...] = (
    lambda index: index,
    str,
    lambda index: 2**53 + 1 + index,
    lambda index: -1 - index,
    lambda index: f"é-{index}",
    lambda index: f"\u2028{index}",
    lambda index: f"日本{index}",
    lambda index: 10**30 + index,
)
ID_SHAPES = st.sampled_from(_ID_SHAPES)


def valid_id(draw: st.DrawFn, index: int) -> int | str:
    """A well-formed id made from the message's position, in one of the shapes peers mishandle."""
    return draw(ID_SHAPES, label="id")(index)


INVALID_IDS: st.SearchStrategy[object] = st.sampled_from([None, True, False, 1.5, 1.0, {}, [], {"id": 1}])
