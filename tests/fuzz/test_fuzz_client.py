"""``mcpref fuzz-client``: the strategies of server behaviour, the campaign, its command line, and
the outputs ``check-client`` and ``compare --clients`` share with the server side.

Which buggy client each campaign catches is ``test_fuzz_client_finds``.
"""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import Phase, find, given, settings
from hypothesis import strategies as st

from mcpref.fuzz.campaign import client_campaign
from mcpref.fuzz.campaign.client_campaign import ClientCampaign, ClientFailure
from mcpref.fuzz.drive.client_run import ClientRun, run_client
from mcpref.fuzz.generate.client_scripts import FEATURES, PLAIN, SCRIPTS, ServerScript, era_of, exercised, scenario
from mcpref.fuzz.generate.client_strategies import MAX_CHANGES, server_scripts
from mcpref.fuzz.integrate import fuzz_client
from mcpref.fuzz.integrate.cli import main
from mcpref.fuzz.judge.client import ClientVerdict, judge_client
from mcpref.fuzz.judge.findings import Finding, Profile
from mcpref.reference.rules import CLIENT_RULES
from mcpref.reference.versions import Era

ROOT = Path(__file__).resolve().parents[2]
# The reference client waits 4 s for an answer, not its 10: the silent scenario costs that.
REFERENCE_CLIENT = [sys.executable, "-m", "mcpref", "client", "--timeout", "4", "--protocol-version", "2026-07-28", "--tool", "echo",
                    "--", "{server}"]  # fmt: skip
READS_PER_CHUNK = [sys.executable, str(ROOT / "examples" / "buggy_clients" / "reads_per_chunk.py"), "--tool", "echo",
                   "--timeout", "3", "--", "{server}"]  # fmt: skip


def changes(script: ServerScript) -> list[str]:
    return [name for name in FEATURES if getattr(script, name) != getattr(PLAIN, name)]


@given(server_scripts())
def test_a_drawn_script_changes_at_most_three_things_and_says_which(script: ServerScript) -> None:
    changed = changes(script)
    implied = script.modern and (script.asks_input or script.supported != PLAIN.supported)  # a modern server's
    assert len(changed) - implied <= MAX_CHANGES and script.rules == exercised(script)
    assert ServerScript.loads(script.dumps()) == script  # a reproducer plays the same server
    assert script in SCRIPTS or (script.name == "plain") == (not changed)


@pytest.mark.parametrize("era", list(Era))
@given(data=st.data())
def test_a_campaign_of_one_era_draws_servers_of_that_era(era: Era, data: st.DataObject) -> None:
    assert era_of(data.draw(server_scripts(era))) is era


@pytest.mark.parametrize("fixed", SCRIPTS, ids=lambda script: script.name)
def test_every_scenario_of_check_client_is_a_draw_of_its_own(fixed: ServerScript) -> None:
    """What check-client plays, a campaign plays too, under the same name."""
    assert find(server_scripts(), lambda script: script.name == fixed.name) == fixed


@pytest.mark.parametrize(
    ("change", "predicate"),
    [
        ("cut_at", lambda script: len(script.cut_at) > 1),
        ("reorder", lambda script: script.reorder and script not in SCRIPTS),  # with other changes, in either era
        ("dies_after", lambda script: script.dies_after is not None and script.dies_after > 200),
    ],
)
def test_cut_points_answer_order_and_the_moment_of_death_are_drawn(change: str, predicate: Callable[[ServerScript], bool]) -> None:
    # Any draw with the change shows it is drawn: none is shrunk (one in twenty or so has it).
    script = find(server_scripts(), predicate, settings=settings(max_examples=1000, phases=[Phase.generate]))
    assert change in script.dumps() and script not in SCRIPTS


@pytest.mark.parametrize("script", SCRIPTS, ids=lambda script: script.name)
def test_each_fixed_scenario_round_trips_under_its_name(script: ServerScript) -> None:
    assert ServerScript.loads(script.dumps()) == script


