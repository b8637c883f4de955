"""A campaign runs every scenario of ``check``'s corpora first, and the follow-ups of what the server
listed: what ``check`` finds, a campaign finds."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import pytest

from mcpref.fuzz.campaign.runner import Campaign
from mcpref.fuzz.drive.target import Run
from mcpref.fuzz.drive.timing import Timing
from mcpref.fuzz.generate.campaign_cases import corpus_cases, follow_up_cases
from mcpref.fuzz.generate.case import Case
from mcpref.fuzz.generate.corpus_modern import BY_ERA
from mcpref.fuzz.judge.oracle import Finding
from mcpref.reference.messages import JsonObject
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
def test_a_campaign_runs_every_scenario_first_in_the_corpus_order(era: Era) -> None:
    # The sequences a campaign once missed are among them: the same call with a capability declared
    # and then without it (MOD-STATELESS), a notification named "bogus", an id of true.
    ran: list[Case] = []
    version = "2026-07-28" if era is Era.MODERN else None
    campaign = Campaign([sys.executable, "-m", "mcpref.reference"], max_cases=len(corpus_cases(era)) + 3, seed=1, version=version)
    execute = campaign.execute

    def recorded(case: Case, timing: Timing | None = None) -> tuple[Run, list[Finding]]:
        ran.append(case)
        return execute(case, timing)

    campaign.execute = recorded  # type: ignore[method-assign]
    assert campaign.run().failures == []
    # The reference announces no resources nor prompts: no follow-up, three cases generated.
    scenarios = corpus_cases(era, version)  # the modern corpus whole: its legacy fallback too
    assert scenarios == corpus_cases(era) or era is Era.LEGACY
    assert ran[: len(scenarios)] == list(scenarios) and len(ran) == campaign.stats.cases


@pytest.mark.spec("RESOURCES-SHAPE")
@pytest.mark.parametrize("era", list(Era))
def test_a_campaign_runs_the_follow_ups_of_what_the_server_listed_after_the_corpus(era: Era) -> None:
    version = "2026-07-28" if era is Era.MODERN else None
    target = [sys.executable, str(Path(__file__).parents[2] / "examples" / "buggy" / "malformed_resource_read.py")]
    # No case is generated: what the corpus and the follow-ups find, they alone find.
    found = Campaign(target, max_cases=len(corpus_cases(era)) + 4, seed=1, version=version, rules=frozenset({"RESOURCES-SHAPE"})).run()
    (failure,) = found.failures
    assert failure.rule == "RESOURCES-SHAPE" and b'"method":"resources/read"' in failure.case.lines[-1]


def test_side_by_side_jobs_share_the_corpus_and_a_selection_runs_only_the_scenarios_of_its_rules() -> None:
    rules = frozenset({"RPC-ID-TYPE", "RPC-NOTIFICATION-SILENT"})
    selected = corpus_cases(Era.LEGACY, rules=rules)
    assert 1 < len(selected) < len(corpus_cases(Era.LEGACY))
    campaign = Campaign(["true"], rules=rules)  # no follow-up judges these rules: no run finds them
    shares = [campaign.side_by_side(index, 3)._first_cases() for index in range(3)]
    assert sorted(repr(case) for share in shares for case in share) == sorted(map(repr, selected)) and all(shares)


def _lines_of(*messages: JsonObject) -> tuple[bytes, ...]:
    return tuple(json.dumps(message).encode() for message in messages)


def test_the_follow_ups_are_found_round_after_round_from_what_the_server_listed() -> None:
    templates = {"resourceTemplates": [{"uriTemplate": "file:///{path}", "name": "f"}]}
    capabilities = {"resources": {}, "completions": {}}

    def run(case: Case) -> tuple[bytes, ...]:
        """A server that announces resources and completions, and answers each request it is asked."""
        answers = []
        for line in case.lines:
            sent = json.loads(line)
            method = sent.get("method")
            result = {"capabilities": capabilities, "protocolVersion": "2025-11-25"} if method == "initialize" else {}
            if method == "resources/templates/list":
                result = templates
            if "id" in sent:
                answers.append({"jsonrpc": "2.0", "id": sent["id"], "result": result})
        return _lines_of(*answers)

    asked = [re.findall(rb'"method":"([^"]*)"', case.lines[-1])[0] for case in follow_up_cases(Era.LEGACY, None, None, run)]
    # The templates listed in the second round make the completion of the third.
    assert asked == [b"resources/templates/list", b"completion/complete"]
    assert follow_up_cases(Era.LEGACY, None, frozenset({"RPC-ID-TYPE"}), run) == ()  # no rule of theirs
    assert follow_up_cases(Era.LEGACY, "2025-03-26", None, run) == ()  # they speak 2025-11-25
