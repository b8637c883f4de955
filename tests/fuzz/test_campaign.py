"""Campaigns through the real command line: each bundled buggy server is caught, the reference is not.

Each campaign is a real ``mcpref fuzz --seed 1`` process writing a JSON report; three run
at a time. Budgets are counted in cases, never in seconds: with a seed, the same cases run
on any machine, so what is caught here is caught everywhere (and a test run under load, or
on a slow machine, only takes longer).
"""

from __future__ import annotations

import json
import math
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from mcpref.fuzz.campaign.outcome import Progress
from mcpref.fuzz.generate.campaign_cases import corpus_cases
from mcpref.fuzz.integrate.check import SITUATIONS
from mcpref.fuzz.report import statuses
from mcpref.reference.versions import Era

ROOT = Path(__file__).resolve().parents[2]
BUGGY = ROOT / "examples" / "buggy"

# example -> (profile, the requirement its finding must name)
EXPECTED: dict[str, tuple[str, str]] = {
    "utf8_per_chunk": ("spec", "FRAME-CHUNK-INVARIANT"),
    "log_to_stdout": ("spec", "STDIO-STDOUT-MESSAGES-ONLY"),
    "answers_notification": ("spec", "RPC-NOTIFICATION-SILENT"),
    "silent_on_parse_error": ("spec", "RPC-PARSE-ERROR"),
    "silent_on_invalid_request": ("spec", "RPC-INVALID-REQUEST"),
    "id_type_change": ("spec", "RPC-ID-ECHO"),
    "dies_on_deep_nesting": ("spec", "STDIO-SURVIVE"),
    "dies_on_long_line": ("spec", "STDIO-SURVIVE"),
    "first_message_only": ("spec", "FRAME-CHUNK-INVARIANT"),
    "splits_on_cr": ("strict", "FRAME-LF-ONLY"),  # a bare CR as a line end: an open reading
    "splits_on_u2028": ("spec", "FRAME-LF-ONLY"),
    "double_answer": ("spec", "RPC-ONE-ANSWER"),
    "drops_extra_members": ("spec", "RPC-ONE-ANSWER"),
    "second_initialize": ("strict", "LIFE-SECOND-INIT"),
    "capability_lie": ("spec", "CAP-ANNOUNCED-METHODS"),
    "bogus_version": ("spec", "LIFE-VERSION-KNOWN"),
    # Learnt from third-party servers (docs/field-report.md).
    "early_list_changed": ("strict", "LIFE-SERVER-EARLY"),
    "null_id_for_invalid": ("spec", "RPC-INVALID-REQUEST"),
    "float_ids": ("strict", "RPC-JSON-LIMITS"),  # ids beyond 2^53 as doubles: RFC 8259 section 6
    "logs_errors": ("spec", "CAP-LOGGING-DECLARED"),
    # What a server writes on its own in a legacy session.
    "asks_for_roots": ("spec", "CAP-CLIENT-DECLARED"),
    "unlisted_changes": ("strict", "CAP-LIST-CHANGED"),
    "updates_unsubscribed": ("strict", "CAP-RESOURCE-SUBSCRIBED"),
    "progress_after_result": ("spec", "PROGRESS-TOKEN"),
    "progress_repeats": ("spec", "PROGRESS-INCREASING"),
    "cancels_back": ("spec", "RPC-CANCEL-OWN"),
    "completes_unknown_elicitation": ("spec", "CAP-ELICIT-COMPLETE"),
    "elicits_by_url": ("spec", "CAP-CLIENT-DECLARED"),
    "reopens_tasks": ("spec", "TASKS-TERMINAL"),
}
# What a finding must never be filed as, for an example (a false attribution once made).
NEVER: dict[str, str] = {"null_id_for_invalid": "RPC-NOTIFICATION-SILENT"}
# Cases run (--max-cases): a campaign runs check's corpus first (44 scenarios in the legacy era),
# then generates. Each bug above is caught within CASES with seed 1, on any machine, by a scenario
# or a generated case; as many cases again shrink what was found. Two are caught by scenarios past
# the 30th alone (dies_on_long_line at case 37, elicits_by_url at 43): their campaigns run it whole.
CASES = 30
CASES_OF = dict.fromkeys(("dies_on_long_line", "elicits_by_url"), len(corpus_cases(Era.LEGACY)))
# ``make test`` campaigns against one example of each family of bugs (framing, output, ids, answers,
# versions, capabilities, what a server writes unasked; in the modern era: the result, the version,
# the capabilities, the discovery); ``make buggy-campaigns`` (MCPREF_BUGGY_CAMPAIGNS=full) against
# every one. check is held against every example in make test (test_check_finds.py).
FULL = os.environ.get("MCPREF_BUGGY_CAMPAIGNS") == "full"
IN_MAKE_TEST = {"utf8_per_chunk", "log_to_stdout", "id_type_change", "double_answer", "bogus_version",
                "capability_lie", "logs_errors", "cancels_back"}  # fmt: skip