@pytest.mark.parametrize(
    ("text", "complaint"),
    [
        ("[]", "a JSON object of the fields"),
        ('{"rules": []}', "a JSON object of the fields"),
        ('{"cuts": true}', "cuts: true is not a int"),
        ('{"fails": 1}', "fails: 1 is not a bool"),
        ('{"asks": [1]}', "asks: [1] is not a tuple"),
        ('{"exits": "later"}', "exits is one of"),
        ('{"cuts": 0}', "exits is one of"),
        ('{"cut_at": [3, "x"]}', "cut_at: [3, \"x\"] is not a tuple"),
        ('{"cut_at": [-1]}', "are not negative"),
        ('{"dies_after": "x"}', 'dies_after: "x" is not a int'),
        ('{"dies_after": -5}', "are not negative"),
        ("not json", "Expecting value"),
    ],
)
def test_a_script_that_is_not_one_is_refused(text: str, complaint: str) -> None:
    with pytest.raises(ValueError, match=re.escape(complaint)):
        ServerScript.loads(text)


def test_a_script_given_by_hand_takes_its_rules_and_a_name_from_its_changes() -> None:
    script = ServerScript.loads('{"cuts": 2, "delay": 1}')
    assert script.name == "lines in 2 pieces; answers held 1 s" and script.cuts == 2 and script.delay == 1.0
    assert "CLIENT-READ-CHUNKS" not in script.rules  # a held answer is not the plain one: no comparison


@pytest.mark.spec("CLIENT-IGNORES-UNKNOWN", "CLIENT-PING")
def test_a_failure_that_goes_with_a_framing_change_is_that_change_s(monkeypatch: pytest.MonkeyPatch) -> None:
    """A client that stops reading at an unknown notification never answers the ping after it: the cause is
    the notification (CLIENT-IGNORES-UNKNOWN), not the ping. Seen by running the case again without it."""
    script = scenario("ping and notices", asks=("ping",), notices=True)
    ping = Finding("CLIENT-PING", True, None, "no answer to ping", "an answer", "nothing")
    rerun: list[ServerScript] = []

    def run_again(template: object, again: ServerScript, limit: float) -> ClientRun:
        rerun.append(again)
        return ClientRun(again, (), 0, 0.0, b"", b"", False)

    monkeypatch.setattr(client_campaign, "run_client", run_again)
    monkeypatch.setattr(client_campaign, "judge_client", lambda run, plain: ClientVerdict((), frozenset({"CLIENT-PING"})))
    campaign = ClientCampaign(["client", "{server}"], seed=0, max_cases=1)
    campaign.plains[PLAIN] = ClientRun(PLAIN, (), 0, 0.0, b"", b"", False)  # the plain call, run before
    failure = ClientFailure("CLIENT-PING", ClientRun(script, (), 1, 0.0, b"", b"", False), (ping,))
    moved = campaign._attribute(failure)
    assert [again.notices for again in rerun] == [False] and again_named(rerun[0], "asks ping")
    assert moved.rule == "CLIENT-IGNORES-UNKNOWN" and not moved.finding.mandatory  # a reference decision's level
    assert moved.finding.message == "only with unknown notifications and fields: no answer to ping"
    # Still broken without the change, or no longer in its situation: the finding stays where it is.
    for verdict in (ClientVerdict((ping,), frozenset({"CLIENT-PING"})), ClientVerdict((), frozenset())):
        monkeypatch.setattr(client_campaign, "judge_client", lambda run, plain, verdict=verdict: verdict)
        assert campaign._attribute(failure) == failure


def again_named(script: ServerScript, name: str) -> bool:
    return script.name == name and script.rules == exercised(script)


def test_a_finding_whose_situation_the_change_makes_stays_where_it_is() -> None:
    """Without unknown notifications there is nothing to answer: NOTIFICATION-SILENT is not moved."""
    answers = [sys.executable, str(ROOT / "examples" / "buggy_clients" / "answers_notifications.py"), "--tool", "echo",
               "--", "{server}"]  # fmt: skip
    campaign = ClientCampaign(answers, seed=0, max_cases=1)
    plain = run_client(answers, PLAIN)
    run = run_client(answers, scenario("notices", notices=True))
    finding = next(f for f in judge_client(run, plain).findings if f.rule == "CLIENT-NOTIFICATION-SILENT")
    kept = campaign._attribute(ClientFailure(finding.rule, run, (finding,)))
    assert kept.rule == "CLIENT-NOTIFICATION-SILENT"


def test_a_campaign_against_the_reference_client_finds_nothing(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["fuzz-client", "--json", "--seed", "2", "--cases", "12", "--", *REFERENCE_CLIENT]) == 0
    document = json.loads(capsys.readouterr().out)
    assert document["rules"] == [] and document["seed"] == 2 and document["side"] == "client"
    assert 12 <= document["cases"] <= 13  # the plain call, then the budget (a script is never run twice)


