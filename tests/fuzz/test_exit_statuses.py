"""Exit statuses a CI can trust: 0 only when something was judged and nothing failed, 3 when nothing
was judged, 2 for inputs refused before the run, one line each; the same table in every --help."""

from __future__ import annotations

import json
import shlex
import subprocess
import sys
from pathlib import Path

import pytest
from in_process import mcpref_in_process

from mcpref.fuzz.integrate.action import outputs
from mcpref.fuzz.report import exits

ROOT = Path(__file__).resolve().parents[2]
SILENT = [sys.executable, str(ROOT / "examples" / "buggy" / "silent_on_parse_error.py")]
COMMANDS = ["check", "fuzz", "replay", "compare", "merge", "check-client", "fuzz-client"]


def mcpref(cwd: Path, *argv: str, timeout: float = 300) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "mcpref", *argv], cwd=cwd, capture_output=True, text=True, timeout=timeout, check=False
    )


def test_the_status_of_a_run_puts_failures_first_then_nothing_judged() -> None:
    assert exits.of(failed=True, judged=False) == exits.FOUND == 1  # a column failed, another judged nothing
    assert exits.of(failed=False, judged=False) == exits.NOTHING_JUDGED == 3
    assert exits.of(failed=False, judged=False, held=False) == 3  # a baseline's rules unseen are no news
    assert exits.of(failed=False, judged=True, held=False) == 1
    assert exits.of(failed=False, judged=True) == exits.CLEAN == 0
    assert exits.worst([0, 3, 1]) == 1 and exits.worst([1, 2]) == 2 and exits.worst([0, 3]) == 3
    assert exits.worst([0]) == 0 and exits.worst([130, 2]) == 130 and exits.interrupted(15) == 143
    assert exits.judged([{"status": "untested"}, {"status": "n/a"}]) is False
    assert exits.judged([{"status": "untested"}, {"status": "warn"}]) is True


@pytest.mark.parametrize("command", COMMANDS)
def test_every_commands_help_ends_with_the_one_table_of_exit_statuses(tmp_path: Path, command: str) -> None:
    # One through the real entry point; the rest in process, as what they show is the parser's.
    shown = mcpref(tmp_path, command, "--help") if command == "check" else mcpref_in_process(command, "--help")
    assert shown.returncode == 0 and shown.stdout.rstrip().endswith(exits.TABLE)


@pytest.mark.spec("FRAME-EOF-PARTIAL", "STDIO-SURVIVE")
def test_a_selection_of_rules_judged_at_eof_against_true_judges_nothing(tmp_path: Path) -> None:
    done = mcpref(tmp_path, "check", "--json", "--select", "FRAME-EOF-PARTIAL", "--", "true")
    assert done.returncode == 3, done.stdout[-2000:]
    rows = json.loads(done.stdout)["rules"]
    assert [(row["id"], row["status"]) for row in rows] == [("FRAME-EOF-PARTIAL", "untested")]  # no n/a STDIO-SURVIVE
    assert "mcpref check: nothing was judged" in done.stderr


def test_a_campaign_with_no_case_run_to_its_end_judges_nothing(tmp_path: Path) -> None:
    report = tmp_path / "report.json"
    campaign = ["fuzz", "--budget", "2", "--report", str(report), "--campaign-dir", "c"]
    done = mcpref(tmp_path, *campaign, "--", "sleep", "1000")
    assert done.returncode == 3, done.stdout[-2000:]
    assert "no case ran to its end" in done.stdout and "nothing was judged" in done.stderr
    merged = mcpref(tmp_path, "merge", str(report))
    assert merged.returncode == 3, merged.stdout + merged.stderr


def test_a_client_that_never_starts_the_scripted_server_judges_nothing(tmp_path: Path) -> None:
    done = mcpref(tmp_path, "check-client", "--limit", "5", "--", "true", "{server}")
    assert done.returncode == 3, done.stdout[-2000:]
    assert "untested" in done.stdout and "fail" not in done.stdout


def test_a_replayed_case_the_target_never_answered_is_not_a_pass(tmp_path: Path) -> None:
    from mcpref.fuzz.generate.corpus_modern import BY_NAME
    from mcpref.fuzz.judge.oracle import Profile
    from mcpref.fuzz.report.reproducer import reproducer_json

    case = BY_NAME["unterminated last line at EOF"].case
    document = reproducer_json("FRAME-EOF-PARTIAL", Profile.SPEC, ["true"], case.chunks, case.settle, eof=True)
    (tmp_path / "case.json").write_text(document)
    done = mcpref(tmp_path, "replay", "case.json")
    assert done.returncode == 3, done.stdout
    assert "could not be judged" in done.stdout and "the case passes" not in done.stdout