MODERN_IN_MAKE_TEST = {"no_result_type", "version_error_32602", "capability_as_invalid_params", "discover_without_versions"}


def chosen(names: list[str], in_make_test: set[str]) -> list[str]:
    return [name for name in names if FULL or name in in_make_test]


def campaign(
    tmp: Path, name: str, profile: str, target: list[str], cases: int, *options: str, seed: int = 1
) -> tuple[int, dict[str, object]]:
    report = tmp / f"{name}-{profile}.json"
    command = [
        sys.executable, "-m", "mcpref", "fuzz", "--seed", str(seed), "--max-cases", str(cases), "--profile", profile,
        "--report", str(report), "--campaign-dir", str(tmp / f"{name}-{profile}"), *options, "--", *target,
    ]
    completed = subprocess.run(command, cwd=ROOT, capture_output=True, timeout=900, check=False)
    assert report.exists(), completed.stderr.decode()[-2000:]
    return completed.returncode, json.loads(report.read_text())


# The examples whose bug a spec campaign must only warn about (an open reading, a reference
# decision), with the seeds whose draws once failed them under spec: a line cut at its CRs,
# ids beyond 2**53 that one double holds, a batch after a second initialize changed the version.
SPEC_WARNS_ONLY = [
    *((name, 1) for name, (profile, _) in sorted(EXPECTED.items()) if profile == "strict"),
    ("splits_on_cr", 3),
    ("float_ids", 2),
    ("float_ids", 3),
    ("second_initialize", 2),
]
SPEC_WARNS_IN_MAKE_TEST = {("splits_on_cr", 3), ("float_ids", 2), ("second_initialize", 2)}


@pytest.mark.spec("FRAME-LF-ONLY", "RPC-JSON-LIMITS", "LIFE-SECOND-INIT", "LIFE-SERVER-EARLY", "CAP-LIST-CHANGED")
@pytest.mark.parametrize(("name", "seed"), [run for run in SPEC_WARNS_ONLY if FULL or run in SPEC_WARNS_IN_MAKE_TEST])
def test_a_spec_campaign_only_warns_about_a_bug_the_specification_permits(tmp_path: Path, name: str, seed: int) -> None:
    target = [sys.executable, str(BUGGY / f"{name}.py")]
    status, report = campaign(tmp_path, name, "spec", target, 100, seed=seed)
    failures = report["failures"]
    assert isinstance(failures, list)
    assert (status, [(f["id"], f["message"]) for f in failures]) == (0, [])


@pytest.mark.spec(
    "FRAME-CHUNK-INVARIANT", "STDIO-STDOUT-MESSAGES-ONLY", "RPC-NOTIFICATION-SILENT", "RPC-PARSE-ERROR",
    "RPC-INVALID-REQUEST", "RPC-ID-ECHO", "STDIO-SURVIVE", "FRAME-LF-ONLY", "RPC-ONE-ANSWER",
    "LIFE-SECOND-INIT", "CAP-ANNOUNCED-METHODS", "LIFE-VERSION-KNOWN", "LIFE-SERVER-EARLY", "RPC-JSON-LIMITS", "CAP-LOGGING-DECLARED",
    "CAP-CLIENT-DECLARED", "CAP-LIST-CHANGED", "CAP-RESOURCE-SUBSCRIBED", "PROGRESS-TOKEN", "PROGRESS-INCREASING",
    "RPC-CANCEL-OWN", "CAP-ELICIT-COMPLETE", "TASKS-TERMINAL",
)
@pytest.mark.parametrize("name", chosen(sorted(EXPECTED), IN_MAKE_TEST))
def test_every_buggy_example_is_caught_with_its_requirement(tmp_path: Path, name: str) -> None:
    profile, rule = EXPECTED[name]
    target = [sys.executable, str(BUGGY / f"{name}.py")]
    status, report = campaign(tmp_path, name, profile, target, CASES_OF.get(name, CASES))
    failures = report["failures"]
    assert isinstance(failures, list)
    found = {f["id"] for f in failures}
    assert (status, rule in found) == (1, True), found
    assert NEVER.get(name) not in found
    for failure in failures:
        assert failure["input"] and failure["transcript"] and failure["reproducer"]
    assert_replays_as_filed(failures)


