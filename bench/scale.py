"""Item 6: campaigns beyond one process: jobs, workers sharing Redis, and the harness's own cost.

Against the fastest target at hand (``common.fast_target``: the Go ``mcp-time`` that
``make bench`` installs), for ``BUDGET`` seconds each, seed 1:

- cases per second of ``mcpref fuzz`` with one job and with two (``--jobs 2``, a process
  per job), the campaign's own duration as the clock;
- the same with two ``mcpref fuzz`` worker processes started side by side, seeds 1 and 2,
  sharing one example database in a ``redis-server`` this benchmark starts (skipped, and
  said so, where there is none);
- the harness's own cost against the target's, for one job, two ways: wall time (the
  campaign's time not spent driving the target, against the time spent driving it:
  starting processes, writing, waiting for reads and answers), and CPU time (this
  process's, against that of the target processes it started and reaped).
"""

from __future__ import annotations

import json
import resource
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from mcpref.fuzz.campaign.jobs import run_jobs
from mcpref.fuzz.campaign.outcome import Outcome
from mcpref.fuzz.campaign.runner import Campaign

from .common import ROOT, Row, fast_target, progress

BUDGET = 60.0
JOBS_TARGET = 1.8
HARNESS_TARGET = 0.5


def _cpu(who: int) -> float:
    usage = resource.getrusage(who)
    return usage.ru_utime + usage.ru_stime


@dataclass(frozen=True)
class _Jobs:
    outcome: Outcome
    wall: float
    own_cpu: float  # this process's CPU seconds meanwhile
    target_cpu: float  # the CPU seconds of the children reaped meanwhile: the target processes

    @property
    def rate(self) -> float:
        return self.outcome.stats.cases / self.wall


def _jobs(argv: list[str], jobs: int) -> _Jobs:
    progress(f"6 scale: {BUDGET:.0f} s of mcpref fuzz --seed 1 --jobs {jobs}")
    own, children = _cpu(resource.RUSAGE_SELF), _cpu(resource.RUSAGE_CHILDREN)
    started = time.monotonic()
    outcome = run_jobs(jobs, Campaign(argv, budget=BUDGET, seed=1))
    wall = time.monotonic() - started
    return _Jobs(outcome, wall, _cpu(resource.RUSAGE_SELF) - own, _cpu(resource.RUSAGE_CHILDREN) - children)


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _redis_workers(argv: list[str], workers: int) -> tuple[float, str]:
    """Cases per second of ``workers`` mcpref fuzz processes sharing one Redis, and what they did."""
    server = shutil.which("redis-server")
    if server is None:
        raise FileNotFoundError("redis-server is not installed")
    port = _free_port()
    progress(f"6 scale: {workers} mcpref fuzz workers sharing redis-server on port {port}, {BUDGET:.0f} s each")
    with tempfile.TemporaryDirectory(prefix="mcpref-scale-") as work:
        redis = subprocess.Popen(
            [server, "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--dir", work],
            stdout=subprocess.DEVNULL,
        )
        try:
            for _ in range(100):  # until it accepts connections
                with socket.socket() as client:
                    if client.connect_ex(("127.0.0.1", port)) == 0:
                        break
                time.sleep(0.05)
            reports = [Path(work) / f"worker-{index}.json" for index in range(workers)]
            fuzz = [sys.executable, "-m", "mcpref", "fuzz", "--budget", f"{BUDGET:g}"]
            database = ["--database", f"redis://127.0.0.1:{port}/0"]
            running = [
                subprocess.Popen(
                    [*fuzz, "--seed", str(index + 1), *database, "--report", str(report),
                     "--campaign-dir", str(Path(work) / f"campaign-{index}"), "--", *argv],
                    cwd=ROOT,
                    stdout=subprocess.DEVNULL,
                )
                for index, report in enumerate(reports)
            ]
            for worker in running:
                worker.wait()
            done = [json.loads(report.read_text()) for report in reports]
        finally:
            redis.terminate()
            redis.wait()
    cases = sum(int(report["cases"]) for report in done)
    seconds = max(float(report["seconds"]) for report in done)
    return cases / seconds, f"{cases} cases in {seconds:.1f} s ({' + '.join(str(r['cases']) for r in done)})"


def run() -> list[Row]:
    label, argv = fast_target()
    one, two = _jobs(argv, 1), _jobs(argv, 2)
    stats = one.outcome.stats
    own_wall = one.wall - stats.target_seconds
    rows = [
        Row(
            "6",
            f"fuzz --jobs 2 → {label}: cases per second",
            two.rate / one.rate,
            "fuzz --jobs 1, same target",
            f">= {JOBS_TARGET:g}",
            two.rate >= JOBS_TARGET * one.rate,
            f"{two.rate:.0f} vs {one.rate:.0f} cases/s ({two.outcome.stats.cases} and {stats.cases} cases)",
        )
    ]
    try:
        shared, done = _redis_workers(argv, 2)
        rows.append(
            Row(
                "6",
                f"2 workers sharing Redis → {label}: cases per second",
                shared / one.rate,
                "fuzz --jobs 1, same target",
                "",
                None,
                f"{shared:.0f} vs {one.rate:.0f} cases/s; {done}",
            )
        )
    except FileNotFoundError as missing:
        rows.append(Row("6", "2 workers sharing Redis: cases per second", None, "", "", None, f"not run: {missing}"))
    rows += [
        Row(
            "6",
            f"fuzz --jobs 1 → {label}: harness wall time ÷ time driving the target",
            own_wall / stats.target_seconds,
            "the time driving the target, same campaign",
            f"<= {HARNESS_TARGET:g}",
            own_wall <= HARNESS_TARGET * stats.target_seconds,
            f"{own_wall:.1f} s vs {stats.target_seconds:.1f} s of {one.wall:.1f} s; the oracle {stats.oracle_seconds:.1f} s",
        ),
        Row(
            "6",
            f"fuzz --jobs 1 → {label}: harness CPU time ÷ the target processes' CPU time",
            one.own_cpu / max(one.target_cpu, 1e-9),
            "the CPU time of the target processes, same campaign",
            f"<= {HARNESS_TARGET:g}",
            one.own_cpu <= HARNESS_TARGET * one.target_cpu,
            f"{one.own_cpu:.1f} s vs {one.target_cpu:.1f} s; {stats.processes} processes started",
        ),
    ]
    return rows
