"""The oracle's reading of a line (mcpref/fuzz/judge/reading.py) agrees with the reference's (mcpref/reference/messages.py).

The oracle reads lines on its own so that it never borrows the decisions it judges; these
properties check that the two readings, written apart, still give every line the same meaning:
the same value (or both blank, or both a parse failure), and the same message with the same
id, code, method and params. Reasons are free text and are not compared.
"""

from __future__ import annotations

import dataclasses
import json
import sys
from pathlib import Path

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from mcpref.fuzz.judge import reading
from mcpref.reference import messages as reference
from mcpref.reference.dispatcher import initialize_params_problem as reference_initialize_problem
from mcpref.reference.messages import MAX_DEPTH, JsonObject, JsonValue

ROOT = Path(__file__).resolve().parents[2]
JSON_TEST_SUITE = ROOT.parent / "shared" / "corpora" / "JSONTestSuite" / "test_parsing"

BOM = b"\xef\xbb\xbf"
INT_DIGITS = 4300  # Python's default int-digit limit, which the reference takes for RPC-JSON-LIMITS


def disagreement(line: bytes) -> str | None:
    """How the two readings of ``line`` differ, or None when they agree (members of a batch included)."""
    theirs, ours = reference.parse_line(line), reading.parse_line(line)
    if (theirs is reference.BLANK) != (ours is reading.BLANK):
        return f"blank: reference {theirs!r}, reading {ours!r}"
    if isinstance(theirs, reference.ParseFailure) != isinstance(ours, reading.ParseFailure):
        return f"parse failure: reference {theirs!r}, reading {ours!r}"[:500]
    if isinstance(theirs, reference.ParseFailure | reference.Blank):
        return None
    assert not isinstance(ours, reading.ParseFailure | reading.Blank)
    if repr(theirs) != repr(ours):  # repr tells true from 1 and 1.0 from 1, which == does not
        return "different values"
    members = theirs if isinstance(theirs, list) else [theirs]
    for index, member in enumerate(members):
        problem = message_disagreement(member)
        if problem is not None:
            return f"member {index}: {problem}" if isinstance(theirs, list) else problem
    return None


def message_disagreement(value: JsonValue) -> str | None:
    theirs, ours = reference.classify(value), reading.classify(value)
    if type(theirs).__name__ != type(ours).__name__:
        return f"reference {theirs!r}, reading {ours!r}"
    names = [field.name for field in dataclasses.fields(theirs)]
    assert names == [field.name for field in dataclasses.fields(ours)]
    for name in names:
        if name != "reason" and repr(getattr(theirs, name)) != repr(getattr(ours, name)):
            return f"{name}: reference {theirs!r}, reading {ours!r}"
    if isinstance(theirs, reference.Request) and theirs.method == "initialize" and theirs.params is not None:
        return initialize_disagreement(theirs.params)
    return None


def initialize_disagreement(params: JsonObject) -> str | None:
    theirs, ours = reference_initialize_problem(params), reading.initialize_params_problem(params)
    if (theirs is None) != (ours is None):
        return f"initialize params {params!r}: reference {theirs!r}, reading {ours!r}"
    return None


# Any bytes at all.


@pytest.mark.spec("RPC-PARSE-ERROR", "FRAME-UTF8", "FRAME-BOM", "FRAME-BLANK-LINE")
@settings(max_examples=1000, deadline=None)
@given(line=st.binary(max_size=80))
@example(line=b"")
@example(line=b" \t\r")
@example(line=b" \n ")
@example(line=b"\x0c")
@example(line=BOM + b"{}")
@example(line=b"\xed\xa0\x80")  # an encoded surrogate: not UTF-8
def test_any_bytes_read_alike(line: bytes) -> None:
    assert disagreement(line) is None


# Lines glued from pieces of JSON and of almost-JSON.

