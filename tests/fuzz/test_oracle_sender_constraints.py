"""Constraints the specification puts on the sender, met by a server that reads more than it must:
at most a note under ``spec`` (the reference's refusal is its own decision), a failure under
``strict``; a request left unanswered, or refused with a code that says another thing, still fails."""

from __future__ import annotations

import pytest
from test_oracle import HANDSHAKE, INIT_RESULT, _judge, rules
from test_oracle_rules import error, result

from mcpref.fuzz.judge.oracle import Finding, Profile, Status

ARRAY = b'{"jsonrpc":"2.0","id":7,"method":"ping","params":[1]}\n'
STRING = b'{"jsonrpc":"2.0","id":7,"method":"ping","params":"x"}\n'
EMPTY_INITIALIZE = b'{"jsonrpc":"2.0","id":2,"method":"initialize","params":{}}\n'
INTEGRAL_FLOAT_ID = b'{"jsonrpc":"2.0","id":1.0,"method":"ping"}\n'


def statuses(findings: list[Finding], profile: Profile) -> list[tuple[str, str]]:
    return [(f.rule, f.status(profile).value) for f in findings]


def noted(findings: list[Finding], rule: str) -> None:
    """One finding under ``rule``: a note under spec, a failure under strict."""
    assert statuses(findings, Profile.SPEC) == [(rule, Status.NOTE.value)], findings
    assert statuses(findings, Profile.STRICT) == [(rule, Status.FAIL.value)], findings


@pytest.mark.spec("RPC-PARAMS-OBJECT")
@pytest.mark.parametrize(
    ("line", "answer"), [(ARRAY, result(7)), (STRING, result(7)), (ARRAY, error(7, -32600)), (STRING, error(7, -32602))]
)
def test_non_object_params_served_or_refused_with_the_other_code_are_a_note(line: bytes, answer: bytes) -> None:
    noted(_judge([*HANDSHAKE, line], [INIT_RESULT, answer]), "RPC-PARAMS-OBJECT")


@pytest.mark.spec("RPC-PARAMS-OBJECT", "RPC-ONE-ANSWER")
@pytest.mark.parametrize("line", [ARRAY, STRING])
def test_non_object_params_refused_with_another_code_or_unanswered_fail(line: bytes) -> None:
    for output in ([INIT_RESULT, error(7, -32601)], [INIT_RESULT]):
        findings = _judge([*HANDSHAKE, line], output)
        assert rules(findings) == {"RPC-PARAMS-OBJECT"}, findings


@pytest.mark.spec("RPC-INVALID-PARAMS")
def test_an_initialize_without_its_required_members_accepted_is_a_note() -> None:
    findings = _judge([EMPTY_INITIALIZE], [INIT_RESULT.replace(b'"id":0', b'"id":2', 1)])
    noted(findings, "RPC-INVALID-PARAMS")
    assert findings[0].message == "accepted an initialize with malformed params"


@pytest.mark.spec("RPC-INVALID-PARAMS")
def test_an_initialize_without_its_required_members_refused_with_another_code_fails() -> None:
    findings = _judge([EMPTY_INITIALIZE], [error(2, -32603)])
    assert rules(findings) == {"RPC-INVALID-PARAMS"}, findings


@pytest.mark.spec("RPC-INVALID-REQUEST", "RPC-ID-TYPE", "RPC-ID-ECHO", "RPC-RESPONSE-SHAPE")
@pytest.mark.parametrize(("answered", "shown"), [(1, "1"), (1.0, "1.0")])
def test_an_id_1_0_read_as_the_integer_1_is_a_note_whichever_way_it_is_echoed(answered: float, shown: str) -> None:
    findings = _judge([*HANDSHAKE, INTEGRAL_FLOAT_ID], [INIT_RESULT, result(answered)])
    noted(findings, "RPC-INVALID-REQUEST")
    message = f"read id 1.0 as the integer 1 and answered with id {shown}, where the reference refuses it"
    assert findings[0].message == message


@pytest.mark.spec("RPC-INVALID-REQUEST")
@pytest.mark.parametrize("raw", [b"1.5", b"true"])
def test_an_id_with_a_fraction_or_a_boolean_answered_under_an_integer_still_fails(raw: bytes) -> None:
    line = INTEGRAL_FLOAT_ID.replace(b"1.0", raw)
    findings = _judge([*HANDSHAKE, line], [INIT_RESULT, result(1 if raw == b"true" else 2)])
    assert rules(findings) == {"RPC-INVALID-REQUEST"}, findings


@pytest.mark.spec("RPC-ID-ECHO", "RPC-RESPONSE-SHAPE")
def test_an_id_1_answered_under_1_0_is_the_same_number() -> None:
    ping = b'{"jsonrpc":"2.0","id":1,"method":"ping"}\n'
    assert _judge([*HANDSHAKE, ping], [INIT_RESULT, result(1.0)]) == []
