"""The GitHub Action's work (``action.yml``): ``check``, and optionally a short ``fuzz``, against a command.

Inputs come as environment variables, as the composite action passes them:

- ``MCPREF_COMMAND`` (required): the server command, split as a shell splits it (``shlex``)
  and started without a shell;
- ``MCPREF_PROFILE`` (``spec``), ``MCPREF_BASELINE`` (a baseline file, or empty);
- ``MCPREF_FUZZ_CASES`` (``0``: no campaign) and ``MCPREF_SEED`` (``1``);
- ``MCPREF_OUT``: the folder for what the action uploads (reports, JUnit XML, the HTML
  page, reproducers);
- ``GITHUB_STEP_SUMMARY``: the job summary, where a Markdown report is appended.

The exit status is the worst of the runs': 0 clean, 1 failures (or a baseline not held),
2 bad input or a command that cannot start. Runnable anywhere: ``python -m mcpref.fuzz.action``.
"""

from __future__ import annotations

import json
import os
import shlex
import subprocess
import sys
from collections.abc import Mapping
from pathlib import Path

from mcpref.fuzz.oracle import Profile

from . import statuses
from .ci import save_reproducers

EXIT_USAGE = 2
_ICON = {"fail": "❌ fail", "warn": "⚠️ warn"}


def _mcpref(*argv: str) -> int:
    return subprocess.run([sys.executable, "-m", "mcpref", *argv], check=False).returncode


def _rows_markdown(rows: list[dict[str, object]]) -> list[str]:
    shown = [row for row in rows if row["status"] in _ICON]
    if not shown:
        return ["No rule fails or warns."]
    lines = ["| Rule | Level | Status | Finding |", "|---|---|---|---|"]
    for row in shown:
        findings = row["findings"]
        first = findings[0] if isinstance(findings, list) and findings else {}
        note = f"{first.get('scenario', '')}: {first.get('message', '')}".strip(": ").replace("|", "\\|")
        lines.append(f"| `{row['id']}` | {row['level']} | {_ICON[str(row['status'])]} | {note} |")
    return lines


def _shell_lines(rows: list[dict[str, object]]) -> list[str]:
    lines = []
    for row in rows:
        findings = row["findings"]
        for finding in findings if row["status"] == "fail" and isinstance(findings, list) else []:
            if finding.get("shell"):
                lines += [f"`{row['id']}` ({finding['scenario']}):", "```sh", str(finding["shell"]), "```"]
                break
    return lines


def _cause(check: Mapping[str, object]) -> str | None:
    cause = check.get("cause")
    return cause if isinstance(cause, str) else None


def summary(command: list[str], profile: str, check: Mapping[str, object], fuzz: Mapping[str, object] | None) -> str:
    """The job summary, in Markdown."""
    rows = check["rules"]
    assert isinstance(rows, list)
    lines = [
        "## mcpref",
        f"`{shlex.join(command)}`, profile `{profile}`: " + statuses.summary(rows, _cause(check)),
        "",
        "### check",
        *_rows_markdown(rows),
    ]
    shells = _shell_lines(rows)
    if shells:
        lines += ["", "Reproduce a failure:", *shells]
    if fuzz is not None:
        failures, warnings = fuzz["failures"], fuzz["warnings"]
        assert isinstance(failures, list) and isinstance(warnings, list)
        lines += ["", f"### fuzz (seed {fuzz['seed']}, {fuzz['cases']} cases, {fuzz['messages']} messages)"]
        if not failures and not warnings:
            lines.append("No divergence found.")
        for failure in failures:
            lines.append(f"- ❌ `{failure['id']}` ({failure['level']}): {failure['message']} — `{failure['reproducer']}`")
        for warning in warnings:
            lines.append(f"- ⚠️ `{warning['id']}` ({warning['level']}): {warning['message']}")
    lines += ["", "Reports, the HTML page and the reproducers (`mcpref replay FILE`) are in the job's artifact."]
    return "\n".join(lines) + "\n"


def main(environ: Mapping[str, str] = os.environ) -> int:
    command = shlex.split(environ.get("MCPREF_COMMAND", ""))
    profile = environ.get("MCPREF_PROFILE", "spec") or "spec"
    out = Path(environ.get("MCPREF_OUT", "mcpref-out"))
    try:
        cases = int(environ.get("MCPREF_FUZZ_CASES", "0") or "0")
        seed = int(environ.get("MCPREF_SEED", "1") or "1")
    except ValueError:
        print("mcpref action: fuzz-cases and seed must be integers", file=sys.stderr)
        return EXIT_USAGE
    if not command or cases < 0:
        print("mcpref action: the command input is required, and fuzz-cases may not be negative", file=sys.stderr)
        return EXIT_USAGE
    out.mkdir(parents=True, exist_ok=True)
    baseline = ["--baseline", environ["MCPREF_BASELINE"]] if environ.get("MCPREF_BASELINE") else []
    common = ["--profile", profile, *baseline]
    check_json = out / "check.json"
    pages = ["--json", "--junit-xml", str(out / "check.xml"), "--html", str(out / "check.html")]
    with check_json.open("w", encoding="utf-8") as stream:
        check = subprocess.run(
            [sys.executable, "-m", "mcpref", "check", *common, *pages, "--", *command], stdout=stream, check=False
        ).returncode
    if check == EXIT_USAGE:
        return EXIT_USAGE
    statuses = [check]
    fuzz_report = None
    if cases:
        report = ["--report", str(out / "fuzz.json"), "--junit-xml", str(out / "fuzz.xml")]
        budget = ["--seed", str(seed), "--max-cases", str(cases), "--campaign-dir", str(out / "campaign")]
        statuses.append(_mcpref("fuzz", *common, *budget, *report, "--", *command))
        if statuses[-1] == EXIT_USAGE:
            return EXIT_USAGE
        fuzz_report = json.loads((out / "fuzz.json").read_text(encoding="utf-8"))
    check_result = json.loads(check_json.read_text(encoding="utf-8"))
    save_reproducers(check_result["rules"], command, Profile(profile), out / "repro")
    text = summary(command, profile, check_result, fuzz_report)
    (out / "summary.md").write_text(text, encoding="utf-8")
    if environ.get("GITHUB_STEP_SUMMARY"):
        with open(environ["GITHUB_STEP_SUMMARY"], "a", encoding="utf-8") as stream:
            stream.write(text)
    return max(statuses)


if __name__ == "__main__":
    sys.exit(main())
