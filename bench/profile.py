"""``python -m bench.profile [PINGS]``: where ``mcpref serve`` spends its time answering pings.

Runs ``mcpref serve`` under py-spy (``make bench`` installs it into .venv) while the
bench client sends pipelined pings after a handshake (300,000 by default), then prints
the functions that hold the most samples: inclusive (the function and what it calls)
and by leaf line. Start-up is better seen with ``python -X importtime -m mcpref.reference``.
"""

from __future__ import annotations

import collections
import shutil
import sys
import tempfile
from pathlib import Path

from .client import Server
from .common import SERVE
from .serve import PINGS, pings


def _py_spy() -> str:
    found = shutil.which("py-spy", path=str(Path(sys.executable).parent)) or shutil.which("py-spy")
    if found is None:
        sys.exit("py-spy is not installed: run make bench, or .venv/bin/pip install py-spy==0.4.3")
    return found


def _frame(frame: str) -> tuple[str, str]:
    """(function and file, function and file:line) of one py-spy raw frame."""
    name, _, where = frame.partition(" (")
    where = where.rstrip(")")
    return f"{name} ({where.rpartition(':')[0] or where})", f"{name} ({where})"


def summary(raw: Path, top: int = 25) -> str:
    inclusive: collections.Counter[str] = collections.Counter()
    leaf: collections.Counter[str] = collections.Counter()
    total = 0
    for line in raw.read_text().splitlines():
        stack, _, count = line.rpartition(" ")
        samples = int(count)
        total += samples
        frames = stack.split(";")
        for function in {_frame(frame)[0] for frame in frames}:
            inclusive[function] += samples
        leaf[_frame(frames[-1])[1]] += samples
    out = [f"{total} samples", "", "inclusive:"]
    out += [f"  {100 * n / total:5.1f}%  {name}" for name, n in inclusive.most_common(top)]
    out += ["", "by leaf line:"]
    out += [f"  {100 * n / total:5.1f}%  {name}" for name, n in leaf.most_common(top)]
    return "\n".join(out)


def main() -> None:
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 3 * PINGS
    with tempfile.TemporaryDirectory() as directory:
        raw = Path(directory) / "profile.txt"
        record = [_py_spy(), "record", "--format", "raw", "--rate", "1000", "--output", str(raw), "--"]
        with Server([*record, *SERVE]) as server:
            server.handshake()
            server.pipelined(pings(count), count, 600.0)
            server.stdin.close()
            server.proc.wait(60)  # at EOF the server exits 0, and py-spy writes its file
        print(summary(raw))


if __name__ == "__main__":
    main()
