"""Tests for ``reference.client``: the sans-IO client, fed the bytes a server would write.

The phase table is checked pair by pair against expectations written out here; the rest feeds
lines and reads back what the client writes and the events it gives.
"""

from __future__ import annotations

import itertools
import json
import subprocess
import sys
from typing import Any

import pytest

from mcpref.reference.client import (
    TRANSITIONS,
    Answered,
    Client,
    ClientInput,
    ClientPhase,
    ClientStateError,
    Closed,
    Failed,
    Opened,
    capability_needed,
)
from mcpref.reference.versions import BY_NAME

# The stdio loops run only in processes of their own: those processes are measured.
pytestmark = pytest.mark.traced

_P, _I = ClientPhase, ClientInput
EXPECTED = {
    (_P.NEW, _I.OPEN): _P.OPENING,
    (_P.NEW, _I.PROBE): _P.DISCOVERING,
    (_P.NEW, _I.END): _P.CLOSED,
    (_P.DISCOVERING, _I.MODERN): _P.SERVING,
    (_P.DISCOVERING, _I.FALLBACK): _P.OPENING,
    (_P.DISCOVERING, _I.REFUSED): _P.CLOSED,
    (_P.DISCOVERING, _I.END): _P.CLOSED,
    (_P.OPENING, _I.ACCEPTED): _P.READY,
    (_P.OPENING, _I.REFUSED): _P.CLOSED,
    (_P.OPENING, _I.END): _P.CLOSED,
    (_P.READY, _I.REQUEST): _P.READY,
    (_P.READY, _I.END): _P.CLOSED,
    (_P.SERVING, _I.REQUEST): _P.SERVING,
    (_P.SERVING, _I.END): _P.CLOSED,
    (_P.CLOSED, _I.END): _P.CLOSED,
}


def sent(client: Client) -> list[dict[str, Any]]:
    data = client.data_to_send()
    assert data == b"" or data.endswith(b"\n")
    return [json.loads(line) for line in data.splitlines()]


def line(message: dict[str, Any]) -> bytes:
    return json.dumps(message).encode() + b"\n"


def opened(capabilities: dict[str, Any] | None = None, roots: tuple[str, ...] = ()) -> Client:
    client = Client(roots=roots)
    client.open()
    sent(client)
    result = {"protocolVersion": "2025-11-25", "capabilities": {"tools": {}} if capabilities is None else capabilities}
    events = client.receive_data(line({"jsonrpc": "2.0", "id": 1, "result": result}))
    assert isinstance(events[0], Opened)
    return client


def test_the_phase_table_is_the_one_written_out() -> None:
    table = {(phase, event): after for phase, row in TRANSITIONS.items() for event, after in row.items()}
    assert table == EXPECTED


@pytest.mark.parametrize(("phase", "event"), [p for p in itertools.product(_P, _I) if p not in EXPECTED])
def test_a_pair_outside_the_table_is_the_callers_bug(phase: ClientPhase, event: ClientInput) -> None:
    client = Client()
    client.phase = phase
    with pytest.raises(ClientStateError, match=phase.value):
        client._move(event)


@pytest.mark.spec("CLIENT-INIT-FIRST", "CLIENT-INITIALIZED", "CLIENT-ID-TYPE")
def test_initialize_first_then_initialized_right_after_the_answer() -> None:
    client = Client(BY_NAME["2025-06-18"])
    client.open()
    [initialize] = sent(client)
    assert initialize["method"] == "initialize" and initialize["id"] == 1
    assert initialize["params"]["protocolVersion"] == "2025-06-18" and initialize["params"]["capabilities"] == {}
    answer = {"protocolVersion": "2025-06-18", "capabilities": {"tools": {}}, "serverInfo": {"name": "s"}}
    events = client.receive_data(line({"jsonrpc": "2.0", "id": 1, "result": answer}))
    assert events == [Opened("2025-06-18", {"tools": {}})]
    assert sent(client) == [{"jsonrpc": "2.0", "method": "notifications/initialized"}]


@pytest.mark.spec("CLIENT-INIT-ALONE")
def test_no_request_before_the_answer() -> None:
    client = Client()
    client.open()
    with pytest.raises(ClientStateError):
        client.request("tools/list", {})


