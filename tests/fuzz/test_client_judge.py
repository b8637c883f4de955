"""The client oracle on records written out by hand: each rule's finding, and its evidence.

Each test builds the record the scripted server would have kept (``RecordEvent``s) for a client
that did one thing, and reads the verdict: the rule that names the cause, and nothing else.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import replace
from typing import Any

import pytest

from mcpref.fuzz.drive.client_run import ClientRun, RecordEvent
from mcpref.fuzz.generate.client_scripts import DIFFERENTIAL, PLAIN, SCRIPTS, TEXT, ServerScript, scenario
from mcpref.fuzz.judge.client import ClientVerdict, judge_client, shown
from mcpref.fuzz.judge.findings import Profile

BY_NAME = {script.name: script for script in SCRIPTS}
INIT = {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"protocolVersion": "2025-11-25", "capabilities": {}}}
INITIALIZED = {"jsonrpc": "2.0", "method": "notifications/initialized"}
CALL = {"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": "echo", "arguments": {}}}


def read(*messages: dict[str, Any] | list[Any] | bytes) -> RecordEvent:
    data = b"".join(m if isinstance(m, bytes) else json.dumps(m).encode() + b"\n" for m in messages)
    return RecordEvent(0.0, "read", data.decode("latin-1"))


def wrote(tag: str) -> RecordEvent:
    return RecordEvent(0.0, "wrote", tag)


def event(kind: str, data: object = "", t: float = 0.0) -> RecordEvent:
    return RecordEvent(t, kind, data)


PLAIN_EVENTS = (read(INIT), wrote("initialize-answer"), read(INITIALIZED, CALL), wrote("answer:tools/call"), event("eof"), event("exit"))


def run(
    script: ServerScript = PLAIN,
    events: tuple[RecordEvent, ...] = PLAIN_EVENTS,
    status: int | None = 0,
    stdout: bytes = TEXT.encode() + b"\n",
    ended: float = 0.0,
    leftover: bool = False,
) -> ClientRun:
    return ClientRun(script, events, status, ended, stdout, b"", leftover)


def rules(verdict: ClientVerdict) -> list[str]:
    return [finding.rule for finding in verdict.findings]


def test_a_plain_session_passes_what_it_shows() -> None:
    verdict = judge_client(run())
    assert rules(verdict) == []
    assert verdict.seen == set(PLAIN.rules)


@pytest.mark.spec("CLIENT-STDIN-MESSAGES-ONLY")
@pytest.mark.parametrize(
    "bad",
    [b"\xff\n", b"{\n", b"[1]\n", b'{"jsonrpc":"1.0","method":"x"}\n', b'{"jsonrpc":"2.0","id":1,"result":{},"error":{}}\n', b"\n"],
)
def test_a_line_that_is_not_one_message(bad: bytes) -> None:
    events = (read(INIT), wrote("initialize-answer"), read(INITIALIZED, bad, CALL), event("eof"))
    assert rules(judge_client(run(events=events))) == ["CLIENT-STDIN-MESSAGES-ONLY"]
    (finding,) = judge_client(run(events=events)).findings
    assert finding.message == "wrote 1 line to the server's stdin that did not hold one JSON-RPC message"


@pytest.mark.spec("CLIENT-STDIN-MESSAGES-ONLY")
def test_a_batch_is_messages_at_2025_03_26_only() -> None:
    for version, found in (("2025-03-26", []), ("2025-06-18", ["CLIENT-STDIN-MESSAGES-ONLY"])):
        init = {**INIT, "params": {"protocolVersion": version, "capabilities": {}}}
        events = (read(init), wrote("initialize-answer"), read([INITIALIZED, CALL]), event("eof"))
        assert rules(judge_client(run(events=events))) == found


@pytest.mark.spec("CLIENT-INIT-FIRST")
def test_probes_may_come_before_initialize() -> None:
    discover = {"jsonrpc": "2.0", "id": 0, "method": "server/discover", "params": {}}
    events = (read(discover), read(INIT), wrote("initialize-answer"), read(INITIALIZED, CALL), event("eof"))
    assert rules(judge_client(run(events=events))) == []
    verdict = judge_client(run(events=(read(discover), event("eof")), stdout=b""))
    assert rules(verdict) == [] and "CLIENT-INIT-FIRST" not in verdict.seen


@pytest.mark.spec("CLIENT-STDIN-MESSAGES-ONLY")
def test_a_last_line_never_ended() -> None:
    events = (read(INIT), wrote("initialize-answer"), read(INITIALIZED, json.dumps(CALL).encode()), event("eof"))
    assert rules(judge_client(run(events=events))) == ["CLIENT-STDIN-MESSAGES-ONLY"]


def test_a_client_that_wrote_nothing_is_seen_doing_nothing() -> None:
    verdict = judge_client(run(events=(event("start"), event("eof")), status=1, stdout=b""))
    assert rules(verdict) == [] and verdict.seen == {"CLIENT-SHUTDOWN"}


def test_a_client_that_never_started_its_server_is_not_judged() -> None:
    verdict = judge_client(run(events=(), stdout=b""))
    assert rules(verdict) == [] and verdict.seen == set()


@pytest.mark.spec("CLIENT-ID-TYPE", "CLIENT-ID-UNIQUE")
def test_ids_null_or_used_again() -> None:
    events = (read(INIT), wrote("initialize-answer"), read(INITIALIZED, {**CALL, "id": None}, {**CALL, "id": 1}), event("eof"))
    assert rules(judge_client(run(events=events))) == ["CLIENT-ID-TYPE", "CLIENT-ID-UNIQUE"]


@pytest.mark.spec("CLIENT-INIT-FIRST")
@pytest.mark.parametrize("first", [CALL, {"jsonrpc": "2.0", "method": "initialize"}])
def test_a_first_message_that_is_no_initialize_request(first: dict[str, Any]) -> None:
    events = (read(first), event("eof"))
    assert rules(judge_client(run(events=events))) == ["CLIENT-INIT-FIRST"]


@pytest.mark.spec("CLIENT-INIT-ALONE", "CLIENT-INITIALIZED")
def test_requests_and_initialized_before_the_answer() -> None:
    ping = {"jsonrpc": "2.0", "id": 3, "method": "ping"}
    events = (read(INIT, ping, INITIALIZED, CALL), wrote("initialize-answer"), event("eof"))
    assert rules(judge_client(run(events=events))) == ["CLIENT-INIT-ALONE", "CLIENT-INITIALIZED"]


def test_a_session_whose_answer_never_came_judges_only_what_came_early() -> None:
    events = (read(INIT, CALL), event("eof"))
    verdict = judge_client(run(events=events))
    assert rules(verdict) == ["CLIENT-INIT-ALONE"] and "CLIENT-INITIALIZED" not in verdict.seen


@pytest.mark.spec("CLIENT-INITIALIZED")
def test_no_initialized_before_the_next_request() -> None:
    events = (read(INIT), wrote("initialize-answer"), read(CALL), event("eof"))
    [finding] = judge_client(run(events=events)).findings
    assert finding.rule == "CLIENT-INITIALIZED" and "sent tools/call without it" in finding.message


@pytest.mark.spec("CLIENT-INITIALIZED")
@pytest.mark.parametrize("status", [1, None])
def test_a_client_that_sent_nothing_after_the_answer_may_not_have_read_it(status: int | None) -> None:
    verdict = judge_client(run(events=(read(INIT), wrote("initialize-answer"), event("eof")), status=status))
    assert verdict.findings == () and "CLIENT-INITIALIZED" not in verdict.seen


def test_a_client_answered_another_version_than_it_asked_for_may_leave() -> None:
    init = {**INIT, "params": {"protocolVersion": "2026-07-28", "capabilities": {}}}
    verdict = judge_client(run(events=(read(init), wrote("initialize-answer"), event("eof"))))
    assert rules(verdict) == [] and "CLIENT-INITIALIZED" not in verdict.seen


@pytest.mark.spec("CLIENT-VERSION-UNSUPPORTED")
@pytest.mark.parametrize(
    ("then", "status", "found"),
    [
        ((read(INITIALIZED), event("eof")), 0, True),
        ((read({"jsonrpc": "2.0", "id": 5, "method": "ping"}),), None, True),  # kept open to the limit
        ((event("eof"),), None, False),
        ((event("eof"),), 1, False),
    ],
)
def test_an_unsupported_version(then: tuple[RecordEvent, ...], status: int | None, found: bool) -> None:
    script = BY_NAME["an initialize answered with an unsupported version"]
    verdict = judge_client(run(script, (read(INIT), wrote("initialize-answer"), *then), status))
    assert rules(verdict) == (["CLIENT-VERSION-UNSUPPORTED"] if found else [])
    assert "CLIENT-VERSION-UNSUPPORTED" in verdict.seen


def asked(*responses: dict[str, Any], notices: int = 0, capabilities: dict[str, Any] | None = None) -> ClientVerdict:
    init = {**INIT, "params": {"protocolVersion": "2025-11-25", "capabilities": capabilities or {}}}
    script = BY_NAME["requests for undeclared capabilities"]
    events = (
        read(init),
        wrote("initialize-answer"),
        read(INITIALIZED, CALL),
        event("ask", {"id": 7001, "method": "ping"}),
        event("ask", {"id": "a-2", "method": "mcpref/unknown"}),
        event("ask", {"id": "a-3", "method": "roots/list"}),
        *[wrote("notice") for _ in range(notices)],
        read(*responses),
        wrote("answer:tools/call"),
        event("eof"),
    )
    return judge_client(run(script, events))


def response(request_id: object, **body: Any) -> dict[str, Any]:
    return {"jsonrpc": "2.0", "id": request_id, **(body or {"result": {}})}


ERROR = {"error": {"code": -32601, "message": "no"}}


@pytest.mark.spec("CLIENT-PING", "CLIENT-ANSWERS-REQUESTS", "CLIENT-UNDECLARED-REFUSED")
def test_every_request_answered_once_and_refused_when_undeclared() -> None:
    verdict = asked(response(7001), response("a-2", **ERROR), response("a-3", **ERROR))
    assert rules(verdict) == []
    assert {"CLIENT-ANSWERS-REQUESTS", "CLIENT-UNDECLARED-REFUSED"} <= verdict.seen  # ping: scenario 2's


@pytest.mark.spec("CLIENT-PING", "CLIENT-ANSWERS-REQUESTS")
def test_requests_left_unanswered() -> None:
    assert rules(asked(response("a-3", **ERROR))) == ["CLIENT-PING", "CLIENT-ANSWERS-REQUESTS"]


@pytest.mark.spec("CLIENT-PING", "CLIENT-ANSWERS-REQUESTS", "CLIENT-UNDECLARED-REFUSED")
def test_wrong_answers() -> None:
    verdict = asked(
        response(7001, result={"x": 1}),
        response("a-2", **ERROR),
        response("a-2", **ERROR),
        response("a-3", result={"roots": []}),
    )
    assert rules(verdict) == ["CLIENT-PING", "CLIENT-ANSWERS-REQUESTS", "CLIENT-UNDECLARED-REFUSED"]


def test_a_declared_capability_is_not_judged_as_undeclared() -> None:
    verdict = asked(response(7001), response("a-2", **ERROR), response("a-3", result={"roots": []}), capabilities={"roots": {}})
    assert rules(verdict) == [] and "CLIENT-UNDECLARED-REFUSED" not in verdict.seen


@pytest.mark.spec("CLIENT-NOTIFICATION-SILENT", "CLIENT-ANSWERS-REQUESTS")
@pytest.mark.parametrize(("notices", "rule"), [(1, "CLIENT-NOTIFICATION-SILENT"), (0, "CLIENT-ANSWERS-REQUESTS")])
def test_responses_to_nothing(notices: int, rule: str) -> None:
    answers = (response(7001), response("a-2", **ERROR), response("a-3", **ERROR), response(None, **ERROR))
    assert rules(asked(*answers, notices=notices)) == [rule]
    assert rules(asked(*answers[:3], response(7001.5))) == ["CLIENT-ANSWERS-REQUESTS"]


@pytest.mark.spec("CLIENT-CAP-ANNOUNCED")
@pytest.mark.parametrize(("version", "mandatory"), [("2025-11-25", True), ("2025-03-26", False)])
def test_methods_of_capabilities_not_announced(version: str, mandatory: bool) -> None:
    script = BY_NAME["a server that announces no capability"]
    init = {**INIT, "params": {"protocolVersion": version, "capabilities": {}}}
    sent = [CALL, {**CALL, "id": 3}, {**CALL, "id": 4, "method": "logging/setLevel"}, {**CALL, "id": 5, "method": "custom"}]
    events = (read(init), wrote("initialize-answer"), read(INITIALIZED, *sent), event("eof"))
    verdict = judge_client(run(script, events))
    assert [(f.rule, f.actual, f.mandatory) for f in verdict.findings] == [
        ("CLIENT-CAP-ANNOUNCED", "tools/call", mandatory),
        ("CLIENT-CAP-ANNOUNCED", "logging/setLevel", mandatory),
    ]
    unanswered = judge_client(run(script, (read(init), event("eof")))).seen
    assert "CLIENT-CAP-ANNOUNCED" not in unanswered and "CLIENT-INIT-FIRST" in unanswered  # no answer: nothing announced


@pytest.mark.spec("CLIENT-RESULT-SHOWN")
@pytest.mark.parametrize(
    ("stdout", "found", "seen"),
    [
        (b"", False, False),
        (json.dumps({"text": TEXT}).encode(), False, True),
        (json.dumps({"text": TEXT}, ensure_ascii=False).encode(), False, True),
        (TEXT.encode("ascii", "replace"), True, True),
    ],
)
def test_the_text_shown(stdout: bytes, found: bool, seen: bool) -> None:
    verdict = judge_client(run(stdout=stdout))
    assert rules(verdict) == (["CLIENT-RESULT-SHOWN"] if found else [])
    assert ("CLIENT-RESULT-SHOWN" in verdict.seen) is seen
    assert shown(stdout, TEXT) is not found or not seen


DIFFERENTIAL_SCENARIOS = [(script, rule) for script in SCRIPTS for rule in script.rules if rule in DIFFERENTIAL]


def EACH_DIFFERENTIAL(test: Callable[[ServerScript, str], None]) -> Callable[[ServerScript, str], None]:
    """``test`` run on every scenario of a differential rule, marked with every such rule."""
    marked = pytest.mark.parametrize(("script", "rule"), DIFFERENTIAL_SCENARIOS, ids=[s.name for s, _ in DIFFERENTIAL_SCENARIOS])(test)
    return pytest.mark.spec(*sorted(DIFFERENTIAL))(marked)


@EACH_DIFFERENTIAL
def test_the_differential_rules_compare_with_the_plain_call(script: ServerScript, rule: str) -> None:
    plain = run()
    variant = run(script, stdout=script.text.encode())
    assert rules(judge_client(variant, plain)) == [] and rule in judge_client(variant, plain).seen
    assert [(f.rule, f.actual) for f in judge_client(replace(variant, exit_status=1), plain).findings] == [(rule, "exit status 1")]
    assert [f.actual for f in judge_client(replace(variant, stdout=b""), plain).findings] == ["tool text shown False"]
    [hung] = judge_client(replace(variant, exit_status=None), plain).findings
    assert hung.rule == rule and hung.actual == "still running at the time limit"
    assert rule not in judge_client(variant, None).seen | judge_client(variant, run(status=None)).seen
    unserved = run(events=PLAIN_EVENTS[:3])  # a plain session that never got an answer: no comparison
    assert rule not in judge_client(replace(variant, exit_status=1), unserved).seen
    assert judge_client(replace(variant, exit_status=1), unserved).findings == ()


LIST = {"jsonrpc": "2.0", "id": 2, "method": "tools/list"}
ROOTS = event("ask", {"id": "mcpref-ask-1", "method": "roots/list"})
LATER_CALL = {**CALL, "id": 3}
# The answer to the call held for the server's roots/list, which the client never answers.
HELD = (read(INIT), wrote("initialize-answer"), read(INITIALIZED, LIST), wrote("answer:tools/list"), ROOTS, read(LATER_CALL), event("eof"))


@EACH_DIFFERENTIAL
def test_a_read_path_rule_passes_only_where_the_answer_was_written_and_shown(script: ServerScript, rule: str) -> None:
    """Compared with a plain call that never got its answer either, a client alike in both was seen reading nothing."""
    never = judge_client(run(script, HELD, 1, b""), run(PLAIN, HELD, 1, b""))
    assert rule not in never.seen and never.findings[1:] == () and dict(never.untested)[rule] == (
        "the client was never written the plain tool call's answer: the server held it while its roots/list request "
        "went unanswered"
    )
    shown_anyway = judge_client(run(script, stdout=script.text.encode()), run(PLAIN, HELD, 1, b""))
    assert rule not in shown_anyway.seen and rule not in rules(shown_anyway)  # no plain answer to compare with
    answered = run(PLAIN, (*HELD[:5], read(LATER_CALL), wrote("answer:tools/call"), event("eof")), 0, b"")
    unwritten = judge_client(run(script, HELD, 0, b""), answered)
    assert rule not in unwritten.seen and dict(unwritten.untested)[rule] == (
        "the client was never written the answer: the server held it while its roots/list request went unanswered"
    )
    silent = judge_client(run(script, stdout=b""), run(stdout=b""))
    assert rule not in silent.seen and dict(silent.untested)[rule] == (
        "the client showed no tool text in the plain tool call: nothing tells a misread answer from a plain one"
    )
    uncalled = run(PLAIN, (*HELD[:4], event("eof")), 0, b"")
    assert dict(judge_client(run(script, HELD, 0, b""), uncalled).untested)[rule].endswith(": it sent no tools/call")
    early = (*PLAIN_EVENTS[:3], event("eof"))
    assert dict(judge_client(run(script, early, 0, b""), run(stdout=b"")).untested)[rule].endswith(": the client exited first")
    assert dict(judge_client(run(script), run(status=None)).untested)[rule].startswith("the client was still running")


@pytest.mark.spec("CLIENT-READ-LF-ONLY")
@pytest.mark.parametrize(
    ("name", "mandatory"),
    [("raw U+2028 and U+2029 in the answer", True), ("raw CR between tokens", False), ("a modern server: raw CR between tokens", False)],
)
def test_a_bare_cr_is_an_open_reading_of_newline(name: str, mandatory: bool) -> None:
    """FRAME-LF-ONLY's decision, on the client's side: cut at a bare CR, a client is warned under spec."""
    script = BY_NAME[name]
    [finding] = judge_client(run(script, status=1, stdout=script.text.encode()), run()).findings
    assert finding.rule == "CLIENT-READ-LF-ONLY" and finding.mandatory is mandatory
    both = replace(script, text=BY_NAME["raw U+2028 and U+2029 in the answer"].text, bare_cr=True)
    assert [f.mandatory for f in judge_client(run(both, status=1), run()).findings] == [False]  # the CRs may explain it


@pytest.mark.spec("CLIENT-READ-CHUNKS", "CLIENT-RESULT-SHOWN")
def test_a_text_garbled_by_the_framing_is_the_framing_rule_s_finding_alone() -> None:
    garbled = "mcpref-7f3a caf\ufffd\ufffd".encode()
    cut = BY_NAME["an answer cut into pieces"]
    assert rules(judge_client(run(cut, stdout=garbled), run())) == ["CLIENT-READ-CHUNKS"]
    assert rules(judge_client(run(PLAIN, stdout=garbled))) == ["CLIENT-RESULT-SHOWN"]


@pytest.mark.spec("CLIENT-SERVER-GONE")
@pytest.mark.parametrize(
    ("status", "ended", "found", "seen"),
    [(1, 2.0, False, True), (1, 12.0, True, True), (None, 30.0, True, True), (None, 5.0, False, False)],
)
def test_a_client_whose_server_exits(status: int | None, ended: float, found: bool, seen: bool) -> None:
    """A client stopped by the time limit before its grace was over was not seen either way."""
    script = BY_NAME["a server that exits before answering"]
    events = (read(INIT), wrote("initialize-answer"), read(INITIALIZED, CALL), event("exit", "died", t=1.0))
    verdict = judge_client(run(script, events, status, b"", ended))
    assert rules(verdict) == (["CLIENT-SERVER-GONE"] if found else [])
    assert ("CLIENT-SERVER-GONE" in verdict.seen) is seen


DIES = scenario("", dies_after=40)


@pytest.mark.spec("CLIENT-SERVER-GONE", "CLIENT-SHUTDOWN")
def test_only_a_death_the_client_lived_through_is_judged() -> None:
    """A server that ends on its stdin's end exits too: that is a shutdown, not a death."""
    assert {"CLIENT-SERVER-GONE", "CLIENT-SHUTDOWN"} <= set(DIES.rules)
    died_late = judge_client(run(DIES, (*PLAIN_EVENTS[:4], event("exit", "died", t=3.0)), 0, ended=2.0))
    assert rules(died_late) == [] and "CLIENT-SERVER-GONE" not in died_late.seen
    ended_by_eof = judge_client(run(DIES, PLAIN_EVENTS, 0, ended=2.0))
    assert rules(ended_by_eof) == [] and ended_by_eof.seen >= {"CLIENT-SHUTDOWN"} and "CLIENT-SERVER-GONE" not in ended_by_eof.seen


