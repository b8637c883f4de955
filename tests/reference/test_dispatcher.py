"""Tests for ``reference.dispatcher``: the sans-I/O session, bytes in and effects out.

Every test drives a real ``ServerSession`` with lines of JSON, as a client would, and
reads the ``Send`` effects back as JSON. ``answers`` also checks the shape of every
answer (RPC-RESPONSE-SHAPE, FRAME-NO-EMBEDDED-NEWLINE, FRAME-OUTPUT-ASCII), so each
test checks those rules on the way.
"""

from __future__ import annotations

import itertools
import json
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from seed_scripts import (
    FRAMING_CLOSE_AT,
    FRAMING_STEPS,
    HANDSHAKE_SCRIPT,
    TOOL_NAMES,
    TOOLS_SCRIPT,
    call,
    check_framing_answers,
    check_handshake_answers,
    check_tools_answers,
    error_code,
    init,
    line,
    notification,
    request,
    text_of,
)

from mcpref.fuzz.generate.messages import CLIENT_INFO
from mcpref.reference.dispatcher import ServerSession
from mcpref.reference.handshake import Phase
from mcpref.reference.session_types import CancelTimer, Effect, Log, Send, StartTimer, VersionPolicy
from mcpref.reference.versions import SUPPORTED_NAMES


def cancel(request_id: Any) -> dict[str, Any]:
    return notification("notifications/cancelled", {"requestId": request_id, "reason": "test"})


def check_answer(answer: Any) -> None:
    """RPC-RESPONSE-SHAPE: jsonrpc 2.0, an id, exactly one of an object result or a well-formed error."""
    assert isinstance(answer, dict)
    assert answer["jsonrpc"] == "2.0"
    assert "id" in answer
    assert ("result" in answer) != ("error" in answer)
    if "result" in answer:
        assert isinstance(answer["result"], dict)
    else:
        error = answer["error"]
        assert type(error["code"]) is int
        assert isinstance(error["message"], str)
        assert set(error) <= {"code", "message", "data"}
    assert set(answer) == {"jsonrpc", "id", "result"} or set(answer) == {"jsonrpc", "id", "error"}


def answers(effects: list[Effect]) -> list[Any]:
    """The JSON of every Send, in order; each checked to be one ASCII line of a valid answer or batch."""
    out = []
    for effect in effects:
        if isinstance(effect, Send):
            assert effect.data.isascii()
            assert effect.data.index(b"\n") == len(effect.data) - 1
            answer = json.loads(effect.data)
            for member in answer if isinstance(answer, list) else [answer]:
                check_answer(member)
            out.append(answer)
    return out


class Client:
    """A client talking to one ServerSession, in process."""

    def __init__(self, **options: Any) -> None:
        self.session = ServerSession(**options)

    def send(self, *messages: Any) -> list[Effect]:
        return self.session.receive_data(b"".join(line(message) for message in messages))

    def ask(self, *messages: Any) -> list[Any]:
        return answers(self.send(*messages))

    def ready(self, version: str = "2025-06-18") -> Client:
        (answer,) = self.ask(init(0, version))
        assert answer["result"]["protocolVersion"] == version
        assert self.ask(notification("notifications/initialized")) == []
        assert self.session.handshake.phase is Phase.READY
        return self

    def start(self, message: Any) -> StartTimer:
        (timer,) = self.send(message)
        assert isinstance(timer, StartTimer)
        return timer

    def complete(self, timer: StartTimer) -> list[Any]:
        return answers(self.session.complete(timer.token))


# --- the seeds' scripts --------------------------------------------------------------

@pytest.mark.spec(
    "LIFE-PRE-INIT-REFUSED",
    "LIFE-VERSION-REJECT",
    "LIFE-VERSION-UNSUPPORTED",
    "LIFE-VERSION-ACCEPT",
    "LIFE-INIT-RESULT",
    "CAP-UNANNOUNCED-METHOD",
    "RPC-NOTIFICATION-SILENT",
)
def test_seed_handshake_script_seven_messages_six_answers() -> None:
    client = Client()
    seen = [answer for message in HANDSHAKE_SCRIPT for answer in client.ask(message)]
    check_handshake_answers(seen)


@pytest.mark.spec("FRAME-CHUNK-INVARIANT", "RPC-ONE-ANSWER")
def test_seed_handshake_script_sent_in_one_chunk() -> None:
    check_handshake_answers(Client().ask(*HANDSHAKE_SCRIPT))


@pytest.mark.spec("TOOLS-CALL-RESULT", "TOOLS-EXEC-ERROR", "TOOLS-UNKNOWN", "CAP-UNANNOUNCED-METHOD", "TOOLS-LIST-SHAPE")
def test_seed_tools_script_six_answers() -> None:
    client = Client()
    check_tools_answers([answer for message in TOOLS_SCRIPT for answer in client.ask(message)])