@pytest.mark.spec("CLIENT-VERSION-UNSUPPORTED")
@pytest.mark.parametrize("answer", [{"protocolVersion": "2099-01-01", "capabilities": {}}, {"capabilities": {}}])
def test_a_version_not_known_disconnects(answer: dict[str, Any]) -> None:
    client = Client()
    client.open()
    sent(client)
    [event] = client.receive_data(line({"jsonrpc": "2.0", "id": 1, "result": answer}))
    assert isinstance(event, Closed) and "version" in event.reason
    assert client.phase is ClientPhase.CLOSED and sent(client) == []


def test_a_refused_initialize_closes() -> None:
    client = Client()
    client.open()
    sent(client)
    [event] = client.receive_data(line({"jsonrpc": "2.0", "id": 1, "error": {"code": -32602, "message": "no"}}))
    assert event == Closed("initialize was refused")


@pytest.mark.spec("CLIENT-ID-UNIQUE", "CLIENT-ID-TYPE")
def test_ids_increase_and_answers_are_matched() -> None:
    client = opened()
    sent(client)
    first, second = client.request("tools/list", {}), client.request("tools/call", {"name": "x"})
    assert (first, second) == (2, 3)
    assert [m["id"] for m in sent(client)] == [2, 3]
    events = client.receive_data(
        line({"jsonrpc": "2.0", "id": 3, "error": {"code": -1, "message": "m"}})
        + line({"jsonrpc": "2.0", "id": 2, "result": {"tools": []}})
        + line({"jsonrpc": "2.0", "id": 99, "result": {}})  # an answer to nothing asked: ignored
    )
    assert events == [Failed(3, {"code": -1, "message": "m"}), Answered(2, {"tools": []})]


@pytest.mark.spec("CLIENT-CAP-ANNOUNCED")
def test_nothing_is_sent_for_a_capability_not_announced() -> None:
    client = opened(capabilities={})
    sent(client)
    assert client.request("tools/call", {"name": "x"}) is None
    assert client.request("logging/setLevel", {"level": "info"}) is None
    assert client.request("custom/method", {}) == 2
    assert [m["method"] for m in sent(client)] == ["custom/method"]
    assert [capability_needed(m) for m in ("prompts/get", "completion/complete", "ping")] == ["prompts", "completions", None]


@pytest.mark.spec("CLIENT-PING", "CLIENT-ANSWERS-REQUESTS", "CLIENT-UNDECLARED-REFUSED", "CLIENT-NOTIFICATION-SILENT")
def test_server_requests_are_answered_and_notifications_are_not() -> None:
    client = Client()
    client.open()
    sent(client)
    data = b"".join(
        line(m)
        for m in (
            {"jsonrpc": "2.0", "id": "p", "method": "ping"},  # before the answer too (CLIENT-PING)
            {"jsonrpc": "2.0", "id": 7, "method": "roots/list"},
            {"jsonrpc": "2.0", "id": 8, "method": "sampling/createMessage", "params": {}},
            {"jsonrpc": "2.0", "method": "notifications/message", "params": {"level": "info", "data": 1}},
            {"jsonrpc": "2.0", "id": 9, "method": 5},  # invalid, with an id: an error for it
            {"jsonrpc": "2.0", "method": 5},  # invalid, without one: nothing
        )
    )
    assert client.receive_data(data + b"not json\n[1]\n") == []
    answers = sent(client)
    assert answers[0] == {"jsonrpc": "2.0", "id": "p", "result": {}}
    assert [(a["id"], a["error"]["code"]) for a in answers[1:]] == [(7, -32601), (8, -32601), (9, -32600)]


def test_declared_roots_are_listed() -> None:
    client = opened(roots=("file:///work",))
    sent(client)
    client.receive_data(line({"jsonrpc": "2.0", "id": 4, "method": "roots/list"}))
    assert sent(client) == [{"jsonrpc": "2.0", "id": 4, "result": {"roots": [{"uri": "file:///work"}]}}]