FRAGMENTS = st.sampled_from(
    [
        *(b"[", b"]", b"{", b"}", b",", b":", b'"', b"\\", b'"k"', b'"[{"', b'"\\"[["', b'"\\u00e9"', b'"\\ud800"'),
        *(b"0", b"-0", b"01", b"1.", b".5", b"+1", b"-", b"1e5", b"2.5E-3", b"1e-400", b"4.9e-324"),
        *(b"1e400", b"-1e400", b"1E+400", b"1.7976931348623157e308", b"1.7976931348623159e308"),
        *(b"NaN", b"Infinity", b"-Infinity", b"nan", b"true", b"false", b"null", b"nul", b"True"),
        *(b"9" * INT_DIGITS, b"9" * (INT_DIGITS + 1), b"-" + b"9" * INT_DIGITS, b"1" + b"0" * 400 + b".0"),
        *(BOM, b"\xff", b"\xc3", b"\xc3\xa9", b"\xed\xa0\x80", b"\xf4\x90\x80\x80", b"\xe2\x82"),
        *(b" ", b"\t", b"\r", b"\n", b"\x00", b"\x0c", b"\xc2\xa0", b"\xe3\x80\x80", b"\x1f"),
    ]
)
SPACE = st.sampled_from([b"", b" ", b"\t", b"\r", b"\r\r", b" \t \r", b"\n", BOM])


@st.composite
def glued_lines(draw: st.DrawFn) -> bytes:
    return draw(SPACE) + b"".join(draw(st.lists(FRAGMENTS, max_size=10))) + draw(SPACE)


@pytest.mark.spec("RPC-PARSE-ERROR", "RPC-JSON-LIMITS", "FRAME-UTF8", "FRAME-BOM", "FRAME-BLANK-LINE")
@settings(max_examples=1500, deadline=None)
@given(line=glued_lines())
@example(line=b"NaN")
@example(line=b"[-Infinity]")
@example(line=b'{"a":1e400}')
@example(line=b"[" + b"9" * (INT_DIGITS + 1) + b"]")
@example(line=b"[" + b"9" * INT_DIGITS + b"]")
@example(line=b"[1e-400]")
@example(line=b'"\\ud800"')
@example(line=b"[true] \r")
@example(line=b"1 2")
def test_glued_fragments_read_alike(line: bytes) -> None:
    assert disagreement(line) is None


# JSON values, written with varied spacing and escaping.

SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(max_size=6),
    st.sampled_from(["[", "]{", '"', "\\", "\ud800", "\ufeff"]),
)
JSON_VALUES = st.recursive(
    SCALARS,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=4), inner, max_size=4),
    max_leaves=12,
)


@pytest.mark.spec("RPC-PARSE-ERROR", "RPC-DUPLICATE-KEYS")
@settings(max_examples=800, deadline=None)
@given(value=JSON_VALUES, spaced=st.booleans(), ascii_only=st.booleans(), around=SPACE)
def test_json_values_read_alike(value: JsonValue, spaced: bool, ascii_only: bool, around: bytes) -> None:
    text = json.dumps(value, ensure_ascii=ascii_only, separators=(" , ", " : ") if spaced else (",", ":"))
    line = around + text.encode("utf-8", "surrogatepass") + around
    assert disagreement(line) is None


# Nesting near the limit of 256, and past the recursion limit.


@st.composite
def nested_lines(draw: st.DrawFn) -> bytes:
    depth = draw(st.integers(MAX_DEPTH - 3, MAX_DEPTH + 3) | st.sampled_from([1, 100, 1200]))
    # Each level is an array or an object, in a repeating pattern; keys may hold brackets.
    pattern = draw(st.lists(st.sampled_from([b"[", b'{"k":', b'{"[[":', b"[0,", b'[ "]" ,']), min_size=1, max_size=3))
    opens = [pattern[level % len(pattern)] for level in range(depth)]
    closes = [b"]" if opening.startswith(b"[") else b"}" for opening in reversed(opens)]
    inner = draw(
        st.sampled_from([b"1", b"[]", b"{}", b'"' + b"[" * 300 + b'"', b"[[],[],[]]", b"NaN", b"", b"1e400", b"]"])
    )
    if draw(st.booleans()):  # break the balance: one bracket more or less at the end
        closes = closes[:-1] if draw(st.booleans()) else [*closes, b"]"]
    line = b"".join(opens) + inner + b"".join(closes)
    if draw(st.booleans()):  # many brackets, shallow: siblings beside the nest
        line = b"[" + b"[]," * 300 + line + b"]"
    return line


