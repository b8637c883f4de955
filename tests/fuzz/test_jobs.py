"""How a campaign runs as a process: ``mcpref fuzz --jobs`` side by side, merged into one outcome; its GC setting."""

from __future__ import annotations

import gc
import math
import os
import subprocess
import sys
import time
from dataclasses import replace
from pathlib import Path

import pytest
from test_campaign import BUGGY, campaign

from mcpref.fuzz.campaign.jobs import merge, run_jobs
from mcpref.fuzz.campaign.outcome import Failure, Outcome, Stats
from mcpref.fuzz.campaign.runner import YOUNG_OBJECTS_PER_COLLECTION, Campaign
from mcpref.fuzz.drive.observation import Observation
from mcpref.fuzz.drive.target import Run
from mcpref.fuzz.drive.timing import Timing
from mcpref.fuzz.generate.case import Case
from mcpref.fuzz.judge.oracle import Finding


def _failure(rule: str, lines: tuple[bytes, ...]) -> Failure:
    finding = Finding(rule, True, 0, "m", "e", "a")
    return Failure(rule, Case(lines), Run(Observation(()), None, b"", ()), [finding])


def test_merged_outcomes_add_their_counts_and_keep_each_rules_smallest_failure() -> None:
    small, large = _failure("RPC-PARSE-ERROR", (b"x\n",)), _failure("RPC-PARSE-ERROR", (b"xyz\n",))
    other = _failure("STDIO-SURVIVE", (b"[[[\n",))
    warning = _failure("RPC-BATCH", (b"[]\n",))
    first = Outcome([large, other], Stats(cases=10, messages=50, processes=2, unconfirmed={"RPC-ID-ECHO": 1}), {})
    second = Outcome(
        [small],
        Stats(cases=7, messages=30, processes=1, first_failure=4, unconfirmed={"RPC-ID-ECHO": 2}),
        {"RPC-BATCH": warning},
    )
    merged = merge([first, second], started=123.0)
    assert (merged.stats.cases, merged.stats.messages, merged.stats.processes) == (17, 80, 3)
    assert merged.stats.unconfirmed == {"RPC-ID-ECHO": 3}
    assert (merged.stats.first_failure, merged.stats.fresh_only_from, merged.stats.started) == (4, None, 123.0)
    assert merged.failures == [small, other]
    assert merged.warnings == {"RPC-BATCH": warning}


def test_the_first_job_takes_the_campaigns_seed_and_the_others_seeds_of_their_own() -> None:
    seeds = [Campaign(["true"], seed=seed).side_by_side(index, 4).seed for seed in (1, 2) for index in range(4)]
    assert seeds[0] == 1 and seeds[4] == 2
    assert len(set(seeds)) == 8
    assert Campaign(["true"]).side_by_side(3, 4).seed is None


def test_the_jobs_share_the_case_budget() -> None:
    campaign = Campaign(["true"], seed=1, max_cases=10)
    assert [campaign.side_by_side(index, 4).max_cases for index in range(4)] == [3, 3, 2, 2]
    assert Campaign(["true"]).side_by_side(0, 2).max_cases is None


@pytest.mark.spec("RPC-PARSE-ERROR")
def test_two_jobs_find_the_bug_and_report_as_one_campaign(tmp_path: Path) -> None:
    target = [sys.executable, str(BUGGY / "silent_on_parse_error.py")]
    # 120 cases, 60 a job: the first job is the one-job campaign of seed 1, which finds it.
    status, report = campaign(tmp_path, "silent", "spec", target, 120, "--jobs", "2")
    assert status == 1
    assert report["jobs"] == 2
    failures = report["failures"]
    assert isinstance(failures, list)
    assert "RPC-PARSE-ERROR" in {failure["id"] for failure in failures}
    assert isinstance(report["processes"], int) and report["processes"] >= 2  # a process per job at least


@pytest.mark.spec("FRAME-LF-ONLY")
def test_two_jobs_leave_the_attribution_to_the_merge(tmp_path: Path) -> None:
    assert Campaign(["true"]).attributing and not Campaign(["true"]).side_by_side(0, 2).attributing
    # The jobs find answers lost (RPC-ONE-ANSWER...); re-run with the raw CR made harmless,
    # the case passes: the merged failure is filed FRAME-LF-ONLY, as a one-job campaign files it
    # (a CR read as a line end is an open reading: a failure under strict only).
    target = [sys.executable, str(BUGGY / "splits_on_cr.py")]
    status, report = campaign(tmp_path, "splits", "strict", target, 60, "--jobs", "2")
    failures = report["failures"]
    assert isinstance(failures, list)
    assert (status, "FRAME-LF-ONLY" in {failure["id"] for failure in failures}) == (1, True), failures