def test_report_and_baseline_paths_are_refused_before_the_run_one_line_each(tmp_path: Path) -> None:
    # sleep would hold the run to its time limit: refused at once, it never starts.
    bad = ["--html", "/etc/passwd/x.html", "--junit-xml", "/etc/passwd/x.xml", "--baseline", str(tmp_path / "none.json")]
    done = mcpref(tmp_path, "check", *bad, "--", "sleep", "1000", timeout=60)
    assert done.returncode == 2
    assert done.stderr.splitlines() == [
        "mcpref check: --html /etc/passwd/x.html: /etc/passwd is not a folder",
        "mcpref check: --junit-xml /etc/passwd/x.xml: /etc/passwd is not a folder",
        f"mcpref check: --baseline {tmp_path / 'none.json'}: {tmp_path / 'none.json'} does not exist",
    ]
    (tmp_path / "folder").mkdir()
    campaign = ["fuzz", "--report", "folder", "--campaign-dir", "/etc/passwd/c", "--write-baseline", "/etc/passwd/b"]
    done = mcpref(tmp_path, *campaign, "--", "sleep", "1000", timeout=60)
    assert done.returncode == 2 and len(done.stderr.splitlines()) == 3, done.stderr
    assert "--report folder: folder is a folder" in done.stderr
    assert [path.name for path in tmp_path.iterdir()] == ["folder"]  # nothing made, nothing left
    nested = mcpref(tmp_path, "check", "--select", "RPC-PARSE-ERROR", "--html", "new/deeper/page.html", "--", *SILENT)
    assert nested.returncode == 1 and (tmp_path / "new" / "deeper" / "page.html").is_file()  # folders made as before


@pytest.mark.spec("RPC-PARSE-ERROR")
def test_the_command_lines_selection_replaces_the_tables_whole_selection(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text('[tool.mcpref]\nignore = ["RPC-PARSE-ERROR"]\n')
    done = mcpref(tmp_path, "check", "--json", "--select", "RPC-PARSE-ERROR", "--", *SILENT)
    assert done.returncode == 1, done.stderr
    assert [(row["id"], row["status"]) for row in json.loads(done.stdout)["rules"]] == [("RPC-PARSE-ERROR", "fail")]


@pytest.mark.parametrize(
    ("table", "argv", "said"),
    [
        ('select = ["RPC"]\nslect = ["LIFE"]\n', [], "[tool.mcpref] has no key 'slect' (its keys: select, ignore)"),
        ('select = "RPC"\n', [], "[tool.mcpref] select must be a list"),
        ("mcpref = 3\n", [], "[tool.mcpref] must be a table"),
        ('select = ["RPC"]\nignore = ["RPC"]\n', [], "the selection leaves no rule to judge"),
        ('slect = ["LIFE"]\n', ["--select", "RPC"], "has no key 'slect'"),  # refused even when replaced
        ("", ["--select", "RPC-BATCH", "--ignore", "RPC-BATCH"], "--select and --ignore: the selection leaves no rule"),
    ],
)
def test_a_bad_table_or_an_empty_selection_is_one_usage_error(
    tmp_path: Path, table: str, argv: list[str], said: str
) -> None:
    header = "[tool]\n" if table.startswith("mcpref =") else "[tool.mcpref]\n"
    (tmp_path / "pyproject.toml").write_text(header + table)
    # Refused before the target starts: in process (the exit status 2 of a real start is checked above).
    done = mcpref_in_process("check", *argv, "--", "sleep", "1000", cwd=tmp_path)
    assert done.returncode == 2 and len(done.stderr.splitlines()) == 1 and said in done.stderr, done.stderr


def test_the_actions_status_output_names_each_exit_status(tmp_path: Path) -> None:
    words = {code: outputs(code, {"rules": []}, None, Path("out"))["status"] for code in (0, 1, 2, 3, 143)}
    assert words == {0: "pass", 1: "fail", 2: "error", 3: "nothing-judged", 143: "error"}
    (tmp_path / "pyproject.toml").write_text('[tool.mcpref]\nselect = ["FRAME-EOF-PARTIAL"]\n')
    summary, given = tmp_path / "summary.md", tmp_path / "output"
    env = {
        "PATH": "/usr/bin:/bin", "GITHUB_OUTPUT": str(given), "GITHUB_STEP_SUMMARY": str(summary),
        "GITHUB_WORKSPACE": str(tmp_path), "MCPREF_OUT": str(tmp_path / "out"), "MCPREF_COMMAND": shlex.join(["true"]),
    }  # fmt: skip
    done = subprocess.run([sys.executable, "-m", "mcpref.fuzz.action"], cwd=tmp_path, env=env, capture_output=True,
                          text=True, timeout=300, check=False)  # fmt: skip
    assert done.returncode == 3, done.stderr[-2000:]
    assert "status=nothing-judged\n" in given.read_text() and "1 untested" in summary.read_text()
    assert "**Nothing was judged**: check judged no rule; the step fails" in summary.read_text()
    refused = subprocess.run([sys.executable, "-m", "mcpref.fuzz.action"], cwd=tmp_path, capture_output=True, text=True,
                             env={**env, "MCPREF_OUT": "/etc/passwd/out"}, timeout=300, check=False)  # fmt: skip
    assert refused.returncode == 2 and refused.stderr == "mcpref action: MCPREF_OUT /etc/passwd/out: /etc/passwd is not a folder\n"
    assert given.read_text().endswith("status=error\n")
    given.write_text("")
    empty = subprocess.run([sys.executable, "-m", "mcpref.fuzz.action"], cwd=tmp_path, capture_output=True, text=True,
                           env={**env, "MCPREF_COMMAND": ""}, timeout=300, check=False)  # fmt: skip
    assert empty.returncode == 2 and given.read_text() == "status=error\n"
