"""The scenarios ``mcpref check`` runs after its corpus, on what the server itself announced and listed.

The fixed corpus knows no resource's URI, no prompt's name: it can only ask for the lists. From
what earlier runs showed (``Shown``: the capabilities announced, the first result of each list),
``follow_ups`` builds the requests those answers make possible: read the first resource listed,
list the resource templates, get the first prompt listed (each of its required arguments given a
string), complete an argument of a listed prompt or a variable of a listed template (where the
server announced ``completions``), list the tasks and get the first one listed (2025-11-25, where it
announced ``tasks.list``). In the modern era, where the corpus asks for no list, the lists of the
capabilities a DiscoverResult announced come first. Each is an ordinary ``Scenario``, one request
after the era's opening, the same bytes for the same answers; what no answer supports is not asked.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Final

from mcpref.fuzz.generate.corpus import Scenario, lines, scenario
from mcpref.fuzz.generate.corpus_modern import modern
from mcpref.reference.eras import LEGACY
from mcpref.reference.messages import JsonObject, JsonValue, parse_line
from mcpref.reference.versions import BY_NAME, Era

# The version the legacy follow-ups open with: that of the corpus scenario whose lists they follow
# ("unannounced capabilities"), so that the server answers them as it answered those lists.
VERSION: Final = BY_NAME["2025-11-25"]
# The corpus scenario each era's follow-ups start from, which ``check`` runs whenever one of theirs is selected.
_OPENING: Final = lines(*LEGACY.opening(0, VERSION))  # the legacy follow-ups' handshake
SOURCES: Final = {Era.LEGACY: "unannounced capabilities", Era.MODERN: "discover"}
RULES: Final = frozenset({"RESOURCES-SHAPE", "PROMPTS-SHAPE", "COMPLETION-SHAPE", "TASKS-SHAPE"})
# The results a follow-up reads: ``Shown.results`` keeps the first of each.
LISTS: Final = ("resources/list", "resources/templates/list", "prompts/list", "tasks/list")
ROUNDS: Final = 3  # modern lists, then reads and templates, then a template's completion
_VARIABLE = re.compile(r"\{[+#./;?&]?([A-Za-z0-9_]+)")  # an RFC 6570 expression's first variable


@dataclass(frozen=True)
class Shown:
    """What earlier runs showed of the server: the capabilities it announced (in the legacy era, in
    answer to the follow-ups' own ``initialize``), the version that answer named, and the first
    result of each of ``LISTS`` it gave."""

    capabilities: Mapping[str, JsonValue] = field(default_factory=dict)
    version: str | None = None
    results: Mapping[str, JsonObject] = field(default_factory=dict)


def shown(era: Era, scenarios: Sequence[Scenario], outputs: Sequence[Sequence[bytes]]) -> Shown:
    """What the runs of ``era``'s scenarios showed that follow-ups read (``outputs``: the lines each
    run's server wrote), the first answer of each kind in the scenarios' order: in the legacy era only
    runs that opened with the follow-ups' handshake, whose initialize result says what the server
    announced; in the modern era, a DiscoverResult."""
    capabilities: JsonObject | None = None
    version: str | None = None
    results: dict[str, JsonObject] = {}
    for ran, output in zip(scenarios, outputs, strict=True):
        if ran.era is not era or (era is Era.LEGACY and ran.case.lines[:2] != _OPENING):
            continue
        asked = _requests(ran.case.lines)
        for answer in _objects(output):
            method, result = asked.get(json.dumps(answer.get("id"))), answer.get("result")
            if "method" in answer or not isinstance(result, dict):
                continue
            announced = result.get("capabilities")
            if capabilities is None and method in ("initialize", "server/discover") and isinstance(announced, dict):
                capabilities = announced
                named = result.get("protocolVersion")
                version = named if isinstance(named, str) else None
            if method in LISTS:
                results.setdefault(method, result)
    return Shown(capabilities or {}, version, results)


def _requests(sent: Sequence[bytes]) -> dict[str, str]:
    """The method of each request among ``sent`` lines, by its id as JSON."""
    return {
        json.dumps(value["id"]): str(value["method"])
        for value in _objects(sent)
        if "id" in value and isinstance(value.get("method"), str)
    }


def _objects(found: Sequence[bytes]) -> list[JsonObject]:
    """The JSON objects among lines, read as the reference reads a line (not a batch, not a line
    that is no JSON)."""
    return [value for value in map(parse_line, found) if isinstance(value, dict)]


def follow_ups(era: Era, shown: Shown) -> tuple[Scenario, ...]:
    """The follow-up scenarios ``shown`` supports, in a fixed order."""
    ask = _asker(era)
    found: list[Scenario] = []
    announced = shown.capabilities
    if era is Era.MODERN:
        for capability, method in (("resources", "resources/list"), ("prompts", "prompts/list")):
            if isinstance(announced.get(capability), dict):
                found.append(ask(f"list the {capability}", _rule(method), method, {}))
    if isinstance(announced.get("resources"), dict):
        found.append(ask("list the resource templates", "RESOURCES-SHAPE", "resources/templates/list", {}))
    resource = _first(shown, "resources/list", "resources", "uri")
    if resource is not None:
        found.append(
            ask("read the first resource listed", "RESOURCES-SHAPE", "resources/read", {"uri": resource["uri"]})
        )
    prompt = _first(shown, "prompts/list", "prompts", "name")
    if prompt is not None:
        found.append(ask("get the first prompt listed", "PROMPTS-SHAPE", "prompts/get", _prompt_params(prompt)))
    if isinstance(announced.get("completions"), dict):
        found += _completions(shown, ask)
    tasks = announced.get("tasks")
    if (
        era is Era.LEGACY
        and shown.version == VERSION.name
        and isinstance(tasks, dict)
        and isinstance(tasks.get("list"), dict)
    ):
        found.append(ask("list the tasks", "TASKS-SHAPE", "tasks/list", {}))
        task = _first(shown, "tasks/list", "tasks", "taskId")
        if task is not None:
            found.append(ask("get the first task listed", "TASKS-SHAPE", "tasks/get", {"taskId": task["taskId"]}))
    return tuple(found)


Ask = Callable[[str, str, str, JsonObject], Scenario]


def _asker(era: Era) -> Ask:
    """How a follow-up of ``era`` is written: one request after the era's opening."""

    def ask(name: str, rule: str, method: str, params: JsonObject) -> Scenario:
        if era is Era.MODERN:
            return scenario(f"{name} (modern)", (rule,), *lines(modern(1, method, params)), era=era)
        return scenario(name, (rule,), *lines(*LEGACY.opening(0, VERSION), LEGACY.request(1, method, params, VERSION)))

    return ask


def _rule(method: str) -> str:
    return "RESOURCES-SHAPE" if method.startswith("resources/") else "PROMPTS-SHAPE"


def _items(shown: Shown, method: str, key: str, member: str) -> list[JsonObject]:
    """The items of the list result of ``method`` (under ``key``) whose ``member`` is a string."""
    listed = shown.results.get(method, {}).get(key)
    return (
        [i for i in listed if isinstance(i, dict) and isinstance(i.get(member), str)]
        if isinstance(listed, list)
        else []
    )


def _first(shown: Shown, method: str, key: str, member: str) -> JsonObject | None:
    return next(iter(_items(shown, method, key, member)), None)


def _arguments(prompt: JsonObject) -> list[JsonObject]:
    """A listed prompt's arguments that have a string name."""
    listed = prompt.get("arguments")
    return (
        [a for a in listed if isinstance(a, dict) and isinstance(a.get("name"), str)]
        if isinstance(listed, list)
        else []
    )


def _prompt_params(prompt: JsonObject) -> JsonObject:
    """prompts/get's params for a listed prompt: its name, and a string for each required argument."""
    required: JsonObject = {str(a["name"]): "x" for a in _arguments(prompt) if a.get("required") is True}
    return {"name": prompt["name"], **({"arguments": required} if required else {})}


def _completions(shown: Shown, ask: Ask) -> list[Scenario]:
    """completion/complete of the first listed prompt that has an argument, and of the first listed
    template whose URI template names a variable."""
    found: list[Scenario] = []
    prompt = next((p for p in _items(shown, "prompts/list", "prompts", "name") if _arguments(p)), None)
    if prompt is not None:
        ref: JsonObject = {"type": "ref/prompt", "name": prompt["name"]}
        argument: JsonObject = {"name": _arguments(prompt)[0]["name"], "value": ""}
        found.append(
            ask(
                "complete an argument of a prompt listed",
                "COMPLETION-SHAPE",
                "completion/complete",
                {"ref": ref, "argument": argument},
            )
        )
    templates = _items(shown, "resources/templates/list", "resourceTemplates", "uriTemplate")
    template = next((t for t in templates if _VARIABLE.search(str(t["uriTemplate"]))), None)
    if template is not None:
        variable = _VARIABLE.search(str(template["uriTemplate"]))
        assert variable is not None
        ref = {"type": "ref/resource", "uri": template["uriTemplate"]}
        argument = {"name": variable.group(1), "value": ""}
        found.append(
            ask(
                "complete a variable of a template listed",
                "COMPLETION-SHAPE",
                "completion/complete",
                {"ref": ref, "argument": argument},
            )
        )
    return found
