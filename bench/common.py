"""What every benchmark shares: timing, the machine's description, result rows, the table.

Every figure of the table is a ratio of two measurements taken in the same run, one of
them the row's reference point, so that a loaded or slower machine moves both alike.
Absolute numbers go to the ``context`` column only. Timings take the best of several
repeats, the subject and its reference point interleaved.
"""

from __future__ import annotations

import contextlib
import datetime
import gc
import os
import platform
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SERVE = [sys.executable, "-m", "mcpref.reference"]  # mcpref serve, without the fuzzer's imports


@dataclass(frozen=True)
class Row:
    item: str  # the item: "1a", "2", ...
    what: str
    ratio: float | None  # None: not measured (the reason is in ``context``)
    against: str  # the reference point, measured in the same run
    target: str = ""  # e.g. ">= 0.5"; empty when the row is context for another
    met: bool | None = None
    context: str = ""  # absolute numbers, for the record only


def best_of(functions: list[Callable[[], object]], repeats: int) -> list[float]:
    """The best time of each function over ``repeats`` rounds, the functions interleaved."""
    best = [float("inf")] * len(functions)
    for _ in range(repeats):
        for index, function in enumerate(functions):
            gc.collect()
            started = time.perf_counter()
            function()
            best[index] = min(best[index], time.perf_counter() - started)
    return best


def proc_status(pid: int) -> dict[str, int]:
    """The memory lines of /proc/<pid>/status, in bytes (VmRSS, VmHWM, ...)."""
    values: dict[str, int] = {}
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        key, _, rest = line.partition(":")
        parts = rest.split()
        if key.startswith("Vm") and len(parts) == 2 and parts[1] == "kB":
            values[key] = int(parts[0]) * 1024
    return values


def reset_peak(pid: int) -> None:
    """Start VmHWM again from the current resident set (Linux 4.0 and newer)."""
    Path(f"/proc/{pid}/clear_refs").write_text("5")


def machine() -> str:
    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.partition(":")[2].strip()
                break
    except OSError:  # pragma: no cover (not Linux)
        pass
    memory = ""
    try:
        kib = int(Path("/proc/meminfo").read_text().split()[1])
        memory = f", {kib / 2**20:.0f} GiB"
    except (OSError, ValueError, IndexError):  # pragma: no cover (not Linux)
        pass
    load = ", load {:.1f} {:.1f} {:.1f} at start".format(*os.getloadavg())
    node = ""
    with contextlib.suppress(OSError):
        node = ", Node.js " + subprocess.run(["node", "--version"], capture_output=True, text=True).stdout.strip()
    return (
        f"{datetime.date.today().isoformat()}; {cpu}, {os.cpu_count()} cores{memory}; "
        f"Linux {platform.release()}; Python {platform.python_version()}{node}{load}"
    )


def fmt_ratio(value: float | None) -> str:
    if value is None:
        return "—"
    if value >= 100:
        return f"{value:.0f}"
    if value >= 0.1:
        return f"{value:.2f}"
    return f"{value:.2g}"


def table(rows: list[Row]) -> str:
    """The rows as a Markdown table (printed as is, and pasted into README.md as is)."""
    header = ("#", "measurement", "ratio", "against (same run)", "target", "met", "context")
    body = [
        (
            row.item,
            row.what,
            fmt_ratio(row.ratio),
            row.against,
            row.target,
            "" if row.met is None else ("yes" if row.met else "**no**"),
            row.context,
        )
        for row in rows
    ]
    widths = [max(len(cells[i]) for cells in [header, *body]) for i in range(len(header))]

    def line(cells: tuple[str, ...]) -> str:
        return "| " + " | ".join(cell.ljust(width) for cell, width in zip(cells, widths, strict=True)) + " |"

    rule = "|" + "|".join("-" * (width + 2) for width in widths) + "|"
    return "\n".join([line(header), rule, *(line(cells) for cells in body)])


def progress(text: str) -> None:
    sys.stderr.write(f"bench: {text}\n")
    sys.stderr.flush()


# The Go server of `make field` (npm mcp-time-linux-x64@0.4.0, on mark3labs/mcp-go): a native
# target that starts in milliseconds, so that what a campaign spends is mostly the harness's.
GO_TIME = ROOT / ".field" / "node" / "node_modules" / "mcp-time-linux-x64" / "bin" / "mcp-time"


def fast_target() -> tuple[str, list[str]]:
    """The fastest target at hand: the Go binary when installed (``make bench`` installs it), else mcpref serve."""
    if GO_TIME.exists():
        return "mcp-time (Go)", [str(GO_TIME), "--transport", "stdio"]
    return "mcpref serve (the Go mcp-time is not installed)", SERVE
