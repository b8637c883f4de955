"""The oracle's judgement of modern (2026-07-28) requests: each from its own ``_meta``, none from the session.

Whether the server speaks the modern era at all is learnt from its answers, as a dual-era
client learns it (``ModernServer``): a DiscoverResult, a typed result (``resultType``), or a
modern error (-32022, -32021) identifies a modern server. A server that never showed it has
no modern rule to break: its answers to modern-looking requests are judged as legacy ones,
since a legacy server may read them under legacy semantics (MOD-DUAL-ERA).

For a modern server, ``ModernJudge.judge`` checks what the era adds to a request: its
envelope (MOD-META-REQUIRED), its version (MOD-VERSION-UNSUPPORTED), the result type
(MOD-RESULT-TYPE), discovery (MOD-DISCOVER), capabilities (MOD-CAP-REQUIRED), the cache
fields (MOD-TOOLS-CACHE) and ``ping`` (MOD-PING-GONE); what the server writes unasked is
``modern_initiative``'s. A request that a server could only
have served with what an earlier request declared is a MOD-STATELESS finding. What a
method's result must hold beyond that is judged by the caller, as for legacy requests.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Collection
from dataclasses import dataclass, field
from typing import Final

from mcpref.fuzz.judge.reading import Request, parse_line
from mcpref.reference.eras import META_CAPABILITIES, META_VERSION
from mcpref.reference.messages import INVALID_PARAMS, INVALID_REQUEST, METHOD_NOT_FOUND, JsonObject, JsonValue
from mcpref.reference.versions import KNOWN, Era

UNSUPPORTED_PROTOCOL_VERSION: Final = -32022
MISSING_REQUIRED_CLIENT_CAPABILITY: Final = -32021
MODERN_ERRORS: Final = frozenset({UNSUPPORTED_PROTOCOL_VERSION, MISSING_REQUIRED_CLIENT_CAPABILITY})

MODERN_NAMES: Final = frozenset(v.name for v in KNOWN if v.era is Era.MODERN)
LEGACY_NAMES: Final = frozenset(v.name for v in KNOWN if v.era is Era.LEGACY)
RESULT_TYPES: Final = frozenset({"complete", "input_required"})
# Requests on which a server may ask for input (multi round-trip requests).
MAY_ASK: Final = frozenset({"tools/call", "prompts/get", "resources/read"})
# The client capability each kind of input request needs.
INPUT_CAPABILITIES: Final = {"elicitation/create": "elicitation", "sampling/createMessage": "sampling", "roots/list": "roots"}
CACHE_SCOPES: Final = frozenset({"public", "private"})
# The notifications of a subscriptions/listen stream, each with the filter member that asks for it.
LISTEN_FILTER_OF: Final = {
    "notifications/tools/list_changed": "toolsListChanged",
    "notifications/prompts/list_changed": "promptsListChanged",
    "notifications/resources/list_changed": "resourcesListChanged",
    "notifications/resources/updated": "resourceSubscriptions",
    "notifications/tasks": "taskIds",  # the tasks extension (io.modelcontextprotocol/tasks)
}

_CAPABILITY_PREFIXES = {
    "tools/": "tools",
    "resources/": "resources",
    "prompts/": "prompts",
    "logging/": "logging",
    "completion/": "completions",
    "tasks/": "tasks",
}


def updated_uri(value: JsonObject) -> JsonValue:
    """The ``uri`` a resource update names; None for another message, or params no object (at an unknown version)."""
    params = value.get("params")
    if value.get("method") != "notifications/resources/updated" or not isinstance(params, dict):
        return None
    return params.get("uri")


def task_id(value: JsonObject) -> JsonValue:
    """The ``taskId`` a task notification of the tasks extension names (None for another message)."""
    params = value.get("params")
    if value.get("method") != "notifications/tasks" or not isinstance(params, dict):
        return None
    return params.get("taskId")


def capability_of(method: str) -> str | None:
    """The server capability a method belongs to, by its group prefix."""
    prefix, slash, _ = method.partition("/")
    return _CAPABILITY_PREFIXES.get(prefix + slash)


Find = Callable[[str, int | None, str, str, str, bool | None], None]


@dataclass
class ModernServer:
    """What the answers of a whole session show of the server's modern era."""

    speaks: bool = False  # some answer is one only a modern server gives
    only: bool = False  # it also refused a well-formed initialize: legacy requests are malformed modern ones
    capabilities: JsonObject | None = None  # from a DiscoverResult, when one was seen
    lists_legacy: bool = False  # a DiscoverResult named a legacy version among those it serves

    def learn(self, answer: JsonObject) -> None:
        result = answer.get("result")
        if isinstance(result, dict):
            versions = result.get("supportedVersions")
            if "resultType" in result or isinstance(versions, list):
                self.speaks = True
            if isinstance(versions, list) and any(isinstance(v, str) and v in LEGACY_NAMES for v in versions):
                self.lists_legacy = True
            if isinstance(result.get("supportedVersions"), list) and isinstance(result.get("capabilities"), dict):
                self.capabilities = result["capabilities"]  # type: ignore[assignment]
        elif error_code(answer) in MODERN_ERRORS and not _names_versions_alone(answer, LEGACY_NAMES):
            # A -32022 naming legacy versions alone says the server serves no modern one: a dual-era
            # client falls back to initialize, and the server is judged as the legacy one it is.
            self.speaks = True
        elif _names_versions_alone(answer, MODERN_NAMES):
            self.speaks = True