def assert_replays_as_filed(failures: list[dict[str, object]]) -> None:
    """``mcpref replay`` of each reproducer kept gives the rule it was filed under."""
    for failure in failures:
        replayed = subprocess.run(
            [sys.executable, "-m", "mcpref", "replay", str(failure["reproducer"])],
            cwd=ROOT, capture_output=True, text=True, timeout=300, check=False,
        )  # fmt: skip
        assert f"fail {failure['id']}:" in replayed.stdout, (failure["id"], replayed.stdout[-2000:])


@pytest.mark.spec("RPC-PARSE-ERROR")
def test_a_campaign_that_replays_a_failure_still_spends_its_case_budget_searching(tmp_path: Path) -> None:
    # The second campaign shares the first's database: Hypothesis replays the failure at once, and
    # on its own would stop there (3 cases of 30 once, as a scale-out worker did).
    target = [sys.executable, str(BUGGY / "silent_on_parse_error.py")]
    campaign(tmp_path, "silent", "spec", target, 30)
    status, report = campaign(tmp_path, "silent", "spec", target, 30, "--seed", "3")
    assert status == 1 and "RPC-PARSE-ERROR" in {f["id"] for f in report["failures"]}  # type: ignore[attr-defined]
    assert isinstance(report["cases"], int) and report["cases"] >= 30


