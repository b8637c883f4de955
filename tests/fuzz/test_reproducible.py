"""A seed and a case budget give the same cases, whatever else the process has loaded.

Hypothesis mixes the literals of every loaded module outside site-packages into its draws,
so without ``search.reproducible`` the cases would change with the way mcpref was
installed, with any literal added to its code, and with what else the process imported.
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from mcpref.fuzz.campaign.runner import Campaign
from mcpref.fuzz.generate.case import Case

REFERENCE = [sys.executable, "-m", "mcpref.reference"]


def cases_of_a_campaign(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    seen: list[str] = []
    execute = Campaign.execute

    def recorded(self: Campaign, case: Case, timing: object = None) -> object:
        seen.append(hashlib.sha256(b"|".join(case.chunks)).hexdigest())
        return execute(self, case)

    monkeypatch.setattr(Campaign, "execute", recorded)
    Campaign(REFERENCE, max_cases=40, seed=1, budget=float("inf")).run()
    monkeypatch.setattr(Campaign, "execute", execute)
    return seen


def test_the_cases_do_not_depend_on_the_literals_of_loaded_modules(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    before = cases_of_a_campaign(monkeypatch)
    # A local module full of literals of the kinds the strategies draw, loaded between two runs.
    source = tmp_path / "mcpref_literals.py"
    numbers = ", ".join(str(n) for n in range(-300, 300))
    words = ", ".join(repr(chr(c) * n) for c in range(0x20, 0x7F) for n in (1, 2, 3))
    source.write_text(f"NUMBERS = [{numbers}]\nWORDS = [{words}]\nBYTES = [b'\\xff', b'{{']\n")
    spec = importlib.util.spec_from_file_location("mcpref_literals", source)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    monkeypatch.setitem(sys.modules, "mcpref_literals", module)
    spec.loader.exec_module(module)
    assert cases_of_a_campaign(monkeypatch) == before
    assert len(before) == 40


# The same seeded campaigns and check runs give the same cases and reports whatever the layout of
# the code: their reports, without timings and counts of processes and messages, recorded once and held here.
# `python tests/fuzz/test_reproducible.py` records them anew (only when a change of verdicts is meant).
RECORDED = Path(__file__).with_name("seeded_reports.json")
EXAMPLES = Path(__file__).parents[2] / "examples"
SEEDED_RUNS: dict[str, list[str]] = {
    "fuzz-legacy-silent": ["fuzz", "--seed", "1", "--max-cases", "15", "--", "buggy/silent_on_parse_error.py"],
    "fuzz-legacy-double": ["fuzz", "--seed", "2", "--max-cases", "15", "--", "buggy/double_answer.py"],
    "fuzz-modern-envelope": [
        "fuzz",
        "--seed",
        "3",
        "--max-cases",
        "15",
        "--protocol-version",
        "2026-07-28",
        "--",
        "buggy/remembers_envelope.py",
    ],
    "check-strict-first": ["check", "--profile", "strict", "--", "buggy/first_message_only.py"],
    "check-modern-meta": ["check", "--protocol-version", "2026-07-28", "--", "buggy/meta_optional.py"],
}
KEPT = ("id", "level", "status", "line", "message", "expected", "actual", "all_findings")


def finding(whole: dict[str, object]) -> dict[str, object]:
    """A finding without what timing may reorder (its transcript), its input as a digest."""
    kept = {k: whole[k] for k in KEPT if k in whole}
    if "input" in whole:
        kept["input"] = hashlib.sha256(repr(whole["input"]).encode()).hexdigest()
    return kept


def seeded_report(name: str, folder: Path) -> dict[str, object]:
    *options, example = SEEDED_RUNS[name]
    folder = folder / name
    folder.mkdir()
    report = folder / f"{name}.json"
    flag = ["--report", str(report), "--campaign-dir", str(folder / "campaign")] if options[0] == "fuzz" else ["--json"]
    done = subprocess.run(
        [sys.executable, "-m", "mcpref", *options[:-1], *flag, "--", sys.executable, str(EXAMPLES / example)],
        capture_output=True,
        text=True,
        timeout=600,
        cwd=folder,
    )
    assert done.returncode in (0, 1), done.stderr
    whole = json.loads(report.read_text() if options[0] == "fuzz" else done.stdout)
    if options[0] == "fuzz":
        return {
            "cases": whole["cases"],
            "first_failure_at_case": whole["first_failure_at_case"],
            "findings": [finding(f) for f in whole["failures"] + whole["warnings"]],
        }
    return {
        "cause": whole["cause"],
        "rules": [{**row, "findings": [finding(f) for f in row["findings"]]} for row in whole["rules"]],
    }


@pytest.mark.parametrize("name", sorted(SEEDED_RUNS))
def test_a_seeded_run_gives_the_report_recorded(name: str, tmp_path: Path) -> None:
    assert seeded_report(name, tmp_path) == json.loads(RECORDED.read_text())[name]


if __name__ == "__main__":
    with tempfile.TemporaryDirectory() as scratch:
        recorded = {name: seeded_report(name, Path(scratch)) for name in sorted(SEEDED_RUNS)}
    RECORDED.write_text(json.dumps(recorded, indent=1, sort_keys=True) + "\n")
