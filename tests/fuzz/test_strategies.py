"""The shape of generated cases: what each kind of line gets, where cuts fall, how long bodies are."""

from __future__ import annotations

import json
import tracemalloc
from collections import Counter

import pytest
from hypothesis import HealthCheck, find, given, seed, settings
from hypothesis.strategies import SearchStrategy

from mcpref.fuzz.generate.case import Case
from mcpref.fuzz.generate.cuts import _inside_string_ids
from mcpref.fuzz.generate.hostile import HOSTILE_KINDS
from mcpref.fuzz.generate.messages import INITIALIZED, PLAIN_HANDSHAKES, encode
from mcpref.fuzz.generate.modern_strategies import modern_cases
from mcpref.fuzz.generate.strategies import FRESH_MAX_LINES, LINE_SHAPES, METHODS, cases

READY = encode(INITIALIZED)


def test_one_draw_gives_hostile_lines_three_sevenths_and_each_shape_its_even_part() -> None:
    shapes = LINE_SHAPES.elements
    kinds = Counter(kind for kind, _ in shapes)
    assert {kind: count * 7 / len(shapes) for kind, count in kinds.items()} == {
        "request": 1,
        "notification": 1,
        "response": 1,
        "batch": 1,
        "hostile": 3,
    }
    assert set(Counter(shape for kind, shape in shapes if kind == "hostile").values()) == {len(shapes) * 3 // 7 // len(HOSTILE_KINDS)}
    assert {shape for kind, shape in shapes if kind == "hostile"} == set(HOSTILE_KINDS)
    assert {shape for kind, shape in shapes if kind == "request"} == set(METHODS)
    assert shapes[0] == ("request", "ping")  # shrinking goes toward a plain ping


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(case=cases())
def test_cuts_fall_inside_the_stream_once_each_and_fresh_orderings_keep_short_bodies(case: Case) -> None:
    assert list(case.cuts) == sorted(set(case.cuts))
    assert all(0 < cut < len(case.stream) for cut in case.cuts)
    if b"".join(case.lines[:2]) not in PLAIN_HANDSHAKES:
        head = 0  # the ordering's own lines, at most three, before the body
        while head < min(3, len(case.lines)) and (b'"init-' in case.lines[head] or case.lines[head] == READY):
            head += 1
        assert len(case.lines) - head <= FRESH_MAX_LINES


def test_some_cases_cut_inside_every_multibyte_character_of_their_string_ids() -> None:
    def cut_inside_every_one(case: Case) -> bool:
        if not case.cuts:
            return False
        aimed = [position for position in _inside_string_ids(case.stream) if position > case.cuts[0]]
        return len(aimed) >= 3 and set(aimed) <= set(case.cuts)  # never so by chance

    found = find(cases(), cut_inside_every_one, settings=settings(max_examples=5_000, database=None))
    assert found.cuts


def test_lines_of_a_megabyte_do_not_outlive_their_case() -> None:
    """Hypothesis keeps what it caches of each case (choices and spans, small blocks); drawn lines,
    each one block of over a megabyte, are not part of that: not one of them is still allocated."""
    huge = 0

    @seed(1)
    @settings(max_examples=400, deadline=None, database=None, suppress_health_check=list(HealthCheck))
    @given(case=cases())
    def draw(case: Case) -> None:
        nonlocal huge
        huge += sum(len(line) > 1_000_000 for line in case.lines)

    tracemalloc.start()
    try:
        draw()
        kept = [trace.size for trace in tracemalloc.take_snapshot().traces if trace.size > 1_000_000]
    finally:
        tracemalloc.stop()
    assert huge >= 10  # enough of them to tell
    assert kept == []


@pytest.mark.spec("RPC-BATCH", "RPC-BATCH-INITIALIZE")
def test_some_batches_hold_an_initialize_a_member_owed_an_error_under_its_own_id() -> None:
    def holds_an_initialize(case: Case) -> bool:
        return any(line.startswith(b"[") and b'"method":"initialize"' in line for line in case.lines[2:])

    found = find(cases("2025-03-26"), holds_an_initialize, settings=settings(max_examples=1_000, database=None))
    assert b'"protocolVersion":"2025-03-26"' in found.lines[0]


def _unstructured_params(line: bytes) -> bool:
    try:
        value = json.loads(line)
    except (ValueError, RecursionError):  # not JSON, or nested deeper than Python reads
        return False
    return isinstance(value, dict) and "params" in value and not isinstance(value["params"], dict | list)


@pytest.mark.spec("RPC-PARAMS-OBJECT")
@pytest.mark.parametrize("strategy", [cases(), modern_cases()], ids=["legacy", "modern"])
def test_some_requests_carry_params_that_are_neither_object_nor_array(strategy: SearchStrategy[Case]) -> None:
    found = find(
        strategy,
        lambda case: any(_unstructured_params(line) for line in case.lines),
        settings=settings(max_examples=1_000, database=None, suppress_health_check=list(HealthCheck)),
    )
    assert any(b'"id":' in line for line in found.lines if _unstructured_params(line))  # a request, owed an answer
