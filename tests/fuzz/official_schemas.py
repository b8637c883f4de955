"""The specification's own JSON Schemas as test data: lawful instances drawn from them, and mutants they refuse.

The schemas live outside the project, in ``shared/corpora/mcp-schema/VERSION/schema.json`` beside the
checkout (or beside one of its parents): tests that need them skip, saying why, where they are absent.

Instances are drawn by Hypothesis from the schema's own definitions. hypothesis-jsonschema, the usual
way, cannot serve here: its object strategy calls a private Hypothesis API that Hypothesis 6.150 and
later no longer have (``'many' object has no attribute 'more'`` on every object schema), and it refuses
the recursive definitions of 2026-07-28 (JSON values inside JSON values). The strategy below reads
the few keywords the MCP schemas use (``$ref``, ``allOf``, ``anyOf``, ``const``, ``enum``, ``type``,
``properties``, ``required``, ``additionalProperties``, ``items``, ``maxItems``, ``minimum``,
``maximum``), and every instance it draws is held to the schema by ``jsonschema`` before use: a
drawing the schema refuses fails the test that drew it, so the strategy cannot make its own law.
"""

from __future__ import annotations

import copy
import functools
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

VERSIONS = ("2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25", "2026-07-28")
# Few examples a test: each draws from many (version, message) pairs, and the suite stays fast.
SHAPES = settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
DEEPEST = 5  # past this depth optional members and array items are left out: instances stay small


def schemas_dir() -> Path | None:
    """``shared/corpora/mcp-schema`` beside the checkout or beside one of its parents, if any."""
    for folder in Path(__file__).resolve().parents:
        candidate = folder / "shared" / "corpora" / "mcp-schema"
        if (candidate / VERSIONS[0] / "schema.json").is_file():
            return candidate
    return None


SKIP_REASON = "the official MCP JSON Schemas (../shared/corpora/mcp-schema) are absent: nothing to compare with"
needs_schemas = pytest.mark.skipif(schemas_dir() is None, reason=SKIP_REASON)


@functools.cache
def schema(version: str) -> dict[str, Any]:
    folder = schemas_dir()
    assert folder is not None
    loaded: dict[str, Any] = json.loads((folder / version / "schema.json").read_text(encoding="utf-8"))
    return loaded


def definitions(version: str) -> dict[str, Any]:
    whole = schema(version)
    found: dict[str, Any] = whole.get("$defs") or whole["definitions"]
    return found


@functools.cache
def validator(version: str, name: str) -> Any:
    """A ``jsonschema`` validator of the definition ``name``, its references resolved in its schema."""
    whole = schema(version)
    key = "$defs" if "$defs" in whole else "definitions"
    root = {"$schema": whole["$schema"], key: whole[key], "$ref": f"#/{key}/{name}"}
    return jsonschema.validators.validator_for(root)(root)


def members(version: str, union: str) -> list[str]:
    """The definitions a union (``ServerNotification``, ``ClientRequest``...) of ``version`` names."""
    found = definitions(version).get(union, {"anyOf": []})["anyOf"]
    return [part["$ref"].rsplit("/", 1)[1] for part in found]


def lawful(version: str, name: str, value: Any) -> bool:
    return bool(validator(version, name).is_valid(value))


def resolve(version: str, node: Any) -> Any:
    """``node`` with a ``$ref`` followed and an ``allOf`` merged into one object schema."""
    while isinstance(node, dict) and "$ref" in node:
        node = definitions(version)[node["$ref"].rsplit("/", 1)[1]]
    if isinstance(node, dict) and "allOf" in node:
        merged: dict[str, Any] = {"type": "object", "properties": {}, "required": []}
        for part in (resolve(version, part) for part in node["allOf"]):
            merged["properties"] = {**merged["properties"], **part.get("properties", {})}
            merged["required"] = [*merged["required"], *part.get("required", [])]
        return merged
    return node


JSON_LEAVES = st.none() | st.booleans() | st.integers(-(2**53), 2**53) | st.text(max_size=8)
JSON_VALUES = st.recursive(
    JSON_LEAVES,
    lambda inner: st.lists(inner, max_size=2) | st.dictionaries(st.text(max_size=6), inner, max_size=2),
    max_leaves=4,
)
EXTRA_NAMES = st.sampled_from(["x-extra", "vendor", "_later"])  # members a later version might add


@functools.cache
def instances(version: str, name: str) -> st.SearchStrategy[Any]:
    """Lawful instances of the definition ``name`` of ``version``'s schema (check them with ``lawful``)."""
    return _strategy(version, definitions(version)[name], 0)


