"""The pytest plugin: ``pytest --mcp-server "CMD ARGS"`` in a server's own test suite, one test per rule.

Each run is a real pytest process in a scratch folder holding one test of the user's own;
the plugin reaches it as every user gets it, through the ``pytest11`` entry point that
installing mcpref registers.
"""

from __future__ import annotations

import importlib.metadata
import json
import shlex
import sys
from pathlib import Path

import pytest
from test_oracle_initiative import UNASKED

from mcpref.fuzz.generate.corpus import SCENARIOS
from mcpref.fuzz.judge.oracle import Profile
from mcpref.fuzz.report.baseline import dump
from mcpref.reference.rules import RULES

ROOT = Path(__file__).resolve().parents[2]
SILENT = shlex.join([sys.executable, str(ROOT / "examples" / "buggy" / "silent_on_parse_error.py")])
FOUND = {"FRAME-UTF8", "RPC-PARSE-ERROR"}
# Skipped: rules no scenario lists, and those the server (the reference, with a bug) shows nothing
# of: it announces neither resources nor prompts, so their results' shapes stay untested, and it
# writes nothing unasked.
UNSHOWN = {"RESOURCES-SHAPE", "PROMPTS-SHAPE", "SERVER-MESSAGE-SHAPE", *UNASKED}
UNEXERCISED = len({rule.id for rule in RULES} - {rule for scenario in SCENARIOS for rule in scenario.rules}) + len(UNSHOWN)


@pytest.fixture
def project(pytester: pytest.Pytester) -> pytest.Pytester:
    pytester.makepyfile(test_own="def test_own():\n    assert True\n")
    return pytester


def test_the_plugin_is_registered_by_the_install_and_does_nothing_unasked(project: pytest.Pytester) -> None:
    assert "mcpref.fuzz.integrate.pytest_plugin" in {e.value for e in importlib.metadata.entry_points(group="pytest11")}
    project.runpytest_subprocess().assert_outcomes(passed=1)


@pytest.mark.spec("RPC-PARSE-ERROR", "FRAME-UTF8")
def test_one_test_per_rule_with_the_finding_and_the_reproducer_in_each_failure(project: pytest.Pytester) -> None:
    result = project.runpytest_subprocess("--mcp-server", SILENT)
    result.assert_outcomes(passed=1 + len(RULES) - len(FOUND) - UNEXERCISED, failed=len(FOUND), skipped=UNEXERCISED)
    result.stdout.fnmatch_lines(["*RPC-PARSE-ERROR (MUST) fails*", "scenario: not JSON", "reproducer: mcpref replay *"])
    assert "-> pas du json" in result.stdout.str()
    reproducers = list(Path(project.path, ".pytest_cache", "d", "mcpref").glob("RPC-PARSE-ERROR-*.json"))
    assert reproducers


@pytest.mark.spec("RPC-PARSE-ERROR", "FRAME-UTF8")
def test_a_baseline_turns_known_failures_into_expected_ones_and_fails_a_rule_that_passes(
    project: pytest.Pytester,
) -> None:
    baseline = project.path / "baseline.json"
    baseline.write_text(dump(Profile.SPEC, {"target": FOUND}))
    held = project.runpytest_subprocess("--mcp-server", SILENT, "--mcp-baseline", str(baseline))
    held.assert_outcomes(passed=1 + len(RULES) - len(FOUND) - UNEXERCISED, xfailed=len(FOUND), skipped=UNEXERCISED)
    baseline.write_text(dump(Profile.SPEC, {"target": {*FOUND, "RPC-BATCH"}}))
    stale = project.runpytest_subprocess("--mcp-server", SILENT, "--mcp-baseline", str(baseline))
    stale.assert_outcomes(passed=len(RULES) - len(FOUND) - UNEXERCISED, xfailed=len(FOUND), skipped=UNEXERCISED, failed=1)
    stale.stdout.fnmatch_lines(["*RPC-BATCH is listed in the baseline and no longer fails*"])


