"""What a server writes on its own in a legacy session: judged against what the session settled."""

from __future__ import annotations

import pytest
from test_oracle import HANDSHAKE, INIT_RESULT, _judge, rules

from mcpref.fuzz.drive.client_side import SENTINEL_IDS
from mcpref.fuzz.drive.observation import Observation
from mcpref.fuzz.generate.messages import encode, initialize, request
from mcpref.fuzz.judge.oracle import Finding, Profile, judge, witnessed

ROOTS = b'{"jsonrpc":"2.0","id":"s1","method":"roots/list"}'
SAMPLING = b'{"jsonrpc":"2.0","id":"s2","method":"sampling/createMessage","params":{"messages":[],"maxTokens":1}}'
TOOLS_CHANGED = b'{"jsonrpc":"2.0","method":"notifications/tools/list_changed"}'
PONG = b'{"jsonrpc":"2.0","id":1,"result":{}}'


def _at(version: str) -> tuple[list[bytes], bytes]:
    """A handshake at ``version``, and the initialize result accepting it."""
    return [encode(initialize(0, version)), HANDSHAKE[1]], INIT_RESULT.replace(b"2025-11-25", version.encode())


def _progress(token: object, progress: object) -> bytes:
    params = {"progressToken": token, "progress": progress}
    return encode({"jsonrpc": "2.0", "method": "notifications/progress", "params": params}).rstrip(b"\n")


def _ping_asking_progress(token: object) -> bytes:
    return encode(request(1, "ping", {"_meta": {"progressToken": token}}))


def by_rule(findings: list[Finding]) -> list[str]:
    return [finding.rule for finding in findings]


@pytest.mark.spec("CAP-CLIENT-DECLARED", "LIFE-SERVER-EARLY")
def test_asking_for_a_capability_the_client_did_not_declare_fails_once_per_method() -> None:
    lines = [*HANDSHAKE, encode(request(1, "ping"))]
    assert by_rule(_judge(lines, [INIT_RESULT, ROOTS, ROOTS, SAMPLING, PONG])) == ["CAP-CLIENT-DECLARED"] * 2
    assert "client declared no roots" in _judge(lines, [INIT_RESULT, ROOTS, PONG])[0].message
    # Declared, it is the client's to answer; ping needs no capability.
    params = {"protocolVersion": "2025-11-25", "capabilities": {"roots": {}}, "clientInfo": {"name": "c", "version": "1"}}
    declaring = encode(request(0, "initialize", params))
    assert _judge([declaring, *lines[1:]], [INIT_RESULT, ROOTS, PONG]) == []
    ping = b'{"jsonrpc":"2.0","id":"s3","method":"ping"}'
    assert _judge(lines, [INIT_RESULT, ping, PONG]) == []
    # Before the initialize answer it is LIFE-SERVER-EARLY's, not filed twice.
    assert by_rule(_judge(lines, [ROOTS, INIT_RESULT, PONG])) == ["LIFE-SERVER-EARLY"]


@pytest.mark.spec("LIFE-SERVER-EARLY")
def test_a_notification_written_once_initialized_was_read_is_not_early_even_before_the_answer() -> None:
    # initialize and initialized written together; the server wrote list_changed, then its answer.
    stream = b"".join([*HANDSHAKE, encode(request(1, "ping"))])
    output = (TOOLS_CHANGED, INIT_RESULT, PONG)
    initialized_end = len(HANDSHAKE[0]) + len(HANDSHAKE[1])

    def findings(sent_before: tuple[int, ...]) -> list[str]:
        return by_rule(judge(stream, Observation(output, b"", True, SENTINEL_IDS, sent_before=sent_before)))

    # initialized had been sent when its notification was read: it may have been written after.
    assert findings((initialized_end, initialized_end, len(stream))) == []
    assert findings((len(stream),) * 3) == []
    # Only initialize had been sent, or nothing: the notification came before initialized.
    assert findings((initialized_end - 1, initialized_end, len(stream))) == ["LIFE-SERVER-EARLY"]
    assert findings((0, initialized_end, len(stream))) == ["LIFE-SERVER-EARLY"]
    # Unmeasured (an observation built by hand), or no initialized sent at all: early.
    assert findings(()) == ["LIFE-SERVER-EARLY"]
    alone = b"".join([HANDSHAKE[0], encode(request(1, "ping"))])
    observed = Observation(output, b"", True, SENTINEL_IDS, sent_before=(len(alone),) * 3)
    assert by_rule(judge(alone, observed)) == ["LIFE-SERVER-EARLY"]
    # An unterminated initialized at the end may be read as a line at EOF.
    cut = stream[: initialized_end - 1]
    output = (TOOLS_CHANGED, INIT_RESULT)
    observed = Observation(output, b"", True, (), True, sent_before=(len(cut), len(cut)))
    assert "LIFE-SERVER-EARLY" not in by_rule(judge(cut, observed))