@pytest.mark.spec("RPC-CONCURRENT", "FRAME-CHUNK-INVARIANT", "RPC-PARSE-ERROR", "RPC-INVALID-REQUEST", "STDIO-EOF-DRAIN")
def test_seed_framing_script_on_a_simulated_clock() -> None:
    # The I/O layer owns the clock; here a list of due times stands in for it.
    client = Client().ready()
    due: dict[int, float] = {}
    seen: list[Any] = []

    def run_timers_until(now: float) -> None:
        while due and min(due.values()) <= now:
            token = min(due, key=lambda t: due[t])
            del due[token]
            seen.extend(answers(client.session.complete(token)))

    for offset, chunk in FRAMING_STEPS:
        run_timers_until(offset)
        effects = client.session.receive_data(chunk)
        due.update({effect.token: offset + effect.seconds for effect in effects if isinstance(effect, StartTimer)})
        seen.extend(answers(effects))
    run_timers_until(FRAMING_CLOSE_AT)
    assert client.session.receive_eof() == []
    assert client.session.in_flight == 0
    check_framing_answers(seen)


# --- initialize ----------------------------------------------------------------------


@pytest.mark.spec("LIFE-VERSION-ACCEPT", "LIFE-INIT-RESULT", "LIFE-VERSION-KNOWN")
@pytest.mark.parametrize("version", SUPPORTED_NAMES)
def test_every_supported_version_is_accepted_as_asked(version: str) -> None:
    client = Client()
    (answer,) = client.ask(init("i", version))
    assert answer["id"] == "i"
    assert answer["result"] == {
        "protocolVersion": version,
        "capabilities": {"tools": {"listChanged": False}},
        "serverInfo": {"name": "mcpref", "version": "0.1.0"},
    }
    assert client.session.version is not None and client.session.version.name == version
    assert client.session.handshake.phase is Phase.WAITING


@pytest.mark.spec("LIFE-VERSION-REJECT", "LIFE-VERSION-UNSUPPORTED", "LIFE-VERSION-KNOWN")
@pytest.mark.parametrize("version", ["1999-01-01", "2026-07-28", "2025-11-26", ""])
def test_reject_policy_refuses_an_unsupported_version_and_allows_a_retry(version: str) -> None:
    client = Client(version_policy=VersionPolicy.REJECT)
    (answer,) = client.ask(init(1, version))
    assert answer["id"] == 1
    assert error_code(answer) == -32602
    assert answer["error"]["data"] == {"requested": version, "supported": list(SUPPORTED_NAMES)}
    assert client.session.handshake.phase is Phase.NEW
    assert client.session.version is None
    (retry,) = client.ask(init(2, "2025-03-26"))
    assert retry["result"]["protocolVersion"] == "2025-03-26"


@pytest.mark.spec("LIFE-VERSION-COUNTER-OFFER", "LIFE-VERSION-UNSUPPORTED", "LIFE-VERSION-KNOWN")
@pytest.mark.parametrize("version", ["1999-01-01", "2026-07-28", "2025-11-26"])
def test_counter_offer_policy_answers_with_the_latest_supported_version(version: str) -> None:
    client = Client(version_policy=VersionPolicy.COUNTER_OFFER)
    (answer,) = client.ask(init(1, version))
    assert answer["result"]["protocolVersion"] == "2025-11-25"
    assert client.session.handshake.phase is Phase.WAITING


@pytest.mark.spec("LIFE-VERSION-ACCEPT")
def test_counter_offer_policy_still_accepts_a_supported_version() -> None:
    (answer,) = Client(version_policy=VersionPolicy.COUNTER_OFFER).ask(init(1, "2024-11-05"))
    assert answer["result"]["protocolVersion"] == "2024-11-05"


@pytest.mark.spec("RPC-INVALID-PARAMS", "LIFE-VERSION-UNSUPPORTED")
@pytest.mark.parametrize("policy", list(VersionPolicy))
@pytest.mark.parametrize(
    "params",
    [
        None,
        {},
        {"capabilities": {}, "clientInfo": CLIENT_INFO},
        {"protocolVersion": 20250618, "capabilities": {}, "clientInfo": CLIENT_INFO},
        {"protocolVersion": ["2025-06-18"], "capabilities": {}, "clientInfo": CLIENT_INFO},
        {"protocolVersion": "2025-06-18", "clientInfo": CLIENT_INFO},
        {"protocolVersion": "2025-06-18", "capabilities": None, "clientInfo": CLIENT_INFO},
        {"protocolVersion": "2025-06-18", "capabilities": {}},
        {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": None},
        {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "demo"}},
        {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"version": "1"}},
        {"protocolVersion": "1999-01-01", "capabilities": {}, "clientInfo": {"name": 1, "version": 2}},
    ],
)
def test_initialize_with_bad_params_is_invalid_params_and_changes_nothing(
    params: Any, policy: VersionPolicy
) -> None:
    client = Client(version_policy=policy)
    (answer,) = client.ask(request(7, "initialize", params))
    assert answer["id"] == 7
    assert error_code(answer) == -32602  # never -32603
    assert client.session.handshake.phase is Phase.NEW
    assert client.session.version is None
    (retry,) = client.ask(init(8, "2025-06-18"))
    assert retry["result"]["protocolVersion"] == "2025-06-18"


