"""Naming the cause: a failure that disappears once false line ends are made harmless is FRAME-LF-ONLY."""

from __future__ import annotations

import pytest

from mcpref.fuzz.campaign import defanged, relabel_false_line_ends
from mcpref.fuzz.oracle import Finding, Profile
from mcpref.fuzz.strategies import Case

LOST = Finding("RPC-ONE-ANSWER", True, 0, "no answer", "an answer with id 1", "nothing")


@pytest.mark.spec("FRAME-LF-ONLY")
def test_defanging_keeps_the_meaning_and_removes_only_false_line_ends() -> None:
    case = Case(('{"jsonrpc":"2.0",\r"id":1,"method":"ping","params":{"x":"a\u2028b"}}\r\n'.encode(),), (5,))
    assert defanged(case) == Case((b'{"jsonrpc":"2.0", "id":1,"method":"ping","params":{"x":"a\\u2028b"}} \n',))


@pytest.mark.spec("FRAME-LF-ONLY", "RPC-ONE-ANSWER")
def test_a_lost_answer_is_relabelled_only_when_the_defanged_case_passes() -> None:
    case = Case((b'{"jsonrpc":"2.0",\r"id":1,"method":"ping"}\n',))
    relabelled = relabel_false_line_ends([LOST], case, lambda _: [], Profile.SPEC)
    assert [f.rule for f in relabelled] == ["FRAME-LF-ONLY"]
    kept = relabel_false_line_ends([LOST], case, lambda _: [LOST], Profile.SPEC)
    assert kept == [LOST]
    plain = Case((b'{"jsonrpc":"2.0","id":1,"method":"ping"}\n',))
    assert relabel_false_line_ends([LOST], plain, lambda _: [], Profile.SPEC) == [LOST]
