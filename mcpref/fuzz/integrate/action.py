"""The GitHub Action's work (``action.yml``): ``check``, and optionally a short ``fuzz``, against a command.

Inputs come as environment variables, as the composite action passes them:

- ``MCPREF_COMMAND`` (required): the server command, split as a shell splits it (``shlex``)
  and started without a shell;
- ``MCPREF_PROFILE`` (``spec``), ``MCPREF_PROTOCOL_VERSION`` (empty: the era the server serves,
  as ``check`` finds it: the legacy one, or the modern one for a server that serves it alone),
  ``MCPREF_BASELINE`` (check's baseline file, or empty);
- ``MCPREF_FUZZ_CASES`` (``0``: no campaign), ``MCPREF_FUZZ_BASELINE`` (the campaign's own
  baseline: a list of what check fails is no list of what a campaign finds) and ``MCPREF_SEED``
  (``1``);
- ``MCPREF_TIME_LIMIT`` (``600``): check's time limit, and the campaign's time budget;
- ``MCPREF_OUT``: the folder for what the action uploads (reports, JUnit XML, the HTML
  page, reproducers);
- ``GITHUB_STEP_SUMMARY``: the job summary, where a Markdown report is appended;
  ``GITHUB_OUTPUT``: the step's outputs (status, counts, paths).

The step log gets check's table of the rules that fail or warn, and a workflow command for
each (``::error`` and ``::warning``), which GitHub shows as annotations. The exit status is the
worst of the runs' (``report.exits.worst``): 2 bad input or a command that cannot start, then 1
failures (or a baseline not held), then 3 nothing judged (check judged no rule, or the campaign
ran no case to its end), then 0; the ``status`` output says the same in a word
(``STATUS_WORDS``). Runnable anywhere: ``python -m mcpref.fuzz.integrate.action``.
"""

from __future__ import annotations

import json
import os
import shlex
import subprocess
import sys
from collections.abc import Mapping
from pathlib import Path

from mcpref.fuzz.integrate.inputs import writable_folder
from mcpref.fuzz.report import exits, statuses
from mcpref.reference.versions import V2026_07_28

EXIT_USAGE = exits.USAGE
# The ``status`` output of each exit status; any other (a signal's) is an error.
STATUS_WORDS = {exits.CLEAN: "pass", exits.FOUND: "fail", exits.NOTHING_JUDGED: "nothing-judged"}
_ICON = {"fail": "❌ fail", "warn": "⚠️ warn"}
_NOTHING_JUDGED = "**Nothing was judged**: {}; the step fails (exit status 3, `nothing-judged`)."


def _mcpref(*argv: str) -> int:
    return subprocess.run([sys.executable, "-m", "mcpref", *argv], check=False).returncode


def _note(row: Mapping[str, object]) -> str:
    """A row's first finding, as ``scenario: message``."""
    findings = row["findings"]
    first = findings[0] if isinstance(findings, list) and findings else {}
    return f"{first.get('scenario', '')}: {first.get('message', '')}".strip(": ")


def _rows_markdown(rows: list[dict[str, object]]) -> list[str]:
    shown = [row for row in rows if row["status"] in _ICON]
    if not shown:
        return ["No rule fails or warns."]
    lines = ["| Rule | Level | Status | Finding |", "|---|---|---|---|"]
    for row in shown:
        note = _note(row).replace("|", "\\|")  # a table cell
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
        *(_rows_markdown(rows) if exits.judged(rows) else [_NOTHING_JUDGED.format("check judged no rule")]),
    ]
    shells = _shell_lines(rows)
    if shells:
        lines += ["", "Reproduce a failure:", *shells]
    if fuzz is not None:
        failures, warnings = fuzz["failures"], fuzz["warnings"]
        assert isinstance(failures, list) and isinstance(warnings, list)
        lines += ["", f"### fuzz (seed {fuzz['seed']}, {fuzz['cases']} cases, {fuzz['messages']} messages)"]
        if not failures and not warnings:
            lines.append("No divergence found." if fuzz["cases"] else _NOTHING_JUDGED.format("no case ran to its end"))
        for failure in failures:
            lines.append(f"- ❌ `{failure['id']}` ({failure['level']}): {failure['message']} — `{failure['reproducer']}`")
        for warning in warnings:
            lines.append(f"- ⚠️ `{warning['id']}` ({warning['level']}): {warning['message']}")
    lines += ["", "Reports, the HTML page and the reproducers (`mcpref replay FILE`) are in the job's artifact."]
    return "\n".join(lines) + "\n"


def _escape(text: str, property: bool = False) -> str:
    """``text`` in a workflow command (GitHub's toolkit: %, CR and LF; in a property, : and , too)."""
    text = text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")
    return text.replace(":", "%3A").replace(",", "%2C") if property else text