@pytest.mark.spec("STDIO-SURVIVE")
def test_a_server_that_exits_at_once_fails_once_and_skips_the_rest_with_the_reason(project: pytest.Pytester) -> None:
    dead = shlex.join([sys.executable, "-c", "import sys; sys.exit(3)"])
    result = project.runpytest_subprocess("--mcp-server", dead, "-rs")
    result.assert_outcomes(passed=1, failed=1, skipped=len(RULES) - 1)
    result.stdout.fnmatch_lines(["*STDIO-SURVIVE (MUST) fails*", "*RPC-PARSE-ERROR: untested: the scenario * could not be judged: the server exited with status 3*"])
    # A selection without STDIO-SURVIVE does not make such a server's run pass: its rules fail with the cause.
    chosen = project.runpytest_subprocess("--mcp-server", dead, "--mcp-select", "LIFE-PING")
    chosen.assert_outcomes(passed=1, failed=1)  # the project's own test, and LIFE-PING
    chosen.stdout.fnmatch_lines(["*LIFE-PING: the server exited with status 3 before answering (STDIO-SURVIVE fails)*"])


# A server that notes which process started it, then is the silent one.
NOTED = """
import os, runpy, sys
with open(sys.argv[1], "a") as log:
    log.write(f"{os.getppid()}\\n")
runpy.run_path(sys.argv[2], run_name="__main__")
"""


@pytest.mark.spec("RPC-PARSE-ERROR", "FRAME-UTF8")
def test_the_rules_are_collected_selected_and_addressed_like_any_test(project: pytest.Pytester) -> None:
    project.makefile(".toml", pyproject="[tool.pytest.ini_options]\nmcp_profile = 'spec'\n")
    collected = project.runpytest_subprocess("--mcp-server", SILENT, "--collect-only", "-q")
    collected.stdout.fnmatch_lines([f"{1 + len(RULES)} tests collected*"])
    assert "pyproject.toml::mcpref::RPC-PARSE-ERROR" in collected.stdout.str()
    # A node id it printed is taken back; -k selects among the rules; without a cache provider too.
    one = project.runpytest_subprocess("--mcp-server", SILENT, "pyproject.toml::mcpref::RPC-PARSE-ERROR", "-p", "no:cacheprovider")
    one.assert_outcomes(failed=1)
    chosen = project.runpytest_subprocess("--mcp-server", SILENT, "-k", "RPC-PARSE-ERROR or test_own", "-p", "no:cacheprovider")
    chosen.assert_outcomes(passed=1, failed=1)
    chosen.stdout.fnmatch_lines([f"*{len(RULES) - 1} deselected*"])
    # A run that names a file of its own runs that file alone.
    project.runpytest_subprocess("--mcp-server", SILENT, "test_own.py").assert_outcomes(passed=1)


def test_a_bad_option_is_one_usage_error(project: pytest.Pytester) -> None:
    (project.path / "bad.json").write_text("{")
    for options in (
        ["--mcp-server", "no-such-server --stdio"],
        ["--mcp-server", SILENT, "--mcp-baseline", "bad.json"],
        ["--mcp-server", SILENT, "--mcp-profile", "lax"],
        ["--mcp-server", SILENT, "--mcp-version", "1999-01-01"],
    ):
        refused = project.runpytest_subprocess(*options)
        assert refused.ret == pytest.ExitCode.USAGE_ERROR, options
        assert refused.stderr.str().count("ERROR: --mcp-") == 1 and "Traceback" not in refused.stderr.str()


@pytest.mark.spec("RPC-PARSE-ERROR", "FRAME-UTF8")
def test_under_xdist_the_corpus_runs_once_in_the_controller(project: pytest.Pytester) -> None:
    project.makepyfile(noted=NOTED)
    log = project.path / "starts.log"
    command = shlex.join([sys.executable, "noted.py", str(log), str(ROOT / "examples" / "buggy" / "silent_on_parse_error.py")])
    result = project.runpytest_subprocess("--mcp-server", command, "-n", "2", "--mcp-select", ",".join(sorted(FOUND)))
    result.assert_outcomes(passed=1, failed=len(FOUND))
    parents = set(log.read_text().split())
    assert len(parents) == 1, parents  # one process ran every scenario: not each worker