@pytest.mark.spec("CLIENT-READ-CHUNKS", "CLIENT-READ-LF-ONLY")
def test_an_answer_cut_anywhere_and_holding_u2028_is_read_whole() -> None:
    client = opened()
    sent(client)
    client.request("tools/call", {"name": "x"})
    data = json.dumps({"jsonrpc": "2.0", "id": 2, "result": {"t": "é\u2028𝄞"}}, ensure_ascii=False).encode() + b"\r\n"
    events = [event for i in range(len(data)) for event in client.receive_data(data[i : i + 1])]
    assert events == [Answered(2, {"t": "é\u2028𝄞"})]


@pytest.mark.spec("CLIENT-SERVER-GONE")
def test_the_end_of_the_servers_output_closes_and_reads_the_last_line() -> None:
    client = opened()
    client.request("tools/list", {})
    events = client.receive_data(b'{"jsonrpc":"2.0","id":2,"result":{}}')
    assert events == []
    assert client.receive_data(b"") == [Answered(2, {}), Closed("the server closed its output")]
    assert client.receive_data(b"") == [Closed("the server closed its output")]


def test_an_over_long_line_is_skipped_and_a_late_line_after_closing_is_ignored() -> None:
    client = opened()
    sent(client)
    client._framer.max_line_bytes = 8
    assert client.receive_data(b"x" * 20 + b"\n") == []
    client.receive_data(b"")
    client._framer = type(client._framer)()
    assert client.receive_data(line({"jsonrpc": "2.0", "id": 1, "method": "ping"})) == []
    assert sent(client) == []


MODERN_CLIENT = BY_NAME["2026-07-28"]


def discovering(roots: tuple[str, ...] = ()) -> tuple[Client, dict[str, Any]]:
    client = Client(MODERN_CLIENT, roots)
    client.open()
    [probe] = sent(client)
    return client, probe


@pytest.mark.spec("CLIENT-MOD-META", "CLIENT-MOD-STAYS-MODERN")
def test_a_dual_era_client_probes_and_stays_modern_with_meta_on_every_request() -> None:
    client, probe = discovering(roots=("file:///tmp",))
    meta = probe["params"]["_meta"]
    assert probe["method"] == "server/discover" and client.phase is _P.DISCOVERING
    assert meta["io.modelcontextprotocol/protocolVersion"] == "2026-07-28"
    assert meta["io.modelcontextprotocol/clientCapabilities"] == {"roots": {}}
    result = {"supportedVersions": ["2026-07-28"], "capabilities": {"tools": {}}, "resultType": "complete"}
    [event] = client.receive_data(line({"jsonrpc": "2.0", "id": 1, "result": result}))
    assert event == Opened("2026-07-28", {"tools": {}}) and client.phase is _P.SERVING and sent(client) == []
    assert client.request("tools/call", {"name": "echo"}) == 2
    [call] = sent(client)
    assert call["params"]["name"] == "echo" and call["params"]["_meta"] == meta
    # -32022 to a modern request: the only modern version the client speaks was refused, nothing more is sent.
    refused = {"code": -32022, "message": "no", "data": {"supported": ["2099-01-01"], "requested": "2026-07-28"}}
    assert client.receive_data(line({"jsonrpc": "2.0", "id": 2, "error": refused})) == [Failed(2, refused)]
    assert sent(client) == []


@pytest.mark.spec("CLIENT-MOD-FALLBACK")
@pytest.mark.parametrize("code", [-32601, -32602, -32603, -32000])
def test_any_error_that_is_not_a_modern_one_falls_back_to_initialize(code: object) -> None:
    client, _ = discovering()
    assert client.receive_data(line({"jsonrpc": "2.0", "id": 1, "error": {"code": code, "message": "?"}})) == []
    [initialize] = sent(client)
    assert initialize["method"] == "initialize" and initialize["params"]["protocolVersion"] == "2025-11-25"
    assert "_meta" not in initialize["params"] and client.phase is _P.OPENING


@pytest.mark.spec("CLIENT-MOD-STAYS-MODERN", "CLIENT-MOD-VERSION-RETRY")
@pytest.mark.parametrize(
    ("answer", "reason"),
    [
        ({"error": {"code": -32022, "message": "no", "data": {"supported": ["2099-01-01"]}}}, "refused by a modern server"),
        ({"result": {"supportedVersions": ["2099-01-01"], "capabilities": {}}}, 'speaks ["2099-01-01"], not 2026-07-28'),
        ({"result": {"capabilities": {}}}, "speaks null, not 2026-07-28"),
    ],
)
def test_a_modern_server_of_no_common_version_closes_without_a_fallback(answer: dict[str, Any], reason: str) -> None:
    client, _ = discovering()
    [event] = client.receive_data(line({"jsonrpc": "2.0", "id": 1, **answer}))
    assert isinstance(event, Closed) and reason in event.reason and client.phase is _P.CLOSED and sent(client) == []