@pytest.mark.spec("CLIENT-PING")
@pytest.mark.parametrize(("died", "seen"), [(5.0, False), (11.0, True)])
def test_a_request_left_unanswered_by_a_client_whose_server_died(died: float, seen: bool) -> None:
    """The client had its time to answer only if the server lived ASK_WAIT after asking."""
    script = scenario("", asks=("ping",), dies_after=400)
    events = (read(INIT), wrote("initialize-answer"), read(INITIALIZED, CALL), event("ask", {"id": 7001, "method": "ping"}, t=1.0),
              event("exit", "died", t=died))  # fmt: skip
    verdict = judge_client(run(script, events, 0, b"", ended=died + 1))
    assert rules(verdict) == (["CLIENT-PING"] if seen else []) and ("CLIENT-PING" in verdict.seen) is seen



@pytest.mark.spec("CLIENT-SHUTDOWN")
@pytest.mark.parametrize(
    ("ending", "leftover", "status", "found", "seen"),
    [
        ((event("signal", "SIGTERM"), event("exit")), False, 0, True, False),
        ((event("eof"), event("signal", "SIGTERM")), False, 0, False, True),
        ((), True, 0, True, False),
        ((), False, 0, True, False),
        ((event("exit"),), False, 0, False, False),
        ((event("eof"),), False, None, False, False),
    ],
)
def test_how_the_server_was_shut_down(
    ending: tuple[RecordEvent, ...], leftover: bool, status: int | None, found: bool, seen: bool
) -> None:
    events = (*PLAIN_EVENTS[:4], *ending)
    verdict = judge_client(run(events=events, status=status, leftover=leftover))
    assert rules(verdict) == (["CLIENT-SHUTDOWN"] if found else [])
    assert ("CLIENT-SHUTDOWN" in verdict.seen) is seen


