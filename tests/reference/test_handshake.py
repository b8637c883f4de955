"""Tests for ``reference.handshake``: the initialize state table, alone and inside a session.

The table is checked two ways: exhaustively, pair by pair, against the expectations
written out below (driven by input kinds, without parsing, as h11's ``test_state``
does); and by a Hypothesis state machine that sends real lines to a ``ServerSession``
and compares its answers with a model of a few lines.
"""

from __future__ import annotations

import itertools
import json
from typing import Any

import pytest
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule, run_state_machine_as_test

from mcpref.reference import handshake
from mcpref.reference.dispatcher import ServerSession
from mcpref.reference.handshake import TRANSITIONS, Action, Handshake, HandshakeError, Input, Phase
from mcpref.reference.session_types import Send, VersionPolicy
from mcpref.reference.versions import BY_NAME, KNOWN, LATEST, SUPPORTED_NAMES

# What every (phase, input) pair must do, written independently of the module's table.
EXPECTED: dict[tuple[Phase, Input], tuple[Action, Phase]] = {
    (Phase.NEW, Input.INITIALIZE_ACCEPTED): (Action.ANSWER_INITIALIZE, Phase.WAITING),
    (Phase.NEW, Input.INITIALIZE_REFUSED): (Action.REFUSE_INITIALIZE, Phase.NEW),
    (Phase.NEW, Input.INITIALIZED): (Action.IGNORE, Phase.NEW),
    (Phase.NEW, Input.PING): (Action.SERVE, Phase.NEW),
    (Phase.NEW, Input.REQUEST): (Action.NOT_INITIALIZED, Phase.NEW),
    (Phase.WAITING, Input.INITIALIZE_ACCEPTED): (Action.ALREADY_INITIALIZED, Phase.WAITING),
    (Phase.WAITING, Input.INITIALIZE_REFUSED): (Action.ALREADY_INITIALIZED, Phase.WAITING),
    (Phase.WAITING, Input.INITIALIZED): (Action.IGNORE, Phase.READY),
    (Phase.WAITING, Input.PING): (Action.SERVE, Phase.WAITING),
    (Phase.WAITING, Input.REQUEST): (Action.NOT_INITIALIZED, Phase.WAITING),
    (Phase.READY, Input.INITIALIZE_ACCEPTED): (Action.ALREADY_INITIALIZED, Phase.READY),
    (Phase.READY, Input.INITIALIZE_REFUSED): (Action.ALREADY_INITIALIZED, Phase.READY),
    (Phase.READY, Input.INITIALIZED): (Action.IGNORE, Phase.READY),
    (Phase.READY, Input.PING): (Action.SERVE, Phase.READY),
    (Phase.READY, Input.REQUEST): (Action.SERVE, Phase.READY),
}


def handshake_in(phase: Phase) -> Handshake:
    machine = Handshake()
    machine.phase = phase
    return machine


@pytest.mark.spec("LIFE-PRE-INIT-REFUSED", "LIFE-SECOND-INIT")
def test_every_action_phase_and_input_is_its_own_member() -> None:
    # Enum members with one value are aliases of one member: the refusals must stay two.
    for kind in (Action, Phase, Input):
        assert len(kind.__members__) == len(kind)
    assert Action.ALREADY_INITIALIZED is not Action.NOT_INITIALIZED


@pytest.mark.spec("LIFE-PRE-INIT-REFUSED")
def test_a_new_handshake_starts_in_new() -> None:
    assert Handshake().phase is Phase.NEW


@pytest.mark.spec("LIFE-PRE-INIT-REFUSED", "LIFE-SECOND-INIT", "LIFE-PING", "LIFE-INITIALIZED-EARLY")
def test_the_table_is_total() -> None:
    assert set(TRANSITIONS) == set(Phase)
    for phase in Phase:
        assert set(TRANSITIONS[phase]) == set(Input)


@pytest.mark.spec(
    "LIFE-PRE-INIT-REFUSED", "LIFE-SECOND-INIT", "LIFE-PING", "LIFE-INITIALIZED-EARLY", "LIFE-VERSION-UNSUPPORTED"
)
@pytest.mark.parametrize(("phase", "event"), list(itertools.product(Phase, Input)), ids=lambda v: v.name)
def test_every_phase_and_input(phase: Phase, event: Input) -> None:
    machine = handshake_in(phase)
    action, next_phase = EXPECTED[phase, event]
    assert machine.handle(event) is action
    assert machine.phase is next_phase


