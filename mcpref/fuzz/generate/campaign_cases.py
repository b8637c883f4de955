"""What a campaign draws: the strategies' sessions, and now and then a scenario of ``check``'s corpus.

The strategies reach most of what the corpus sends, but some sequences only by a long chance (the
same call with a capability and then without it, a notification named ``bogus``, an id of ``true``):
a campaign of a thousand cases could miss what ``check`` finds in seconds. So a share of the cases
are scenarios of the era's corpus, bytes and cuts as ``check`` writes them, but for the id of a
plain handshake, the campaign's own, so that they run in its kept processes (but those that end by
closing stdin, which run fresh). Hypothesis never draws the same scenario twice, so a long campaign
draws each once. Left out, when a campaign runs at one protocol version, are those that send another.
"""

from __future__ import annotations

import functools
import re
from dataclasses import replace

from hypothesis import strategies as st

from mcpref.fuzz.generate.case import Case
from mcpref.fuzz.generate.corpus import KEPT_HEAD_OF, KEPT_HEADS
from mcpref.fuzz.generate.corpus_modern import BY_ERA
from mcpref.fuzz.generate.messages import encode, initialize
from mcpref.fuzz.generate.modern_strategies import modern_cases
from mcpref.fuzz.generate.strategies import cases
from mcpref.reference.versions import Era

CORPUS_ODDS = 4  # one draw in this many picks the corpus, until each scenario has been drawn
# The corpus last: shrinking goes toward the first element, the strategies' own cases.
FROM_CORPUS = st.sampled_from((False,) * (CORPUS_ODDS - 1) + (True,))
_VERSION = re.compile(rb'"protocolVersion":"([^"]*)"')
# The corpus's plain handshake of each version -> the campaign's (``Case.kept_handshake``).
_CAMPAIGN_HEAD = {head: encode(initialize("init-1", name)) for name, head in KEPT_HEAD_OF.items()}


def corpus_cases(era: Era, version: str | None = None) -> tuple[Case, ...]:
    """The scenarios of ``era``'s corpus a campaign may draw, at ``version`` alone if one is given."""
    return tuple(
        _kept(scenario.case)
        for scenario in BY_ERA[era]
        if version is None or set(_VERSION.findall(b"".join(scenario.case.lines))) <= {version.encode()}
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
    """The cases of a campaign in ``era`` (at ``version``, in the legacy era, if one is given)."""
    generated = modern_cases() if era is Era.MODERN else cases(version)
    scenarios = corpus_cases(era, version)
    return _with_corpus(generated, st.sampled_from(scenarios)) if scenarios else generated


@st.composite
def _with_corpus(draw: st.DrawFn, generated: st.SearchStrategy[Case], scenarios: st.SearchStrategy[Case]) -> Case:
    if draw(FROM_CORPUS, label="a scenario of check's corpus"):
        return draw(scenarios, label="scenario")
    return draw(generated)