@pytest.mark.spec("CAP-ELICIT-COMPLETE")
def test_an_elicitation_completed_is_one_the_server_started_with_this_client() -> None:
    complete = b'{"jsonrpc":"2.0","method":"notifications/elicitation/complete","params":{"elicitationId":"e-1"}}'
    ping = encode(request(1, "ping"))
    assert by_rule(_judge([*HANDSHAKE, ping], [INIT_RESULT, complete, PONG])) == ["CAP-ELICIT-COMPLETE"]
    # Started by a url-mode elicitation/create of its own, to a client that declared url mode...
    client = {"name": "c", "version": "1"}
    params = {"protocolVersion": "2025-11-25", "capabilities": {"elicitation": {"url": {}}}, "clientInfo": client}
    declaring = encode(request(0, "initialize", params))
    url = {"mode": "url", "elicitationId": "e-1", "url": "https://example.com/a", "message": "m"}
    create = encode({"jsonrpc": "2.0", "id": "s1", "method": "elicitation/create", "params": url}).rstrip(b"\n")
    assert _judge([declaring, HANDSHAKE[1], ping], [INIT_RESULT, create, complete, PONG]) == []
    assert by_rule(_judge([declaring, HANDSHAKE[1], ping], [INIT_RESULT, complete, create, PONG])) == [
        "CAP-ELICIT-COMPLETE"  # the completion came first
    ]
    # ... or by the elicitations of a -32042 error it answered with.
    call = encode(request(2, "tools/call", {"name": "echo", "arguments": {"text": "x"}}))
    data = {"elicitations": [url]}
    required = encode({"jsonrpc": "2.0", "id": 2, "error": {"code": -32042, "message": "m", "data": data}}).rstrip(b"\n")
    assert "CAP-ELICIT-COMPLETE" not in by_rule(_judge([*HANDSHAKE, call, ping], [INIT_RESULT, required, complete, PONG]))
    # Elicitations that name no id, and a line that is no JSON, start nothing.
    nameless = encode({"jsonrpc": "2.0", "id": 2, "error": {"code": -32042, "message": "m", "data": {"elicitations": [5, {"elicitationId": 7}]}}})
    for output in ([INIT_RESULT, nameless.rstrip(b"\n"), complete, PONG], [INIT_RESULT, b"-32042 {", complete, PONG]):
        assert "CAP-ELICIT-COMPLETE" in by_rule(_judge([*HANDSHAKE, call, ping], output))
    # Before 2025-11-25 the notification does not exist: not judged under this rule.
    handshake, result = _at("2025-06-18")
    assert "CAP-ELICIT-COMPLETE" not in by_rule(_judge([*handshake, ping], [result, complete, PONG]))


