"""A campaign can draw every scenario of ``check``'s corpora: what ``check`` finds, a campaign can find."""

from __future__ import annotations

import contextlib
import re

import pytest
from hypothesis import HealthCheck, Phase, given, settings

from mcpref.fuzz.campaign.search import reproducible
from mcpref.fuzz.generate.campaign_cases import campaign_cases, corpus_cases
from mcpref.fuzz.generate.case import Case
from mcpref.fuzz.generate.corpus_modern import BY_ERA
from mcpref.reference.versions import Era


def _body(case: Case) -> tuple[tuple[bytes, ...], int]:
    """What a scenario sends after its first line, and into how many chunks it is cut."""
    return case.lines[1:], len(case.chunks)


@pytest.mark.spec("STDIO-EOF-DRAIN", "FRAME-EOF-PARTIAL")
@pytest.mark.parametrize("era", list(Era))
def test_each_scenario_is_drawable_as_check_writes_it(era: Era) -> None:
    drawable = corpus_cases(era)
    scenarios = BY_ERA[era]
    assert [(*_body(case), case.eof) for case in drawable] == [(*_body(s.case), s.eof) for s in scenarios]
    # A scenario that opens with the corpus's plain handshake opens with the campaign's: it runs kept,
    # but for one that closes stdin, which ends its process.
    opening = [scenario.case.chunks[0] == b"".join(scenario.case.lines[:2]) for scenario in scenarios]
    kept = [case.kept_handshake is not None for case in drawable]
    assert all(opening[i] and not drawable[i].eof for i, is_kept in enumerate(kept) if is_kept)
    assert any(case.eof for case in drawable) is (era is Era.LEGACY)  # the modern corpus closes no stdin early
    assert sum(kept) >= 6 if era is Era.LEGACY else sum(kept) == 0  # a modern case always runs fresh


def test_a_campaign_at_one_version_draws_only_the_scenarios_of_that_version() -> None:
    for case in corpus_cases(Era.LEGACY, "2025-03-26"):  # malformed versions (a number) are no other version
        assert set(re.findall(rb'"protocolVersion":"([^"]*)"', b"".join(case.lines))) <= {b"2025-03-26"}
    assert 0 < len(corpus_cases(Era.LEGACY, "2025-03-26")) < len(corpus_cases(Era.LEGACY))


@pytest.mark.spec("MOD-STATELESS", "RPC-NOTIFICATION-SILENT", "RPC-ID-TYPE")
@pytest.mark.parametrize("era", list(Era))
def test_a_campaign_of_a_thousand_cases_draws_every_scenario(era: Era) -> None:
    # The sequences a campaign once missed are in them: the same call with a capability declared
    # and then without it (MOD-STATELESS), a notification named "bogus", an id of true.
    missing = set(corpus_cases(era))

    class AllDrawn(Exception):
        """Every scenario was drawn within the thousand cases: the claim holds, no need to draw the rest."""

    @settings(max_examples=1000, database=None, phases=[Phase.generate], suppress_health_check=list(HealthCheck))
    @given(campaign_cases(era))
    def draw(case: Case) -> None:
        missing.discard(case)
        if not missing:
            raise AllDrawn

    with reproducible(), contextlib.suppress(AllDrawn):  # as a campaign draws: from Hypothesis's own constants only
        draw()
    assert missing == set()
