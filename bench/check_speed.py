"""Item 8: ``mcpref check``'s wall time against the target's own cold start.

For each target of ``make field`` of the stacks people write servers in (the Python SDK,
FastMCP, the TypeScript SDK, Go), installed under ``.field/`` (``make bench`` installs them,
as ``make field`` does): its cold start, the best of ``COLD_REPEATS`` times from spawning it to
reading its answer to ``initialize``, then the wall time of one ``mcpref check`` on it (the
command line, as a user runs it), both in this run. The goal: check takes at most
``GOAL_FACTOR`` times the cold start plus ``GOAL_SECONDS``. The ratio shown is check's time
over that goal (at most 1: met); the context has the plain times and check / cold start.
A target not installed is said so, not measured. The context also gives the CPU time check and
the processes it started took: over the machine's cores, a bound below which no schedule of that
work can bring check's wall time.
"""

from __future__ import annotations

import json
import os
import resource
import subprocess
import sys
import time

from .common import ROOT, Row, progress

sys.path.insert(0, str(ROOT / "field"))  # field/targets.py: a script folder, not a package
from targets import TARGETS

MEASURED = ("mcp-server-time", "fastmcp", "server-memory", "server-sequential-thinking", "mcp-time-go")
COLD_REPEATS = 3
GOAL_FACTOR = 5.0
GOAL_SECONDS = 5.0
INITIALIZE = (
    json.dumps(
        {
            "jsonrpc": "2.0",
            "id": 1,
            "method": "initialize",
            "params": {
                "protocolVersion": "2025-06-18",
                "capabilities": {},
                "clientInfo": {"name": "bench", "version": "1"},
            },
        }
    ).encode()
    + b"\n"
)


def _installed(argv: list[str]) -> bool:
    """Whether the target's program (or, under ``node``/``env``, its script) is there: the first
    word of its command under ``.field/``."""
    installed = next((word for word in argv if word.startswith(".field/")), None)
    return installed is None or (ROOT / installed).exists()


def cold_start(argv: list[str]) -> float:
    """Seconds from spawning the target to a line of its answer to ``initialize``."""
    started = time.monotonic()
    proc = subprocess.Popen(argv, cwd=ROOT, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    assert proc.stdin is not None and proc.stdout is not None
    try:
        proc.stdin.write(INITIALIZE)
        proc.stdin.flush()
        if not proc.stdout.readline():
            raise RuntimeError(f"{argv[0]} exited before answering initialize")
        return time.monotonic() - started
    finally:
        proc.kill()
        proc.wait()


def _children_cpu() -> float:
    """CPU seconds of the processes this one has waited for, and of theirs."""
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


def check_time(argv: list[str]) -> tuple[float, float, dict[str, int]]:
    """The wall time of ``mcpref check --json`` on ``argv``, the CPU time it and its target
    processes took, and its count of rows by status."""
    cpu = _children_cpu()
    started = time.monotonic()
    done = subprocess.run(
        [sys.executable, "-m", "mcpref", "check", "--json", "--", *argv],
        cwd=ROOT,
        capture_output=True,
        check=False,
    )
    took = time.monotonic() - started
    cpu = _children_cpu() - cpu
    if done.returncode not in (0, 1):
        raise RuntimeError(f"mcpref check exited {done.returncode}: {done.stderr.decode()[-500:]}")
    counts: dict[str, int] = {}
    for row in json.loads(done.stdout)["rules"]:
        counts[row["status"]] = counts.get(row["status"], 0) + 1
    return took, cpu, counts


def run() -> list[Row]:
    rows = []
    for target in (t for t in TARGETS if t.label in MEASURED):
        what = f"`mcpref check` on {target.label} ({target.stack.split(' (')[0]})"
        if not _installed(target.argv):
            rows.append(Row("8", what, None, "its cold start", context="not installed (make bench installs it)"))
            continue
        progress(f"8 check speed: {target.label}, cold start then mcpref check")
        cold = min(cold_start(target.argv) for _ in range(COLD_REPEATS))
        took, cpu, counts = check_time(target.argv)
        cores = os.cpu_count() or 1
        goal = GOAL_FACTOR * cold + GOAL_SECONDS
        statuses = ", ".join(f"{count} {status}" for status, count in sorted(counts.items()))
        context = (
            f"check {took:.1f} s, cold start {cold:.2f} s (check {took / cold:.0f}x it), goal {goal:.1f} s; "
            f"CPU {cpu:.1f} s on {cores} cores, so at least {cpu / cores:.1f} s; {statuses}"
        )
        rows.append(
            Row(
                "8",
                what,
                took / goal,
                f"{GOAL_FACTOR:g} x its cold start + {GOAL_SECONDS:g} s",
                "<= 1",
                took <= goal,
                context,
            )
        )
    return rows
