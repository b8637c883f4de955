"""``check``'s corpus, then the follow-up scenarios its answers support (``generate.follow_ups``).

What the runs showed (``shown``: the capabilities the server announced, the first result of each list
it gave) makes the follow-ups of a round; their own answers (resource templates, tasks listed) may
make those of the next. Each round runs and is judged as the corpus is (``check_runs.judge_corpus``),
and its runs join the corpus's, so that ``check`` makes rows of them alike. A server that answered
nothing, or that no scenario could be run against (a flood, nothing read), is asked nothing more.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from mcpref.fuzz.generate.corpus import Scenario
from mcpref.fuzz.generate.corpus_modern import BY_ERA
from mcpref.fuzz.generate.follow_ups import ROUNDS, RULES, SOURCES, follow_ups, shown
from mcpref.fuzz.integrate.check_runs import Judged
from mcpref.reference.versions import Era


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
        found = follow_ups(era, shown(era, judged.scenarios, [ran.observation.output for ran, _ in judged.results]))
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
