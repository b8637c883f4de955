"""The demo tools, their input schemas, and the small schema check they need.

The tools exist so that the server and the fuzzer have something real to call: the
seeds' ``lire_prix`` (a success and a tool error), ``echo``, ``fail`` (always a tool
error), ``attendre`` (answers after a delay, for concurrency and cancellation) and, for
modern requests only, ``demander`` (asks the user a question through the client: it needs
the client's ``elicitation`` capability, MOD-CAP-REQUIRED).
A tool returns an outcome value; it never raises for anything a client sent.

``argument_problem`` checks arguments against the subset of JSON Schema these tools
use (object, properties of type string or integer, bounds, required, no extras).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TypeAlias

from .messages import JsonObject, JsonValue


@dataclass(frozen=True)
class ToolText:
    text: str
    is_error: bool = False


@dataclass(frozen=True)
class Delayed:
    """A result that is due ``seconds`` from now; the I/O layer keeps the clock."""

    seconds: float
    then: ToolText


@dataclass(frozen=True)
class Ask:
    """The tool needs the user's input, asked through the client with ``request``.

    The modern era asks by answering ``input_required``; the client retries with the
    user's response under ``key`` (multi round-trip requests). ``answer`` turns that
    response into the tool's result, or None when it answers nothing (ask again).
    """

    capability: str
    key: str
    request: JsonObject
    answer: Callable[[JsonValue], ToolText | None]


ToolOutcome: TypeAlias = ToolText | Delayed | Ask


@dataclass(frozen=True)
class Tool:
    name: str
    title: str
    description: str
    input_schema: JsonObject
    run: Callable[[JsonObject], ToolOutcome]
    modern_only: bool = False  # it asks through the client, which only the modern era can do


def _schema(properties: dict[str, JsonObject]) -> JsonObject:
    return {
        "type": "object",
        "properties": dict(properties),
        "required": list(properties),
        "additionalProperties": False,
    }


_PRIX = {"baguette": 110, "croissant": 130}
MAX_WAIT_MS = 60_000


def _lire_prix(arguments: JsonObject) -> ToolOutcome:
    prix = _PRIX.get(str(arguments["produit"]))
    if prix is None:
        return ToolText("Produit inconnu", is_error=True)  # TOOLS-EXEC-ERROR
    return ToolText(f"{prix} centimes")


def _echo(arguments: JsonObject) -> ToolOutcome:
    return ToolText(str(arguments["text"]))


def _fail(arguments: JsonObject) -> ToolOutcome:
    return ToolText("this tool always fails", is_error=True)  # TOOLS-EXEC-ERROR


def _attendre(arguments: JsonObject) -> ToolOutcome:
    ms = arguments["ms"]
    assert type(ms) is int  # argument_problem ran first
    return Delayed(ms / 1000, ToolText(f"attendu {ms} ms"))


TOOLS: tuple[Tool, ...] = (
    Tool(
        "lire_prix",
        "Prix",
        "Price of a bakery product, in euro cents.",
        _schema({"produit": {"type": "string"}}),
        _lire_prix,
    ),
    Tool("echo", "Echo", "Returns its text unchanged.", _schema({"text": {"type": "string"}}), _echo),
    Tool("fail", "Fail", "Always fails, as a tool error.", _schema({}), _fail),
    Tool(
        "attendre",
        "Attendre",
        "Waits the given number of milliseconds, then answers.",
        _schema({"ms": {"type": "integer", "minimum": 0, "maximum": MAX_WAIT_MS}}),
        _attendre,
    ),
)

def _demander(arguments: JsonObject) -> ToolOutcome:
    schema = _schema({"answer": {"type": "string"}})
    request: JsonObject = {
        "method": "elicitation/create",
        "params": {"mode": "form", "message": str(arguments["question"]), "requestedSchema": schema},
    }
    return Ask("elicitation", "answer", request, _answered)


def _answered(response: JsonValue) -> ToolText | None:
    if not isinstance(response, dict):
        return None
    action = response.get("action")
    content = response.get("content")
    if action == "accept" and isinstance(content, dict) and isinstance(content.get("answer"), str):
        return ToolText(f"réponse : {content['answer']}")
    if action in ("decline", "cancel"):
        return ToolText(f"the user chose {action}", is_error=True)  # TOOLS-EXEC-ERROR
    return None


DEMANDER = Tool(
    "demander",
    "Demander",
    "Asks the user the given question and returns the answer.",
    _schema({"question": {"type": "string"}}),
    _demander,
    modern_only=True,
)

MODERN_TOOLS: tuple[Tool, ...] = (*TOOLS, DEMANDER)
BY_NAME: dict[str, Tool] = {tool.name: tool for tool in MODERN_TOOLS}


def offered(*, modern: bool) -> tuple[Tool, ...]:
    return MODERN_TOOLS if modern else TOOLS


def listing(tool: Tool, *, with_title: bool) -> JsonObject:
    """The tool as tools/list shows it; ``title`` exists only from 2025-06-18 (TOOLS-LIST-SHAPE)."""
    entry: JsonObject = {"name": tool.name}
    if with_title:
        entry["title"] = tool.title
    entry["description"] = tool.description
    entry["inputSchema"] = tool.input_schema
    return entry


def argument_problem(schema: JsonObject, arguments: JsonObject) -> str | None:
    """Why ``arguments`` fail ``schema``, or None when they fit."""
    properties = schema["properties"]
    required = schema["required"]
    assert isinstance(properties, dict) and isinstance(required, list)
    for name in required:
        assert isinstance(name, str)
        if name not in arguments:
            return f"missing argument: {name}"
    for name, value in arguments.items():
        spec = properties.get(name)
        if not isinstance(spec, dict):
            return f"unexpected argument: {name}"
        problem = _value_problem(spec, value)
        if problem is not None:
            return f"argument {name} {problem}"
    return None


def _value_problem(spec: JsonObject, value: JsonValue) -> str | None:
    if spec["type"] == "string":
        return None if isinstance(value, str) else "must be a string"
    if type(value) is not int:
        return "must be an integer"
    low, high = spec["minimum"], spec["maximum"]
    assert type(low) is int and type(high) is int
    if not low <= value <= high:
        return f"must be between {low} and {high}"
    return None