def test_a_script_round_trips_through_its_file() -> None:
    for script in SCRIPTS:
        assert ServerScript.loads(script.dumps()) == script
    assert replace(PLAIN, cuts=3) != PLAIN


# The 2026-07-28 era: what a client writes to a modern server, and how it finds its server's era.

MODERN_SERVER = BY_NAME["a modern server"]
OTHER_VERSION = BY_NAME["a modern server of another version only"]
REFUSES_PROBE = BY_NAME["a legacy server refusing server/discover with -32603"]
META = {"io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {}}


def modern(request_id: int, method: str, meta: object = None, **params: object) -> dict[str, Any]:
    return {"jsonrpc": "2.0", "id": request_id, "method": method, "params": {**params, "_meta": META if meta is None else meta}}


DISCOVER = modern(1, "server/discover")
INIT_AFTER = {**INIT, "id": 2}  # the fallback's initialize, after the probe with id 1


@pytest.mark.spec("CLIENT-MOD-META")
@pytest.mark.parametrize(
    ("call", "fault"),
    [
        ({**CALL, "id": 2}, "no _meta object"),
        (modern(2, "tools/call", {"io.modelcontextprotocol/clientCapabilities": {}}), "protocolVersion string"),
        (modern(2, "tools/call", {"io.modelcontextprotocol/protocolVersion": "2026-07-28"}), "clientCapabilities object"),
    ],
)
def test_a_request_to_a_modern_server_without_its_meta(call: dict[str, Any], fault: str) -> None:
    events = (read(DISCOVER), wrote("answer:server/discover"), read(call), event("eof"))
    verdict = judge_client(run(MODERN_SERVER, events))
    [finding] = verdict.findings
    assert finding.rule == "CLIENT-MOD-META" and fault in finding.message and finding.mandatory
    assert "CLIENT-MOD-META" in verdict.seen


@pytest.mark.spec("CLIENT-MOD-META", "CLIENT-MOD-STAYS-MODERN")
def test_a_modern_client_passes_and_a_legacy_only_one_is_not_judged() -> None:
    events = (read(DISCOVER), wrote("answer:server/discover"), read(modern(2, "tools/call", name="echo")), event("eof"))
    verdict = judge_client(run(MODERN_SERVER, events))
    assert verdict.findings == () and {"CLIENT-MOD-META", "CLIENT-MOD-STAYS-MODERN"} <= verdict.seen
    legacy_only = judge_client(run(MODERN_SERVER, (read(INIT), wrote("refused:initialize"), event("eof"))))
    assert legacy_only.findings == () and not {"CLIENT-MOD-META", "CLIENT-MOD-STAYS-MODERN"} & legacy_only.seen


@pytest.mark.spec("CLIENT-MOD-STAYS-MODERN")
def test_initialize_after_the_server_showed_it_is_modern() -> None:
    after = (read(DISCOVER), wrote("answer:server/discover"), read(INIT_AFTER), event("eof"))
    [finding] = judge_client(run(MODERN_SERVER, after)).findings
    assert finding.rule == "CLIENT-MOD-STAYS-MODERN" and finding.line == 1 and not finding.mandatory
    # Written before the answer could be read: no finding (the record's order is the evidence).
    crossed = (read(DISCOVER, INIT_AFTER), wrote("answer:server/discover"), event("eof"))
    assert judge_client(run(MODERN_SERVER, crossed)).findings == ()


@pytest.mark.spec("CLIENT-MOD-VERSION-RETRY")
@pytest.mark.parametrize(
    ("then", "found"),
    [
        ((read(modern(2, "server/discover")),), True),
        ((read(modern(2, "server/discover", {**META, "io.modelcontextprotocol/protocolVersion": "2099-01-01"})),), False),
        ((), False),
    ],
)
def test_what_follows_an_unsupported_version(then: tuple[RecordEvent, ...], found: bool) -> None:
    events = (read(DISCOVER), wrote("refused:-32022"), *then, event("eof"))
    verdict = judge_client(run(OTHER_VERSION, events))
    assert rules(verdict) == (["CLIENT-MOD-VERSION-RETRY"] if found else [])
    assert {"CLIENT-MOD-VERSION-RETRY", "CLIENT-MOD-STAYS-MODERN"} <= verdict.seen


PROBED_THEN_INIT = (
    read(DISCOVER), wrote("refused:server/discover"), read(INIT_AFTER), wrote("initialize-answer"), event("eof")
)  # fmt: skip


@pytest.mark.spec("CLIENT-MOD-FALLBACK")
@pytest.mark.parametrize(
    ("plain_events", "events", "verdict"),
    [
        (PLAIN_EVENTS, PROBED_THEN_INIT, "not seen"),  # no probe in the plain run: not a dual-era client
        (PROBED_THEN_INIT, (read(DISCOVER), wrote("refused:server/discover"), event("eof")), "found"),
        (PROBED_THEN_INIT, PROBED_THEN_INIT, "pass"),
        (PROBED_THEN_INIT, PLAIN_EVENTS, "not seen"),  # no probe in this one
        ((read(DISCOVER), wrote("refused:server/discover"), event("eof")), PLAIN_EVENTS, "not seen"),  # modern-only
    ],
)
def test_a_fallback_keyed_to_one_error_code(
    plain_events: tuple[RecordEvent, ...], events: tuple[RecordEvent, ...], verdict: str
) -> None:
    judged = judge_client(run(REFUSES_PROBE, events), run(PLAIN, plain_events))
    assert rules(judged) == (["CLIENT-MOD-FALLBACK"] if verdict == "found" else [])
    assert ("CLIENT-MOD-FALLBACK" in judged.seen) is (verdict != "not seen")
    assert rules(judge_client(run(REFUSES_PROBE, events))) == []  # without the plain run: nothing to compare with


ASKS_INPUT = BY_NAME["a modern server asking for input"]
ROOTS_META = {**META, "io.modelcontextprotocol/clientCapabilities": {"roots": {}}}
STATE = "mcpref-state-7f3a=="


def call(request_id: int, meta: dict[str, Any] = META, **params: object) -> dict[str, Any]:
    return modern(request_id, "tools/call", meta, name="echo", **params)


@pytest.mark.spec("CLIENT-MOD-INPUT-RETRY")
@pytest.mark.parametrize(
    ("first", "retry", "fault"),
    [
        (call(2), call(3, requestState=STATE), None),
        (call(2, ROOTS_META), call(3, ROOTS_META, requestState=STATE, inputResponses={"mcpref-roots": {"roots": []}}), None),
        (call(2), call(2, requestState=STATE), "the first call's id 2"),
        (call(2), call(3, requestState=STATE + " "), "requestState is"),
        (call(2), call(3), "requestState is null"),
        (call(2, ROOTS_META), call(3, ROOTS_META, requestState=STATE), "answers no mcpref-roots"),
        (call(2, ROOTS_META), call(3, ROOTS_META, requestState=STATE, inputResponses=[]), "answers no mcpref-roots"),
    ],
)
def test_the_retry_after_input_required(first: dict[str, Any], retry: dict[str, Any], fault: str | None) -> None:
    events = (read(DISCOVER), wrote("answer:server/discover"), read(first), wrote("input-required"), read(retry), event("eof"))
    verdict = judge_client(run(ASKS_INPUT, events))
    assert rules(verdict) == (["CLIENT-MOD-INPUT-RETRY"] if fault else []) and "CLIENT-MOD-INPUT-RETRY" in verdict.seen
    assert fault is None or fault in verdict.findings[0].message


def test_a_client_that_does_not_call_again_is_not_judged() -> None:
    events = (read(DISCOVER), wrote("answer:server/discover"), read(call(2)), wrote("input-required"), event("eof"))
    verdict = judge_client(run(ASKS_INPUT, events))
    assert verdict.findings == () and "CLIENT-MOD-INPUT-RETRY" not in verdict.seen
    bare = {**call(2), "params": "none"}  # a first call without params: still the call that was asked
    events = (read(DISCOVER), wrote("answer:server/discover"), read(bare), wrote("input-required"), read(call(3, requestState=STATE)), event("eof"))
    assert rules(judge_client(run(ASKS_INPUT, events))) == ["CLIENT-MOD-META"]


SILENT = BY_NAME["a server that never answers the call"]


def cancel(request_id: object) -> dict[str, Any]:
    return {"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": request_id, "reason": "late"}}