@pytest.mark.spec("LIFE-PING")
def test_ping_is_served_in_every_phase() -> None:
    for phase in Phase:
        assert handshake_in(phase).handle(Input.PING) is Action.SERVE


@pytest.mark.spec("LIFE-SECOND-INIT", "LIFE-PRE-INIT-REFUSED")
def test_the_happy_path() -> None:
    machine = Handshake()
    assert machine.handle(Input.REQUEST) is Action.NOT_INITIALIZED
    assert machine.handle(Input.INITIALIZE_REFUSED) is Action.REFUSE_INITIALIZE
    assert machine.handle(Input.INITIALIZE_ACCEPTED) is Action.ANSWER_INITIALIZE
    assert machine.handle(Input.REQUEST) is Action.NOT_INITIALIZED
    assert machine.handle(Input.INITIALIZED) is Action.IGNORE
    assert machine.handle(Input.REQUEST) is Action.SERVE
    assert machine.handle(Input.INITIALIZE_ACCEPTED) is Action.ALREADY_INITIALIZED
    assert machine.phase is Phase.READY


@pytest.mark.spec("LIFE-PRE-INIT-REFUSED", "LIFE-SECOND-INIT")
@pytest.mark.parametrize(("phase", "event"), list(itertools.product(Phase, Input)), ids=lambda v: v.name)
def test_a_pair_missing_from_the_table_raises_and_leaves_the_phase_unchanged(
    phase: Phase, event: Input, monkeypatch: pytest.MonkeyPatch
) -> None:
    partial = {key: value for key, value in TRANSITIONS[phase].items() if key is not event}
    monkeypatch.setitem(handshake.TRANSITIONS, phase, partial)
    machine = handshake_in(phase)
    with pytest.raises(HandshakeError, match=f"no transition for {event.name} in phase {phase.name}"):
        machine.handle(event)
    assert machine.phase is phase


# --- a real session against a model ---------------------------------------------------

UNSUPPORTED_VERSIONS = ["1999-01-01", "2026-07-28", "", "2025-03-26 ", "latest"]
GOOD_VERSIONS = list(SUPPORTED_NAMES)