@pytest.mark.spec("TASKS-TERMINAL")
def test_a_task_notified_in_a_terminal_status_is_never_notified_in_another() -> None:
    def status(task: object, name: object) -> bytes:
        at = "2026-12-04T00:00:00Z"
        params = {"taskId": task, "status": name, "createdAt": at, "lastUpdatedAt": at, "ttl": None}
        return encode({"jsonrpc": "2.0", "method": "notifications/tasks/status", "params": params}).rstrip(b"\n")

    lines = [*HANDSHAKE, encode(request(1, "ping"))]
    lawful = [status("t", "working"), status("t", "input_required"), status("t", "completed"), status("t", "completed")]
    assert _judge(lines, [INIT_RESULT, *lawful, PONG]) == []
    findings = _judge(lines, [INIT_RESULT, status("t", "failed"), status("u", "cancelled"), status("t", "working"), PONG])
    assert [(f.rule, f.message) for f in findings] == [
        ("TASKS-TERMINAL", 'notified a task out of a terminal status: "t": failed then working')
    ]
    # Statuses without a string task id or status are no transitions (their shape's rule alone
    # finds them); other versions have no tasks.
    odd = _judge(lines, [INIT_RESULT, status(1, "completed"), status(1, "working"), status("t", None), PONG])
    assert by_rule(odd) == ["SERVER-MESSAGE-SHAPE"]
    handshake, result = _at("2025-06-18")
    assert _judge([*handshake, lines[2]], [result, status("t", "completed"), status("t", "working"), PONG]) == []


@pytest.mark.spec("CAP-CLIENT-DECLARED")
def test_an_undeclared_capability_used_before_2025_06_18_is_a_should() -> None:
    handshake, result = _at("2025-03-26")
    findings = _judge([*handshake, encode(request(1, "ping"))], [result, ROOTS, PONG])
    assert by_rule(findings) == ["CAP-CLIENT-DECLARED"] and rules(findings) == set()
    assert rules(findings, Profile.STRICT) == {"CAP-CLIENT-DECLARED"}
    handshake, result = _at("2025-06-18")
    assert rules(_judge([*handshake, encode(request(1, "ping"))], [result, ROOTS, PONG])) == {"CAP-CLIENT-DECLARED"}


@pytest.mark.spec("CAP-CLIENT-DECLARED")
def test_from_2025_11_25_sampling_with_tools_and_each_elicitation_mode_are_declared_apart() -> None:
    def declaring(version: str, capabilities: dict[str, object]) -> list[bytes]:
        params = {"protocolVersion": version, "capabilities": capabilities, "clientInfo": {"name": "c", "version": "1"}}
        return [encode(request(0, "initialize", params)), HANDSHAKE[1], encode(request(1, "ping"))]

    def asks(method: str, **params: object) -> bytes:
        return encode({"jsonrpc": "2.0", "id": "s", "method": method, "params": params}).rstrip(b"\n")

    with_tools = asks("sampling/createMessage", messages=[], maxTokens=1, tools=[])
    url = asks("elicitation/create", mode="url", message="m", url="https://example.com", elicitationId="e")
    form = asks("elicitation/create", message="m", requestedSchema={"type": "object", "properties": {}})
    plain = {"sampling": {}, "elicitation": {}}  # elicitation naming no mode is form mode only
    findings = _judge(declaring("2025-11-25", plain), [INIT_RESULT, with_tools, url, form, PONG])
    assert [f.message for f in findings] == [
        "sent sampling/createMessage once, though the client declared no sampling.tools capability",
        "sent elicitation/create once, though the client declared no elicitation.url capability",
    ]
    assert rules(findings) == {"CAP-CLIENT-DECLARED"}
    modes = {"sampling": {"tools": {}}, "elicitation": {"url": {}}}
    only_url = _judge(declaring("2025-11-25", modes), [INIT_RESULT, with_tools, url, form, PONG])
    assert [f.message for f in only_url] == [
        "sent elicitation/create once, though the client declared no elicitation.form capability"
    ]
    both = {"sampling": {"tools": {}}, "elicitation": {"url": {}, "form": {}}}
    assert _judge(declaring("2025-11-25", both), [INIT_RESULT, with_tools, url, form, PONG]) == []
    # roots names no mode; sampling without tools needs sampling alone.
    plain_sampling = asks("sampling/createMessage", messages=[], maxTokens=1)
    assert _judge(declaring("2025-11-25", {"roots": {}, "sampling": {}}), [INIT_RESULT, asks("roots/list"), plain_sampling, PONG]) == []
    # Before 2025-11-25 the capabilities name no modes: declared, each request is the client's to
    # answer (a url-mode elicitation lacks the requestedSchema 2025-06-18's schema requires: its shape's).
    result = INIT_RESULT.replace(b"2025-11-25", b"2025-06-18")
    assert by_rule(_judge(declaring("2025-06-18", plain), [result, with_tools, url, PONG])) == ["SERVER-MESSAGE-SHAPE"]


