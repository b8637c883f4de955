"""The oracle's own reading of a tool's inputSchema: do a tools/call's arguments fit it?

TOOLS-ARGS-INVALID asks whether arguments fail the schema a server listed. The oracle
judges servers, the reference server among them, so it must not borrow that decision
from ``mcpref.reference.tools.argument_problem``: a bug there (say, bools taken for
integers) would then sit on both sides of the comparison and never be reported. This
module decides it again, independently, importing only the JSON vocabulary.

It reads only the subset the oracle's ``_checkable`` accepts: an object schema with
``additionalProperties`` false, a list of ``required`` names, and properties that are
either ``{"type": "string"}`` or ``{"type": "integer"}`` with integer ``minimum`` and
``maximum`` (``description`` and ``title`` are ignored). Anything else raises
ValueError: the caller was meant to filter it out, and guessing would invent findings.
"""

from __future__ import annotations

from mcpref.reference.messages import JsonObject, JsonValue


def argument_problem(schema: JsonObject, arguments: JsonObject) -> str | None:
    """A short reason why ``arguments`` do not fit ``schema``, or None when they do."""
    properties = schema.get("properties")
    required = schema.get("required")
    if not isinstance(properties, dict) or not isinstance(required, list):
        raise ValueError("not a checkable schema: properties must be an object and required a list")
    if not all(isinstance(name, str) for name in required):
        raise ValueError("not a checkable schema: required names must be strings")
    absent = [name for name in required if name not in arguments]
    if absent:
        return f"missing argument: {absent[0]}"
    for name, value in arguments.items():
        if name not in properties:  # additionalProperties is false
            return f"unexpected argument: {name}"
        problem = _misfit(properties[name], value)
        if problem is not None:
            return f"argument {name} {problem}"
    return None


def _misfit(spec: JsonValue, value: JsonValue) -> str | None:
    """Why ``value`` does not fit one property's ``spec``, or None."""
    if not isinstance(spec, dict):
        raise ValueError("not a checkable property: not an object")
    kind = spec.get("type")
    if kind == "string":
        return None if type(value) is str else "must be a string"
    if kind != "integer":
        raise ValueError(f"not a checkable property type: {kind!r}")
    low, high = spec.get("minimum"), spec.get("maximum")
    if type(low) is not int or type(high) is not int:
        raise ValueError("not a checkable integer property: minimum and maximum must be integers")
    # JSON integers only: a bool is an int to Python but not to JSON Schema, and 3.0 is a float here.
    if type(value) is not int:
        return "must be an integer"
    if value < low or value > high:
        return f"must be between {low} and {high}"
    return None