client_info = {"name": "machine", "version": "1.0"}
good_params = st.sampled_from(GOOD_VERSIONS + UNSUPPORTED_VERSIONS).map(
    lambda version: {"protocolVersion": version, "capabilities": {}, "clientInfo": client_info}
)
malformed_params = st.sampled_from(
    [
        None,  # no params at all
        {},
        {"protocolVersion": 20241105, "capabilities": {}, "clientInfo": client_info},
        {"protocolVersion": None, "capabilities": {}, "clientInfo": client_info},
        {"protocolVersion": "2025-06-18", "clientInfo": client_info},
        {"protocolVersion": "2025-06-18", "capabilities": [], "clientInfo": client_info},
        {"protocolVersion": "2025-06-18", "capabilities": {}},
        {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "x"}},
        {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": 1, "version": "1"}},
        {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": "machine"},
    ]
)


def well_formed_initialize(params: dict[str, Any] | None) -> bool:
    if params is None:
        return False
    info = params.get("clientInfo")
    return (
        isinstance(params.get("protocolVersion"), str)
        and isinstance(params.get("capabilities"), dict)
        and isinstance(info, dict)
        and isinstance(info.get("name"), str)
        and isinstance(info.get("version"), str)
    )


class HandshakeModel(RuleBasedStateMachine):
    """A ServerSession fed generated lines, against a model holding the phase and the version."""

    def __init__(self) -> None:
        super().__init__()
        self.session = ServerSession()
        self.phase = Phase.NEW
        self.version: str | None = None
        self.ids = itertools.count()

    @initialize(policy=st.sampled_from(VersionPolicy))
    def choose_policy(self, policy: VersionPolicy) -> None:
        self.session = ServerSession(version_policy=policy)

    def next_id(self) -> int | str:
        number = next(self.ids)
        return number if number % 2 else f"id-{number}"

    def send(self, message: dict[str, Any]) -> list[dict[str, Any]]:
        effects = self.session.receive_data(json.dumps(message).encode() + b"\n")
        assert all(isinstance(effect, Send) for effect in effects)
        return [json.loads(effect.data) for effect in effects if isinstance(effect, Send)]

    def request(self, method: str, params: Any = None) -> tuple[int | str, dict[str, Any]]:
        request_id = self.next_id()
        message: dict[str, Any] = {"jsonrpc": "2.0", "id": request_id, "method": method}
        if params is not None:
            message["params"] = params
        (answer,) = self.send(message)
        assert answer["jsonrpc"] == "2.0"
        assert answer["id"] == request_id
        return request_id, answer

    def expect_error(self, answer: dict[str, Any], code: int) -> None:
        assert "result" not in answer
        assert answer["error"]["code"] == code

    @rule(params=good_params | malformed_params)
    def initialize(self, params: dict[str, Any] | None) -> None:
        _, answer = self.request("initialize", params)
        if self.phase is not Phase.NEW:
            self.expect_error(answer, -32600)  # LIFE-SECOND-INIT: nothing changes
            return
        if not well_formed_initialize(params):
            self.expect_error(answer, -32602)  # RPC-INVALID-PARAMS, never -32603
            return
        assert params is not None
        requested = params["protocolVersion"]
        if requested in GOOD_VERSIONS:
            chosen = requested  # LIFE-VERSION-ACCEPT
        elif self.session.version_policy is VersionPolicy.COUNTER_OFFER:
            chosen = LATEST.name  # LIFE-VERSION-COUNTER-OFFER
        else:
            self.expect_error(answer, -32602)  # LIFE-VERSION-REJECT
            assert answer["error"]["data"] == {"requested": requested, "supported": GOOD_VERSIONS}
            return
        result = answer["result"]
        assert result["protocolVersion"] == chosen
        assert result["protocolVersion"] in BY_NAME  # LIFE-VERSION-KNOWN
        assert result["capabilities"] == {"tools": {"listChanged": False}}
        assert set(result["serverInfo"]) == {"name", "version"}
        self.phase, self.version = Phase.WAITING, chosen

    @rule()
    def initialized(self) -> None:
        assert self.send({"jsonrpc": "2.0", "method": "notifications/initialized"}) == []
        if self.phase is Phase.WAITING:
            self.phase = Phase.READY

    @rule()
    def ping(self) -> None:
        _, answer = self.request("ping")
        assert answer["result"] == {}  # LIFE-PING, in every phase

    @rule()
    def tools_list(self) -> None:
        _, answer = self.request("tools/list")
        if self.phase is Phase.READY:
            assert [tool["name"] for tool in answer["result"]["tools"]] == ["lire_prix", "echo", "fail", "attendre"]
        else:
            self.expect_error(answer, -32600)  # LIFE-PRE-INIT-REFUSED

    @rule(method=st.sampled_from(["resources/list", "prompts/get", "frobnicate", "tools/lister", "Ping"]))
    def unknown_method(self, method: str) -> None:
        _, answer = self.request(method)
        self.expect_error(answer, -32601 if self.phase is Phase.READY else -32600)

    @rule(method=st.sampled_from(["notifications/x", "notifications/cancelled", "initialize", "ping"]))
    def other_notification(self, method: str) -> None:
        assert self.send({"jsonrpc": "2.0", "method": method}) == []  # RPC-NOTIFICATION-SILENT

    @invariant()
    def phase_and_version_agree(self) -> None:
        assert self.session.handshake.phase is self.phase
        assert (self.session.version.name if self.session.version else None) == self.version
        assert self.session.in_flight == 0


@pytest.mark.spec(
    "LIFE-VERSION-ACCEPT",
    "LIFE-VERSION-UNSUPPORTED",
    "LIFE-VERSION-REJECT",
    "LIFE-VERSION-COUNTER-OFFER",
    "LIFE-VERSION-KNOWN",
    "LIFE-INIT-RESULT",
    "LIFE-PRE-INIT-REFUSED",
    "LIFE-SECOND-INIT",
    "LIFE-PING",
    "LIFE-INITIALIZED-EARLY",
    "RPC-INVALID-PARAMS",
    "RPC-ONE-ANSWER",
    "RPC-NOTIFICATION-SILENT",
    "RPC-METHOD-NOT-FOUND",
)
def test_server_session_follows_the_handshake_model() -> None:
    run_state_machine_as_test(HandshakeModel)


@pytest.mark.spec("LIFE-VERSION-KNOWN")
def test_every_supported_version_is_a_known_handshake_version() -> None:
    assert set(SUPPORTED_NAMES) <= {version.name for version in KNOWN}
    assert LATEST.name == "2025-11-25"