@pytest.mark.spec("LIFE-SECOND-INIT")
@pytest.mark.parametrize("second", [init(9, "2024-11-05"), init(9, "1999-01-01"), request(9, "initialize")])
@pytest.mark.parametrize("ready", [False, True])
def test_a_second_initialize_is_refused_and_changes_nothing(second: Any, ready: bool) -> None:
    client = Client()
    client.ask(init(1, "2025-06-18"))
    if ready:
        client.ask(notification("notifications/initialized"))
    phase = client.session.handshake.phase
    (answer,) = client.ask(second)
    assert answer["id"] == 9
    assert error_code(answer) == -32600
    assert client.session.handshake.phase is phase
    assert client.session.version is not None and client.session.version.name == "2025-06-18"


@pytest.mark.spec("LIFE-INITIALIZED-EARLY")
def test_initialized_before_initialize_is_ignored() -> None:
    client = Client()
    assert client.ask(notification("notifications/initialized")) == []
    assert client.session.handshake.phase is Phase.NEW
    client.ask(init(1, "2025-06-18"))
    (answer,) = client.ask(request(2, "tools/list"))
    assert error_code(answer) == -32600  # the early notification did not count
    client.ask(notification("notifications/initialized"))
    assert client.ask(notification("notifications/initialized")) == []  # a repeated one is ignored too
    (answer,) = client.ask(request(3, "tools/list"))
    assert "result" in answer


@pytest.mark.spec("LIFE-PING")
def test_ping_is_answered_in_every_phase() -> None:
    client = Client()
    assert client.ask(request(1, "ping")) == [{"jsonrpc": "2.0", "id": 1, "result": {}}]
    client.ask(init(2, "2025-11-25"))
    assert client.ask(request(3, "ping")) == [{"jsonrpc": "2.0", "id": 3, "result": {}}]
    client.ask(notification("notifications/initialized"))
    assert client.ask(request(4, "ping")) == [{"jsonrpc": "2.0", "id": 4, "result": {}}]
    assert client.ask(request(5, "ping", {"_meta": {}})) == [{"jsonrpc": "2.0", "id": 5, "result": {}}]


@pytest.mark.spec("LIFE-PRE-INIT-REFUSED")
@pytest.mark.parametrize("method", ["tools/list", "tools/call", "resources/list", "unknown"])
def test_requests_before_initialized_are_refused(method: str) -> None:
    client = Client()
    (answer,) = client.ask(request(1, method))
    assert error_code(answer) == -32600
    client.ask(init(2, "2025-06-18"))
    (answer,) = client.ask(request(3, method))
    assert error_code(answer) == -32600


# --- routing and capabilities --------------------------------------------------------


@pytest.mark.spec("CAP-ANNOUNCED-METHODS", "TOOLS-CALL-RESULT")
@pytest.mark.parametrize("version", SUPPORTED_NAMES)
def test_every_announced_capability_answers(version: str) -> None:
    client = Client()
    (answer,) = client.ask(init(1, version))
    client.ask(notification("notifications/initialized"))
    assert set(answer["result"]["capabilities"]) == {"tools"}
    (listing,) = client.ask(request(2, "tools/list"))
    assert "result" in listing
    (called,) = client.ask(call(3, "echo", {"text": "bonjour"}))
    assert text_of(called) == "bonjour"


@pytest.mark.spec("CAP-UNANNOUNCED-METHOD", "RPC-METHOD-NOT-FOUND")
@pytest.mark.parametrize(
    "method", ["resources/list", "resources/read", "prompts/list", "logging/setLevel", "completion/complete"]
)
def test_methods_of_unannounced_capabilities_are_not_found(method: str) -> None:
    (answer,) = Client().ready().ask(request(1, method, {}))
    assert error_code(answer) == -32601
    assert method in answer["error"]["message"]


@pytest.mark.spec("RPC-METHOD-NOT-FOUND")
@pytest.mark.parametrize("method", ["frobnicate", "tools/lister", "Tools/list", "", "sampling/createMessage"])
def test_unknown_methods_are_not_found(method: str) -> None:
    (answer,) = Client().ready().ask(request("x", method))
    assert answer["id"] == "x"
    assert error_code(answer) == -32601


# --- tools ---------------------------------------------------------------------------


@pytest.mark.spec("TOOLS-LIST-SHAPE")
@pytest.mark.parametrize(("version", "with_title"), [("2024-11-05", False), ("2025-03-26", False), ("2025-06-18", True), ("2025-11-25", True)])
def test_tools_list_shape_follows_the_version(version: str, with_title: bool) -> None:
    (answer,) = Client().ready(version).ask(request(1, "tools/list"))
    tools = answer["result"]["tools"]
    assert [tool["name"] for tool in tools] == TOOL_NAMES
    for tool in tools:
        expected_keys = {"name", "description", "inputSchema"} | ({"title"} if with_title else set())
        assert set(tool) == expected_keys
        assert isinstance(tool["description"], str)
        assert tool["inputSchema"]["type"] == "object"


