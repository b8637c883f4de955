"""``check``'s corpus, then the follow-up scenarios its answers support (``generate.follow_ups``).

What the runs showed (``shown``: the capabilities the server announced, the first result of each list
it gave) makes the follow-ups of a round; their own answers (resource templates, tasks listed) may
make those of the next. Each round runs and is judged as the corpus is (``check_runs.judge_corpus``),
and its runs join the corpus's, so that ``check`` makes rows of them alike. A server that answered
nothing, or that no scenario could be run against (a flood, nothing read), is asked nothing more.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from typing import Final

from mcpref.fuzz.drive.target import Run
from mcpref.fuzz.generate.corpus import Scenario, lines
from mcpref.fuzz.generate.corpus_modern import BY_ERA
from mcpref.fuzz.generate.follow_ups import LISTS, RULES, SOURCES, VERSION, Shown, follow_ups
from mcpref.fuzz.integrate.check_runs import Judged
from mcpref.reference.eras import LEGACY
from mcpref.reference.messages import JsonObject, JsonValue
from mcpref.reference.versions import Era

ROUNDS: Final = 3  # modern lists, then reads and templates, then a template's completion
OPENING: Final = lines(*LEGACY.opening(0, VERSION))  # the legacy follow-ups' handshake


def judge_followed(era: Era, only: frozenset[str] | None, run: Callable[[Sequence[Scenario]], Judged]) -> Judged:
    """``run`` (``check_runs.judge_corpus`` of the scenarios given) of the era's corpus (those that
    exercise ``only``), then of the follow-ups of what it showed, round after round. A selection of
    a follow-up's rule runs the corpus scenario they start from too, and every follow-up: one of
    another rule's may be what makes one of its own (the templates listed, a template completed)."""
    wanted = only is None or bool(only & RULES)
    judged = run([s for s in BY_ERA[era] if _selected(s, only) or (wanted and s.name == SOURCES[era])])
    asked = {s.name for s in judged.scenarios}
    for _ in range(ROUNDS if wanted else 0):
        if judged.silent or any(ran.hopeless for ran, _ in judged.results):
            break
        found = follow_ups(era, shown(era, judged.scenarios, [ran for ran, _ in judged.results]))
        new = [s for s in found if s.name not in asked]
        if not new:
            break
        asked |= {s.name for s in new}
        more = run(new)
        judged = Judged(
            judged.scenarios + more.scenarios,
            [*judged.results, *more.results],
            [*judged.spoken, *more.spoken],
            [*judged.witnessed, *more.witnessed],
        )
    return judged


def _selected(scenario: Scenario, only: frozenset[str] | None) -> bool:
    return only is None or bool(only & set(scenario.rules))


def shown(era: Era, scenarios: Sequence[Scenario], runs: Sequence[Run]) -> Shown:
    """What the runs of ``era``'s scenarios showed that follow-ups read, the first answer of each kind
    in the scenarios' order: in the legacy era only runs that opened with the follow-ups' handshake,
    whose initialize result says what the server announced; in the modern era, a DiscoverResult."""
    capabilities: JsonObject | None = None
    version: str | None = None
    results: dict[str, JsonObject] = {}
    for scenario, run in zip(scenarios, runs, strict=True):
        if scenario.era is not era or (era is Era.LEGACY and scenario.case.lines[:2] != OPENING):
            continue
        asked = _requests(scenario.case.lines)
        for answer in _answers(run.observation.output):
            method, result = asked.get(json.dumps(answer.get("id"))), answer.get("result")
            if not isinstance(result, dict):
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


def _answers(output: Sequence[bytes]) -> list[JsonObject]:
    return [value for value in _objects(output) if "method" not in value]


def _objects(found: Sequence[bytes]) -> list[JsonObject]:
    """The JSON objects among lines (not a batch, not a line that is no JSON)."""
    values: list[JsonValue] = []
    for line in found:
        try:
            values.append(json.loads(line))
        except (ValueError, RecursionError):  # not JSON, not UTF-8, or nested too deep to read
            continue
    return [value for value in values if isinstance(value, dict)]
