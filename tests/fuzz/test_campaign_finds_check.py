"""A seeded campaign finds every rule that ``check`` fails, against each buggy example.

``check`` runs a fixed corpus and the follow-ups of what the server listed; a campaign runs them
first, then draws sessions (``generate.campaign_cases``). For each buggy example (examples/buggy/) in each era it is judged in,
the rules ``check --profile spec`` fails are the ones a campaign of ``CASES`` cases, seed 1, the
same profile, judging only those rules (``--select``), must fail too. ``make buggy-campaigns`` runs
every example (``MCPREF_BUGGY_CAMPAIGNS=full``; some twenty minutes of two cores); ``make test`` one,
a server answering notifications with an id-null -32601.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from test_campaign import BUGGY, MODERN_EXPECTED, ROOT

FULL = os.environ.get("MCPREF_BUGGY_CAMPAIGNS") == "full"
CASES = 100
MODERN = ("--protocol-version", "2026-07-28")
EXAMPLES = sorted(path.stem for path in BUGGY.glob("*.py"))
RUNS = [(name, ()) for name in EXAMPLES] + [(name, MODERN) for name in sorted(MODERN_EXPECTED)]
IN_MAKE_TEST = {("answers_notification", ())}
CHOSEN = [(name, era) for name, era in RUNS if FULL or (name, era) in IN_MAKE_TEST]


def _mcpref(*argv: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "mcpref", *argv], cwd=ROOT, capture_output=True, text=True, timeout=1800, check=False)


@pytest.mark.spec("RPC-NOTIFICATION-SILENT")
@pytest.mark.parametrize(("name", "era"), CHOSEN, ids=[f"{name}{'-modern' if era else ''}" for name, era in CHOSEN])
def test_a_seeded_campaign_fails_every_rule_check_fails(tmp_path: Path, name: str, era: tuple[str, ...]) -> None:
    target = [sys.executable, str(BUGGY / f"{name}.py")]
    checked = json.loads(_mcpref("check", "--profile", "spec", "--json", *era, "--", *target).stdout)
    failed = sorted(row["id"] for row in checked["rules"] if row["status"] == "fail")
    if not failed:
        pytest.skip(f"check fails no rule of {name}")
    if checked["era"] == "modern" and not era:
        pytest.skip(f"check judged {name} in the modern era, which its modern run compares")
    report = tmp_path / "report.json"
    options = ["--seed", "1", "--max-cases", str(CASES), "--profile", "spec", "--select", ",".join(failed)]
    _mcpref("fuzz", *options, *era, "--report", str(report), "--campaign-dir", str(tmp_path / "c"), "--", *target)
    found = {failure["id"] for failure in json.loads(report.read_text())["failures"]}
    print(f"{name}{' (modern)' if era else ''}: check fails {failed}; a campaign of {CASES} cases finds {sorted(found)}")
    assert set(failed) <= found, sorted(set(failed) - found)