@pytest.mark.spec("RPC-JSON-LIMITS", "RPC-PARSE-ERROR")
@settings(max_examples=400, deadline=None)
@given(line=nested_lines())
@example(line=b"[" * MAX_DEPTH + b"]" * MAX_DEPTH)
@example(line=b"[" * (MAX_DEPTH + 1) + b"]" * (MAX_DEPTH + 1))
@example(line=b'["' + b"[" * 1000 + b'"]')
@example(line=b"[" * 100_000)
def test_deep_nesting_reads_alike(line: bytes) -> None:
    assert disagreement(line) is None


# Objects shaped like JSON-RPC messages, valid and broken.

LOOSE = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(2**70), 2**70),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(max_size=4),
    st.lists(st.integers(), max_size=2),
    st.dictionaries(st.text(max_size=3), st.integers(), max_size=2),
)
IDS = st.one_of(st.integers(), st.text(max_size=4), st.just(0), st.just(""), LOOSE)
METHOD_NAMES = st.sampled_from(["initialize", "ping", "tools/list", "tools/call", "notifications/initialized"])
INIT_PATHS = st.sampled_from(
    [("protocolVersion",), ("capabilities",), ("clientInfo",), ("clientInfo", "name"), ("clientInfo", "version")]
)


@st.composite
def initialize_params(draw: st.DrawFn) -> JsonObject:
    """Acceptable initialize params with up to three parts removed or replaced by something loose."""
    params: JsonObject = {
        "protocolVersion": draw(st.sampled_from(["2025-11-25", "2024-11-05", "1999-01-01", ""])),
        "capabilities": {"roots": {}} if draw(st.booleans()) else {},
        "clientInfo": {"name": "client", "version": "1.0"},
    }
    for path in draw(st.lists(INIT_PATHS, max_size=3)):
        holder: JsonValue = params
        for key in path[:-1]:
            holder = holder.get(key) if isinstance(holder, dict) else None
        if isinstance(holder, dict):
            if draw(st.booleans()):
                holder.pop(path[-1], None)
            else:
                holder[path[-1]] = draw(LOOSE)
    return params


PARAMS = st.one_of(
    initialize_params(),
    st.dictionaries(st.text(max_size=3), LOOSE, max_size=3),
    st.lists(LOOSE, max_size=2),
    LOOSE,
)
ERRORS = st.one_of(
    st.fixed_dictionaries({}, optional={"code": st.one_of(st.integers(), LOOSE), "message": st.text() | LOOSE}),
    LOOSE,
)
# Members as a valid message has them, and as anything may have them.
PROPER = {
    "jsonrpc": st.just("2.0"),
    "id": st.integers() | st.text(max_size=4),
    "method": METHOD_NAMES | st.text(max_size=6),
    "params": PARAMS,
    "result": st.dictionaries(st.text(max_size=3), LOOSE, max_size=2),
    "error": st.fixed_dictionaries({"code": st.integers(), "message": st.text(max_size=4)}),
}
ANY_MEMBER = {
    "jsonrpc": st.one_of(st.sampled_from(["1.0", "2", "2.0 ", ""]), LOOSE),
    "id": IDS,
    "method": st.one_of(METHOD_NAMES, st.text(max_size=6), LOOSE),
    "params": PARAMS,
    "result": LOOSE,
    "error": ERRORS,
    "extra": LOOSE,
}
SHAPES = st.sampled_from(
    [
        ("jsonrpc", "id", "method"),
        ("jsonrpc", "id", "method", "params"),
        ("jsonrpc", "method"),
        ("jsonrpc", "method", "params"),
        ("jsonrpc", "id", "result"),
        ("jsonrpc", "id", "error"),
        (),
    ]
)


@st.composite
def envelopes(draw: st.DrawFn) -> list[tuple[str, JsonValue]]:
    """An object's members in some order: a proper message's, then a few more that may spoil it.

    A key may repeat, as it may on the wire, and then the later value counts.
    """
    members = [(key, draw(PROPER[key])) for key in draw(SHAPES)]
    members += [(key, draw(ANY_MEMBER[key])) for key in draw(st.lists(st.sampled_from(sorted(ANY_MEMBER)), max_size=3))]
    return draw(st.permutations(members))