@pytest.mark.spec("CAP-LIST-CHANGED")
def test_a_list_changed_notification_without_list_changed_announced_warns() -> None:
    lines = [*HANDSHAKE, encode(request(1, "ping"))]
    findings = _judge(lines, [INIT_RESULT, TOOLS_CHANGED, TOOLS_CHANGED, PONG])
    assert by_rule(findings) == ["CAP-LIST-CHANGED"] and rules(findings) == set()
    assert rules(findings, Profile.STRICT) == {"CAP-LIST-CHANGED"}
    announced = INIT_RESULT.replace(b'{"tools":{}}', b'{"tools":{"listChanged":true}}')
    assert _judge(lines, [announced, TOOLS_CHANGED, PONG]) == []
    prompts = b'{"jsonrpc":"2.0","method":"notifications/prompts/list_changed"}'
    assert by_rule(_judge(lines, [announced, prompts, PONG])) == ["CAP-LIST-CHANGED"]


@pytest.mark.spec("CAP-RESOURCE-SUBSCRIBED")
def test_a_resource_update_names_a_resource_the_client_subscribed_to() -> None:
    def updated(uri: object) -> bytes:
        return encode({"jsonrpc": "2.0", "method": "notifications/resources/updated", "params": {"uri": uri}}).rstrip(b"\n")

    lines = [*HANDSHAKE, encode(request(1, "ping"))]
    findings = _judge(lines, [INIT_RESULT, updated("file:///a"), updated("file:///b"), PONG])
    assert by_rule(findings) == ["CAP-RESOURCE-SUBSCRIBED"] and rules(findings) == set()
    expected = 'wrote notifications/resources/updated for "file:///a", "file:///b", which the client never subscribed to'
    assert findings[0].message == expected
    assert rules(findings, Profile.STRICT) == {"CAP-RESOURCE-SUBSCRIBED"}
    subscribing = [*HANDSHAKE, encode(request(1, "resources/subscribe", {"uri": "file:///a"})), encode(request(2, "ping"))]
    announced = INIT_RESULT.replace(b'{"tools":{}}', b'{"tools":{},"resources":{"subscribe":true}}')
    subscribed = b'{"jsonrpc":"2.0","id":1,"result":{}}'
    pong = PONG.replace(b'"id":1', b'"id":2')
    assert _judge(subscribing, [announced, subscribed, updated("file:///a"), pong]) == []
    assert by_rule(_judge(subscribing, [announced, subscribed, updated("file:///b"), pong])) == ["CAP-RESOURCE-SUBSCRIBED"]
    # A uri that is no string names no resource: the update's shape is at fault, not the subscription.
    assert by_rule(_judge(subscribing, [announced, subscribed, updated({}), pong])) == ["SERVER-MESSAGE-SHAPE"]


@pytest.mark.spec("CAP-RESOURCE-SUBSCRIBED", "LIFE-VERSION-KNOWN")
def test_a_resource_update_at_a_version_that_does_not_exist_names_no_resource_whatever_its_params() -> None:
    # No version's shapes hold for a session the server opened at a version that does not exist:
    # its update is read as it came, params that are no object naming no resource.
    lines = [*HANDSHAKE, encode(request(1, "ping"))]
    bogus = INIT_RESULT.replace(b"2025-11-25", b"1999-01-01")
    update = b'{"jsonrpc":"2.0","method":"notifications/resources/updated","params":3}'
    findings = _judge(lines, [bogus, update, PONG])
    assert by_rule(findings) == ["LIFE-VERSION-KNOWN", "CAP-RESOURCE-SUBSCRIBED"]
    assert findings[1].message == "wrote notifications/resources/updated for null, which the client never subscribed to"


