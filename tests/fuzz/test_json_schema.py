"""The oracle's partial reading of a JSON Schema (a tool's outputSchema, or an inputSchema beyond the
subset checked whole): what it reads fails a value that breaks it, and what it does not read (or
cannot read the same way in every dialect) fails nothing."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from mcpref.fuzz.judge.json_schema import misfit
from mcpref.reference.messages import JsonValue

ROOT = "structuredContent"

# (schema, value): conforming, or beyond what the oracle reads.
NOT_FAILED: list[tuple[JsonValue, JsonValue]] = [
    (True, {"a": 1}),
    ({}, [1, "x"]),
    ({"type": "integer"}, 1.0),  # an integer from draft-06 on
    ({"type": "number"}, 2),
    ({"type": ["string", "null"]}, None),
    ({"type": "any"}, 1),  # draft-03's: not a type this oracle reads
    ({"type": []}, 1),
    ({"type": "string", "nullable": True}, None),  # OpenAPI's nullable
    ({"$ref": "#/$defs/x", "type": "string"}, 1),  # draft-07 ignores $ref's siblings
    ({"anyOf": [{"type": "string"}]}, 1),
    ({"not": {"type": "integer"}}, 1),
    ({"properties": {"a": {"type": "string"}}}, "not an object"),  # properties bind objects only
    ({"type": "object", "patternProperties": {"^x": {}}, "additionalProperties": False}, {"y": 1}),
    ({"type": "array", "prefixItems": [{"type": "string"}], "items": False}, ["a"]),
    ({"type": "array", "items": [{"type": "string"}]}, [1]),  # draft-07's tuple form
    ({"enum": [1, "a"]}, 1.0),
    ({"const": {"a": [1, None]}}, {"a": [1.0, None]}),
    ({"type": "object", "required": [1]}, {}),  # a required name that is no string: not read
    ({"$schema": "http://json-schema.org/draft-04/schema#", "const": "echo"}, "other"),  # no const in draft-04
    ({"$schema": "https://example.com/a-meta-schema", "type": "string"}, 1),  # a dialect of its own
    ({"properties": {"p": {"$schema": 4, "type": "string"}}}, {"p": 1}),
    ({"const": 1e23}, 10**23),  # the same number, as a double and as the integer the text wrote
    ({"enum": [10**23]}, 1e23),
    ({"properties": None, "additionalProperties": False}, {"a": 1}),  # which members are additional: untold
]

# (schema, value, the reason given)
FAILED: list[tuple[JsonValue, JsonValue, str]] = [
    (False, 1, "structuredContent is present where the schema is false"),
    ({"type": "string"}, 1, "structuredContent is not of type string"),
    ({"type": "number"}, True, "structuredContent is not of type number"),
    ({"type": "integer"}, 1.5, "structuredContent is not of type integer"),
    ({"type": ["string", "null"]}, 0, "structuredContent is not of type string or null"),
    ({"type": "object", "required": ["a"]}, {}, "structuredContent/a is required and absent"),
    ({"properties": {"a": {"type": "string"}}}, {"a": 1}, "structuredContent/a is not of type string"),
    ({"additionalProperties": False, "properties": {"a": {}}}, {"a": 1, "b": 2}, "structuredContent/b is present"),
    ({"additionalProperties": {"type": "integer"}}, {"a": "x"}, "structuredContent/a is not of type integer"),
    ({"items": {"type": "string"}}, ["a", 2], "structuredContent/1 is not of type string"),
    ({"items": {"properties": {"t": {"enum": ["c"]}}}}, [{"t": "f"}], "structuredContent/0/t is none of the enum's"),
    ({"enum": [1]}, True, "structuredContent is none of the enum's values"),
    ({"const": {"a": [1]}}, {"a": [True]}, "structuredContent is not the const value"),
    ({"const": [1, 2]}, [1], "structuredContent is not the const value"),
    ({"const": "1"}, 1, "structuredContent is not the const value"),
    ({"$schema": "http://json-schema.org/draft-07/schema#", "type": "string"}, 1, "structuredContent is not of type"),
    ({"$schema": "https://json-schema.org/draft/2020-12/schema", "const": 1}, 2, "structuredContent is not the const"),
    ({"const": 10**400}, 10**400 + 1, "structuredContent is not the const value"),  # beyond doubles, exact
    ({"const": 1.5}, 10**400, "structuredContent is not the const value"),
    ({"const": 1.0}, 2, "structuredContent is not the const value"),
]


@pytest.mark.spec("TOOLS-CALL-RESULT")
@pytest.mark.parametrize(("schema", "value"), NOT_FAILED)
def test_a_conforming_value_or_a_schema_not_read_fails_nothing(schema: JsonValue, value: JsonValue) -> None:
    assert misfit(schema, value, ROOT) is None


@pytest.mark.spec("TOOLS-CALL-RESULT")
@pytest.mark.parametrize(("schema", "value", "reason"), FAILED)
def test_a_value_that_breaks_a_keyword_read_fails_with_where_and_why(schema: JsonValue, value: JsonValue, reason: str) -> None:
    found = misfit(schema, value, ROOT)
    assert found is not None and found.startswith(reason), found


JSON: st.SearchStrategy[JsonValue] = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False) | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=4), inner, max_size=4),
    max_leaves=20,
)
TYPE_NAMES = {type(None): "null", bool: "boolean", int: "integer", float: "number", str: "string"}


def exact_schema(value: JsonValue) -> JsonValue:
    """The tightest schema of the subset read that describes ``value``."""
    if isinstance(value, dict):
        properties = {name: exact_schema(member) for name, member in value.items()}
        return {"type": "object", "properties": properties, "required": list(value), "additionalProperties": False}
    if isinstance(value, list):
        return {"type": "array", "items": {"enum": value}} if value else {"type": "array", "items": False}
    return {"type": TYPE_NAMES[type(value)], "const": value}


@pytest.mark.spec("TOOLS-CALL-RESULT")
@given(JSON)
def test_a_value_conforms_to_the_tightest_schema_that_describes_it(value: JsonValue) -> None:
    assert misfit(exact_schema(value), value, ROOT) is None