@pytest.mark.spec("CLIENT-CANCEL")
@pytest.mark.parametrize(
    ("status", "then", "found", "seen"),
    [
        (1, (cancel(2),), False, True),
        (1, (), True, True),
        (1, (cancel("2"),), True, True),  # "2" names no request: the call stays uncancelled, and that is a second finding
        (None, (), False, False),  # killed at the limit: it gave up on nothing
    ],
)
def test_a_call_that_never_got_an_answer(status: int | None, then: tuple[dict[str, Any], ...], found: bool, seen: bool) -> None:
    events = (read(INIT), wrote("initialize-answer"), read(INITIALIZED, CALL, *then), event("eof"))
    verdict = judge_client(run(SILENT, events, status, b""))
    assert ("the client gave up on a tools/call" in " ".join(f.message for f in verdict.findings)) is found
    assert set(rules(verdict)) <= {"CLIENT-CANCEL"} and ("CLIENT-CANCEL" in verdict.seen) is seen


@pytest.mark.spec("CLIENT-CANCEL")
@pytest.mark.parametrize(("named", "what"), [(1, "the initialize request"), (9, "no request it had sent"), ("2", "no request")])
def test_a_cancellation_names_a_request_of_the_client_never_initialize(named: object, what: str) -> None:
    events = (read(INIT), wrote("initialize-answer"), read(INITIALIZED, CALL, cancel(named)), wrote("answer:tools/call"), event("eof"))
    [finding] = judge_client(run(events=events)).findings
    assert finding.rule == "CLIENT-CANCEL" and finding.mandatory and what in finding.message