@pytest.mark.spec("PROGRESS-TOKEN")
def test_progress_names_the_token_of_a_request_not_yet_answered() -> None:
    lines = [*HANDSHAKE, _ping_asking_progress("t")]
    assert _judge(lines, [INIT_RESULT, _progress("t", 0.5), _progress("t", 1), PONG]) == []
    after = _judge(lines, [INIT_RESULT, _progress("t", 0.5), PONG, _progress("t", 1)])
    assert by_rule(after) == ["PROGRESS-TOKEN"] and rules(after) == {"PROGRESS-TOKEN"}
    # A token of another value or type was never given: "1" is not 1.
    assert by_rule(_judge(lines, [INIT_RESULT, _progress("u", 1), PONG])) == ["PROGRESS-TOKEN"]
    typed = [*HANDSHAKE, _ping_asking_progress(1)]
    assert by_rule(_judge(typed, [INIT_RESULT, _progress("1", 1), PONG])) == ["PROGRESS-TOKEN"]
    assert by_rule(_judge([*HANDSHAKE, encode(request(1, "ping"))], [INIT_RESULT, _progress(1, 1), PONG])) == [
        "PROGRESS-TOKEN"
    ]


@pytest.mark.spec("PROGRESS-INCREASING")
def test_a_tokens_progress_grows_from_one_notification_to_the_next() -> None:
    lines = [*HANDSHAKE, _ping_asking_progress("t")]
    same = _judge(lines, [INIT_RESULT, _progress("t", 0.5), _progress("t", 0.5), PONG])
    assert by_rule(same) == ["PROGRESS-INCREASING"] and "0.5 then 0.5" in same[0].message
    assert by_rule(_judge(lines, [INIT_RESULT, _progress("t", 2), _progress("t", 1), PONG])) == ["PROGRESS-INCREASING"]
    # A value that is no number is not compared (nor true, which JSON keeps apart from 1): its
    # shape's rule finds it, once for both.
    odd = _judge(lines, [INIT_RESULT, _progress("t", "half"), _progress("t", True), _progress("t", 1), PONG])
    assert by_rule(odd) == ["SERVER-MESSAGE-SHAPE"] and odd[0].message.endswith("(one of 2 such messages)")
    # Stray notifications are PROGRESS-TOKEN's alone: their values are not compared.
    stray = _judge(lines, [INIT_RESULT, PONG, _progress("t", 2), _progress("t", 1)])
    assert by_rule(stray) == ["PROGRESS-TOKEN"]