@pytest.mark.spec("TOOLS-CALL-RESULT", "TOOLS-EXEC-ERROR")
@pytest.mark.parametrize(
    ("name", "arguments", "text", "is_error"),
    [
        ("lire_prix", {"produit": "baguette"}, "110 centimes", False),
        ("lire_prix", {"produit": "croissant"}, "130 centimes", False),
        ("lire_prix", {"produit": "kiwi"}, "Produit inconnu", True),
        ("echo", {"text": "\u65e5\u672c\u2028"}, "\u65e5\u672c\u2028", False),
        ("fail", {}, "this tool always fails", True),
    ],
)
def test_tool_results(name: str, arguments: dict[str, Any], text: str, is_error: bool) -> None:
    (answer,) = Client().ready().ask(call(1, name, arguments))
    assert answer["id"] == 1
    assert text_of(answer) == text
    assert answer["result"]["isError"] is is_error


@pytest.mark.spec("TOOLS-CALL-RESULT")
def test_omitted_arguments_are_an_empty_object() -> None:
    client = Client().ready()
    (answer,) = client.ask(call(1, "fail"))
    assert text_of(answer) == "this tool always fails"  # ran: {} fits its schema
    (answer,) = client.ask(call(2, "echo"))
    assert error_code(answer) == -32602  # {} lacks "text"


INVALID_ARGUMENTS = [
    ("lire_prix", {}),
    ("lire_prix", {"produit": 3}),
    ("lire_prix", {"produit": "kiwi", "extra": 1}),
    ("echo", {"text": None}),
    ("fail", {"x": 1}),
    ("attendre", {"ms": -1}),
    ("attendre", {"ms": 60_001}),
    ("attendre", {"ms": 1.5}),
    ("attendre", {"ms": 10.0}),
    ("attendre", {"ms": True}),
    ("attendre", {"ms": "10"}),
]


@pytest.mark.spec("TOOLS-ARGS-INVALID", "RPC-INVALID-PARAMS")
@pytest.mark.parametrize("version", ["2024-11-05", "2025-03-26", "2025-06-18"])
@pytest.mark.parametrize(("name", "arguments"), INVALID_ARGUMENTS)
def test_invalid_arguments_are_invalid_params_up_to_2025_06_18(version: str, name: str, arguments: Any) -> None:
    client = Client().ready(version)
    (answer,) = client.ask(call(1, name, arguments))
    assert error_code(answer) == -32602
    assert client.session.in_flight == 0


@pytest.mark.spec("TOOLS-ARGS-INVALID", "TOOLS-EXEC-ERROR")
@pytest.mark.parametrize(("name", "arguments"), INVALID_ARGUMENTS)
def test_invalid_arguments_are_a_tool_error_from_2025_11_25(name: str, arguments: Any) -> None:
    client = Client().ready("2025-11-25")
    (answer,) = client.ask(call(1, name, arguments))
    assert answer["result"]["isError"] is True
    assert text_of(answer)
    assert client.session.in_flight == 0


@pytest.mark.spec("RPC-INVALID-PARAMS")
@pytest.mark.parametrize("version", SUPPORTED_NAMES)
@pytest.mark.parametrize(
    "params",
    [None, {}, {"name": 3}, {"name": None}, {"name": "echo", "arguments": None}, {"name": "echo", "arguments": ["x"]}],
)
def test_tools_call_with_bad_name_or_arguments_is_invalid_params(version: str, params: Any) -> None:
    (answer,) = Client().ready(version).ask(request(1, "tools/call", params))
    assert error_code(answer) == -32602


@pytest.mark.spec("TOOLS-UNKNOWN")
@pytest.mark.parametrize("version", SUPPORTED_NAMES)
def test_unknown_tool_is_invalid_params_in_every_version(version: str) -> None:
    (answer,) = Client().ready(version).ask(call(1, "tout_effacer", {}))
    assert error_code(answer) == -32602


# --- concurrency and cancellation ----------------------------------------------------


@pytest.mark.spec("RPC-CONCURRENT", "RPC-ONE-ANSWER")
def test_slow_requests_answer_when_their_timer_fires_in_completion_order() -> None:
    client = Client().ready()
    slow = client.start(call(1, "attendre", {"ms": 80}))
    fast = client.start(call(2, "attendre", {"ms": 10}))
    assert (slow.seconds, fast.seconds) == (0.08, 0.01)
    assert slow.token != fast.token
    assert client.session.in_flight == 2
    assert client.ask(request(3, "ping")) == [{"jsonrpc": "2.0", "id": 3, "result": {}}]  # not held up
    (first,) = client.complete(fast)
    assert (first["id"], text_of(first)) == (2, "attendu 10 ms")
    (second,) = client.complete(slow)
    assert (second["id"], text_of(second)) == (1, "attendu 80 ms")
    assert client.session.in_flight == 0


