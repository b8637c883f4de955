"""The oracle's own argument check agrees with the reference's on every checkable schema.

``mcpref.fuzz.judge.arguments`` re-decides TOOLS-ARGS-INVALID so that the oracle does not borrow
the reference's decision; these tests hold the two readings to the same verdict (fits or
not; the reasons' wording may differ) on generated schemas within ``_checkable``'s subset
and on the demo tools' own schemas.
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from mcpref.fuzz.judge.arguments import argument_problem
from mcpref.fuzz.judge.tools import _checkable
from mcpref.reference import tools
from mcpref.reference.messages import JsonObject, JsonValue

NAMES = st.sampled_from(["a", "b", "c", "d", "text", "ms", ""])
BIG = 2**64
# Mostly small bounds, so that ranges often hold 0 and 1 (where a bool would pass for an int), some huge.
LIMITS = st.one_of(
    st.integers(-3, 3), st.integers(-3, 3), st.sampled_from([0, 1, 60_000, -BIG, BIG]), st.integers(-BIG, BIG)
)
SCALARS: st.SearchStrategy[JsonValue] = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.integers(-BIG * BIG, BIG * BIG),
    st.floats(allow_nan=False),
    st.sampled_from([0.0, 1.0, -1.0, 5.0, 60_000.0, 1e300]),
    st.text(max_size=5),
)
JSON: st.SearchStrategy[JsonValue] = st.recursive(
    SCALARS,
    lambda inner: st.one_of(st.lists(inner, max_size=3), st.dictionaries(st.text(max_size=3), inner, max_size=3)),
    max_leaves=6,
)


@st.composite
def string_spec(draw: st.DrawFn) -> JsonObject:
    spec: JsonObject = {"type": "string"}
    if draw(st.booleans()):
        spec["description"] = draw(st.text(max_size=5))
    if draw(st.booleans()):
        spec["title"] = draw(st.text(max_size=5))
    return spec


@st.composite
def integer_spec(draw: st.DrawFn) -> JsonObject:
    low, high = draw(LIMITS), draw(LIMITS)
    if draw(st.integers(0, 9)):  # mostly a real range, sometimes an empty one
        low, high = min(low, high), max(low, high)
    return {"type": "integer", "minimum": low, "maximum": high}


@st.composite
def schemas(draw: st.DrawFn) -> JsonObject:
    properties: JsonObject = draw(st.dictionaries(NAMES, st.one_of(string_spec(), integer_spec()), max_size=4))
    required: list[JsonValue] = [name for name in properties if draw(st.booleans())]
    if draw(st.integers(0, 9)) == 0:  # a required name the properties do not describe
        required.append(draw(NAMES))
    return {"type": "object", "properties": properties, "required": required, "additionalProperties": False}


def fitting(spec: JsonValue) -> st.SearchStrategy[JsonValue]:
    """Values that fit ``spec`` (any integer when its range is empty: none can fit)."""
    assert isinstance(spec, dict)
    if spec["type"] == "string":
        return st.text(max_size=5)
    low, high = spec["minimum"], spec["maximum"]
    assert type(low) is int and type(high) is int
    if low > high:
        return st.integers()
    return st.one_of(st.sampled_from([low, high]), st.integers(low, high))


# The subtle misfits (bools and floats that equal integers, values at the bounds) weigh double.
CHANGES = ("none", "none", "drop", "add", "any", "bool", "bool", "float", "float", "edge", "edge", "big")


@st.composite
def arguments_for(draw: st.DrawFn, schema: JsonObject) -> JsonObject:
    """Arguments that fit ``schema``, then one change: a name dropped or added, or one value replaced.

    One change at a time, so that each way of failing is often the only one in its example.
    """
    properties, required = schema["properties"], schema["required"]
    assert isinstance(properties, dict) and isinstance(required, list)
    arguments: JsonObject = {
        name: draw(fitting(spec)) for name, spec in properties.items() if name in required or draw(st.booleans())
    }
    integers = sorted(name for name, spec in properties.items() if isinstance(spec, dict) and spec["type"] == "integer")
    change = draw(st.sampled_from(CHANGES))
    if change == "drop" and arguments:
        del arguments[draw(st.sampled_from(sorted(arguments)))]
    elif change == "add":
        arguments[draw(st.one_of(NAMES, st.text(max_size=3)))] = draw(JSON)
    elif change == "any" and properties:
        arguments[draw(st.sampled_from(sorted(properties)))] = draw(JSON)
    elif change in ("bool", "float", "edge", "big") and integers:
        name = draw(st.sampled_from(integers))
        spec = properties[name]
        assert isinstance(spec, dict)
        low, high = spec["minimum"], spec["maximum"]
        assert type(low) is int and type(high) is int
        edges = [low - 1, low, low + 1, high - 1, high, high + 1]
        values: dict[str, st.SearchStrategy[JsonValue]] = {
            "bool": st.booleans(),  # a Python int, but not a JSON integer
            "float": st.sampled_from([float(edge) for edge in edges]),  # 3.0 for 3: a float here
            "edge": st.sampled_from(edges),
            "big": st.sampled_from([-(BIG**2), -BIG - 1, BIG + 1, BIG**2]),
        }
        arguments[name] = draw(values[change])
    return arguments


@st.composite
def cases(draw: st.DrawFn, schema: st.SearchStrategy[JsonObject]) -> tuple[JsonObject, list[JsonObject]]:
    """A schema and several argument sets for it (one schema, many calls: cheaper than one call per example)."""
    drawn = draw(schema)
    return drawn, draw(st.lists(arguments_for(drawn), min_size=1, max_size=8))


def agree(schema: JsonObject, calls: list[JsonObject]) -> None:
    assert _checkable(schema), schema
    for arguments in calls:
        ours, theirs = argument_problem(schema, arguments), tools.argument_problem(schema, arguments)
        assert (ours is None) == (theirs is None), (arguments, ours, theirs)


@pytest.mark.spec("TOOLS-ARGS-INVALID")
@given(cases(schemas()))
def test_the_oracle_and_the_reference_agree_on_generated_schemas(case: tuple[JsonObject, list[JsonObject]]) -> None:
    agree(*case)


@pytest.mark.spec("TOOLS-ARGS-INVALID")
@given(cases(st.sampled_from([tool.input_schema for tool in tools.MODERN_TOOLS])))
def test_the_oracle_and_the_reference_agree_on_the_demo_tools(case: tuple[JsonObject, list[JsonObject]]) -> None:
    agree(*case)


@pytest.mark.spec("TOOLS-ARGS-INVALID")
@given(st.sampled_from(tools.MODERN_TOOLS), st.dictionaries(st.one_of(NAMES, st.text(max_size=4)), JSON, max_size=3))
def test_the_oracle_and_the_reference_agree_on_arbitrary_arguments(tool: tools.Tool, arguments: JsonObject) -> None:
    agree(tool.input_schema, [arguments])


ATTENDRE = tools.BY_NAME["attendre"].input_schema


@pytest.mark.spec("TOOLS-ARGS-INVALID")
@pytest.mark.parametrize(
    ("arguments", "fits"),
    [
        ({"ms": 0}, True),
        ({"ms": tools.MAX_WAIT_MS}, True),
        ({}, False),  # missing
        ({"ms": 5, "x": 1}, False),  # extra
        ({"ms": -1}, False),  # below the minimum
        ({"ms": tools.MAX_WAIT_MS + 1}, False),  # above the maximum
        ({"ms": True}, False),  # a bool is not a JSON integer
        ({"ms": 5.0}, False),  # nor is a float
        ({"ms": "5"}, False),
    ],
)
def test_the_oracle_reads_attendre_s_schema(arguments: JsonObject, fits: bool) -> None:
    assert (argument_problem(ATTENDRE, arguments) is None) is fits


@pytest.mark.spec("TOOLS-ARGS-INVALID")
def test_a_schema_outside_the_subset_is_refused_not_guessed() -> None:
    loose: JsonObject = {
        "type": "object",
        "properties": {"n": {"type": "number"}},
        "required": [],
        "additionalProperties": False,
    }
    assert not _checkable(loose)
    with pytest.raises(ValueError, match="not a checkable"):
        argument_problem(loose, {"n": 1})


@pytest.mark.spec("TOOLS-ARGS-INVALID")
@pytest.mark.parametrize(
    "schema",
    [
        {"properties": [], "required": []},
        {"properties": {}, "required": [1]},
        {"properties": {"n": 5}, "required": []},
        {"properties": {"n": {"type": "integer", "minimum": 0}}, "required": []},
    ],
    ids=["properties-not-object", "required-not-names", "property-not-object", "integer-without-bounds"],
)
def test_every_kind_of_schema_outside_the_subset_is_refused(schema: dict[str, object]) -> None:
    with pytest.raises(ValueError, match="not a checkable"):
        argument_problem(schema, {"n": 1})  # type: ignore[arg-type]