@pytest.mark.spec("RPC-CANCEL-OWN")
def test_a_server_cancels_only_a_request_it_sent() -> None:
    lines = [*HANDSHAKE, encode(request(1, "ping"))]

    def cancelled(request_id: object) -> bytes:
        params = {"requestId": request_id, "reason": "x"}
        return encode({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": params}).rstrip(b"\n")

    own = b'{"jsonrpc":"2.0","id":"s1","method":"ping"}'
    assert _judge(lines, [INIT_RESULT, own, cancelled("s1"), PONG]) == []
    # The client's request, an id of another type, one not sent yet: none is the server's to cancel.
    for output in ([INIT_RESULT, cancelled(1), PONG], [INIT_RESULT, own, cancelled(["s1"]), PONG], [INIT_RESULT, cancelled("s1"), own, PONG]):
        findings = _judge(lines, output)
        assert by_rule(findings) == ["RPC-CANCEL-OWN"] and rules(findings) == {"RPC-CANCEL-OWN"}
    assert "no request the server sent" in _judge(lines, [INIT_RESULT, cancelled(1), PONG])[0].message
    # A request of the server without a valid id issues nothing; a cancellation without params, or
    # under a version whose schema requires its requestId naming none, names nothing: its shape's
    # rule finds it.
    odd = [b'{"jsonrpc":"2.0","id":null,"method":"ping"}', b'{"jsonrpc":"2.0","method":"notifications/cancelled","params":5}']
    assert by_rule(_judge(lines, [INIT_RESULT, *odd, PONG])) == ["SERVER-MESSAGE-SHAPE"]
    handshake, result = _at("2025-06-18")
    assert by_rule(_judge([*handshake, lines[2]], [result, own, cancelled(["s1"]), PONG])) == ["SERVER-MESSAGE-SHAPE"]


# The rules that judge a message the server writes unasked, or what it refers to: each claims a
# pass only where such a message was read (``Session.witnessed``), as SERVER-MESSAGE-SHAPE does.
UNASKED = frozenset(
    {
        "PROGRESS-TOKEN",
        "PROGRESS-INCREASING",
        "RPC-CANCEL-OWN",
        "CAP-LOGGING-DECLARED",
        "CAP-CLIENT-DECLARED",
        "CAP-LIST-CHANGED",
        "CAP-RESOURCE-SUBSCRIBED",
        "CAP-ELICIT-COMPLETE",
        "TASKS-TERMINAL",
    }
)


def _shown(lines: list[bytes], output: list[bytes]) -> frozenset[str]:
    return witnessed(b"".join(lines), Observation(tuple(output), b"", True, SENTINEL_IDS))


def _notification(method: str, **params: object) -> bytes:
    return encode({"jsonrpc": "2.0", "method": method, "params": params}).rstrip(b"\n")


@pytest.mark.spec(*UNASKED, "LIFE-SERVER-EARLY")
def test_a_rule_on_what_the_server_writes_unasked_is_witnessed_only_where_it_wrote_such_a_message() -> None:
    lines = [*HANDSHAKE, _ping_asking_progress("t")]
    # The reference's silence: every rule of the family kept, none of them seen.
    assert not _shown(lines, [INIT_RESULT, PONG]) & UNASKED
    at = "2026-12-04T00:00:00Z"
    task = {"taskId": "t", "createdAt": at, "lastUpdatedAt": at, "ttl": None}
    written = {
        "PROGRESS-TOKEN": [_progress("t", 0.5)],
        "RPC-CANCEL-OWN": [_notification("notifications/cancelled", requestId="s1")],
        "CAP-LOGGING-DECLARED": [_notification("notifications/message", level="info", data="x")],
        "CAP-CLIENT-DECLARED": [ROOTS],
        "CAP-LIST-CHANGED": [TOOLS_CHANGED],
        "CAP-RESOURCE-SUBSCRIBED": [_notification("notifications/resources/updated", uri="file:///a")],
        "CAP-ELICIT-COMPLETE": [_notification("notifications/elicitation/complete", elicitationId="e")],
        "TASKS-TERMINAL": [_notification("notifications/tasks/status", status="completed", **task)],
    }
    for rule, messages in written.items():
        assert _shown(lines, [INIT_RESULT, *messages, PONG]) & UNASKED == {rule}, rule
    # Progress grows from one notification to the next: two for one token show it.
    assert _shown(lines, [INIT_RESULT, _progress("t", 0.5), _progress("t", 1), PONG]) & UNASKED == {
        "PROGRESS-TOKEN",
        "PROGRESS-INCREASING",
    }
    # A task still working has no terminal status to keep; a log before 2025-06-18 needs no capability.
    assert not _shown(lines, [INIT_RESULT, _notification("notifications/tasks/status", status="working", **task), PONG]) & UNASKED
    handshake, result = _at("2025-03-26")
    assert not _shown([*handshake, lines[2]], [result, *written["CAP-LOGGING-DECLARED"], PONG]) & UNASKED
    # LIFE-SERVER-EARLY is kept over the window before an accepted initialize's answer.
    assert "LIFE-SERVER-EARLY" in _shown(lines, [INIT_RESULT, PONG])
    refused = b'{"jsonrpc":"2.0","id":0,"error":{"code":-32602,"message":"no"}}'
    assert "LIFE-SERVER-EARLY" not in _shown(lines, [refused, PONG])