@pytest.mark.spec("RPC-CANCEL")
def test_cancelling_an_in_flight_request_stops_its_timer_and_suppresses_its_answer() -> None:
    client = Client().ready()
    timer = client.start(call("slow", "attendre", {"ms": 1000}))
    assert client.send(cancel("slow")) == [CancelTimer(timer.token)]
    assert client.session.in_flight == 0
    assert client.send(cancel("slow")) == []  # already gone


@pytest.mark.spec("RPC-CANCEL", "RPC-NOTIFICATION-SILENT", "RPC-ID-ECHO")
@pytest.mark.parametrize(
    "message",
    [
        cancel(2),
        cancel("1"),  # 1 and "1" differ
        cancel(None),
        cancel(1.0),
        cancel(True),
        cancel([1]),
        notification("notifications/cancelled"),
        notification("notifications/cancelled", {}),
        notification("notifications/cancelled", [1]),
    ],
)
def test_unknown_or_invalid_cancellations_are_ignored(message: Any) -> None:
    client = Client().ready()
    timer = client.start(call(1, "attendre", {"ms": 5}))
    assert client.send(message) == []
    assert client.session.in_flight == 1
    (answer,) = client.complete(timer)
    assert answer["id"] == 1


@pytest.mark.spec("RPC-CANCEL")
def test_cancelling_a_finished_request_is_ignored() -> None:
    client = Client().ready()
    assert client.send(cancel(1)) == []
    client.ask(request(1, "ping"))
    assert client.send(cancel(1)) == []


@pytest.mark.spec("RPC-DUPLICATE-ID", "RPC-ID-ECHO")
@pytest.mark.parametrize("duplicate", [call(1, "attendre", {"ms": 1}), request(1, "ping"), init(1, "2025-06-18")])
def test_a_request_reusing_an_in_flight_id_is_refused_and_the_first_goes_on(duplicate: Any) -> None:
    client = Client().ready()
    timer = client.start(call(1, "attendre", {"ms": 50}))
    (refusal,) = client.ask(duplicate)
    assert refusal["id"] == 1
    assert error_code(refusal) == -32600
    assert client.session.in_flight == 1
    (answer,) = client.complete(timer)
    assert (answer["id"], text_of(answer)) == (1, "attendu 50 ms")


@pytest.mark.spec("RPC-DUPLICATE-ID", "RPC-ID-ECHO")
def test_ids_1_and_string_1_can_be_in_flight_together() -> None:
    client = Client().ready()
    number = client.start(call(1, "attendre", {"ms": 1}))
    string = client.start(call("1", "attendre", {"ms": 1}))
    (answer,) = client.complete(string)
    assert answer["id"] == "1"
    (answer,) = client.complete(number)
    assert answer["id"] == 1


@pytest.mark.spec("RPC-DUPLICATE-ID")
def test_an_id_reused_after_completion_is_served_normally() -> None:
    client = Client().ready()
    client.complete(client.start(call(1, "attendre", {"ms": 1})))
    (answer,) = client.complete(client.start(call(1, "attendre", {"ms": 2})))
    assert (answer["id"], text_of(answer)) == (1, "attendu 2 ms")
    timer = client.start(call(1, "attendre", {"ms": 3}))
    client.send(cancel(1))
    assert client.ask(request(1, "ping")) == [{"jsonrpc": "2.0", "id": 1, "result": {}}]  # after cancellation too
    assert isinstance(timer, StartTimer)


@pytest.mark.spec("RPC-ID-ECHO", "RPC-ONE-ANSWER")
@pytest.mark.parametrize("request_id", [0, -5, 9007199254740993, 10**100, "", "7", "\u65e5", "\ud800", " 1"])
def test_ids_are_echoed_unchanged_in_type_and_value(request_id: Any) -> None:
    client = Client().ready()
    (answer,) = client.ask(request(request_id, "ping"))
    assert answer["id"] == request_id and type(answer["id"]) is type(request_id)
    (answer,) = client.ask(request(request_id, "nope"))
    assert answer["id"] == request_id and type(answer["id"]) is type(request_id)
    (answer,) = client.complete(client.start(call(request_id, "attendre", {"ms": 0})))
    assert answer["id"] == request_id and type(answer["id"]) is type(request_id)


# --- what is never answered ----------------------------------------------------------


@pytest.mark.spec("RPC-CLIENT-RESPONSE")
@pytest.mark.parametrize(
    "response",
    [
        {"jsonrpc": "2.0", "id": 2, "result": {"tools": []}},
        {"jsonrpc": "2.0", "id": 2, "error": {"code": -1, "message": "m"}},
        {"jsonrpc": "2.0", "id": None, "result": []},
        {"id": [1], "error": "bad"},
    ],
)
def test_client_responses_are_dropped_with_a_log_line(response: Any) -> None:
    for client in (Client(), Client().ready()):
        effects = client.send(response)
        assert len(effects) == 1
        assert isinstance(effects[0], Log)
        assert "dropped a response" in effects[0].text