@pytest.mark.parametrize(
    ("argv", "complaint"),
    [
        (["fuzz-client"], "a client command after --"),
        (["fuzz-client", "--cases", "0", "--", "x", "{server}"], "--cases and --budget are needed"),
        (["fuzz-client", "--budget", "0", "--", "x", "{server}"], "--cases and --budget are needed"),
        (["fuzz-client", "--", "true"], "names no {server}"),
        (["fuzz-client", "--", "/nonexistent/client", "{server}"], "cannot start /nonexistent/client"),
    ],
)
def test_fuzz_client_bad_usage_exits_2(argv: list[str], complaint: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(argv) == 2
    assert complaint in capsys.readouterr().err


def test_check_client_writes_html_junit_and_a_baseline_it_can_be_held_to(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    kills = [sys.executable, str(ROOT / "examples" / "buggy_clients" / "kills_server.py"), "--tool", "echo", "--", "{server}"]
    files = ["--html", str(tmp_path / "page.html"), "--junit-xml", str(tmp_path / "junit.xml")]
    common = ["check-client", "--profile", "strict", "--scenario", "a plain tool call"]
    assert main([*common, *files, "--write-baseline", str(tmp_path / "base.json"), "--", *kills]) == 1
    capsys.readouterr()
    page = (tmp_path / "page.html").read_text(encoding="utf-8")
    rule = "CLIENT-SHUTDOWN"
    saved = tmp_path / "junit-reproducers" / f"{rule}-0.json"  # named in the XML, shown on the page
    assert f"mcpref replay --transcript {saved}" in page and f"{len(CLIENT_RULES)} rules" in page
    assert json.loads(saved.read_text(encoding="utf-8"))["script"] == {"name": "a plain tool call"}
    junit = (tmp_path / "junit.xml").read_text(encoding="utf-8")
    assert 'name="CLIENT-SHUTDOWN"' in junit and "<failure" in junit
    baseline = json.loads((tmp_path / "base.json").read_text(encoding="utf-8"))
    assert list(baseline["expected_failures"].values()) == [["CLIENT-SHUTDOWN"]]
    assert main([*common, "--baseline", str(tmp_path / "base.json"), "--", *kills]) == 0


@pytest.mark.spec("CLIENT-SHUTDOWN")
def test_compare_takes_clients(capsys: pytest.CaptureFixture[str]) -> None:
    kills = [sys.executable, str(ROOT / "examples" / "buggy_clients" / "kills_server.py"), "--timeout", "4", "--tool", "echo",
             "--", "{server}"]  # fmt: skip
    argv = ["compare", "--clients", "--json", "--profile", "strict", "--label", "reference", "--label", "kills",
            "--", *REFERENCE_CLIENT, "---", *kills]  # fmt: skip
    assert main(argv) == 1
    rows = {row["id"]: row for row in json.loads(capsys.readouterr().out)["rules"]}
    assert rows["CLIENT-SHUTDOWN"]["statuses"] == {"reference": "pass", "kills": "fail"}
    assert {row["statuses"]["reference"] for row in rows.values()} == {"pass"}


def test_compare_clients_refuses_the_server_options(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["compare", "--clients", "--protocol-version", "2026-07-28", "--", *REFERENCE_CLIENT, "---", *REFERENCE_CLIENT]
    assert main(argv) == 2
    assert "no --protocol-version" in capsys.readouterr().err


@pytest.mark.spec("CLIENT-READ-CHUNKS")
def test_a_campaign_shrinks_to_one_change_and_its_reproducers_replay_under_their_rule(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    junit = tmp_path / "junit.xml"
    argv = ["fuzz-client", "--json", "--seed", "2", "--cases", "20", "--rule", "CLIENT-READ-CHUNKS", "--protocol-version", "2025-11-25",
            "--junit-xml", str(junit), "--html", str(tmp_path / "page.html"), "--", *READS_PER_CHUNK]  # fmt: skip
    assert main(argv) == 1
    [row] = json.loads(capsys.readouterr().out)["rules"]
    [finding] = row["findings"]
    script = ServerScript.loads(json.dumps(finding["script"]))
    assert row["id"] == "CLIENT-READ-CHUNKS" and row["status"] == "fail" and changes(script) == ["cuts"]
    saved = tmp_path / "junit-reproducers" / f"{row['id']}-0.json"  # the rule, and its finding's number
    assert finding["reproducer"] == f"mcpref replay --transcript {saved}"
    assert 'name="CLIENT-READ-CHUNKS"' in junit.read_text(encoding="utf-8")
    assert "CLIENT-READ-CHUNKS" in (tmp_path / "page.html").read_text(encoding="utf-8")
    monkeypatch.chdir(tmp_path)  # the command runs where it was recorded, wherever replay is run
    assert main(["replay", "--transcript", str(saved)]) == 1
    out = capsys.readouterr().out
    assert "fail CLIENT-READ-CHUNKS:" in out and "<- {" in out and "-> initialize-answer\n" in out and "\n<- \n" not in out
    # The same case against the reference client, named after --: it no longer fails.
    assert main(["replay", str(saved), "--", *REFERENCE_CLIENT]) == 0
    assert "CLIENT-READ-CHUNKS: not broken in this run: the case passes" in capsys.readouterr().out
    # The script as a check-client line, as a user pastes it (its words after mcpref).
    assert main(["check-client", "--json", "--script", json.dumps(finding["script"]), "--", *READS_PER_CHUNK]) == 1
    rows = {row["id"]: row for row in json.loads(capsys.readouterr().out)["rules"]}
    assert rows["CLIENT-READ-CHUNKS"]["status"] == "fail"
    pasted = "--scenario 'an answer cut into pieces'" if "name" in finding["script"] else "--script '{\"cuts\": "
    assert rows["CLIENT-READ-CHUNKS"]["findings"][0]["reproducer"].startswith(f"mcpref check-client {pasted}")


@pytest.mark.parametrize(
    ("document", "complaint"),
    [
        ({"command": ["client"]}, "names no {server}"),
        ({"script": {"cuts": 0}}, "script: exits is one of"),
        ({"rule": 5}, "rule and profile"),
        ({"command": "client {server}"}, "command must be a list"),
        ({"directory": 5}, "directory must be a string"),
    ],
)
def test_a_malformed_client_reproducer_is_refused(
    document: dict[str, object], complaint: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    good = {"format": "mcpref-reproducer/1", "side": "client", "rule": "CLIENT-READ-CHUNKS", "profile": "spec",
            "command": ["client", "{server}"], "script": {"cuts": 2}}  # fmt: skip
    path = tmp_path / "r.json"
    path.write_text(json.dumps({**good, **document}), encoding="utf-8")
    assert main(["replay", str(path)]) == 2
    assert complaint in capsys.readouterr().err


@pytest.mark.spec("CLIENT-READ-CHUNKS", "CLIENT-READ-CRLF")
def test_a_row_s_status_is_its_finding_s_under_the_profile_whatever_list_it_came_in() -> None:
    """A warning moved to a MUST's framing rule fails; a failure moved to a decision's is a note under
    spec, which lists no broken rule, and fails under strict; one row a rule."""
    run = ClientRun(PLAIN, (), 1, 0.0, b"", b"", False)
    chunks = Finding("CLIENT-READ-CHUNKS", True, None, "cut", "same", "other")
    crlf = Finding("CLIENT-READ-CRLF", False, None, "crlf", "same", "other")
    failures = [ClientFailure("CLIENT-READ-CRLF", run, (crlf,)), ClientFailure("CLIENT-READ-CHUNKS", run, (chunks,))]
    warned = [ClientFailure("CLIENT-READ-CHUNKS", run, (replace(chunks, mandatory=False),))]
    found = fuzz_client.rows(["client", "{server}"], [*failures, *warned], Profile.SPEC)
    assert {row["id"]: row["status"] for row in found} == {"CLIENT-READ-CHUNKS": "fail"}
    strict = fuzz_client.rows(["client", "{server}"], [*failures, *warned], Profile.STRICT)
    assert {row["id"]: row["status"] for row in strict} == {"CLIENT-READ-CRLF": "fail", "CLIENT-READ-CHUNKS": "fail"}


def test_a_time_budget_ends_the_campaign(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["fuzz-client", "--json", "--seed", "2", "--cases", "50", "--budget", "0.001", "--", *REFERENCE_CLIENT]) == 0
    assert json.loads(capsys.readouterr().out)["cases"] == 1  # the plain call, and the budget was spent
