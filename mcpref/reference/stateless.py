"""What a modern (2026-07-28) request needs before it is served, and what its results carry.

A modern request is served from its own ``params._meta`` and from nothing else
(MOD-STATELESS): ``read_envelope`` takes the protocol version and the client's
capabilities from it, or says which answer refuses the request. Every result then
carries ``resultType`` and the server's identity (``complete``). Pure functions: the
dispatcher routes, this module decides.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from .eras import META_CAPABILITIES, META_SERVER_INFO, META_VERSION, modern_version
from .messages import INVALID_PARAMS, AnswerText, JsonObject, JsonValue, Request, error_text
from .versions import ProtocolVersion

UNSUPPORTED_PROTOCOL_VERSION: Final = -32022
MISSING_REQUIRED_CLIENT_CAPABILITY: Final = -32021

# The demo tools never change, and no answer depends on who asks.
TOOLS_TTL_MS: Final = 3_600_000
TOOLS_CACHE_SCOPE: Final = "public"


@dataclass(frozen=True)
class Envelope:
    """What a modern request says of itself: everything the server may know of the client."""

    version: ProtocolVersion
    capabilities: JsonObject


def read_envelope(request: Request, served: tuple[ProtocolVersion, ...], listed: list[str]) -> Envelope | AnswerText:
    """The request's envelope, or the refusal it gets; ``listed`` names every version served."""
    request_meta = (request.params or {}).get("_meta")
    if not isinstance(request_meta, dict):
        return _malformed(request, "params._meta is required")  # MOD-META-REQUIRED
    name = request_meta.get(META_VERSION)
    capabilities = request_meta.get(META_CAPABILITIES)
    if not isinstance(name, str):
        return _malformed(request, f"_meta {META_VERSION} must be a string")  # MOD-META-REQUIRED
    if not isinstance(capabilities, dict):
        return _malformed(request, f"_meta {META_CAPABILITIES} must be an object")  # MOD-META-REQUIRED
    version = modern_version(name)
    if version is None or version not in served:
        return unsupported(request, name, listed)  # MOD-VERSION-UNSUPPORTED
    return Envelope(version, capabilities)


def _malformed(request: Request, problem: str) -> AnswerText:
    return error_text(request.id, INVALID_PARAMS, f"Invalid params: {problem}")


def unsupported(request: Request, requested: JsonValue, listed: list[str]) -> AnswerText:
    data: JsonObject = {"supported": list(listed), "requested": requested}
    message = f"Unsupported protocol version; this server supports {', '.join(listed)}"
    return error_text(request.id, UNSUPPORTED_PROTOCOL_VERSION, message, data)


def missing_capability(request: Request, capability: str) -> AnswerText:
    data: JsonObject = {"requiredCapabilities": {capability: {}}}
    message = f"Missing required client capability: {capability}"
    return error_text(request.id, MISSING_REQUIRED_CLIENT_CAPABILITY, message, data)  # MOD-CAP-REQUIRED


def typed(result: JsonObject, server_info: JsonObject, result_type: str = "complete") -> JsonObject:
    """A result as the modern era writes it: typed, and naming its server."""
    return {**result, "resultType": result_type, "_meta": {META_SERVER_INFO: server_info}}  # MOD-RESULT-TYPE


def input_required(key: str, request: JsonObject) -> JsonObject:
    """The client must ask for input and retry; the retry carries everything (no requestState)."""
    return {"inputRequests": {key: request}}


def discover_result(listed: list[str], capabilities: JsonObject) -> JsonObject:
    return {
        "supportedVersions": list(listed),  # MOD-DISCOVER
        "capabilities": capabilities,
        "ttlMs": TOOLS_TTL_MS,
        "cacheScope": TOOLS_CACHE_SCOPE,
    }