@pytest.mark.spec("RPC-NOTIFICATION-SILENT")
@pytest.mark.parametrize(
    "message",
    [
        notification("notifications/x"),
        notification("truc", {"a": 1}),
        notification("tools/list"),
        notification("ping"),
        notification("initialize", {"protocolVersion": "2025-06-18"}),
        notification("tools/call", {"name": "attendre", "arguments": {"ms": 1}}),
        notification("notifications/initialized", [1, 2]),
        notification("notifications/x", [1, 2]),
        notification("notifications/cancelled", {"requestId": {"x": 1}}),
    ],
)
@pytest.mark.parametrize("ready", [False, True])
def test_notifications_are_never_answered(message: Any, ready: bool) -> None:
    client = Client().ready() if ready else Client()
    assert client.send(message) == []
    assert client.session.in_flight == 0


# --- lines that are not messages -----------------------------------------------------


@pytest.mark.spec("RPC-PARSE-ERROR", "RPC-ERROR-ID-NULL", "STDIO-SURVIVE")
@pytest.mark.parametrize("bad", [b"pas du json", b"{", b"NaN", b"\xff", b"\xef\xbb\xbf{}", b"[" * 1000, b"1e400"])
@pytest.mark.parametrize("ready", [False, True])
def test_lines_that_are_not_json_get_a_parse_error_and_the_session_goes_on(bad: bytes, ready: bool) -> None:
    client = Client().ready() if ready else Client()
    (answer,) = answers(client.session.receive_data(bad + b"\n"))
    assert answer["id"] is None
    assert error_code(answer) == -32700
    assert client.ask(request(1, "ping")) == [{"jsonrpc": "2.0", "id": 1, "result": {}}]


@pytest.mark.spec("RPC-INVALID-REQUEST", "RPC-INVALID-NO-ID", "RPC-ERROR-ID-NULL", "RPC-ID-ECHO", "RPC-PARAMS-OBJECT")
@pytest.mark.parametrize(
    ("message", "expected_id", "code"),
    [
        ({"jsonrpc": "2.0", "id": 5, "method": 5}, 5, -32600),
        ({"jsonrpc": "2.0", "id": "a"}, "a", -32600),
        ({"id": 6, "method": "ping"}, 6, -32600),
        ({"jsonrpc": "2.0", "id": None, "method": "ping"}, None, -32600),
        ({"jsonrpc": "2.0", "id": 1.5, "method": "ping"}, None, -32600),
        ({"jsonrpc": "2.0", "method": 5}, None, -32600),
        ({"jsonrpc": "2.0", "method": "ping", "params": 3}, None, -32600),
        ({"jsonrpc": "2.0", "id": 7, "method": "ping", "params": "x"}, 7, -32600),
        ({"jsonrpc": "2.0", "id": 8, "method": "ping", "params": None}, 8, -32600),
        ({"jsonrpc": "2.0", "id": 9, "method": "ping", "params": [1]}, 9, -32602),
        ({}, None, -32600),
        ("ping", None, -32600),
        (3, None, -32600),
        (None, None, -32600),
    ],
)
def test_json_that_is_not_a_message_gets_an_error_answer(message: Any, expected_id: Any, code: int) -> None:
    for client in (Client(), Client().ready()):
        (answer,) = client.ask(message)
        assert answer["id"] == expected_id
        assert error_code(answer) == code


@pytest.mark.spec("FRAME-BLANK-LINE", "FRAME-CRLF")
def test_blank_lines_are_skipped_and_crlf_lines_are_served() -> None:
    client = Client()
    assert client.session.receive_data(b"\n  \n\t\r\n\r\n") == []
    effects = client.session.receive_data(b'{"jsonrpc":"2.0","id":1,"method":"ping"}\r\n')
    assert answers(effects) == [{"jsonrpc": "2.0", "id": 1, "result": {}}]


@pytest.mark.spec("FRAME-MAX-LINE", "STDIO-SURVIVE", "RPC-ERROR-ID-NULL")
def test_an_over_long_line_gets_one_parse_error_and_the_stream_goes_on() -> None:
    client = Client(max_line_bytes=64)
    long_line = line(request(1, "ping", {"padding": "x" * 100}))
    effects = client.session.receive_data(long_line[:50])
    assert effects == []
    effects = client.session.receive_data(long_line[50:90])
    (answer,) = answers(effects)
    assert (answer["id"], error_code(answer)) == (None, -32700)
    assert client.session.receive_data(long_line[90:]) == []
    assert client.ask(request(2, "ping")) == [{"jsonrpc": "2.0", "id": 2, "result": {}}]


@pytest.mark.spec("FRAME-EOF-PARTIAL")
def test_an_unterminated_last_line_is_served_at_eof() -> None:
    client = Client()
    assert client.session.receive_data(b'{"jsonrpc":"2.0","id":1,"method":"ping"}') == []
    assert answers(client.session.receive_eof()) == [{"jsonrpc": "2.0", "id": 1, "result": {}}]