def wire(members: list[tuple[str, JsonValue]]) -> bytes:
    pairs = (json.dumps(key) + ":" + json.dumps(value) for key, value in members)
    return ("{" + ",".join(pairs) + "}").encode("utf-8", "surrogatepass")


@pytest.mark.spec(
    "RPC-INVALID-REQUEST",
    "RPC-ID-TYPE",
    "RPC-PARAMS-OBJECT",
    "RPC-CLIENT-RESPONSE",
    "RPC-INVALID-PARAMS",
    "RPC-DUPLICATE-KEYS",
)
@settings(max_examples=1500, deadline=None)
@given(members=envelopes(), batched=st.booleans())
@example(members=[("jsonrpc", "2.0"), ("id", True), ("method", "ping")], batched=False)
@example(members=[("jsonrpc", "2.0"), ("method", "m"), ("params", [1])], batched=False)
@example(members=[("jsonrpc", "2.0"), ("id", 1), ("method", "m"), ("params", [1])], batched=False)
@example(members=[("jsonrpc", "2.0"), ("id", 1), ("method", "m"), ("params", None)], batched=False)
@example(members=[("jsonrpc", "2.0"), ("id", 1.0), ("method", "m")], batched=False)
@example(members=[("id", 1), ("id", "x"), ("jsonrpc", "2.0"), ("method", "m")], batched=False)
@example(members=[("jsonrpc", "2.0"), ("id", 1), ("error", {"code": True, "message": "m"})], batched=False)
@example(members=[("jsonrpc", "2.0"), ("id", 1), ("result", {}), ("error", {})], batched=False)
@example(members=[("jsonrpc", "2.0"), ("id", 1), ("error", {"code": "x", "message": "m"})], batched=False)
@example(members=[("jsonrpc", "2.0"), ("id", 5), ("method", 5)], batched=False)
def test_envelopes_classify_alike(members: list[tuple[str, JsonValue]], batched: bool) -> None:
    line = wire(members)
    assert disagreement(b"[" + line + b"," + line + b"]" if batched else line) is None
    as_built = dict(members)  # not through any parser: ints and floats exactly as generated
    assert message_disagreement(as_built) is None
    for _, value in members:
        assert reading.is_valid_id(value) == reference.is_valid_id(value), repr(value)


@pytest.mark.spec("RPC-INVALID-PARAMS")
@settings(max_examples=600, deadline=None)
@given(params=initialize_params())
def test_initialize_params_judged_alike(params: JsonObject) -> None:
    assert initialize_disagreement(params) is None


# Every file of JSONTestSuite's test_parsing, when the corpus is checked out beside the repository.


@pytest.mark.spec("RPC-PARSE-ERROR", "RPC-JSON-LIMITS", "FRAME-UTF8", "FRAME-BOM")
def test_json_test_suite_reads_alike() -> None:
    if not JSON_TEST_SUITE.is_dir():
        pytest.skip(f"JSONTestSuite is not checked out at {JSON_TEST_SUITE}")
    files = sorted(JSON_TEST_SUITE.iterdir())
    assert files, f"{JSON_TEST_SUITE} is empty"
    differing = {path.name: problem for path in files if (problem := disagreement(path.read_bytes())) is not None}
    assert differing == {}


@pytest.mark.spec("RPC-JSON-LIMITS", "RPC-PARSE-ERROR")
def test_nesting_with_the_stack_nearly_used_up_fails_alike() -> None:
    """Nesting within the limit, parsed with too little recursion left: both readings fail, neither raises."""
    line = b"[" * MAX_DEPTH + b"]" * MAX_DEPTH
    depth, frame = 0, sys._getframe()
    while frame.f_back is not None:
        depth, frame = depth + 1, frame.f_back
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(depth + 40)
    try:
        theirs, ours = reference.parse_line(line), reading.parse_line(line)
    finally:
        sys.setrecursionlimit(limit)
    assert isinstance(theirs, reference.ParseFailure)
    assert isinstance(ours, reading.ParseFailure)
