"""A minimal MCP client of both eras, sans-IO: bytes of the server's output in, events and bytes
for the server's stdin out. ``client_stdio`` is the loop that runs it over a child process.

The connection's phases are one literal transition table:

    NEW --open, legacy version--> OPENING --accepted answer--> READY
                                     |--refused, or a version not offered--> CLOSED
    NEW --open, 2026-07-28--> DISCOVERING --a version it speaks--> SERVING (modern requests)
                                 |--any error that is not a modern one--> OPENING (initialize)
                                 |--a modern error, or no version it speaks--> CLOSED
    any phase --server's end of output--> CLOSED

- Offered 2026-07-28, the client is dual-era: it probes with ``server/discover``, stays modern
  once the server answered as a modern one (CLIENT-MOD-STAYS-MODERN), and falls back to
  ``initialize`` at the newest legacy version on any other error (CLIENT-MOD-FALLBACK). Its modern
  requests carry ``_meta`` (CLIENT-MOD-META); -32022 to any of them ends the call: the only modern
  version it speaks is the one refused (CLIENT-MOD-VERSION-RETRY). An ``input_required`` result
  is answered by the same request with a new id, the roots asked for and the server's
  ``requestState`` as it came (CLIENT-MOD-INPUT-RETRY); input it cannot give fails the request.

- The first message is ``initialize`` (CLIENT-INIT-FIRST); until its answer only server requests
  are answered (CLIENT-INIT-ALONE), and ``notifications/initialized`` follows the answer at once
  (CLIENT-INITIALIZED). A version the client did not offer and does not know closes the
  connection (CLIENT-VERSION-UNSUPPORTED).
- Request ids are increasing integers, never reused (CLIENT-ID-TYPE, CLIENT-ID-UNIQUE).
- A server's ping gets ``{}`` (CLIENT-PING); ``roots/list`` the client's roots when it declared
  any; every other server request -32601 (CLIENT-ANSWERS-REQUESTS, CLIENT-UNDECLARED-REFUSED).
  Notifications, unknown fields and lines that are not JSON are ignored
  (CLIENT-NOTIFICATION-SILENT, CLIENT-IGNORES-UNKNOWN).
- A method of a server capability the server did not announce is not sent (CLIENT-CAP-ANNOUNCED).

A call the phase does not allow (``open`` twice, ``request`` before READY) is the caller's bug and
raises ``ClientStateError``; whatever the server writes becomes an event or is ignored.
"""

from __future__ import annotations

import enum
import json
from dataclasses import dataclass
from typing import Final, TypeAlias

from .eras import CLIENT_INFO, DISCOVER, INITIALIZE, INITIALIZED, PING, meta
from .framer import LineFramer, TooLong
from .messages import (
    METHOD_NOT_FOUND,
    ClientResponse,
    Invalid,
    JsonObject,
    JsonValue,
    Request,
    RequestId,
    classify,
    encode,
    error_answer,
    parse_line,
)
from .versions import LATEST, SUPPORTED_NAMES, Era, ProtocolVersion


@enum.unique
class ClientPhase(enum.Enum):
    NEW = "new"  # nothing sent
    DISCOVERING = "discovering"  # server/discover sent, not yet answered
    OPENING = "opening"  # initialize sent, not yet answered
    READY = "ready"  # initialized sent: requests may go
    SERVING = "serving"  # a modern server: requests may go, each with its _meta
    CLOSED = "closed"  # the connection is over: nothing more is sent


@enum.unique
class ClientInput(enum.Enum):
    OPEN = "the caller opens the connection"
    PROBE = "the caller opens the connection, asking the server's era first"
    MODERN = "server/discover answered with a version the client speaks"
    FALLBACK = "server/discover refused with an error that is not a modern one"
    ACCEPTED = "initialize answered with a version the client offered or knows"
    REFUSED = "initialize answered with an error or a version the client does not know"
    REQUEST = "the caller sends a request"
    END = "the server's output ended"


class ClientStateError(Exception):
    """A call the connection's phase does not allow: a bug of the caller."""


_P, _I = ClientPhase, ClientInput

# (phase, input) -> next phase. A pair absent from the table raises ClientStateError.
TRANSITIONS: Final[dict[ClientPhase, dict[ClientInput, ClientPhase]]] = {
    _P.NEW: {_I.OPEN: _P.OPENING, _I.PROBE: _P.DISCOVERING, _I.END: _P.CLOSED},
    _P.DISCOVERING: {_I.MODERN: _P.SERVING, _I.FALLBACK: _P.OPENING, _I.REFUSED: _P.CLOSED, _I.END: _P.CLOSED},
    _P.OPENING: {_I.ACCEPTED: _P.READY, _I.REFUSED: _P.CLOSED, _I.END: _P.CLOSED},
    _P.READY: {_I.REQUEST: _P.READY, _I.END: _P.CLOSED},
    _P.SERVING: {_I.REQUEST: _P.SERVING, _I.END: _P.CLOSED},
    _P.CLOSED: {_I.END: _P.CLOSED},
}