def _strategy(version: str, node: Any, depth: int) -> st.SearchStrategy[Any]:
    node = resolve(version, node)
    if node is True or node == {} or node == {"description": node.get("description")}:
        return JSON_VALUES
    if "const" in node:
        return st.just(node["const"])
    if "enum" in node:
        return st.sampled_from(node["enum"])
    if "anyOf" in node:
        return st.one_of([_strategy(version, part, depth) for part in node["anyOf"]])
    kinds = node.get("type", "object")
    if isinstance(kinds, list):
        return st.one_of([_strategy(version, {**node, "type": kind}, depth) for kind in kinds])
    if kinds == "object":
        return _object(version, node, depth)
    if kinds == "array":
        if depth > DEEPEST:
            return st.just([])
        return st.lists(_strategy(version, node.get("items", {}), depth + 1), max_size=min(node.get("maxItems", 2), 2))
    return _scalar(node, kinds)


def _scalar(node: dict[str, Any], kind: str) -> st.SearchStrategy[Any]:
    low, high = node.get("minimum"), node.get("maximum")
    if kind == "integer":
        return st.integers(-(2**53) if low is None else low, 2**53 if high is None else high)
    if kind == "number":
        floats = st.floats(low, high, allow_nan=False, allow_infinity=False)
        return floats | st.integers(-(2**31) if low is None else int(low), 2**31 if high is None else int(high))
    if kind == "boolean":
        return st.booleans()
    if kind == "null":
        return st.none()
    assert kind == "string", kind
    return st.text(max_size=12)


def _object(version: str, node: dict[str, Any], depth: int) -> st.SearchStrategy[Any]:
    properties: dict[str, Any] = node.get("properties", {})
    required = set(node.get("required", []))
    deep = depth > DEEPEST
    members = {key: _strategy(version, properties.get(key, {}), depth + 1) for key in required}
    optional = {} if deep else {
        key: _strategy(version, sub, depth + 1) for key, sub in properties.items() if key not in required
    }
    extra = node.get("additionalProperties", True)
    extras: st.SearchStrategy[dict[str, Any]] = st.just({})
    if extra is not False and not deep:
        values = JSON_VALUES if extra is True else _strategy(version, extra, depth + 1)
        extras = st.dictionaries(EXTRA_NAMES, values, max_size=1)
    return st.tuples(extras, st.fixed_dictionaries(members, optional=optional)).map(lambda pair: {**pair[0], **pair[1]})


def mutants(version: str, name: str, value: Any) -> Iterator[tuple[str, Any]]:
    """Each required member of ``value``'s objects removed, and each given a value of no type it may
    have, with where: only those the definition then refuses (a member an open object may hold
    anyway is no mutant)."""
    for path, changed in _mutated(version, definitions(version)[name], value, ""):
        if not lawful(version, name, changed):
            yield path, changed


def _branch(version: str, node: Any, value: Any) -> Any:
    """The branch of an ``anyOf`` that ``value`` takes: the first whose ``const`` members it holds."""
    for part in (resolve(version, part) for part in node["anyOf"]):
        consts = {key: sub["const"] for key, sub in part.get("properties", {}).items() if "const" in sub}
        if all(value.get(key) == const for key, const in consts.items()):
            return part
    return {}


def _mutated(version: str, node: Any, value: Any, path: str) -> Iterator[tuple[str, Any]]:
    node = resolve(version, node)
    if isinstance(node, dict) and "anyOf" in node and isinstance(value, dict):
        node = _branch(version, node, value)
    if not isinstance(node, dict) or not isinstance(value, dict) or node.get("type", "object") != "object":
        return
    properties = node.get("properties", {})
    for key in node.get("required", []):
        if key not in value:
            continue
        where = f"{path}.{key}"
        yield f"{where} removed", {k: v for k, v in value.items() if k != key}
        for wrong in ([], "?", 7, {}):
            if wrong != value[key]:
                yield f"{where} = {json.dumps(wrong)}", {**value, key: wrong}
        sub = resolve(version, properties.get(key, {}))
        for inner_path, inner in _mutated(version, sub, value[key], where):
            yield inner_path, {**value, key: inner}
        if isinstance(value[key], list) and isinstance(sub, dict) and value[key]:
            first = copy.deepcopy(value[key])
            for inner_path, inner in _mutated(version, sub.get("items", {}), first[0], f"{where}[0]"):
                yield inner_path, {**value, key: [inner, *first[1:]]}