def test_a_discover_result_without_capabilities_announces_none() -> None:
    client, _ = discovering()
    result = {"supportedVersions": ["2026-07-28"], "capabilities": "none"}
    assert client.receive_data(line({"jsonrpc": "2.0", "id": 1, "result": result})) == [Opened("2026-07-28", {})]
    assert client.request("tools/list", {}) is None  # no tools announced: nothing sent (CLIENT-CAP-ANNOUNCED)


def client_command(*arguments: str) -> list[str]:
    return [sys.executable, "-m", "mcpref", "client", *arguments]


def reference_server() -> list[str]:
    return [sys.executable, "-m", "mcpref.reference"]


@pytest.mark.spec("CLIENT-RESULT-SHOWN", "CLIENT-SHUTDOWN")
def test_the_client_command_prints_the_tools_text() -> None:
    argv = client_command("--tool", "echo", "--arguments", '{"text": "héllo ✓"}', "--", *reference_server())
    done = subprocess.run(argv, capture_output=True, timeout=60, check=False)
    assert (done.returncode, done.stdout.decode()) == (0, "héllo ✓\n")


def test_the_client_command_lists_tools_and_reports_a_tool_error() -> None:
    listed = subprocess.run(client_command("--", *reference_server()), capture_output=True, timeout=60, check=False)
    assert listed.returncode == 0 and b"echo\n" in listed.stdout
    argv = client_command("--tool", "fail", "--", *reference_server())
    failed = subprocess.run(argv, capture_output=True, timeout=60, check=False)
    assert failed.returncode == 1
    argv = client_command("--tool", "no-such-tool", "--", *reference_server())
    refused = subprocess.run(argv, capture_output=True, timeout=60, check=False)
    assert refused.returncode == 1 and b"answered an error" in refused.stderr


@pytest.mark.parametrize(
    ("arguments", "complaint"),
    [
        (["--arguments", "{", "--", "true"], b"not JSON"),
        (["--arguments", "[]", "--", "true"], b"JSON object"),
        (["--timeout", "0", "--", "true"], b"positive"),
        (["--", "/nonexistent/server"], b"cannot start"),
    ],
)
def test_bad_usage_exits_2(arguments: list[str], complaint: bytes) -> None:
    done = subprocess.run(client_command(*arguments), capture_output=True, timeout=60, check=False)
    assert done.returncode == 2 and complaint in done.stderr


def test_a_server_that_errs_falls_silent_or_is_stubborn() -> None:
    errs = [sys.executable, "-c", "import sys; sys.stdin.readline(); "
            "print('{\"jsonrpc\":\"2.0\",\"id\":1,\"error\":{\"code\":-32602,\"message\":\"no\"}}', flush=True)"]  # fmt: skip
    done = subprocess.run(client_command("--", *errs), capture_output=True, timeout=60, check=False)
    assert done.returncode == 1 and b"refused" in done.stderr
    silent = [sys.executable, "-c", "import signal, time; signal.signal(signal.SIGTERM, signal.SIG_IGN); time.sleep(60)"]
    done = subprocess.run(client_command("--timeout", "0.5", "--", *silent), capture_output=True, timeout=60, check=False)
    assert done.returncode == 1 and b"no answer within 0.5 s" in done.stderr


def test_a_server_without_tools_is_not_called() -> None:
    bare = [sys.executable, "-c", "import sys; sys.stdin.readline(); print('{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":"
            "{\"protocolVersion\":\"2025-11-25\",\"capabilities\":{},\"serverInfo\":{\"name\":\"b\",\"version\":\"1\"}}}', flush=True); "
            "sys.stdin.read()"]  # fmt: skip
    done = subprocess.run(client_command("--tool", "echo", "--", *bare), capture_output=True, timeout=60, check=False)
    assert done.returncode == 1 and b"the server announced no tools (it offered [])" in done.stderr


