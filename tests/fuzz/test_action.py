"""The GitHub Action (``action.yml``), tested here since no GitHub is reachable: its script, run as the
composite action runs it (inputs as environment variables), and the file's wiring of inputs to it."""

from __future__ import annotations

import json
import os
import re
import shlex
import subprocess
import sys
import xml.etree.ElementTree as ElementTree
from pathlib import Path

import pytest

from mcpref.fuzz.integrate.action import outputs

ROOT = Path(__file__).resolve().parents[2]
SILENT = [sys.executable, str(ROOT / "examples" / "buggy" / "silent_on_parse_error.py")]
UNTRACED = {key: value for key, value in os.environ.items() if not key.startswith(("COVERAGE_", "MCPREF_", "GITHUB_"))}


def action(tmp: Path, **inputs: str) -> tuple[int, str]:
    return run_action(tmp, **inputs)[:2]


def run_action(tmp: Path, **inputs: str) -> tuple[int, str, str, dict[str, str]]:
    """The script as the step runs it: its exit status, the job summary, the step log and outputs."""
    summary, outputs = tmp / "step-summary.md", tmp / "github-output"
    summary.write_text("earlier steps' summary\n")
    outputs.write_text("")
    env = {
        **UNTRACED, "MCPREF_OUT": str(tmp / "out"), "GITHUB_STEP_SUMMARY": str(summary),
        "GITHUB_OUTPUT": str(outputs), **inputs,
    }  # fmt: skip
    done = subprocess.run([sys.executable, "-m", "mcpref.fuzz.action"], cwd=tmp, env=env, capture_output=True, text=True)
    assert "Traceback" not in done.stderr, done.stderr[-2000:]
    given = dict(line.split("=", 1) for line in outputs.read_text().splitlines())
    return done.returncode, summary.read_text(), done.stdout, given


@pytest.mark.spec("RPC-PARSE-ERROR", "FRAME-UTF8")
def test_the_action_reports_failures_in_the_job_summary_and_leaves_the_reproducers(tmp_path: Path) -> None:
    status, summary, log, given = run_action(tmp_path, MCPREF_COMMAND=shlex.join(SILENT), MCPREF_FUZZ_CASES="20")
    assert status == 1
    # The step log shows the table and annotates each failure; the outputs say the same.
    assert log.startswith("2 fail, ") and "\nfail RPC-PARSE-ERROR (MUST): " in log
    assert re.search(r"^::error title=mcpref RPC-PARSE-ERROR::[^%]*: no answer$", log, re.MULTILINE), log
    assert (given["status"], given["failures"], given["junit-xml"]) == ("fail", "2", str(tmp_path / "out" / "check.xml"))
    assert summary.startswith("earlier steps' summary\n## mcpref\n")  # appended, not overwritten
    assert "| `RPC-PARSE-ERROR` | MUST | ❌ fail | " in summary and "```sh\n{ printf " in summary
    assert "### fuzz (seed 1, " in summary and "- ❌ `RPC-PARSE-ERROR` (MUST)" in summary
    out = tmp_path / "out"
    assert {"check.json", "check.xml", "check.html", "fuzz.json", "fuzz.xml", "summary.md"} <= {
        path.name for path in out.iterdir()
    }
    assert list((out / "check-reproducers").glob("RPC-PARSE-ERROR-*.json")) and (out / "campaign" / "repro").is_dir()
    assert ElementTree.parse(out / "check.xml").getroot().get("failures") == "2"
    replay = subprocess.run(
        [sys.executable, "-m", "mcpref", "replay", str(next((out / "check-reproducers").glob("RPC-PARSE-ERROR-*.json")))],
        cwd=tmp_path, env=UNTRACED, capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert replay.returncode == 1 and "fail RPC-PARSE-ERROR" in replay.stdout


@pytest.mark.spec("RPC-PARSE-ERROR", "FRAME-UTF8")
def test_the_action_reads_the_rule_selection_of_the_workspaces_pyproject(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text('[tool.mcpref]\nignore = ["RPC-PARSE-ERROR"]\n')
    status, summary, log, given = run_action(tmp_path, MCPREF_COMMAND=shlex.join(SILENT))
    assert status == 1 and given["failures"] == "1" and "fail FRAME-UTF8 (MUST): " in log
    assert "RPC-PARSE-ERROR" not in log and "RPC-PARSE-ERROR" not in summary


def test_a_clean_server_passes_and_bad_inputs_exit_2(tmp_path: Path) -> None:
    status, summary, log, given = run_action(tmp_path, MCPREF_COMMAND=shlex.join([sys.executable, "-m", "mcpref.reference"]))
    assert status == 0 and "No rule fails or warns" in summary and "### fuzz" not in summary
    assert "::error" not in log and (given["status"], given["failures"]) == ("pass", "0")
    assert action(tmp_path, MCPREF_COMMAND="")[0] == 2
    assert action(tmp_path, MCPREF_COMMAND="true", MCPREF_FUZZ_CASES="many")[0] == 2
    assert action(tmp_path, MCPREF_COMMAND="/nonexistent/server")[0] == 2


def test_action_yml_passes_every_input_the_script_reads() -> None:
    text = (ROOT / "action.yml").read_text()
    script = (ROOT / "mcpref" / "fuzz" / "integrate" / "action.py").read_text()
    assert re.search(r"^  using: composite$", text, re.MULTILINE)
    assert """run: '"$RUNNER_TEMP/mcpref-venv/bin/python" -m mcpref.fuzz.action'""" in text
    # mcpref gets a Python of its own; the job's Python and PATH, which run the server, are left alone.
    assert "update-environment: false" in text and "python -m pip" not in text
    read = set(re.findall(r"environ(?:\.get\(|\[)\"(MCPREF_[A-Z_]+)\"", script))
    passed = set(re.findall(r"^        (MCPREF_[A-Z_]+): ", text, re.MULTILINE)) - {"MCPREF_PYTHON"}
    assert read == passed == {"MCPREF_COMMAND", "MCPREF_PROFILE", "MCPREF_PROTOCOL_VERSION", "MCPREF_BASELINE",
                              "MCPREF_FUZZ_CASES", "MCPREF_FUZZ_BASELINE", "MCPREF_SEED", "MCPREF_TIME_LIMIT",
                              "MCPREF_OUT"}  # fmt: skip
    declared = set(re.findall(r"^  ([a-z-]+):$", text.split("\noutputs:\n", 1)[1].split("\nruns:\n", 1)[0], re.MULTILINE))
    assert declared == set(outputs(0, {"rules": []}, None, Path("out")))
    inputs = set(re.findall(r"^  ([a-z-]+):$", text.split("\ninputs:\n", 1)[1].split("\noutputs:\n", 1)[0], re.MULTILINE))
    assert {name for name in inputs if f"inputs.{name} }}}}" in text} == inputs


@pytest.mark.spec("MOD-LEGACY-INIT")
def test_a_server_of_the_modern_era_alone_is_fuzzed_in_that_era_when_no_version_is_given(tmp_path: Path) -> None:
    modern_only = [sys.executable, "-m", "mcpref.reference", "--eras", "modern"]
    status, _, log, _ = run_action(tmp_path, MCPREF_COMMAND=shlex.join(modern_only), MCPREF_FUZZ_CASES="5")
    assert status == 0, log
    assert json.loads((tmp_path / "out" / "check.json").read_text())["era"] == "modern"
    assert json.loads((tmp_path / "out" / "fuzz.json").read_text())["era"] == "modern"
