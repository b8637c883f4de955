"""What the stages of ``make field`` share: where they read and write, and the shapes they hand on.

In: nothing (the repository's layout). Out: the paths (``field/``, the git-ignored work folder
``.field/``, the pages under ``docs/``), the eras and profiles each target is run in, and the
JSON shapes of one run's results, which ``runs`` writes and the later stages read.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any, TypedDict

ROOT = Path(__file__).resolve().parents[1]
SOURCE = ROOT / "field"
WORK = ROOT / ".field"
RUNS = WORK / "runs"
DOCS = ROOT / "docs"
REPRO = DOCS / "field-repro"
REPORT = DOCS / "field-report.md"  # the summary
PAGES = DOCS / "field"  # its detail pages: one per target, the runs, the triage
PYTHON = sys.executable
MCPREF = [PYTHON, "-m", "mcpref"]
MODERN = "2026-07-28"
MEASUREMENT = "measurement"  # the level of a rule that reports a time, not a verdict
ERAS = ("legacy", "modern")
PROFILES = ("spec", "strict")

# mcpref's own JSON (``check --json``, ``fuzz --report``) is read as it comes: its shape is
# mcpref's, documented there, and only a few of its keys are read here.
Json = dict[str, Any]


class TargetResult(TypedDict):
    """One target in one run: its four checks (``"<era> <profile>"``), and its campaigns by era."""

    checks: dict[str, Json]
    modern: bool  # whether the modern check saw it speak that era (then it is fuzzed in it too)
    fuzz: dict[str, Json]


RunResults = dict[str, TargetResult]  # by target label