# The server capability each method's group needs (CLIENT-CAP-ANNOUNCED).
_GROUPS: Final = {"tools/": "tools", "resources/": "resources", "prompts/": "prompts", "completion/": "completions"}
_NEEDS: Final = {"logging/setLevel": "logging"}
# The errors only a modern server writes (2026-07-28 basic#error-codes): HeaderMismatch,
# MissingRequiredClientCapability, UnsupportedProtocolVersion.
MODERN_ERRORS: Final = frozenset({-32020, -32021, -32022})
MAX_RETRIES: Final = 8  # input_required answers to one request before the client gives up


def capability_needed(method: str) -> str | None:
    """The server capability ``method`` belongs to, if any."""
    if method in _NEEDS:
        return _NEEDS[method]
    return next((name for prefix, name in _GROUPS.items() if method.startswith(prefix)), None)


@dataclass(frozen=True)
class Opened:
    """The handshake is done: ``version`` negotiated, ``capabilities`` announced."""

    version: str
    capabilities: JsonObject


@dataclass(frozen=True)
class Answered:
    id: RequestId
    result: JsonObject


@dataclass(frozen=True)
class Failed:
    id: RequestId
    error: JsonObject


@dataclass(frozen=True)
class Closed:
    """The connection is over; ``reason`` says why, for the person running the client."""

    reason: str


Event: TypeAlias = Opened | Answered | Failed | Closed


