"""The two eras on stdio, behind one small interface: how a client speaks each.

An era (``Dialect``) says what opens a connection, how a request is written, which
request shows that a server is alive, and which requests belong to it on a connection
that carries both. The dispatcher asks ``era_of`` which era a request belongs to; the
strategies, the driver and the oracle write and read requests through a dialect. None
of them spells an era's methods or ``_meta`` keys: a new revision is a new dialect and
its rules.

Legacy (2024-11-05 to 2025-11-25): ``initialize`` and ``notifications/initialized``
open a session, ``ping`` is the probe, requests carry nothing of the session.
Modern (2026-07-28): no opening; every request carries its protocol version and the
client's capabilities in ``params._meta``; ``server/discover`` is the probe.
"""

from __future__ import annotations

from typing import Final, Protocol

from .. import __version__
from .messages import JsonObject, JsonValue, RequestId
from .versions import BY_NAME, Era, ProtocolVersion

META_VERSION: Final = "io.modelcontextprotocol/protocolVersion"
META_CAPABILITIES: Final = "io.modelcontextprotocol/clientCapabilities"
META_CLIENT_INFO: Final = "io.modelcontextprotocol/clientInfo"
META_SERVER_INFO: Final = "io.modelcontextprotocol/serverInfo"
# A request's ask for log messages; the reference writes none, whatever the level asked.
META_LOG_LEVEL: Final = "io.modelcontextprotocol/logLevel"
DISCOVER: Final = "server/discover"
INITIALIZE: Final = "initialize"
INITIALIZED: Final = "notifications/initialized"
PING: Final = "ping"

CLIENT_INFO: Final[JsonObject] = {"name": "mcpref", "version": __version__}


class Dialect(Protocol):
    era: Era

    def opening(self, request_id: RequestId, version: ProtocolVersion) -> list[JsonObject]:
        """What a client sends before its first request: the handshake, or nothing."""
        ...

    def request(self, request_id: RequestId, method: str, params: JsonObject, version: ProtocolVersion) -> JsonObject:
        """A request as a client of this era writes it."""
        ...

    def probe(self, request_id: RequestId, version: ProtocolVersion) -> JsonObject:
        """A request every server of this era answers at once, in any state: a liveness probe."""
        ...


def _request(request_id: RequestId, method: str, params: JsonObject) -> JsonObject:
    return {"jsonrpc": "2.0", "id": request_id, "method": method, "params": params}


class _Legacy:
    era = Era.LEGACY

    def opening(self, request_id: RequestId, version: ProtocolVersion) -> list[JsonObject]:
        params: JsonObject = {"protocolVersion": version.name, "capabilities": {}, "clientInfo": dict(CLIENT_INFO)}
        return [_request(request_id, INITIALIZE, params), {"jsonrpc": "2.0", "method": INITIALIZED}]

    def request(self, request_id: RequestId, method: str, params: JsonObject, version: ProtocolVersion) -> JsonObject:
        return _request(request_id, method, params)

    def probe(self, request_id: RequestId, version: ProtocolVersion) -> JsonObject:
        return {"jsonrpc": "2.0", "id": request_id, "method": PING}  # LIFE-PING: served in every phase


class _Modern:
    era = Era.MODERN

    def opening(self, request_id: RequestId, version: ProtocolVersion) -> list[JsonObject]:
        return []  # stateless: nothing opens a connection

    def request(self, request_id: RequestId, method: str, params: JsonObject, version: ProtocolVersion) -> JsonObject:
        return _request(request_id, method, {**params, "_meta": meta(version.name)})

    def probe(self, request_id: RequestId, version: ProtocolVersion) -> JsonObject:
        return self.request(request_id, DISCOVER, {}, version)  # MOD-DISCOVER: every modern server has it


def meta(version: JsonValue, capabilities: JsonValue = None) -> JsonObject:
    """The ``_meta`` of a modern request: its version, the client's capabilities and identity."""
    return {
        META_VERSION: version,
        META_CAPABILITIES: {} if capabilities is None else capabilities,
        META_CLIENT_INFO: dict(CLIENT_INFO),
    }


LEGACY: Final[Dialect] = _Legacy()
MODERN: Final[Dialect] = _Modern()
DIALECTS: Final[dict[Era, Dialect]] = {Era.LEGACY: LEGACY, Era.MODERN: MODERN}


def era_of(method: str, params: JsonObject | None) -> Era:
    """The era a request belongs to on a connection that may carry both (MOD-DUAL-ERA).

    ``initialize`` is legacy whatever it carries: it selects legacy semantics. Otherwise a
    request is modern when it is ``server/discover`` or its ``_meta`` names a protocol
    version: per-request metadata is what a modern request is.
    """
    if method == DISCOVER:
        return Era.MODERN
    if params is None or method == INITIALIZE:
        return Era.LEGACY  # no _meta, or the request that selects legacy semantics
    request_meta = params.get("_meta")
    if isinstance(request_meta, dict) and META_VERSION in request_meta:
        return Era.MODERN
    return Era.LEGACY


def modern_version(name: JsonValue) -> ProtocolVersion | None:
    """The modern version ``name`` names, if any: a legacy version is no per-request version."""
    version = BY_NAME.get(name) if isinstance(name, str) else None
    return version if version is not None and version.era is Era.MODERN else None
