"""The shapes of a message's parts, as the official JSON Schemas state them: a table, and one checker.

In: a JSON value the server wrote (a content block of a tools/call result, a prompt message's
content...). Out: what it lacks, said in words, or None. The table lists only the members each
version's ``schema.json`` requires, with their JSON type; members it does not list are lawful (the
schemas leave these objects open), and the tests hold the table to the schemas
(tests/fuzz/test_official_schema.py).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Final

from mcpref.fuzz.judge.modern import show
from mcpref.reference.messages import JsonValue

# The required members of each content block, by its ``type``: the same in every version that has
# the block (schema/<version>/schema.json: TextContent, ImageContent, AudioContent from 2025-03-26,
# ResourceLink from 2025-06-18, EmbeddedResource).
CONTENT_BLOCKS: Final[dict[str, dict[str, type]]] = {
    "text": {"text": str},
    "image": {"data": str, "mimeType": str},
    "audio": {"data": str, "mimeType": str},
    "resource_link": {"uri": str, "name": str},
    "resource": {"resource": dict},
}
# An embedded resource's contents: a uri, and its text (TextResourceContents) or blob (BlobResourceContents).
RESOURCE_BODIES: Final = ("text", "blob")
_TYPE_NAMES: Final[dict[type, str]] = {str: "a string", dict: "an object"}


def content_problem(block: JsonValue) -> str | None:
    """What a content block lacks of its type's required members, or None. A ``type`` the table does
    not know is not judged here: it may be a block of a later version."""
    if not isinstance(block, dict) or not isinstance(block.get("type"), str):
        return "a content item without a string type"
    kind = str(block["type"])
    members = CONTENT_BLOCKS.get(kind, {})
    for name, kind_of in members.items():
        if not isinstance(block.get(name), kind_of):
            return f"a {kind} content item without {name} ({_TYPE_NAMES[kind_of]})"
    resource = block.get("resource")
    if kind == "resource" and isinstance(resource, dict):
        body = any(isinstance(resource.get(name), str) for name in RESOURCE_BODIES)
        if not isinstance(resource.get("uri"), str) or not body:
            return "an embedded resource without a string uri and a string text or blob"
    return None


# The shapes of whole results and messages: what each version's schema requires, recursively.
# A Python type stands for a JSON type (``float`` for number, ``int`` for integer, neither a
# boolean), a tuple of them for a union, and ``object`` for any value, present.
Atom = type | tuple[type, ...]


@dataclass(frozen=True)
class Enum:
    """A string among ``values`` (a ``const`` is an enum of one)."""

    values: frozenset[str]


@dataclass(frozen=True)
class Items:
    """An array whose every item has the shape ``of``."""

    of: Shape


@dataclass(frozen=True)
class ListOr:
    """One value of the shape ``of``, or an array of such values (2025-11-25's sampling content)."""

    of: Shape


@dataclass(frozen=True)
class Obj:
    """An object holding ``members`` of their shapes, and a string under one of ``either`` if given."""

    members: Mapping[str, Shape]
    either: tuple[str, ...] = ()


@dataclass(frozen=True)
class Tagged:
    """An object whose shape its string ``key`` names; ``other`` is the shape without the key (None:
    the key is required), and a value no case names is left alone (a later version's kind)."""

    key: str
    cases: Mapping[str, Obj]
    other: Obj | None = None


Shape = Atom | Enum | Items | ListOr | Obj | Tagged
_KIND_NAMES: Final[dict[type, str]] = {
    str: "a string",
    int: "an integer",
    float: "a number",
    bool: "a boolean",
    dict: "an object",
    list: "an array",
    type(None): "null",
    object: "a value",
}


def _fits(kind: type, value: JsonValue) -> bool:
    if kind is object:
        return True
    if kind is float:
        return isinstance(value, int | float) and not isinstance(value, bool)
    return isinstance(value, kind) and not (kind is int and isinstance(value, bool))


def _named(shape: Shape) -> str:
    """What a member of ``shape`` is, as an object lacking it says: "a string", "an array"..."""
    if isinstance(shape, tuple):
        return " or ".join(_KIND_NAMES[kind] for kind in shape)
    if isinstance(shape, type):
        return _KIND_NAMES[shape]
    if isinstance(shape, Enum):
        return "a string"
    return "an array" if isinstance(shape, Items) else "an object"


def shape_problem(shape: Shape, value: JsonValue, where: str) -> str | None:
    """What ``value`` (at ``where``, "" for the whole) lacks of ``shape``, in words, or None."""
    if isinstance(shape, type | tuple):
        kinds = shape if isinstance(shape, tuple) else (shape,)
        return None if any(_fits(kind, value) for kind in kinds) else f"{where} that is not {_named(shape)}"
    if isinstance(shape, Enum):
        return (
            None
            if isinstance(value, str) and value in shape.values
            else f"{where} {show(value)}, none of {', '.join(sorted(shape.values))}"
        )
    if isinstance(shape, Items):
        if not isinstance(value, list):
            return f"{where} that is not an array"
        return next((p for i, item in enumerate(value) if (p := shape_problem(shape.of, item, f"{where}[{i}]"))), None)
    if isinstance(shape, ListOr):
        return shape_problem(Items(shape.of) if isinstance(value, list) else shape.of, value, where)
    owner = where or "a result"
    if not isinstance(value, dict):
        return f"{owner} that is not an object"
    if isinstance(shape, Tagged):
        tag = value.get(shape.key)
        if shape.key not in value and shape.other is not None:
            return shape_problem(shape.other, value, where)
        if not isinstance(tag, str):
            return f"{owner} without a string {shape.key}"
        case = shape.cases.get(tag)
        return None if case is None else shape_problem(case, value, where)
    for name, member in shape.members.items():
        inner = f"{where}.{name}" if where else name
        found = shape_problem(member, value[name], inner) if name in value else None
        if name not in value or found == f"{inner} that is not {_named(member)}":
            return f"{owner} without {_named(member)} {name}"
        if found is not None:
            return found
    if shape.either and not any(isinstance(value.get(name), str) for name in shape.either):
        return f"{owner} without a string {' or '.join(shape.either)}"
    return None


def outline(shape: Shape) -> str:
    """``shape`` as a finding's expectation: its members nested, e.g. ``{contents: [{uri, text | blob}]}``."""
    if isinstance(shape, Items):
        return f"[{outline(shape.of) or _named(shape.of) + ', ...'}]"
    if isinstance(shape, ListOr):
        return outline(shape.of)
    if isinstance(shape, Tagged):
        return f"{{{shape.key}, ...}}"
    if not isinstance(shape, Obj):
        return ""
    parts = [name + (f": {inner}" if (inner := outline(member)) else "") for name, member in shape.members.items()]
    return "{" + ", ".join([*parts, *([" | ".join(shape.either)] if shape.either else [])]) + "}"