class Client:
    def __init__(self, version: ProtocolVersion = LATEST, roots: tuple[str, ...] = ()) -> None:
        self.phase = ClientPhase.NEW
        self.offered = version
        self.roots = roots
        self.announced: JsonObject = {}
        self._framer = LineFramer()
        self._next_id = 0
        self._pending: dict[RequestId, tuple[str, JsonObject, int]] = {}  # id -> method, params, retries so far
        self._out: list[bytes] = []

    def _move(self, event: ClientInput) -> None:
        try:
            self.phase = TRANSITIONS[self.phase][event]
        except KeyError:
            raise ClientStateError(f"{event.value!r} in phase {self.phase.value!r}") from None

    def data_to_send(self) -> bytes:
        """The bytes to write to the server's stdin, each message one line; taken once."""
        data, self._out = b"".join(self._out), []
        return data

    def _send(self, message: JsonObject) -> None:
        self._out.append(encode(message))  # one message, one line, ended by LF (CLIENT-STDIN-MESSAGES-ONLY)

    def _capabilities(self) -> JsonObject:
        return {"roots": {}} if self.roots else {}

    def _request(self, method: str, params: JsonObject, retries: int = 0) -> RequestId:
        self._next_id += 1  # CLIENT-ID-TYPE, CLIENT-ID-UNIQUE: never null, never again
        request_id = self._next_id
        self._pending[request_id] = (method, params, retries)
        if self.phase in (ClientPhase.DISCOVERING, ClientPhase.SERVING):
            params = {**params, "_meta": meta(self.offered.name, self._capabilities())}  # CLIENT-MOD-META
        self._send({"jsonrpc": "2.0", "id": request_id, "method": method, "params": params})
        return request_id

    def open(self) -> None:
        if self.offered.era is Era.MODERN:
            self._move(ClientInput.PROBE)
            self._request(DISCOVER, {})
            return
        self._move(ClientInput.OPEN)
        self._initialize(self.offered)

    def _initialize(self, version: ProtocolVersion) -> None:
        params: JsonObject = {
            "protocolVersion": version.name,
            "capabilities": self._capabilities(),
            "clientInfo": dict(CLIENT_INFO),
        }
        self._request(INITIALIZE, params)  # CLIENT-INIT-FIRST

    def request(self, method: str, params: JsonObject) -> RequestId | None:
        """Send a request; None, and nothing sent, for a capability the server did not announce."""
        self._move(ClientInput.REQUEST)
        needed = capability_needed(method)
        if needed is not None and needed not in self.announced:
            return None  # CLIENT-CAP-ANNOUNCED
        return self._request(method, params)

    def give_up(self, reason: str) -> None:
        """Stop waiting: each request still unanswered is cancelled, initialize excepted (CLIENT-CANCEL)."""
        for request_id, (method, _, _) in self._pending.items():
            if method != INITIALIZE:
                params: JsonObject = {"requestId": request_id, "reason": reason}
                self._send({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": params})
        self._pending.clear()

    def receive_data(self, data: bytes) -> list[Event]:
        """Feed what the server wrote; an empty ``data`` is its end of output."""
        if not data:
            lines = self._framer.receive_eof()
            events = [event for line in lines for event in self._line(line)]
            self._move(ClientInput.END)
            return [*events, Closed("the server closed its output")]
        return [event for line in self._framer.receive_data(data) for event in self._line(line)]

    def _line(self, line: bytes | TooLong) -> list[Event]:
        if self.phase is ClientPhase.CLOSED or isinstance(line, TooLong):
            return []
        value = parse_line(line)
        if not isinstance(value, dict):
            return []  # not a message: the server's fault, and nothing to answer
        message = classify(value)
        if isinstance(message, Request):
            self._answer(message)
        elif isinstance(message, ClientResponse) and message.well_formed:
            return self._response(value)
        elif isinstance(message, Invalid) and message.id is not None:
            self._send(error_answer(message.id, message.code, message.reason))
        return []  # notifications: nothing to answer (CLIENT-NOTIFICATION-SILENT)

    def _answer(self, request: Request) -> None:
        if request.method == PING:
            self._send({"jsonrpc": "2.0", "id": request.id, "result": {}})  # CLIENT-PING
        elif request.method == "roots/list" and self.roots:
            roots: list[JsonValue] = [{"uri": uri} for uri in self.roots]
            self._send({"jsonrpc": "2.0", "id": request.id, "result": {"roots": roots}})
        else:  # CLIENT-UNDECLARED-REFUSED, CLIENT-ANSWERS-REQUESTS
            self._send(error_answer(request.id, METHOD_NOT_FOUND, f"method not found: {request.method}"))

    def _response(self, value: JsonObject) -> list[Event]:
        request_id = value["id"]
        if request_id not in self._pending:
            return []  # an answer to nothing this client asked
        assert isinstance(request_id, int | str)
        method, params, retries = self._pending.pop(request_id)
        error = value.get("error")
        result = value.get("result")
        if self.phase is ClientPhase.DISCOVERING:
            return self._discovered(result, error)
        if self.phase is ClientPhase.OPENING:
            return self._opened(result if isinstance(result, dict) else None)
        if isinstance(error, dict):
            return [Failed(request_id, error)]
        assert isinstance(result, dict)
        if self.phase is ClientPhase.SERVING and result.get("resultType") == "input_required":
            return self._retry(request_id, method, params, retries, result)
        return [Answered(request_id, result)]

    def _retry(self, request_id: RequestId, method: str, params: JsonObject, retries: int, result: JsonObject) -> list[Event]:
        """The request again, with the input asked for and the server's state (CLIENT-MOD-INPUT-RETRY)."""
        asked = result.get("inputRequests")
        asked = asked if isinstance(asked, dict) else {}
        answers = {key: self._input(request) for key, request in asked.items()}
        missing = sorted(key for key, answer in answers.items() if answer is None)
        if missing or retries >= MAX_RETRIES:
            why = f"input this client cannot give: {', '.join(missing)}" if missing else f"input asked {MAX_RETRIES} times"
            return [Failed(request_id, {"message": why})]
        again = {key: value for key, value in params.items() if key not in ("inputResponses", "requestState")}  # this round's only
        if asked:
            again["inputResponses"] = {key: answer for key, answer in answers.items() if answer is not None}
        if "requestState" in result:
            again["requestState"] = result["requestState"]  # echoed exactly, never read
        self._request(method, again, retries + 1)  # a new id: the retry is a request of its own
        return []

    def _input(self, request: JsonValue) -> JsonObject | None:
        """The answer to one of the server's input requests; None for one the client cannot give."""
        if isinstance(request, dict) and request.get("method") == "roots/list" and self.roots:
            return {"roots": [{"uri": uri} for uri in self.roots]}
        return None

    def _discovered(self, result: JsonValue, error: JsonValue) -> list[Event]:
        """The answer to the era probe: modern, refused, or a legacy server's error."""
        if isinstance(result, dict):
            versions = result.get("supportedVersions")
            if isinstance(versions, list) and self.offered.name in versions:
                self._move(ClientInput.MODERN)
                capabilities = result.get("capabilities")
                self.announced = capabilities if isinstance(capabilities, dict) else {}
                return [Opened(self.offered.name, self.announced)]
            self._move(ClientInput.REFUSED)
            return [Closed(f"the server speaks {json.dumps(versions)}, not {self.offered.name}")]
        code = error.get("code") if isinstance(error, dict) else None
        if code in MODERN_ERRORS:  # a modern server: no fallback (CLIENT-MOD-STAYS-MODERN)
            self._move(ClientInput.REFUSED)
            return [Closed(f"server/discover was refused by a modern server: {json.dumps(error)}")]
        self._move(ClientInput.FALLBACK)  # any other error: a legacy server (CLIENT-MOD-FALLBACK)
        self._initialize(LATEST)
        return []

    def _opened(self, result: JsonObject | None) -> list[Event]:
        version = result.get("protocolVersion") if result is not None else None
        if result is None or not isinstance(version, str) or version not in SUPPORTED_NAMES:
            self._move(ClientInput.REFUSED)  # CLIENT-VERSION-UNSUPPORTED: disconnect
            why = "initialize was refused" if result is None else f"the server answered version {version!r}"
            return [Closed(why)]
        self._move(ClientInput.ACCEPTED)
        capabilities = result.get("capabilities")
        self.announced = capabilities if isinstance(capabilities, dict) else {}
        self._send({"jsonrpc": "2.0", "method": INITIALIZED})  # CLIENT-INITIALIZED: right after the answer
        return [Opened(version, self.announced)]