@pytest.mark.spec("RPC-PARSE-ERROR")
def test_servers_from_the_ini_file_each_get_their_tests_and_their_baseline_entry(project: pytest.Pytester) -> None:
    reference = shlex.join([sys.executable, "-m", "mcpref.reference"])
    baseline = project.path / "baseline.json"
    baseline.write_text(dump(Profile.SPEC, {"ref": set(), "silent": FOUND}))
    project.makefile(
        ".ini",
        pytest=f"[pytest]\nmcp_server =\n    {reference}\n    {SILENT}\nmcp_label =\n    ref\n    silent\n"
        f"mcp_baseline = {baseline}\n",
    )
    chosen = [*sorted(FOUND), "RPC-ID-ECHO"]  # the rules at stake: quicker than the whole corpus
    project.makefile(".toml", pyproject=f"[tool.mcpref]\nselect = {json.dumps(chosen)}\n")
    result = project.runpytest_subprocess("-rx")
    result.assert_outcomes(passed=1 + 2 * len(chosen) - len(FOUND), xfailed=len(FOUND))
    result.stdout.fnmatch_lines(["*pytest.ini::mcpref?silent?::RPC-PARSE-ERROR*expected failure (baseline)*"])


def test_the_rules_selected_in_pyproject_or_by_option_are_the_tests(project: pytest.Pytester) -> None:
    project.makefile(".toml", pyproject='[tool.mcpref]\nselect = ["RPC"]\nignore = ["RPC-BATCH"]\n')
    rpc = [rule.id for rule in RULES if rule.id.startswith("RPC-") and rule.id != "RPC-BATCH"]
    listed = project.runpytest_subprocess("--mcp-server", SILENT, "--collect-only", "-q")
    listed.stdout.fnmatch_lines([f"{1 + len(rpc)} tests collected*"])
    narrowed = project.runpytest_subprocess("--mcp-server", SILENT, "--mcp-select", "RPC-PARSE-ERROR")
    narrowed.assert_outcomes(passed=1, failed=1)


@pytest.mark.spec("FRAME-EOF-PARTIAL")
def test_a_session_in_which_nothing_was_judged_is_not_green(project: pytest.Pytester) -> None:
    result = project.runpytest_subprocess("--mcp-server", "true", "--mcp-select", "FRAME-EOF-PARTIAL", "-rs")
    result.assert_outcomes(passed=1, skipped=1)
    assert result.ret == pytest.ExitCode.TESTS_FAILED
    result.stdout.fnmatch_lines(["mcpref: nothing was judged of true: every selected rule was untested or n/a*",
                                 "SKIPPED [[]1[]] pyproject.toml:1: FRAME-EOF-PARTIAL: untested: the scenario * could not be judged: the server answered nothing and exited*"])  # fmt: skip


def test_a_selection_error_names_the_plugins_own_option(project: pytest.Pytester) -> None:
    for options, said in (
        (["--mcp-select", "NOPE"], "ERROR: --mcp-select: 'NOPE' names no rule"),
        (["--mcp-select", "RPC-BATCH", "--mcp-ignore", "RPC-BATCH"], "ERROR: --mcp-select and --mcp-ignore: the selection leaves no rule"),
    ):
        refused = project.runpytest_subprocess("--mcp-server", SILENT, *options)
        assert refused.ret == pytest.ExitCode.USAGE_ERROR and said in refused.stderr.str(), refused.stderr.str()


@pytest.mark.spec("RPC-PARSE-ERROR", "MOD-DISCOVER")
def test_a_failure_cites_its_rule_a_skip_gives_its_reason_and_no_folder_is_left_behind(
    project: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    scratch = project.path / "scratch"
    scratch.mkdir()
    monkeypatch.setenv("TMPDIR", str(scratch))  # the session's temporary files, apart from other runs'
    chosen = "RPC-PARSE-ERROR,MOD-DISCOVER"
    result = project.runpytest_subprocess("--mcp-server", SILENT, "--mcp-select", chosen, "-rs", "-p", "no:cacheprovider")
    result.assert_outcomes(passed=1, failed=1, skipped=1)
    result.stdout.fnmatch_lines([
        "*RPC-PARSE-ERROR (MUST) fails", "cited: https://www.jsonrpc.org/specification*",
        "*MOD-DISCOVER: n/a: no scenario of this era's corpus judges it (a rule of 2026-07-28)",
    ])  # fmt: skip
    assert not list(scratch.glob("mcpref-*")), list(scratch.iterdir())