def log(rows: list[dict[str, object]], cause: str | None) -> list[str]:
    """The step log: the summary line, each rule that fails or warns, and its annotation."""
    lines = [statuses.summary(rows, cause)]
    for row in rows:
        if row["status"] not in _ICON:
            continue
        note = _note(row)
        lines.append(f"{row['status']} {row['id']} ({row['level']}): {note}")
        command, title = "error" if row["status"] == "fail" else "warning", _escape(f"mcpref {row['id']}", property=True)
        lines.append(f"::{command} title={title}::{_escape(note)}")
    return lines


def outputs(status: int, check: Mapping[str, object], fuzz: Mapping[str, object] | None, out: Path) -> dict[str, str]:
    """The step's outputs."""
    rows = check["rules"]
    assert isinstance(rows, list)
    failed = {str(row["id"]) for row in rows if row["status"] == "fail"}
    if fuzz is not None:
        found = fuzz["failures"]
        assert isinstance(found, list)
        failed |= {str(failure["id"]) for failure in found}
    return {
        "status": STATUS_WORDS.get(status, "error"),
        "failures": str(len(failed)),
        "warnings": str(sum(row["status"] == "warn" for row in rows)),
        "untested": str(sum(row["status"] == statuses.UNTESTED for row in rows)),
        "report-dir": str(out),
        "junit-xml": str(out / "check.xml"),
    }


def _append(path: str | None, text: str) -> None:
    if path:
        with open(path, "a", encoding="utf-8") as stream:
            stream.write(text)


def _refused(environ: Mapping[str, str], why: str | None = None) -> int:
    """A usage error: said on stderr (mcpref said it already, without ``why``), and as the status output."""
    if why is not None:
        print(f"mcpref action: {why}", file=sys.stderr)
    _append(environ.get("GITHUB_OUTPUT"), "status=error\n")
    return EXIT_USAGE


def main(environ: Mapping[str, str] = os.environ) -> int:
    command = shlex.split(environ.get("MCPREF_COMMAND", ""))
    profile = environ.get("MCPREF_PROFILE", "spec") or "spec"
    out = Path(environ.get("MCPREF_OUT", "mcpref-out"))
    try:
        cases = int(environ.get("MCPREF_FUZZ_CASES", "0") or "0")
        seed = int(environ.get("MCPREF_SEED", "1") or "1")
        limit = float(environ.get("MCPREF_TIME_LIMIT", "600") or "600")
    except ValueError:
        return _refused(environ, "fuzz-cases and seed must be integers, time-limit a number")
    if not command or cases < 0 or not limit > 0:
        return _refused(environ, "the command input is required; fuzz-cases may not be negative; time-limit must be positive")
    unusable = writable_folder(out)
    if unusable is not None:
        return _refused(environ, f"MCPREF_OUT {out}: {unusable}")
    out.mkdir(parents=True, exist_ok=True)
    version = environ.get("MCPREF_PROTOCOL_VERSION", "")
    common = ["--profile", profile, *(["--protocol-version", version] if version else [])]
    check_json = out / "check.json"
    pages = ["--json", "--junit-xml", str(out / "check.xml"), "--html", str(out / "check.html")]
    baseline = ["--baseline", environ["MCPREF_BASELINE"]] if environ.get("MCPREF_BASELINE") else []
    with check_json.open("w", encoding="utf-8") as stream:
        check = subprocess.run(
            [sys.executable, "-m", "mcpref", "check", *common, *baseline, *pages, "--time-limit", f"{limit:g}",
             "--", *command],
            stdout=stream, check=False,
        ).returncode  # fmt: skip
    if check == EXIT_USAGE:
        return _refused(environ)
    check_result = json.loads(check_json.read_text(encoding="utf-8"))
    print("\n".join(log(check_result["rules"], _cause(check_result))), flush=True)
    results = [check]
    fuzz_report = None
    if cases:
        if not version and check_result.get("era") == "modern":  # check found the server serves that era alone
            common = [*common, "--protocol-version", V2026_07_28.name]
        report = ["--report", str(out / "fuzz.json"), "--junit-xml", str(out / "fuzz.xml")]
        budget = ["--seed", str(seed), "--max-cases", str(cases), "--budget", f"{limit:g}"]
        held = ["--baseline", environ["MCPREF_FUZZ_BASELINE"]] if environ.get("MCPREF_FUZZ_BASELINE") else []
        campaign = ["--campaign-dir", str(out / "campaign")]
        results.append(_mcpref("fuzz", *common, *held, *budget, *campaign, *report, "--", *command))
        if results[-1] == EXIT_USAGE:
            return _refused(environ)
        fuzz_report = json.loads((out / "fuzz.json").read_text(encoding="utf-8"))
    text = summary(command, profile, check_result, fuzz_report)
    (out / "summary.md").write_text(text, encoding="utf-8")
    _append(environ.get("GITHUB_STEP_SUMMARY"), text)
    status = exits.worst(results)
    given = outputs(status, check_result, fuzz_report, out)
    _append(environ.get("GITHUB_OUTPUT"), "".join(f"{key}={value}\n" for key, value in given.items()))
    return status


if __name__ == "__main__":
    sys.exit(main())