@pytest.mark.spec("CLIENT-UNDECLARED-REFUSED")
def test_a_dual_era_client_declares_in_its_initialize_not_in_the_probe_before_it() -> None:
    """The probe's params carry no capabilities member: what the client declared is its initialize's."""
    with_roots = {**INIT_AFTER, "params": {"protocolVersion": "2025-11-25", "capabilities": {"roots": {}}}}
    answer = {"jsonrpc": "2.0", "id": "mcpref-ask-1", "result": {"roots": []}}
    events = (
        read(DISCOVER), wrote("refused:server/discover"), read(with_roots), wrote("initialize-answer"),
        read(INITIALIZED, {**CALL, "id": 3}), event("ask", {"id": "mcpref-ask-1", "method": "roots/list"}), wrote("ask"),
        read(answer), wrote("answer:tools/call"), event("eof"),
    )  # fmt: skip
    verdict = judge_client(run(BY_NAME["requests for undeclared capabilities"], events))
    assert verdict.findings == () and "CLIENT-ANSWERS-REQUESTS" in verdict.seen


def test_a_client_whose_server_died_neither_cancels_nor_keeps_waiting() -> None:
    """Cancelling, falling back, leaving an unsupported version: none is owed to a dead server."""
    died = event("exit", "died", t=1.0)
    silent = replace(SILENT, dies_after=300, rules=())
    assert rules(judge_client(run(silent, (read(INIT), wrote("initialize-answer"), read(INITIALIZED, CALL), died), 1, b"", 2.0))) == []
    unsupported = replace(BY_NAME["an initialize answered with an unsupported version"], dies_after=300)
    assert rules(judge_client(run(unsupported, (read(INIT), wrote("initialize-answer"), died), None, b"", 5.0))) == []
    refuses = replace(REFUSES_PROBE, dies_after=100)
    dead = judge_client(run(refuses, (read(DISCOVER), wrote("refused:server/discover"), died), 0, b"", 2.0), run(PLAIN, PROBED_THEN_INIT))
    assert rules(dead) == [] and "CLIENT-MOD-FALLBACK" not in dead.seen