@pytest.mark.spec("FRAME-EOF-PARTIAL")
def test_eof_without_a_partial_line_does_nothing() -> None:
    client = Client()
    assert client.session.receive_data(line(notification("x"))) == []
    assert client.session.receive_eof() == []


@pytest.mark.spec("FRAME-CHUNK-INVARIANT", "FRAME-UTF8")
def test_a_request_cut_inside_a_multibyte_character_is_served() -> None:
    client = Client().ready()
    data = json.dumps(call(1, "echo", {"text": "\u00e9\u65e5\U0001f956"}), ensure_ascii=False).encode() + b"\n"
    effects: list[Effect] = []
    for i in range(len(data)):
        effects.extend(client.session.receive_data(data[i : i + 1]))
    (answer,) = answers(effects)
    assert text_of(answer) == "\u00e9\u65e5\U0001f956"


# --- batches -------------------------------------------------------------------------


@pytest.mark.spec("RPC-BATCH")
def test_a_batch_gets_one_array_without_answers_for_its_notifications() -> None:
    client = Client().ready("2025-03-26")
    effects = client.send([request(1, "ping"), notification("notifications/x"), call(2, "echo", {"text": "b"})])
    (batch,) = answers(effects)
    assert isinstance(batch, list)
    assert [answer["id"] for answer in batch] == [1, 2]
    assert text_of(batch[1]) == "b"


@pytest.mark.spec("RPC-BATCH", "RPC-NOTIFICATION-SILENT")
def test_a_batch_of_notifications_gets_nothing() -> None:
    client = Client().ready("2025-03-26")
    assert client.send([notification("notifications/x"), notification("ping")]) == []


@pytest.mark.spec("RPC-BATCH", "RPC-CLIENT-RESPONSE")
def test_a_batch_of_client_responses_gets_nothing_but_logs() -> None:
    client = Client().ready("2025-03-26")
    effects = client.send([{"jsonrpc": "2.0", "id": 1, "result": {}}])
    assert len(effects) == 1 and isinstance(effects[0], Log)


@pytest.mark.spec("RPC-BATCH", "RPC-INVALID-REQUEST", "RPC-ERROR-ID-NULL")
def test_an_empty_batch_gets_one_invalid_request_object() -> None:
    client = Client().ready("2025-03-26")
    (answer,) = client.ask([])
    assert isinstance(answer, dict)
    assert (answer["id"], error_code(answer)) == (None, -32600)


@pytest.mark.spec("RPC-BATCH-INITIALIZE", "RPC-BATCH")
def test_initialize_inside_a_batch_is_refused_with_its_id() -> None:
    client = Client().ready("2025-03-26")
    (batch,) = client.ask([init("again", "2025-03-26"), request(2, "ping")])
    assert [(answer["id"], answer.get("error", {}).get("code")) for answer in batch] == [("again", -32600), (2, None)]
    assert client.session.version is not None and client.session.version.name == "2025-03-26"


@pytest.mark.spec("RPC-BATCH", "RPC-INVALID-REQUEST", "RPC-ERROR-ID-NULL")
def test_invalid_batch_members_get_invalid_request_entries() -> None:
    client = Client().ready("2025-03-26")
    (batch,) = client.ask([1, {"jsonrpc": "2.0", "id": 3, "method": 5}, [request(4, "ping")], request(5, "ping")])
    assert [(answer["id"], answer.get("error", {}).get("code")) for answer in batch] == [
        (None, -32600),
        (3, -32600),
        (None, -32600),
        (5, None),
    ]


@pytest.mark.spec("RPC-BATCH", "RPC-CONCURRENT")
def test_a_batch_with_a_slow_member_is_answered_when_it_completes() -> None:
    client = Client().ready("2025-03-26")
    effects = client.send([request(1, "ping"), call(2, "attendre", {"ms": 20}), call(3, "attendre", {"ms": 10})])
    timers = [effect for effect in effects if isinstance(effect, StartTimer)]
    assert len(timers) == 2 and len(effects) == 2  # nothing sent yet
    assert client.complete(timers[1]) == []  # one member still running
    (batch,) = client.complete(timers[0])
    assert [answer["id"] for answer in batch] == [1, 3, 2]  # completion order


@pytest.mark.spec("RPC-BATCH", "RPC-CANCEL")
def test_a_cancelled_batch_member_is_omitted() -> None:
    client = Client().ready("2025-03-26")
    effects = client.send([request(1, "ping"), call(2, "attendre", {"ms": 1000})])
    (timer,) = effects
    assert isinstance(timer, StartTimer)
    effects = client.send(cancel(2))
    assert effects[0] == CancelTimer(timer.token)
    (batch,) = answers(effects)
    assert batch == [{"jsonrpc": "2.0", "id": 1, "result": {}}]