def test_what_is_shown_of_odd_results(capsys: pytest.CaptureFixture[str]) -> None:
    from mcpref.reference.client_stdio import _shown

    assert _shown({"tools": [{"name": "a"}, "junk"]}, None) == 0
    assert _shown({"content": [{"type": "text", "text": "b"}, {"type": "image"}, "junk"], "isError": True}, "t") == 1
    assert _shown({"content": "junk"}, "t") == 0
    assert capsys.readouterr().out == "a\nb\n"


def test_writing_to_a_server_that_is_gone_is_not_an_error() -> None:
    import os

    from mcpref.reference.client_stdio import _flush

    read_end, write_end = os.pipe()
    os.close(read_end)
    client = Client()
    client.open()
    with open(write_end, "wb", buffering=0) as stdin:
        _flush(client, stdin)  # EPIPE: the server's end of output will say it is gone
    assert client.data_to_send() == b""


def serving(roots: tuple[str, ...] = ()) -> Client:
    client, _ = discovering(roots)
    result = {"supportedVersions": ["2026-07-28"], "capabilities": {"tools": {}}}
    client.receive_data(line({"jsonrpc": "2.0", "id": 1, "result": result}))
    client.request("tools/call", {"name": "echo"})
    sent(client)
    return client


def input_required(request_id: int, **fields: Any) -> bytes:
    return line({"jsonrpc": "2.0", "id": request_id, "result": {"resultType": "input_required", **fields}})


@pytest.mark.spec("CLIENT-MOD-INPUT-RETRY")
def test_input_required_is_answered_by_a_retry_with_a_new_id_the_roots_and_the_state_as_sent() -> None:
    client = serving(roots=("file:///tmp",))
    asked = {"r": {"method": "roots/list", "params": {}}}
    assert client.receive_data(input_required(2, inputRequests=asked, requestState=" opaque\u2028 ")) == []
    [retry] = sent(client)
    assert retry["id"] == 3 and retry["method"] == "tools/call" and retry["params"]["name"] == "echo"
    assert retry["params"]["inputResponses"] == {"r": {"roots": [{"uri": "file:///tmp"}]}}
    assert retry["params"]["requestState"] == " opaque\u2028 " and "_meta" in retry["params"]
    # Only a state: the retry carries it and nothing else new.
    assert client.receive_data(input_required(3, requestState="s2")) == []
    [again] = sent(client)
    assert again["params"]["requestState"] == "s2" and "inputResponses" not in again["params"]
    done = {"content": [], "resultType": "complete"}
    assert client.receive_data(line({"jsonrpc": "2.0", "id": 4, "result": done})) == [Answered(4, done)]


@pytest.mark.spec("CLIENT-MOD-INPUT-RETRY")
def test_input_the_client_cannot_give_or_asked_too_often_fails_the_call() -> None:
    client = serving()
    asked = {"who": {"method": "elicitation/create", "params": {}}, "r": "not a request"}
    [failed] = client.receive_data(input_required(2, inputRequests=asked))
    assert isinstance(failed, Failed) and "cannot give: r, who" in str(failed.error["message"]) and sent(client) == []
    client = serving()
    request_id = 2
    for _ in range(8):
        assert client.receive_data(input_required(request_id, requestState="again")) == []
        [retry] = sent(client)
        request_id = retry["id"]
    [failed] = client.receive_data(input_required(request_id, requestState="again"))
    assert isinstance(failed, Failed) and "asked 8 times" in str(failed.error["message"])
    client = serving()
    assert client.receive_data(input_required(2, inputRequests="odd")) == []  # no input asked: a plain retry
    [retry] = sent(client)
    assert "inputResponses" not in retry["params"] and "requestState" not in retry["params"]


@pytest.mark.spec("CLIENT-CANCEL")
def test_giving_up_cancels_every_request_still_unanswered_but_initialize() -> None:
    client = Client()
    client.open()
    sent(client)
    client.give_up("no answer within 1 s")
    assert sent(client) == []  # only initialize was waiting: it is never cancelled
    client = opened()
    client.request("tools/call", {"name": "echo"})
    sent(client)
    client.give_up("no answer within 1 s")
    assert sent(client) == [
        {"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 2, "reason": "no answer within 1 s"}}
    ]
    client.give_up("again")
    assert sent(client) == []