@pytest.mark.spec("CLIENT-MOD-META", "CLIENT-INIT-ALONE")
def test_what_a_legacy_client_sends_after_its_initialize_is_not_judged_as_modern() -> None:
    """It could not know the server was modern: its early call is CLIENT-INIT-ALONE's, seen elsewhere."""
    early = {"jsonrpc": "2.0", "id": 2, "method": "tools/list", "params": {}}
    verdict = judge_client(run(MODERN_SERVER, (read(INIT, early), wrote("refused:initialize"), event("eof")), 1, b""))
    assert verdict.findings == () and "CLIENT-MOD-META" not in verdict.seen


@pytest.mark.spec("CLIENT-INIT-FIRST")
@pytest.mark.parametrize(
    ("then", "judged"),
    [
        ((cancel(1),), False),  # a modern-only client, which gave up on its probe: no legacy session
        ((modern(2, "tools/list"),), False),
        ((cancel(1), INIT_AFTER), True),  # its cancellation is the probe's; initialize comes first after it
    ],
)
def test_a_client_of_the_modern_era_is_judged_only_once_it_opens_a_legacy_session(
    then: tuple[dict[str, Any], ...], judged: bool
) -> None:
    events = (read(DISCOVER), wrote("refused:server/discover"), read(*then), event("eof"))
    verdict = judge_client(run(PLAIN, events, 1, b""))
    assert "CLIENT-INIT-FIRST" not in rules(verdict) and ("CLIENT-INIT-FIRST" in verdict.seen) is judged