def _names_versions_alone(answer: JsonObject, names: Collection[str]) -> bool:
    """A version error whose ``data.supported`` names some of ``names`` and no other version: with
    modern names, a server of that era alone, refusing ``initialize`` with a code of the handshake
    era (MOD-LEGACY-INIT); with legacy names, one of the handshake era alone."""
    error = answer.get("error")
    data = error.get("data") if isinstance(error, dict) else None
    supported = data.get("supported") if isinstance(data, dict) else None
    return isinstance(supported, list) and bool(supported) and all(isinstance(name, str) and name in names for name in supported)


def speaks_modern(output: tuple[bytes, ...]) -> bool:
    """Whether any line the server wrote is an answer only a modern server gives."""
    server = ModernServer()
    for line in output:
        value = parse_line(line)
        for item in value if isinstance(value, list) else [value]:
            if isinstance(item, dict):
                server.learn(item)
    return server.speaks


def is_modern(request: Request) -> bool:
    """A request that carries the modern era's per-request metadata, or its discovery."""
    if request.method == "server/discover":
        return True
    request_meta = (request.params or {}).get("_meta")
    return isinstance(request_meta, dict) and META_VERSION in request_meta


def error_code(answer: JsonObject) -> int | None:
    """The integer code of an error answer, else None."""
    error = answer.get("error")
    code = error.get("code") if isinstance(error, dict) else None
    return code if type(code) is int else None


def _data(answer: JsonObject) -> JsonValue:
    error = answer.get("error")
    return error.get("data") if isinstance(error, dict) else None


def show(value: JsonValue) -> str:
    """A value as a finding quotes it: JSON, cut at 300 characters."""
    text = json.dumps(value, ensure_ascii=True)
    return text if len(text) <= 300 else text[:300] + "..."


@dataclass(frozen=True)
class _Envelope:
    version: str
    capabilities: JsonObject


def _envelope(request: Request) -> _Envelope | str:
    """The request's own envelope, or what is wrong with it."""
    if request.params is None:
        return "params are missing"
    request_meta = request.params.get("_meta")
    if not isinstance(request_meta, dict):
        return "_meta is missing" if request_meta is None else "_meta is not an object"
    version = request_meta.get(META_VERSION)
    capabilities = request_meta.get(META_CAPABILITIES)
    if META_VERSION not in request_meta:
        return f"_meta has no {META_VERSION}"
    if not isinstance(version, str):
        return f"_meta {META_VERSION} is not a string"
    if META_CAPABILITIES not in request_meta:
        return f"_meta has no {META_CAPABILITIES}"
    if not isinstance(capabilities, dict):
        return f"_meta {META_CAPABILITIES} is not an object"
    return _Envelope(version, capabilities)


def own_rule(request: Request) -> str:
    """The rule a modern request served wrongly breaks by itself, when no earlier request explains it
    (MOD-STATELESS names those that one could)."""
    envelope = _envelope(request)
    if isinstance(envelope, str):
        return "MOD-META-REQUIRED"
    return "MOD-CAP-REQUIRED" if envelope.version in MODERN_NAMES else "MOD-VERSION-UNSUPPORTED"


@dataclass(frozen=True)
class ModernCall:
    """A request with a whole modern envelope, and its answer."""

    index: int
    request: Request
    # For a tools/call asked afresh (no inputResponses): its name and arguments, as JSON; else None.
    tool: str | None
    declared: frozenset[str]
    answer: JsonObject


def asked_capabilities(result: JsonObject) -> dict[str, str]:
    """What an input_required result asks the client for: method -> the client capability it needs."""
    asked = result.get("inputRequests")
    methods = (item.get("method") for item in asked.values() if isinstance(item, dict)) if isinstance(asked, dict) else ()
    return {method: INPUT_CAPABILITIES[method] for method in methods if isinstance(method, str) and method in INPUT_CAPABILITIES}


