"""What a campaign runs: ``check``'s scenarios first, then the strategies' sessions.

The strategies reach most of what the corpus sends, but some sequences only by a long chance (the
same call with a capability and then without it, a notification named ``bogus``, an id of ``true``),
and none of the requests that need what the server listed (a resource's URI, a prompt's name). So a
campaign runs first, as Hypothesis's explicit examples, each scenario of its era's corpus and the
follow-ups (``generate.follow_ups``) of what the server showed: what ``check`` finds, a campaign of
that many cases finds too, whatever its seed. Their bytes and cuts are ``check``'s, but for the id of
a plain handshake, the campaign's own, so that they run in its kept processes (but those that end by
closing stdin, which run fresh). Left out, when a legacy campaign runs at one protocol version, are
those that send another; when it judges some rules only, those that exercise none of them.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import replace

from hypothesis import strategies as st

from mcpref.fuzz.generate.case import Case
from mcpref.fuzz.generate.corpus import KEPT_HEAD_OF, KEPT_HEADS, Scenario
from mcpref.fuzz.generate.corpus_modern import BY_ERA
from mcpref.fuzz.generate.follow_ups import ROUNDS, RULES, SOURCES, follow_ups, shown
from mcpref.fuzz.generate.messages import encode, initialize
from mcpref.fuzz.generate.modern_strategies import modern_cases
from mcpref.fuzz.generate.strategies import cases
from mcpref.reference.versions import Era

_VERSION = re.compile(rb'"protocolVersion":"([^"]*)"')
# The corpus's plain handshake of each version -> the campaign's (``Case.kept_handshake``).
_CAMPAIGN_HEAD = {head: encode(initialize("init-1", name)) for name, head in KEPT_HEAD_OF.items()}


def corpus_cases(era: Era, version: str | None = None, rules: frozenset[str] | None = None) -> tuple[Case, ...]:
    """The scenarios of ``era``'s corpus a campaign runs: at ``version`` alone if one is given in the
    legacy era (the modern corpus, as the modern strategies, also falls back to the legacy handshake),
    those that exercise one of ``rules`` if they are given."""
    chosen = [s for s in BY_ERA[era] if rules is None or rules & set(s.rules)]
    return _cases(chosen, version if era is Era.LEGACY else None)


def follow_up_cases(
    era: Era, version: str | None, rules: frozenset[str] | None, run: Callable[[Case], Sequence[bytes]]
) -> tuple[Case, ...]:
    """The follow-ups of what the server showed (``run``: the lines it wrote when a case was run),
    found round after round as ``check`` finds them, from the corpus scenario they start from."""
    asked = [next(s for s in BY_ERA[era] if s.name == SOURCES[era])]
    if (rules is not None and not rules & RULES) or not _cases(asked, version):
        return ()  # no rule of theirs judged, or they would speak another version than the campaign's
    outputs = [run(asked[0].case)]
    for _ in range(ROUNDS):
        names = {s.name for s in asked}
        new = [s for s in follow_ups(era, shown(era, asked, outputs)) if s.name not in names]
        asked += new
        outputs += [run(s.case) for s in new]
    return _cases(asked[1:], version)


def _cases(scenarios: Iterable[Scenario], version: str | None) -> tuple[Case, ...]:
    return tuple(
        _kept(s.case)
        for s in scenarios
        if version is None or set(_VERSION.findall(b"".join(s.case.lines))) <= {version.encode()}
    )


def _kept(case: Case) -> Case:
    """``case`` with the campaign's plain handshake in place of the corpus's, when it opens with one."""
    head = case.opening_chunk(KEPT_HEADS)
    if head is None:
        return case
    first = _CAMPAIGN_HEAD[head]
    shift = len(first) - len(case.lines[0])
    return replace(case, lines=(first, *case.lines[1:]), cuts=tuple(cut + shift for cut in case.cuts))


@functools.cache
def campaign_cases(era: Era, version: str | None = None) -> st.SearchStrategy[Case]:
    """The cases a campaign in ``era`` draws (at ``version``, in the legacy era, if one is given)."""
    return modern_cases() if era is Era.MODERN else cases(version)
