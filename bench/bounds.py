"""Item 9: ``mcpref check`` and a short ``mcpref fuzz`` against hostile targets, bounded in memory and time.

Each target of ``tests/hostile`` that floods (lines of a few KiB, lines of 1 MiB, one endless line,
random bytes) or never reads is run through the command line, as a user runs it: ``check
--time-limit`` ``LIMIT`` and ``fuzz --budget`` ``LIMIT``. Two figures each, beside their limits,
from the same run: mcpref's peak resident set (``os.wait4``'s ``ru_maxrss``: the largest of
mcpref and the processes it waited for) against ``PEAK_LIMIT``, and the wall time against the
limit plus a grace (check: ``CHECK_GRACE`` for Python's start-up and the report; fuzz: the
campaign's shrinking grace and attribution time, and as much again for the start-ups).
Each command runs in a new folder of its own, as a first run in a checkout does (in CI, every
run): none finds what an earlier one left in its working folder (Hypothesis's ``.hypothesis/``
cache), so no row's figures depend on the rows before it.
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from mcpref.fuzz.campaign.outcome import ATTRIBUTION_SECONDS
from mcpref.fuzz.campaign.runner import GRACE_SECONDS

from .common import ROOT, Row, progress

MIB = 1024 * 1024
PEAK_LIMIT = 200 * MIB
LIMIT = 10.0  # seconds: check's --time-limit and fuzz's --budget
CHECK_GRACE = 5.0
FUZZ_GRACE = GRACE_SECONDS + ATTRIBUTION_SECONDS + CHECK_GRACE
TARGETS = ("floods_stdout", "floods_long_lines", "endless_line", "random_bytes", "never_reads")


# Runs a command and prints the largest resident set (KiB) of it and the processes it waited for. A
# small process of its own: a child's peak counts the memory of the process it was forked from.
LAUNCHER = (
    "import resource, subprocess, sys\n"
    "status = subprocess.call(sys.argv[1:], stderr=subprocess.DEVNULL)\n"
    "sys.stderr.write(str(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss))\n"
    "sys.exit(status)\n"
)


def measured(argv: list[str], cwd: Path) -> tuple[int, float, int, bytes]:
    """(exit status, wall seconds, peak RSS in bytes, stdout) of ``argv``, run from ``LAUNCHER``."""
    began = time.monotonic()
    done = subprocess.run([sys.executable, "-c", LAUNCHER, *argv], cwd=cwd, capture_output=True, check=False)
    peak = int(done.stderr.decode().rsplit("\n", 1)[-1].strip() or 0) * 1024
    return done.returncode, time.monotonic() - began, peak, done.stdout


def _failed(command: str, out: bytes, report: Path) -> str:
    """The rules found failing, as the command's JSON tells."""
    try:
        if command == "check":
            rows = json.loads(out)["rules"]
            return ", ".join(row["id"] for row in rows if row["status"] == "fail") or "none"
        return ", ".join(f["id"] for f in json.loads(report.read_text())["failures"]) or "none"
    except (ValueError, KeyError, OSError):
        return "no report"


def _rows(command: str, target: str, status: int, seconds: float, peak: int, failed: str) -> list[Row]:
    grace = CHECK_GRACE if command == "check" else FUZZ_GRACE
    option = "--time-limit" if command == "check" else "--budget"
    what = f"{command} {option} {LIMIT:g}, {target}"
    context = f"exit {status}, failing: {failed}"
    return [
        Row("9", f"{what}: peak RSS", peak / PEAK_LIMIT, "200 MiB", "<= 1", peak <= PEAK_LIMIT,
            f"{peak / MIB:.1f} MiB; {context}"),
        Row("9", f"{what}: wall time", seconds / (LIMIT + grace), f"the limit + {grace:g} s", "<= 1",
            seconds <= LIMIT + grace, f"{seconds:.1f} s"),
    ]  # fmt: skip


def run() -> list[Row]:
    rows: list[Row] = []
    with tempfile.TemporaryDirectory(prefix="mcpref-bench-bounds-") as folder:
        for target in TARGETS:
            argv = [sys.executable, str(ROOT / "tests" / "hostile" / f"{target}.py")]
            for command in ("check", "fuzz"):
                progress(f"9 bounds: {command} against {target}")
                where = Path(folder) / f"{command}-{target}"
                where.mkdir()
                report = where / "report.json"
                options = (
                    ["check", "--json", "--time-limit", str(LIMIT)]
                    if command == "check"
                    else ["fuzz", "--seed", "1", "--budget", str(LIMIT), "--report", str(report),
                          "--campaign-dir", str(where / "campaign")]
                )  # fmt: skip
                status, seconds, peak, out = measured([sys.executable, "-m", "mcpref", *options, "--", *argv], where)
                rows += _rows(command, target, status, seconds, peak, _failed(command, out, report))
    return rows