@pytest.mark.spec("RPC-BATCH", "RPC-CANCEL", "RPC-ONE-ANSWER")
def test_a_member_cancelled_inside_its_own_batch_gives_one_array() -> None:
    client = Client().ready("2025-03-26")
    effects = client.send([request(1, "ping"), call(2, "attendre", {"ms": 1000}), cancel(2)])
    assert [type(effect) for effect in effects] == [StartTimer, CancelTimer, Send]
    assert answers(effects) == [[{"jsonrpc": "2.0", "id": 1, "result": {}}]]


@pytest.mark.spec("RPC-BATCH", "RPC-CANCEL")
def test_a_batch_whose_only_request_is_cancelled_gets_nothing() -> None:
    client = Client().ready("2025-03-26")
    (timer,) = client.send([call(2, "attendre", {"ms": 1000}), notification("notifications/x")])
    assert isinstance(timer, StartTimer)
    assert client.send(cancel(2)) == [CancelTimer(timer.token)]
    assert client.send([call(3, "attendre", {"ms": 1000}), cancel(3)]) == [
        StartTimer(2, 1.0),
        CancelTimer(2),
    ]


@pytest.mark.spec("RPC-BATCH", "RPC-DUPLICATE-ID")
def test_a_batch_reusing_an_id_in_flight_in_the_same_batch() -> None:
    client = Client().ready("2025-03-26")
    effects = client.send([call(1, "attendre", {"ms": 1}), call(1, "attendre", {"ms": 1})])
    (timer,) = [effect for effect in effects if isinstance(effect, StartTimer)]
    assert answers(effects) == []
    (batch,) = client.complete(timer)
    assert [(answer["id"], "error" in answer) for answer in batch] == [(1, True), (1, False)]


@pytest.mark.spec("RPC-BATCH-UNSUPPORTED", "RPC-ERROR-ID-NULL")
@pytest.mark.parametrize("version", ["2024-11-05", "2025-06-18", "2025-11-25"])
@pytest.mark.parametrize("array", [[1, 2], [], [{"jsonrpc": "2.0", "id": 1, "method": "ping"}]])
def test_arrays_outside_2025_03_26_get_one_invalid_request_with_id_null(version: str, array: list[Any]) -> None:
    client = Client().ready(version)
    (answer,) = client.ask(array)
    assert isinstance(answer, dict)
    assert (answer["id"], error_code(answer)) == (None, -32600)


@pytest.mark.spec("RPC-BATCH-UNSUPPORTED", "RPC-ERROR-ID-NULL")
@pytest.mark.parametrize("array", [[1, 2], [init(1, "2025-03-26")]])
def test_arrays_before_a_version_is_negotiated_get_one_invalid_request(array: list[Any]) -> None:
    client = Client()
    (answer,) = client.ask(array)
    assert (answer["id"], error_code(answer)) == (None, -32600)
    assert client.session.handshake.phase is Phase.NEW


# --- every request gets exactly one answer ---------------------------------------------

operations = st.lists(
    st.sampled_from(["ping", "list", "unknown", "slow", "fast_tool", "bad_tool", "notify", "cancel_last", "garbage"]),
    max_size=30,
)


@pytest.mark.spec("RPC-ONE-ANSWER", "RPC-CONCURRENT", "RPC-CANCEL", "RPC-NOTIFICATION-SILENT", "STDIO-SURVIVE")
@given(st.sampled_from(SUPPORTED_NAMES), operations, st.randoms(use_true_random=False))
def test_every_request_gets_exactly_one_answer_unless_cancelled(version: str, ops: list[str], rng: Any) -> None:
    client = Client().ready(version)
    ids = itertools.count(1)
    expected: set[int] = set()
    cancelled: set[int] = set()
    timers: dict[int, StartTimer] = {}
    seen: list[Any] = []
    last_slow: int | None = None
    for op in ops:
        request_id = next(ids)
        if op == "ping":
            message: Any = request(request_id, "ping")
        elif op == "list":
            message = request(request_id, "tools/list")
        elif op == "unknown":
            message = request(request_id, "unknown/method")
        elif op == "slow":
            message, last_slow = call(request_id, "attendre", {"ms": rng.randint(0, 100)}), request_id
        elif op == "fast_tool":
            message = call(request_id, "lire_prix", {"produit": "baguette"})
        elif op == "bad_tool":
            message = call(request_id, "attendre", {"ms": "x"})
        elif op == "notify":
            message = notification("notifications/x")
        elif op == "cancel_last":
            message = cancel(last_slow)
        else:
            message = "garbage"
        if isinstance(message, dict) and "id" in message:
            expected.add(request_id)
        if op == "cancel_last" and last_slow in timers:
            cancelled.add(last_slow)
            del timers[last_slow]
        effects = client.send(message)
        for effect in effects:
            if isinstance(effect, StartTimer):
                timers[request_id] = effect
        seen.extend(answers(effects))
    pending = list(timers.values())
    rng.shuffle(pending)
    for timer in pending:
        seen.extend(client.complete(timer))
    answered = [answer["id"] for answer in seen if answer["id"] is not None]
    assert sorted(answered) == sorted(expected - cancelled)
    assert client.session.in_flight == 0