@pytest.mark.spec("CLIENT-TIMEOUT")
@pytest.mark.parametrize(
    ("script", "status", "ended", "found", "seen"),
    [
        (SILENT, 1, 4.0, False, True),  # it gave up by itself
        (SILENT, None, 15.0, True, True),  # still waiting at the limit, 15 s after its call: no end to it
        (SILENT, None, 9.0, False, False),  # a call with less than half the limit left: too late to tell
        (BY_NAME["a modern server: a server that never answers the call"], None, 15.0, True, True),
        (PLAIN, None, 15.0, False, False),  # its call was answered: no wait to judge
    ],
)
@pytest.mark.parametrize("then", [(), (read(cancel(2)),), (event("eof"),)], ids=["waits", "cancelled", "closed"])
def test_a_client_that_waits_for_ever(
    script: ServerScript, status: int | None, ended: float, found: bool, seen: bool, then: tuple[RecordEvent, ...]
) -> None:
    """A client killed at the limit after it cancelled the call, or closed the pipe, was slow to end, not waiting."""
    call = CALL if not script.modern else modern(2, "tools/call", name="echo")
    opening = (read(INIT), wrote("initialize-answer"), read(INITIALIZED)) if not script.modern else (read(DISCOVER),)
    events = (*opening, RecordEvent(1.0, "read", json.dumps(call) + "\n"), *then, *(() if status is None else (event("eof"),)))
    found = found and not then
    seen = seen or (bool(then) and script.silent)
    verdict = judge_client(run(script, events, status, b"", ended))
    timeouts = [f for f in verdict.findings if f.rule == "CLIENT-TIMEOUT"]
    assert bool(timeouts) is found and ("CLIENT-TIMEOUT" in verdict.seen) is seen
    assert all(not f.mandatory and "14.0 s later (the scenario's limit: 20 s)" in f.message for f in timeouts)


@pytest.mark.spec("CLIENT-ID-TYPE", "CLIENT-ID-UNIQUE")
def test_an_id_1_0_is_the_integer_1_a_note_under_spec() -> None:
    # The schema's RequestId is "integer" in JSON Schema, where 1.0 is one and equal to 1.
    events = (read(INIT), wrote("initialize-answer"), read(INITIALIZED, {**CALL, "id": 2.0}, {**CALL, "id": 2}), event("eof"))
    findings = judge_client(run(events=events)).findings
    spec = [(f.rule, f.status(Profile.SPEC).value) for f in findings]
    assert spec == [("CLIENT-ID-TYPE", "note"), ("CLIENT-ID-UNIQUE", "fail")], findings
    assert findings[0].status(Profile.STRICT).value == "fail"
