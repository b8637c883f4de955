"""The server side of a session, sans I/O: bytes in, effects out.

``ServerSession.receive_data`` takes whatever chunk the transport read and returns the
effects it causes (``session_types``), in order: ``Send`` (bytes for stdout), ``StartTimer``
and ``CancelTimer`` (for tools that answer later), and ``Log`` (a line for stderr). The
I/O layer owns the clock: when a timer fires it calls ``complete`` and performs the
effects that returns. Nothing here reads, writes, sleeps or looks at the time.

Order of decisions for one line (SPEC_NOTES.md names each step):
1. framing and parsing (``framer``, ``messages``): -32700 for what is not JSON;
2. an array is a batch only under 2025-03-26 (RPC-BATCH, RPC-BATCH-UNSUPPORTED);
3. classification (``messages.classify``): -32600/-32602 for what is not a message,
   silence for client responses and notifications;
4. the era (``eras.era_of``): a modern request is served from its own ``_meta``
   (``stateless``), whatever else the connection carries (MOD-DUAL-ERA);
5. for a legacy request, the handshake table (``handshake``) decides what is done;
6. routing: ping (legacy), server/discover (modern), tools/list, tools/call, else -32601.
Requests run concurrently: most are answered at once, ``attendre`` when its timer
fires; answers leave in completion order (RPC-CONCURRENT).
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from typing import TypeAlias

from .. import __version__
from . import stateless, tools
from .eras import DISCOVER, INITIALIZE, INITIALIZED, PING, era_of
from .framer import DEFAULT_MAX_LINE_BYTES, FrameEvent, LineFramer, TooLong
from .handshake import Action, Handshake, Input
from .messages import (
    BLANK,
    INVALID_PARAMS,
    INVALID_REQUEST,
    METHOD_NOT_FOUND,
    PARSE_ERROR,
    AnswerText,
    ClientResponse,
    Invalid,
    JsonObject,
    JsonValue,
    Message,
    Notification,
    ParseFailure,
    Request,
    RequestId,
    answer_line,
    batch_line,
    classify,
    error_text,
    is_valid_id,
    parse_line,
    result_text,
)
from .session_types import CancelTimer, Effect, Eras, Log, Send, StartTimer, VersionPolicy
from .versions import BY_NAME, LATEST, SUPPORTED, Era, ProtocolVersion

SERVER_NAME = "mcpref"
SERVER_VERSION = __version__
SERVER_INFO: JsonObject = {"name": SERVER_NAME, "version": SERVER_VERSION}
CAPABILITIES: JsonObject = {"tools": {"listChanged": False}}  # CAP-ANNOUNCED-METHODS: only what works


# Ids 1 and "1" differ (RPC-ID-ECHO), and so must their keys.
IdKey: TypeAlias = tuple[bool, RequestId]


def id_key(request_id: RequestId) -> IdKey:
    return (isinstance(request_id, str), request_id)


@dataclass
class _Batch:
    answers: list[AnswerText] = field(default_factory=list)
    waiting: int = 0
    sealed: bool = False  # every member has been read; a member's cancellation may come before


@dataclass(frozen=True)
class _Pending:
    request_id: RequestId
    outcome: tools.ToolText
    batch: _Batch | None
    version: ProtocolVersion


@dataclass(frozen=True)
class _Later:
    """A request whose answer a timer will produce."""

    timer: StartTimer


_Outcome: TypeAlias = AnswerText | _Later | None

_UNANNOUNCED_PREFIXES = ("resources/", "prompts/", "logging/", "completion/")


class ServerSession:
    def __init__(
        self,
        *,
        version_policy: VersionPolicy = VersionPolicy.REJECT,
        max_line_bytes: int = DEFAULT_MAX_LINE_BYTES,
        eras: Eras = Eras.BOTH,
    ) -> None:
        self.version_policy = version_policy
        self.eras = eras
        self._dual = eras is Eras.BOTH
        self._modern_only = eras is Eras.MODERN
        self._served = eras.versions
        self._listed = [version.name for version in self._served]
        self.framer = LineFramer(max_line_bytes)
        self.handshake = Handshake()
        self.version: ProtocolVersion | None = None
        self._tokens = itertools.count(1)
        self._pending: dict[int, _Pending] = {}
        self._in_flight: dict[IdKey, int] = {}

    @property
    def in_flight(self) -> int:
        """Requests accepted whose answer is still to come."""
        return len(self._pending)

    def receive_data(self, data: bytes) -> list[Effect]:
        return self._lines(self.framer.receive_data(data))

    def receive_eof(self) -> list[Effect]:
        return self._lines(self.framer.receive_eof())

    def complete(self, token: int) -> list[Effect]:
        """The timer ``token`` fired: its request's answer is due now."""
        pending = self._pending.pop(token)
        del self._in_flight[id_key(pending.request_id)]
        answer = self._tool_result(pending.request_id, pending.outcome, pending.version)
        if pending.batch is None:
            return [Send(answer_line(answer))]
        pending.batch.answers.append(answer)
        pending.batch.waiting -= 1
        return self._flush_batch(pending.batch)

    def _lines(self, events: list[FrameEvent]) -> list[Effect]:
        effects: list[Effect] = []
        for event in events:
            if isinstance(event, TooLong):
                message = f"line longer than {self.framer.max_line_bytes} bytes"
                effects.append(Send(answer_line(error_text(None, PARSE_ERROR, message))))  # FRAME-MAX-LINE
            else:
                self._line(event, effects)
        return effects

    def _line(self, line: bytes, effects: list[Effect]) -> None:
        value = parse_line(line)
        if value is BLANK:
            return  # FRAME-BLANK-LINE
        if isinstance(value, ParseFailure):
            effects.append(Send(answer_line(error_text(None, PARSE_ERROR, f"Parse error: {value.reason}"))))
            return  # RPC-PARSE-ERROR
        if isinstance(value, list):
            effects.extend(self._batch(value))
            return
        outcome = self._message(classify(value), None, effects)
        if isinstance(outcome, str):
            effects.append(Send(answer_line(outcome)))
        elif isinstance(outcome, _Later):
            effects.append(outcome.timer)

    def _batch(self, items: list[JsonValue]) -> list[Effect]:
        if self.version is None or not self.version.batches:
            answer = error_text(None, INVALID_REQUEST, "batches are not part of this protocol version")
            return [Send(answer_line(answer))]  # RPC-BATCH-UNSUPPORTED
        if not items:
            return [Send(answer_line(error_text(None, INVALID_REQUEST, "empty batch")))]  # RPC-BATCH
        batch = _Batch()
        effects: list[Effect] = []
        for item in items:
            outcome = self._message(classify(item), batch, effects)
            if isinstance(outcome, str):
                batch.answers.append(outcome)
            elif isinstance(outcome, _Later):
                batch.waiting += 1
                effects.append(outcome.timer)
        batch.sealed = True
        return effects + self._flush_batch(batch)

    def _flush_batch(self, batch: _Batch) -> list[Effect]:
        if not batch.sealed or batch.waiting or not batch.answers:
            return []  # RPC-BATCH: nothing at all when no answer is due; RPC-ONE-ANSWER: once
        return [Send(batch_line(batch.answers))]

    def _message(self, message: Message, batch: _Batch | None, effects: list[Effect]) -> _Outcome:
        if isinstance(message, Invalid):
            return error_text(message.id, message.code, f"Invalid request: {message.reason}")
        if isinstance(message, ClientResponse):
            effects.append(Log(f"dropped a response to id {message.id!r}: no request of ours has it"))
            return None  # RPC-CLIENT-RESPONSE
        if isinstance(message, Notification):
            self._notification(message, effects)
            return None  # RPC-NOTIFICATION-SILENT
        if self._in_flight and id_key(message.id) in self._in_flight:
            return error_text(
                message.id, INVALID_REQUEST, "id already in use by a request in flight"
            )  # RPC-DUPLICATE-ID
        # MOD-DUAL-ERA: each request's own era when both are served, else the one served.
        modern = era_of(message.method, message.params) is Era.MODERN if self._dual else self._modern_only
        if modern:
            return self._modern(message, batch)
        if message.method == INITIALIZE:
            if batch is not None:
                return error_text(message.id, INVALID_REQUEST, "initialize must not be batched")  # RPC-BATCH-INITIALIZE
            return self._initialize(message)
        action = self.handshake.handle(Input.PING if message.method == PING else Input.REQUEST)
        if action is Action.NOT_INITIALIZED:
            return error_text(message.id, INVALID_REQUEST, "Not initialized")  # LIFE-PRE-INIT-REFUSED
        if action is not Action.SERVE:
            raise AssertionError(f"the handshake table answered a request with {action.name}")
        if message.method == PING:
            return result_text(message.id, {})  # LIFE-PING: in every phase, so before any version
        return self._route(message, batch, self._negotiated)

    def _modern(self, request: Request, batch: _Batch | None) -> _Outcome:
        if request.method == INITIALIZE:
            # MOD-LEGACY-INIT: a legacy client cannot fall forward; the error is all it can show.
            requested = (request.params or {}).get("protocolVersion")
            return stateless.unsupported(request, requested, self._listed)
        envelope = stateless.read_envelope(request, self._served, self._listed)
        if isinstance(envelope, str):
            return envelope  # MOD-META-REQUIRED, MOD-VERSION-UNSUPPORTED
        if request.method == DISCOVER:
            return self._result(request.id, stateless.discover_result(self._listed, CAPABILITIES), envelope.version)
        if request.method == PING:
            return error_text(request.id, METHOD_NOT_FOUND, "Method not found: ping (removed in 2026-07-28)")  # MOD-PING-GONE
        return self._route(request, batch, envelope.version, envelope)  # MOD-STATELESS: nothing but its envelope

    def _notification(self, message: Notification, effects: list[Effect]) -> None:
        if message.method == INITIALIZED:
            self.handshake.handle(Input.INITIALIZED)
        elif message.method == "notifications/cancelled" and message.params is not None:
            request_id = message.params.get("requestId")
            token = self._in_flight.pop(id_key(request_id), None) if is_valid_id(request_id) else None
            if token is not None:
                pending = self._pending.pop(token)
                effects.append(CancelTimer(token))  # RPC-CANCEL: no answer will follow
                if pending.batch is not None:
                    pending.batch.waiting -= 1
                    effects.extend(self._flush_batch(pending.batch))

    def _initialize(self, request: Request) -> AnswerText:
        chosen_or_refusal = self._negotiate(request)
        accepted = isinstance(chosen_or_refusal, ProtocolVersion)
        action = self.handshake.handle(Input.INITIALIZE_ACCEPTED if accepted else Input.INITIALIZE_REFUSED)
        if action is Action.ALREADY_INITIALIZED:
            return error_text(request.id, INVALID_REQUEST, "Already initialized")  # LIFE-SECOND-INIT
        if action is Action.ANSWER_INITIALIZE and isinstance(chosen_or_refusal, ProtocolVersion):
            self.version = chosen_or_refusal
            return result_text(request.id, _initialize_result(chosen_or_refusal))  # LIFE-INIT-RESULT
        if action is Action.REFUSE_INITIALIZE and isinstance(chosen_or_refusal, str):
            return chosen_or_refusal
        raise AssertionError(f"the handshake table answered initialize with {action.name}")

    def _negotiate(self, request: Request) -> ProtocolVersion | AnswerText:
        params = request.params or {}
        problem = initialize_params_problem(params)
        if problem is not None:
            return error_text(request.id, INVALID_PARAMS, f"Invalid params: {problem}")  # RPC-INVALID-PARAMS
        requested = params["protocolVersion"]
        assert isinstance(requested, str)
        version = BY_NAME.get(requested)
        if version in SUPPORTED:
            assert version is not None
            return version  # LIFE-VERSION-ACCEPT
        if self.version_policy is VersionPolicy.COUNTER_OFFER:
            return LATEST  # LIFE-VERSION-COUNTER-OFFER
        data: JsonObject = {"requested": requested, "supported": [v.name for v in SUPPORTED]}
        return error_text(request.id, INVALID_PARAMS, "Unsupported protocol version", data)  # LIFE-VERSION-REJECT

    def _route(
        self, request: Request, batch: _Batch | None, version: ProtocolVersion, envelope: stateless.Envelope | None = None
    ) -> _Outcome:
        if request.method == "tools/list":
            return self._result(request.id, self._tool_list(version), version)
        if request.method == "tools/call":
            return self._call(request, batch, version, envelope)
        if request.method.startswith(_UNANNOUNCED_PREFIXES):
            return error_text(
                request.id, METHOD_NOT_FOUND, f"Capability not announced: {request.method}"
            )  # CAP-UNANNOUNCED-METHOD
        return error_text(request.id, METHOD_NOT_FOUND, f"Method not found: {request.method}")  # RPC-METHOD-NOT-FOUND

    def _result(self, request_id: RequestId, result: JsonObject, version: ProtocolVersion) -> AnswerText:
        if version.era is Era.MODERN:
            result = stateless.typed(result, SERVER_INFO)  # MOD-RESULT-TYPE
        return result_text(request_id, result)

    def _tool_list(self, version: ProtocolVersion) -> JsonObject:
        offered = tools.offered(modern=version.era is Era.MODERN)
        listing: list[JsonValue] = [tools.listing(tool, with_title=version.tool_title) for tool in offered]
        if version.era is Era.MODERN:
            return {"tools": listing, "ttlMs": stateless.TOOLS_TTL_MS, "cacheScope": stateless.TOOLS_CACHE_SCOPE}
        return {"tools": listing}  # TOOLS-LIST-SHAPE

    def _tool_result(self, request_id: RequestId, outcome: tools.ToolText, version: ProtocolVersion) -> AnswerText:
        content: JsonValue = [{"type": "text", "text": outcome.text}]
        return self._result(request_id, {"content": content, "isError": outcome.is_error}, version)

    def _call(
        self, request: Request, batch: _Batch | None, version: ProtocolVersion, envelope: stateless.Envelope | None
    ) -> _Outcome:
        params = request.params or {}
        name = params.get("name")
        arguments = params.get("arguments", {})
        if not isinstance(name, str) or not isinstance(arguments, dict):
            return error_text(
                request.id, INVALID_PARAMS, "Invalid params: name must be a string, arguments an object"
            )  # RPC-INVALID-PARAMS
        tool = tools.BY_NAME.get(name)
        if tool is None or (tool.modern_only and envelope is None):
            return error_text(request.id, INVALID_PARAMS, f"Unknown tool: {name}")  # TOOLS-UNKNOWN
        problem = tools.argument_problem(tool.input_schema, arguments)
        if problem is not None:
            if version.invalid_arguments_are_tool_errors:
                return self._tool_result(request.id, tools.ToolText(problem, is_error=True), version)  # TOOLS-ARGS-INVALID
            return error_text(request.id, INVALID_PARAMS, f"Invalid arguments: {problem}")  # TOOLS-ARGS-INVALID
        outcome = tool.run(arguments)
        if isinstance(outcome, tools.ToolText):
            return self._tool_result(request.id, outcome, version)  # TOOLS-CALL-RESULT, TOOLS-EXEC-ERROR
        if isinstance(outcome, tools.Ask):
            assert envelope is not None  # only modern requests see the tools that ask
            return self._ask(request, outcome, envelope)
        token = next(self._tokens)
        self._pending[token] = _Pending(request.id, outcome.then, batch, version)
        self._in_flight[id_key(request.id)] = token
        return _Later(StartTimer(token, outcome.seconds))  # RPC-CONCURRENT

    def _ask(self, request: Request, ask: tools.Ask, envelope: stateless.Envelope) -> AnswerText:
        if ask.capability not in envelope.capabilities:
            return stateless.missing_capability(request, ask.capability)  # MOD-CAP-REQUIRED
        responses = (request.params or {}).get("inputResponses")
        answer = ask.answer(responses.get(ask.key)) if isinstance(responses, dict) else None
        if answer is not None:
            return self._tool_result(request.id, answer, envelope.version)
        result = stateless.typed(stateless.input_required(ask.key, ask.request), SERVER_INFO, "input_required")
        return result_text(request.id, result)

    @property
    def _negotiated(self) -> ProtocolVersion:
        if self.version is None:
            raise AssertionError("a request was served before a version was negotiated")
        return self.version


def initialize_params_problem(params: JsonObject) -> str | None:
    """What makes initialize params unacceptable (the schema requires all three), or None."""
    client_info = params.get("clientInfo")
    if not isinstance(params.get("protocolVersion"), str):
        return "protocolVersion must be a string"
    if not isinstance(params.get("capabilities"), dict):
        return "capabilities must be an object"
    if not (
        isinstance(client_info, dict)
        and isinstance(client_info.get("name"), str)
        and isinstance(client_info.get("version"), str)
    ):
        return "clientInfo must be an object with string name and version"
    return None


def _initialize_result(version: ProtocolVersion) -> JsonObject:
    return {
        "protocolVersion": version.name,
        "capabilities": CAPABILITIES,
        "serverInfo": SERVER_INFO,
    }