@pytest.mark.spec("FRAME-LF-ONLY", "LIFE-SECOND-INIT")
def test_a_warning_comes_with_a_reproducer_that_replay_confirms(tmp_path: Path) -> None:
    # An open reading of a MUST (whether a bare CR is a newline): under spec, a warning, not a failure.
    target = [sys.executable, str(BUGGY / "splits_on_cr.py")]
    status, report = campaign(tmp_path, "splits_on_cr", "spec", target, CASES)
    warnings = {w["id"]: w for w in report["warnings"]}  # type: ignore[attr-defined]
    assert (status, report["failures"], list(warnings)) == (0, [], ["FRAME-LF-ONLY"])
    warned = warnings["FRAME-LF-ONLY"]
    assert warned["status"] == "warn" and warned["input"] and warned["transcript"]
    assert Path(warned["reproducer"]).parent.name == "warn"
    replayed = subprocess.run(
        [sys.executable, "-m", "mcpref", "replay", warned["reproducer"]],
        cwd=ROOT, capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    assert replayed.returncode == 0 and "warn FRAME-LF-ONLY:" in replayed.stdout, replayed.stdout[-2000:]
    # A reference decision taken otherwise (a second initialize accepted) is a note: no warning at all.
    target = [sys.executable, str(BUGGY / "second_initialize.py")]
    status, report = campaign(tmp_path, "second_initialize", "spec", target, CASES)
    assert (status, report["failures"], report["warnings"]) == (0, [], [])


# The modern era's examples, fuzzed with --protocol-version 2026-07-28 (seed 1: each first caught by case 11).
MODERN_EXPECTED: dict[str, str] = {
    "no_result_type": "MOD-RESULT-TYPE",
    "version_error_32602": "MOD-VERSION-UNSUPPORTED",
    "discover_without_versions": "MOD-DISCOVER",
    "remembers_envelope": "MOD-STATELESS",
    "meta_optional": "MOD-META-REQUIRED",
    "asks_with_a_request": "MOD-NO-SERVER-REQUESTS",
    "logs_errors": "MOD-LOG-LEVEL",
    "capability_as_invalid_params": "MOD-CAP-REQUIRED",
    "handshake_gate": "MOD-STATELESS",
    "notifies_unsubscribed": "MOD-LISTEN-ONLY",
    "progress_after_result": "PROGRESS-TOKEN",
    "progress_repeats": "PROGRESS-INCREASING",
    "cancels_back": "MOD-SERVER-CANCEL",
}
MODERN = ("--protocol-version", "2026-07-28")


@pytest.mark.spec(*MODERN_EXPECTED.values())
@pytest.mark.parametrize("name", chosen(list(MODERN_EXPECTED), MODERN_IN_MAKE_TEST))
def test_every_buggy_example_of_the_modern_era_is_caught_with_its_requirement(tmp_path: Path, name: str) -> None:
    target = [sys.executable, str(BUGGY / f"{name}.py")]
    status, report = campaign(tmp_path, name, "spec", target, CASES, *MODERN)
    failures = report["failures"]
    assert isinstance(failures, list) and report["era"] == "modern"
    for failure in failures:  # replayed, and pasted, with the modern probe
        assert json.loads(Path(failure["reproducer"]).read_text())["era"] == "modern"
        assert failure["shell"] is None or "server/discover" in failure["shell"]
    found = {f["id"] for f in failures}
    assert (status, MODERN_EXPECTED[name] in found) == (1, True), found
    assert_replays_as_filed(failures)


@pytest.mark.spec("MOD-DUAL-ERA", "MOD-STATELESS", "MOD-META-REQUIRED")
@pytest.mark.parametrize("eras", ["both", "modern"])
def test_a_modern_campaign_against_the_reference_finds_nothing_in_either_profile(tmp_path: Path, eras: str) -> None:
    # strict fails on every divergence spec fails on, and without one both run the same cases.
    target = [sys.executable, "-m", "mcpref.reference", "--eras", eras]
    status, report = campaign(tmp_path, f"reference-{eras}", "strict", target, 100, *MODERN)
    assert (report["failures"], status, report["cases"]) == ([], 0, 100)


@pytest.mark.spec("RPC-ONE-ANSWER", "RPC-PARSE-ERROR", "LIFE-SECOND-INIT")
# strict fails on every divergence spec fails on, and without one both run the same cases: make test runs strict.
@pytest.mark.parametrize("profile", [pytest.param("spec", marks=pytest.mark.slow), "strict"])
def test_a_campaign_against_the_reference_finds_nothing(tmp_path: Path, profile: str) -> None:
    status, report = campaign(tmp_path, "reference", profile, [sys.executable, "-m", "mcpref.reference"], 300)
    assert report["failures"] == []
    assert status == 0
    assert report["cases"] == 300
    # Most cases ran in kept processes, and none of those disagreed with a fresh one.
    assert isinstance(report["processes"], int) and report["processes"] * 5 < report["cases"]
    assert report["unconfirmed_in_kept_processes"] == {}


@pytest.mark.spec("RPC-PARSE-ERROR", "FRAME-UTF8")
def test_a_seed_and_a_case_budget_give_the_same_campaign_on_a_busy_machine(tmp_path: Path) -> None:
    """The same cases, findings and reproducers, whether or not another process keeps a core busy."""

    def essentials(report: dict[str, object]) -> object:
        failures = report["failures"]
        assert isinstance(failures, list)
        return report["cases"], report["first_failure_at_case"], [(f["id"], f["input"]) for f in failures]

    target = [sys.executable, str(BUGGY / "silent_on_parse_error.py")]
    _, quiet = campaign(tmp_path / "quiet", "silent", "spec", target, 20)
    hog = subprocess.Popen([sys.executable, "-c", "while True: pass"])
    try:
        _, busy = campaign(tmp_path / "busy", "silent", "spec", target, 20)
    finally:
        hog.kill()
        hog.wait()
    assert essentials(busy) == essentials(quiet)
    assert {f["id"] for f in quiet["failures"]} >= {"RPC-PARSE-ERROR"}  # type: ignore[union-attr]


@pytest.mark.spec("STDIO-EOF-DRAIN")
def test_a_server_that_drops_the_answers_it_owes_at_eof_fails_check_in_strict_only() -> None:
    # Only check's EOF scenarios show it; a campaign runs them first, as it runs every one of check's.
    command = [sys.executable, "-m", "mcpref", "check", "--profile", "strict", "--json", "--"]
    target = [sys.executable, str(BUGGY / "drops_at_eof.py")]
    completed = subprocess.run([*command, *target], cwd=ROOT, capture_output=True, timeout=600, check=False)
    rules = {rule["id"]: rule for rule in json.loads(completed.stdout)["rules"]}
    assert completed.returncode == 1
    assert {name for name, rule in rules.items() if rule["status"] in ("fail", "warn")} == {"STDIO-EOF-DRAIN"}
    # untested: at most rules whose situation only the server creates (a capability it does not
    # announce, a message it never writes)
    untested = {name for name, rule in rules.items() if rule["status"] == "untested"}
    assert untested <= set(SITUATIONS) and all(rules[name]["reason"] for name in untested)
    # A reference decision: the same finding is a warning under spec.
    assert rules["STDIO-EOF-DRAIN"]["status"] == "fail" and rules["STDIO-EOF-DRAIN"]["level"] == "reference decision"


@pytest.mark.spec("STDIO-STDOUT-MESSAGES-ONLY")
def test_a_budget_in_cases_or_seconds_searches_on_after_hypothesis_stops_at_its_failures() -> None:
    from mcpref.fuzz.campaign.runner import Campaign
    from mcpref.fuzz.judge.oracle import Profile

    # Every case of this server fails, from the first: Hypothesis soon judges the search done.
    greets = "import os, runpy; os.write(1, b'starting\\n'); runpy.run_module('mcpref.reference', run_name='__main__')"
    target = [sys.executable, "-c", greets]
    counted = Campaign(target, profile=Profile.SPEC, max_cases=60, seed=1).run()
    assert counted.stats.rounds >= 2 and counted.stats.cases >= 60
    timed = Campaign(target, profile=Profile.SPEC, budget=600, seed=1)
    timed.stopped = lambda: timed.stats.cases >= 60  # the end of a time budget, without the clock
    outcome = timed.run()
    assert outcome.stats.cases == 60 and outcome.stats.rounds >= 2
    assert [failure.rule for failure in outcome.failures] == ["STDIO-STDOUT-MESSAGES-ONLY"]


def test_a_round_of_a_time_budget_ends_after_its_cases_so_that_hypothesis_memory_is_dropped(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from mcpref.fuzz.campaign import runner as campaign

    monkeypatch.setattr(campaign, "ROUND_CASES", 15)
    timed = campaign.Campaign([sys.executable, "-m", "mcpref.reference"], budget=600, seed=1)
    timed.stopped = lambda: timed.stats.cases >= 40
    outcome = timed.run()
    assert (outcome.stats.cases, outcome.stats.rounds, outcome.failures) == (40, 3, [])
    counted = campaign.Campaign([sys.executable, "-m", "mcpref.reference"], max_cases=20, seed=1).run()
    assert (counted.stats.cases, counted.stats.rounds) == (20, 1)  # a case budget is one round


def test_a_deadline_met_in_hypothesis_s_final_replays_ends_the_campaign_and_our_bugs_still_surface() -> None:
    # With several failures kept, Hypothesis replays each at the end and raises them together;
    # a replay past the deadline raises the budget's end in place of its divergence.
    from mcpref.fuzz.campaign.runner import Campaign, _BudgetSpent
    from mcpref.fuzz.campaign.search import divergence

    def replays(*raised: BaseException) -> Callable[[], None]:
        def probe() -> None:
            raise BaseExceptionGroup("Hypothesis found 2 distinct failures.", list(raised))

        return probe

    campaign = Campaign(["true"])  # no seed: _round calls the probe as it is
    assert campaign._round(replays(_BudgetSpent(), _BudgetSpent())) is False
    assert campaign._round(replays(divergence("RPC-BATCH")("m"), _BudgetSpent())) is False
    assert campaign._round(replays(divergence("RPC-BATCH")("m"), divergence("RPC-ID-ECHO")("m"))) is True
    with pytest.raises(BaseExceptionGroup):
        campaign._round(replays(divergence("RPC-BATCH")("m"), KeyError("the oracle's bug")))


def test_the_progress_line_counts_cases_against_a_case_budget_time_against_a_time_budget_and_says_it_shrinks() -> None:
    under_cases = Progress(12, 3, 40, frozenset({"RPC-PARSE-ERROR"}), 2.0, math.inf, 30)
    assert under_cases.line() == "12/30 cases (3 processes), 40 messages, 20 msg/s, 1 failing rules"
    under_time = Progress(12, 3, 40, frozenset(), 2.0, 8.4)
    assert under_time.line().startswith("12 cases") and under_time.line().endswith(", 0 failing rules, 8s left")
    # Two jobs side by side: their case budgets add up.
    assert (under_cases + under_cases).line().startswith("24/60 cases")
    assert (under_time + under_time).line().startswith("24 cases")
    # Past the cases to generate, a failure found is made smaller: the line says so.
    shrinking = Progress(31, 3, 40, frozenset({"RPC-PARSE-ERROR"}), 2.0, math.inf, 30, shrinking=True)
    assert shrinking.line().endswith("1 failing rules, shrinking")
    assert (shrinking + under_cases).line().startswith("43/60 cases") and (shrinking + under_cases).shrinking


@pytest.mark.spec("MOD-LEGACY-INIT")
def test_a_legacy_campaign_of_a_server_of_no_legacy_version_claims_nothing_as_check_does(tmp_path: Path) -> None:
    # A server of the modern era alone refuses every initialize, naming its version: its refusals of
    # legacy requests (a ping without _meta) are its era's. "No divergence found", or a failure of
    # LIFE-PING, would claim what no legacy session showed.
    legacy = [sys.executable, "-m", "mcpref", "fuzz", "--seed", "1", "--max-cases", "60", "--campaign-dir"]
    for eras, status in (("modern", 3), ("both", 0)):
        done = subprocess.run(
            [*legacy, str(tmp_path / eras), "--", sys.executable, "-m", "mcpref.reference", "--eras", eras],
            capture_output=True, text=True, timeout=300, check=False,
        )  # fmt: skip
        assert done.returncode == status, done.stdout
        assert (f"{statuses.UNSERVED}: nothing is claimed" in done.stdout) is (eras == "modern"), done.stdout
        assert ("no divergence found" in done.stdout) is (eras == "both"), done.stdout


@pytest.mark.spec("RPC-INVALID-REQUEST", "RPC-PARAMS-OBJECT", "RPC-BATCH")
def test_a_case_that_breaks_several_rules_is_kept_under_each_by_its_failing_finding(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # A case budget allows no second round to search for the rules a first failure hid: each rule a
    # case breaks is a failure of its own, shown by a finding that fails, not a warning of its rule.
    from mcpref.fuzz.campaign import runner
    from mcpref.fuzz.campaign.runner import Campaign
    from mcpref.fuzz.drive.observation import Observation
    from mcpref.fuzz.drive.target import Run
    from mcpref.fuzz.generate.case import Case
    from mcpref.fuzz.judge.oracle import Finding

    warned = Finding("RPC-BATCH", False, 3, "refused a line the reference serves or skips", "no error", "-32700")
    findings = [
        Finding("RPC-INVALID-REQUEST", True, 2, "no answer", "an answer with id 5", "nothing"),
        warned,
        Finding("RPC-PARAMS-OBJECT", True, 4, "no answer", "an answer with id 8", "nothing"),
        Finding("RPC-BATCH", True, 3, "no answer", "an answer with id 2", "nothing"),
    ]
    run = Run(Observation((), survived=True), None, b"", ())
    campaign = Campaign(["true"])
    monkeypatch.setattr(runner, "event", lambda name: None)  # outside a Hypothesis test
    monkeypatch.setattr(campaign, "execute", lambda case, timing=None: (run, findings))
    raised = campaign._case(Case((b"{}\n",)), set())
    assert raised == ("RPC-INVALID-REQUEST", "RPC-INVALID-REQUEST: no answer")
    kept = {rule: failure.finding for rule, failure in campaign.best.items()}
    assert kept == {"RPC-INVALID-REQUEST": findings[0], "RPC-PARAMS-OBJECT": findings[2], "RPC-BATCH": findings[3]}
    assert all(sorted(map(repr, failure.findings)) == sorted(map(repr, findings)) for failure in campaign.best.values())


@pytest.mark.spec("FRAME-CHUNK-INVARIANT")
def test_a_campaign_selecting_frame_chunk_invariant_alone_judges_the_rules_it_is_attributed_from(tmp_path: Path) -> None:
    # Only attribution files it, from a failure under another rule: that rule is judged, and left
    # out of the report, with its warnings.
    target = [sys.executable, str(BUGGY / "first_message_only.py")]
    status, report = campaign(tmp_path, "selected", "spec", target, CASES, "--select", "FRAME-CHUNK-INVARIANT")
    assert (status, [f["id"] for f in report["failures"]], report["warnings"]) == (1, ["FRAME-CHUNK-INVARIANT"], [])
