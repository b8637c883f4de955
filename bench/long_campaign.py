"""Item 7: resident memory of one long ``mcpref fuzz`` campaign, sampled while it runs.

The campaign is a real ``mcpref fuzz --budget S --seed 1`` process (one job, so the
campaign, Hypothesis's caches and its tree of tried choices all live in it) against
``mcpref serve``: a target with bugs would not keep it busy, since Hypothesis stops
generating soon after the last new failure it finds (a campaign against the Go
``mcp-time`` ends after about two minutes).
Its VmRSS is read from /proc every few seconds. Flat means: the median resident set of
the last third of the run is within 5% of the median of the middle third (the first third
is warm-up: imports, the first rounds, the allocator's arenas filling up). Medians, because
single samples swing by a tenth with the cases' transient allocations (a hostile line of
megabytes); the highest of each third is shown beside them.
``BENCH_LONG_MINUTES`` sets the length (30 by default).
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from .common import ROOT, SERVE, Row, proc_status, progress

MINUTES = float(os.environ.get("BENCH_LONG_MINUTES", "30"))
SAMPLE_SECONDS = 5.0
FLAT = 1.05
MIB = 1024 * 1024


def sample(argv: list[str], seconds: float) -> tuple[list[tuple[float, int]], dict[str, object]]:
    """(elapsed seconds, VmRSS) every few seconds while the campaign runs, and its report."""
    with tempfile.TemporaryDirectory(prefix="mcpref-long-") as work:
        report = Path(work) / "report.json"
        command = [
            sys.executable, "-m", "mcpref", "fuzz", "--budget", f"{seconds:g}", "--seed", "1",
            "--report", str(report), "--campaign-dir", str(Path(work) / "campaign"), "--", *argv,
        ]  # fmt: skip
        started = time.monotonic()
        samples: list[tuple[float, int]] = []
        with subprocess.Popen(command, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL) as campaign:
            while campaign.poll() is None:
                try:
                    samples.append((time.monotonic() - started, proc_status(campaign.pid)["VmRSS"]))
                except (OSError, KeyError):  # it ended between poll() and the read
                    break
                time.sleep(SAMPLE_SECONDS)
        return samples, json.loads(report.read_text())


def run() -> list[Row]:
    progress(f"7 long campaign: {MINUTES:g} min of mcpref fuzz --seed 1 against mcpref serve, RSS every {SAMPLE_SECONDS:g} s")
    seconds = MINUTES * 60
    samples, report = sample(SERVE, seconds)
    thirds = [[rss for at, rss in samples if seconds * i / 3 <= at < seconds * (i + 1) / 3] for i in range(3)]
    if not thirds[1] or not thirds[2]:
        return [Row("7", "long campaign: resident memory", None, "", "", False, f"too few samples: {len(samples)}")]
    middle, last = statistics.median(thirds[1]), statistics.median(thirds[2])
    series = ", ".join(f"{at / 60:.0f} min {rss / MIB:.0f}" for at, rss in samples[:: max(1, len(samples) // 10)])
    return [
        Row(
            "7",
            f"{MINUTES:g}-minute campaign against mcpref serve: median RSS of the last third",
            last / middle,
            "its median RSS of the middle third",
            f"<= {FLAT:g}",
            last <= FLAT * middle,
            f"{last / MIB:.1f} MiB vs {middle / MIB:.1f} MiB (highest {max(thirds[2]) / MIB:.0f} vs "
            f"{max(thirds[1]) / MIB:.0f}); {report['cases']} cases, "
            f"{len(report['failures'])} failures; RSS (MiB) at {series}",
        )
    ]
