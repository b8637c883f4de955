"""The oracle's partial reading of a JSON Schema: where does a value surely fail a schema a server listed?

Two rules ask it. TOOLS-CALL-RESULT: from 2025-06-18 a tool listed with an ``outputSchema`` MUST give
structured results that conform to it. TOOLS-ARGS-INVALID: a call's arguments that fail the tool's
``inputSchema`` are refused (``arguments`` decides exactly, within a small subset; this module finds
what surely fails any other schema). A full validator would be a dependency, and a dialect question
(draft-07 before 2025-11-25 in practice, 2020-12 by default from it): the oracle reads only what it
can read the same way in every dialect, and judges nothing it cannot.

Why a partial reading invents no failure: the keywords of one schema object hold together (each must
hold on its own), so a value that breaks one keyword read here breaks the schema, whatever the
keywords not read say. The exceptions are named where they are handled:
- draft-07 ignores every sibling of ``$ref``: a schema object holding ``$ref`` is not read at all;
- ``additionalProperties`` depends on ``patternProperties``, and ``items`` on ``prefixItems`` (or is a
  tuple in draft-07): each is read only without the other;
- ``nullable`` (OpenAPI's, no JSON Schema keyword) admits null: a ``type`` beside it is not read;
- ``$schema`` may name another dialect (2025-11-25: schemas "MAY include a ``$schema`` field"), where
  the same keywords mean otherwise (draft-04 has no ``const``): a schema object naming any but
  draft-06, draft-07, 2019-09 or 2020-12 is not read;
- a ``properties`` that is no object leaves no reading of which members are additional.
Numbers parsed from JSON text are doubles or integers: ``1e23`` and ``100000000000000000000000`` are
the same number to JSON Schema, so an integer and a float are equal where they round alike.
Subschemas are entered only where they apply to a part of the value on their own (``properties``,
``additionalProperties``, ``items``), never under ``anyOf``, ``oneOf``, ``not`` or ``if``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from mcpref.reference.messages import JsonValue

# The dialects whose keywords read here mean the same (scheme and final "#" aside).
_DIALECTS: Final = frozenset(
    {
        "json-schema.org/draft-06/schema",
        "json-schema.org/draft-07/schema",
        "json-schema.org/draft/2019-09/schema",
        "json-schema.org/draft/2020-12/schema",
    }
)
_TYPES: Final[dict[str, Callable[[JsonValue], bool]]] = {
    "null": lambda v: v is None,
    "boolean": lambda v: isinstance(v, bool),
    "object": lambda v: isinstance(v, dict),
    "array": lambda v: isinstance(v, list),
    "string": lambda v: isinstance(v, str),
    "number": lambda v: isinstance(v, int | float) and not isinstance(v, bool),
    # 1.0 is an integer from draft-06 on: the lenient reading, so that no dialect is failed for it.
    "integer": lambda v: (isinstance(v, int) and not isinstance(v, bool)) or (isinstance(v, float) and v.is_integer()),
}


def misfit(schema: JsonValue, value: JsonValue, where: str) -> str | None:
    """Why ``value`` (named ``where``) does not conform to ``schema``, or None where it does or the
    oracle cannot tell."""
    if schema is False:
        return f"{where} is present where the schema is false"
    if not isinstance(schema, dict) or "$ref" in schema or not _known_dialect(schema.get("$schema")):
        return None
    return (
        _type_misfit(schema, value, where)
        or _enum_misfit(schema, value, where)
        or (_object_misfit(schema, value, where) if isinstance(value, dict) else None)
        or (_array_misfit(schema, value, where) if isinstance(value, list) else None)
    )


def _type_misfit(schema: dict[str, JsonValue], value: JsonValue, where: str) -> str | None:
    kind = schema.get("type")
    names = kind if isinstance(kind, list) else [kind]
    known = [name for name in names if isinstance(name, str) and name in _TYPES]
    if "nullable" in schema or not known or len(known) != len(names):  # no type, or one unknown here
        return None
    if any(_TYPES[name](value) for name in known):
        return None
    return f"{where} is not of type {' or '.join(known)}"


def _enum_misfit(schema: dict[str, JsonValue], value: JsonValue, where: str) -> str | None:
    enum = schema.get("enum")
    if isinstance(enum, list) and not any(_same(value, allowed) for allowed in enum):
        return f"{where} is none of the enum's values"
    if "const" in schema and not _same(value, schema["const"]):
        return f"{where} is not the const value"
    return None


def _object_misfit(schema: dict[str, JsonValue], value: dict[str, JsonValue], where: str) -> str | None:
    required = schema.get("required")
    if isinstance(required, list):
        for name in required:
            if isinstance(name, str) and name not in value:
                return f"{where}/{name} is required and absent"
    properties = schema.get("properties", {})
    extra: JsonValue
    if not isinstance(properties, dict) or "patternProperties" in schema:
        properties, extra = {}, True  # which members are additional cannot be told
    else:
        extra = schema.get("additionalProperties", True)
    for name, member in value.items():
        found = misfit(properties.get(name, extra), member, f"{where}/{name}")
        if found is not None:
            return found
    return None


def _array_misfit(schema: dict[str, JsonValue], value: list[JsonValue], where: str) -> str | None:
    items = schema.get("items")
    if items is None or "prefixItems" in schema or isinstance(items, list):
        return None
    for position, member in enumerate(value):
        found = misfit(items, member, f"{where}/{position}")
        if found is not None:
            return found
    return None


def _known_dialect(named: JsonValue) -> bool:
    """Whether a ``$schema`` (absent: the default dialect) names one whose keywords read here mean the same."""
    if named is None:
        return True
    return isinstance(named, str) and named.partition("://")[2].rstrip("#") in _DIALECTS


def _same(a: JsonValue, b: JsonValue) -> bool:
    """JSON equality: a boolean is no number (Python has True == 1); numbers are equal where their
    values are, an integer and a double where the integer rounds to that double."""
    if isinstance(a, bool) or isinstance(b, bool):
        return type(a) is type(b) and a == b
    if isinstance(a, int) and isinstance(b, float):
        return _as_double(a) == b
    if isinstance(a, float) and isinstance(b, int):
        return _as_double(b) == a
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(_same(a[k], b[k]) for k in a)
    return type(a) is type(b) and a == b


def _as_double(whole: int) -> float | None:
    """The double an integer rounds to; None for one beyond every double."""
    try:
        return float(whole)
    except OverflowError:
        return None
