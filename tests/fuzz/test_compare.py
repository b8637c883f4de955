"""``mcpref compare``: one matrix for several commands, and its refusals of bad usage."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from test_oracle_initiative import UNASKED

from mcpref.fuzz.integrate.compare import UsageError, default_labels, render, split_commands
from mcpref.fuzz.judge.oracle import Profile
from mcpref.fuzz.report.matrix import combine
from mcpref.reference.rules import RULES

ROOT = Path(__file__).resolve().parents[2]
REFERENCE = [sys.executable, "-m", "mcpref.reference"]
SILENT = [sys.executable, str(ROOT / "examples" / "buggy" / "silent_on_parse_error.py")]


def mcpref(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "mcpref", *args], cwd=ROOT, capture_output=True, text=True, timeout=240, check=False
    )


@pytest.mark.spec("RPC-PARSE-ERROR")
def test_the_matrix_has_a_row_per_requirement_and_a_column_per_command() -> None:
    done = mcpref("compare", "--profile", "strict", "--json", "--", *REFERENCE, "---", *SILENT)
    assert done.returncode == 1, done.stderr
    result = json.loads(done.stdout)
    labels = ["mcpref.reference", "silent_on_parse_error.py"]
    assert result["profile"] == "strict"
    assert [entry["label"] for entry in result["commands"]] == labels
    assert [rule["id"] for rule in result["rules"]] == [rule.id for rule in RULES]
    by_id = {rule["id"]: rule for rule in result["rules"]}
    assert by_id["RPC-PARSE-ERROR"]["statuses"] == {"mcpref.reference": "pass", "silent_on_parse_error.py": "fail"}
    assert by_id["RPC-PARSE-ERROR"]["findings"]["silent_on_parse_error.py"]
    assert by_id["RPC-ID-ECHO"]["statuses"] == {"mcpref.reference": "pass", "silent_on_parse_error.py": "pass"}
    # But the shapes of resources and prompts, which the reference does not announce, and the rules of
    # what it would write unasked.
    unshown = {"RESOURCES-SHAPE", "PROMPTS-SHAPE", "SERVER-MESSAGE-SHAPE", *UNASKED}
    assert {rule["id"] for rule in result["rules"] if rule["statuses"]["mcpref.reference"] not in {"pass", "n/a"}} == unshown


def test_the_text_matrix_names_each_column_and_a_clean_run_exits_0() -> None:
    done = mcpref("compare", "--label", "ref", "--label", "again", "--", *REFERENCE, "---", *REFERENCE)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == "profile spec"
    assert lines[1].startswith("  ref: ") and lines[2].startswith("  again: ")
    assert lines[3].split() == ["ID", "LEVEL", "ref", "again"]
    assert lines[4].split()[:2] == [RULES[0].id, RULES[0].level.value.split()[0]]


@pytest.mark.spec("MOD-LEGACY-INIT")
def test_a_column_with_nothing_judged_says_why() -> None:
    # The legacy corpus against a server of the modern era alone: n/a in every cell of its column,
    # each with the reason, and the text matrix says it once.
    modern = [*REFERENCE, "--eras", "modern"]
    options = ("--select", "LIFE-PING,LIFE-INIT-RESULT", "--label", "modern", "--label", "both")
    result = json.loads(mcpref("compare", "--json", *options, "--", *modern, "---", *REFERENCE).stdout)
    assert [rule["statuses"] for rule in result["rules"]] == [{"modern": "n/a", "both": "pass"}] * 2
    assert all(list(rule["reasons"]) == ["modern"] for rule in result["rules"])
    assert all("serves no legacy version" in rule["reasons"]["modern"] for rule in result["rules"])
    text = mcpref("compare", *options, "--", *modern, "---", *REFERENCE).stdout.splitlines()
    assert text[3].startswith("  modern, nothing judged: the server serves no legacy version")
    assert text[4].split() == ["ID", "LEVEL", "modern", "both"]


def test_a_client_column_with_nothing_judged_blames_no_server() -> None:
    # check-client's rows judge a client against a scripted server: a cause that names the server
    # would blame the wrong side of the pipe. Each row gives its own reason, and a server column's
    # cause, with no death seen, is its first untested row's.
    reason = 'the client never started the scripted server in "a plain tool call"'
    row = {"id": "CLIENT-INIT-FIRST", "level": "MUST", "status": "untested", "findings": [], "reason": reason}
    result = combine([["false", "{server}"]], ["dead"], [[row]], Profile.SPEC)
    assert "nothing judged" not in render(result, clients=True)
    assert f"dead, nothing judged: {reason}" in render(result)


def test_bad_usage_and_unstartable_commands_exit_2(tmp_path: Path) -> None:
    assert mcpref("compare").returncode == 2
    assert mcpref("compare", "--", *REFERENCE, "---").returncode == 2
    assert mcpref("compare", "--label", "a", "--", *REFERENCE, "---", *REFERENCE).returncode == 2
    assert mcpref("compare", "--label", "a", "--label", "a", "--", *REFERENCE, "---", *REFERENCE).returncode == 2
    missing = mcpref("compare", "--label", "ref", "--label", "ghost", "--", *REFERENCE, "---", str(tmp_path / "nope"))
    assert missing.returncode == 2
    assert "ghost: cannot start" in missing.stderr and "Traceback" not in missing.stderr


def test_commands_are_split_at_the_separator_and_labelled_uniquely() -> None:
    assert split_commands(["a", "-x", "---", "b"]) == [["a", "-x"], ["b"]]
    with pytest.raises(UsageError):
        split_commands(["a", "---", "---", "b"])
    assert default_labels([["python", "server.py"], ["node", "server.py"], ["x"]]) == ["server.py#1", "server.py#2", "x"]