@dataclass
class ModernJudge:
    server: ModernServer
    find: Find
    served: bool = False  # an earlier request with a whole envelope was served: state a server could carry
    declared: set[str] = field(default_factory=set)  # client capabilities earlier requests declared
    calls: list[ModernCall] = field(default_factory=list)  # for what they show together (``needs``, ``gate``)
    witnessed: set[str] = field(default_factory=set)  # the session's ``witnessed``: situations met

    def judge(self, index: int, request: Request, answer: JsonObject, legacy_open: bool) -> bool:
        """Judge what the modern era adds; False when the method's own result is still to be judged."""
        if request.method == "initialize":
            self._initialize(index, answer)
            return True
        envelope = _envelope(request)
        if isinstance(envelope, str):
            self._malformed(index, request, answer, envelope)
            return True
        if envelope.version not in MODERN_NAMES:
            self._unsupported(index, request, envelope.version, answer)
            return True
        done = self._served(index, request, answer, envelope, legacy_open)
        if "result" in answer:
            self.served = True
        self.declared |= set(envelope.capabilities)
        return done

    def _has(self, method: str) -> bool:
        """Whether the server showed it has ``method``: discovery, or a method of an announced capability."""
        capabilities = self.server.capabilities
        capability = capability_of(method)
        return method == "server/discover" or (
            capabilities is not None and capability is not None and capability in capabilities
        )

    def _initialize(self, index: int, answer: JsonObject) -> None:
        if "result" in answer:
            return  # not modern-only after all: nothing of this era to judge
        data = _data(answer)
        named = isinstance(data, dict) and isinstance(data.get("supported"), list)
        error = answer.get("error")
        message = error.get("message") if isinstance(error, dict) else None
        if not named and not (isinstance(message, str) and any(name in message for name in MODERN_NAMES)):
            self.find(
                "MOD-LEGACY-INIT",
                index,
                "refused initialize without naming the versions it serves",
                "an error naming the supported versions",
                show(answer),
                None,
            )

    def _malformed(self, index: int, request: Request, answer: JsonObject, problem: str) -> None:
        code = error_code(answer)
        if "result" in answer:
            rule = "MOD-STATELESS" if self.served else "MOD-META-REQUIRED"  # served with an earlier envelope?
            carried = ", after an earlier request with a whole envelope was served" if self.served else ""
            self.find(rule, index, f"served a request whose {problem}{carried}", "-32602", show(answer), None)
        elif code != INVALID_PARAMS:
            # A request whose _meta names no version may also be read as no request of this era at all.
            request_meta = (request.params or {}).get("_meta")
            bare = not (isinstance(request_meta, dict) and META_VERSION in request_meta)
            # Read so, it is refused as unknown (a discover, which the legacy era lacks) or, a method the
            # legacy era has, with any error before initialize (LIFE-PRE-INIT-REFUSED judges the code).
            legacy_reading = bare and (
                code in (INVALID_REQUEST, METHOD_NOT_FOUND) or (code is not None and request.method != "server/discover")
            )
            # Which check comes first is not written down: a method the server never showed it has may be refused as such.
            unknown_first = code == METHOD_NOT_FOUND and not self._has(request.method)
            message = f"{problem}: " + (
                "read as a legacy request" if legacy_reading
                else "refused as an unknown method" if unknown_first
                else "not refused with -32602"
            )
            mandatory = False if legacy_reading or unknown_first else None
            self.find("MOD-META-REQUIRED", index, message, "-32602", show(answer), mandatory)

    def _unsupported(self, index: int, request: Request, version: str, answer: JsonObject) -> None:
        code = error_code(answer)
        # A legacy version in _meta is no per-request version; what to answer is not written down.
        # Nor is which check comes first, for a method the server never showed it has.
        unknown_first = code == METHOD_NOT_FOUND and not self._has(request.method)
        mandatory = version not in LEGACY_NAMES and not unknown_first
        if "result" in answer:
            rule = "MOD-STATELESS" if (stateless := self.served and mandatory) else "MOD-VERSION-UNSUPPORTED"
            carried = ", after an earlier request for a version it supports was served" if stateless else ""
            self.find(rule, index, f"served a request for version {version!r}{carried}", "-32022", show(answer), mandatory)
        elif code != UNSUPPORTED_PROTOCOL_VERSION:
            expected = "-32022 with data {supported, requested}"
            self.find("MOD-VERSION-UNSUPPORTED", index, "an unsupported version not refused with -32022", expected, show(answer), mandatory)
        else:
            data = _data(answer)
            supported = data.get("supported") if isinstance(data, dict) else None
            if not (
                isinstance(data, dict)
                and data.get("requested") == version
                and isinstance(supported, list)
                and all(isinstance(name, str) for name in supported)
            ):
                expected = "data {supported: [versions], requested}"
                self.find("MOD-VERSION-UNSUPPORTED", index, "the -32022 error lacks its data", expected, show(answer), None)

    def _served(self, index: int, request: Request, answer: JsonObject, envelope: _Envelope, legacy_open: bool) -> bool:
        result = answer.get("result")
        code = error_code(answer)
        params = request.params or {}
        afresh = request.method == "tools/call" and "inputResponses" not in params
        tool = json.dumps([params.get("name"), params.get("arguments")], sort_keys=True) if afresh else None
        self.calls.append(ModernCall(index, request, tool, frozenset(envelope.capabilities), answer))
        if isinstance(result, dict):
            if not self._typed(index, request, result, envelope, answer):
                return True
        elif code == MISSING_REQUIRED_CLIENT_CAPABILITY:
            self._missing_capability(index, envelope, answer)
            return True
        elif code == UNSUPPORTED_PROTOCOL_VERSION:
            expected = "the request served"
            self.find("MOD-VERSION-UNSUPPORTED", index, "refused a version the era defines", expected, show(answer), False)
            return True
        elif legacy_open and code == INVALID_REQUEST:
            # MOD-DUAL-ERA: a server may serve one era per connection, and this one opened legacy.
            self.find("MOD-DUAL-ERA", index, "refused a modern request after initialize", "the request served", show(answer), None)
            return True
        if request.method == "server/discover":
            self._discover(index, envelope, answer)
            return True
        if request.method == "ping":
            if code != METHOD_NOT_FOUND:
                self.find("MOD-PING-GONE", index, "a modern ping was not refused with -32601", "-32601", show(answer), None)
            return True
        if request.method == "tools/list" and isinstance(result, dict):
            self.witnessed.add("MOD-TOOLS-CACHE")
            self._cache_fields(index, result, answer)
        return False

    def _typed(self, index: int, request: Request, result: JsonObject, envelope: _Envelope, answer: JsonObject) -> bool:
        """MOD-RESULT-TYPE; True when the result is a final one, for the caller to judge further."""
        result_type = result.get("resultType")
        if not isinstance(result_type, str) or result_type not in RESULT_TYPES:  # [] or {} would not hash
            expected = '"complete" or "input_required"'
            self.find("MOD-RESULT-TYPE", index, "a modern result without a defined resultType", expected, show(answer), None)
            return True
        if result_type == "complete":
            return True
        if request.method not in MAY_ASK:
            expected = "a complete result"
            self.find("MOD-RESULT-TYPE", index, f"{request.method} answered input_required", expected, show(answer), None)
            return False
        for method, needed in asked_capabilities(result).items():
            if needed not in envelope.capabilities:
                stateless = needed in self.declared
                rule = "MOD-STATELESS" if stateless else "MOD-CAP-REQUIRED"
                expected = f"-32021, or no {method} request"
                carried = ", which an earlier request on the connection declared" if stateless else ""
                message = f"asked for {method} without the {needed} capability{carried}"
                self.find(rule, index, message, expected, show(answer), None)
        return False

    def _missing_capability(self, index: int, envelope: _Envelope, answer: JsonObject) -> None:
        data = _data(answer)
        required = data.get("requiredCapabilities") if isinstance(data, dict) else None
        if not isinstance(required, dict) or not required:
            expected = "data {requiredCapabilities: {...}}"
            self.find("MOD-CAP-REQUIRED", index, "the -32021 error lacks its data", expected, show(answer), None)
        elif set(required) <= set(envelope.capabilities):
            expected = "a capability the request did not declare"
            self.find("MOD-CAP-REQUIRED", index, "-32021 for declared capabilities", expected, show(answer), None)

    def _discover(self, index: int, envelope: _Envelope, answer: JsonObject) -> None:
        result = answer.get("result")
        versions = result.get("supportedVersions") if isinstance(result, dict) else None
        if not (
            isinstance(result, dict)
            and isinstance(versions, list)
            and envelope.version in versions
            and all(isinstance(name, str) for name in versions)
            and isinstance(result.get("capabilities"), dict)
        ):
            expected = "{supportedVersions: [..., requested], capabilities, resultType}"
            self.find("MOD-DISCOVER", index, "server/discover was not answered with a DiscoverResult", expected, show(answer), None)

    def _cache_fields(self, index: int, result: JsonObject, answer: JsonObject) -> None:
        ttl = result.get("ttlMs")
        scope = result.get("cacheScope")
        if not (type(ttl) is int and ttl >= 0 and isinstance(scope, str) and scope in CACHE_SCOPES):
            expected = 'ttlMs >= 0 and cacheScope "public" or "private"'
            self.find("MOD-TOOLS-CACHE", index, "tools/list lacks its cache fields", expected, show(answer), None)