def test_two_jobs_against_the_reference_find_nothing(tmp_path: Path) -> None:
    status, report = campaign(tmp_path, "reference", "spec", [sys.executable, "-m", "mcpref.reference"], 300, "--jobs", "2")
    assert (status, report["failures"], report["jobs"]) == (0, [], 2)
    assert report["cases"] == 300


def test_a_campaign_collects_young_objects_less_often_while_it_runs_and_restores_the_setting(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    seen: list[int] = []
    execute = Campaign.execute

    def noting(self: Campaign, case: Case, timing: Timing | None = None) -> tuple[Run, list[Finding]]:
        seen.append(gc.get_threshold()[0])
        return execute(self, case, timing)

    monkeypatch.setattr(Campaign, "execute", noting)
    before = gc.get_threshold()
    # A case budget, not seconds: on a loaded machine half a second may see no case at all.
    Campaign([sys.executable, "-m", "mcpref.reference"], budget=math.inf, max_cases=3, seed=1).run()
    assert seen and set(seen) == {YOUNG_OBJECTS_PER_COLLECTION}
    assert gc.get_threshold() == before


class _Crashes(Campaign):
    def run(self) -> Outcome:
        raise ValueError("a bug of ours")


def test_a_job_that_crashes_is_an_error_and_the_other_jobs_end_with_their_targets(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    marked = [sys.executable, "-X", f"pycache_prefix={tmp_path}", "-m", "mcpref.reference"]  # findable by pgrep
    side_by_side = Campaign.side_by_side

    def second_crashes(self: Campaign, index: int, jobs: int) -> Campaign:
        job = side_by_side(self, index, jobs)
        return _Crashes(marked) if index == 1 else job

    monkeypatch.setattr(Campaign, "side_by_side", second_crashes)
    with pytest.raises(RuntimeError, match=r"(?s)job 1 crashed:.*a bug of ours"):
        run_jobs(2, Campaign(marked, budget=60, seed=1))
    left = subprocess.run(["pgrep", "-f", str(tmp_path)], capture_output=True, text=True, check=False)
    assert left.stdout == ""


class _AttributesTogether(Campaign):
    """A job that finds two failures at once, and attributes each only while another job attributes
    one too: which it notes in the failure, with its process id."""

    meeting: Path

    def run(self) -> Outcome:
        self.stats.cases, self.stats.processes = 1, 1
        return Outcome([_failure("RPC-PARSE-ERROR", (b"x\n",)), _failure("RPC-ID-ECHO", (b"y\n",))], self.stats, {})

    def attribute(self, failure: Failure) -> Failure:
        (self.meeting / str(os.getpid())).touch()
        deadline = time.monotonic() + 60
        while len(list(self.meeting.iterdir())) < 2:  # one job taking both would wait here in vain
            assert time.monotonic() < deadline, "no other job attributed a failure meanwhile"
            time.sleep(0.01)
        self.stats.processes += 1  # as a re-run would count
        return Failure(failure.rule, failure.case, failure.run, [replace(failure.finding, message=str(os.getpid()))])


def test_two_jobs_share_the_merged_failures_out_and_attribute_each_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def together(self: Campaign, index: int, jobs: int) -> Campaign:
        job = _AttributesTogether(self.argv)
        job.meeting = tmp_path
        return job

    monkeypatch.setattr(Campaign, "side_by_side", together)
    outcome = run_jobs(2, Campaign(["true"], seed=1))
    assert [failure.rule for failure in outcome.failures] == ["RPC-PARSE-ERROR", "RPC-ID-ECHO"]
    assert {failure.finding.message for failure in outcome.failures} == {path.name for path in tmp_path.iterdir()}
    assert len(list(tmp_path.iterdir())) == 2  # two jobs, one failure each
    assert (outcome.stats.cases, outcome.stats.processes) == (2, 4)  # the attribution's runs count
