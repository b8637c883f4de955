"""SIGINT and SIGTERM during ``check``, ``fuzz``, ``check-client`` and ``fuzz-client``: every target's
(every client's) process group is killed, the
partial report is printed, marked interrupted, and the status is 128 + the signal's number, with
one line on stderr and no traceback.

The target (``tests/hostile/reports_its_group.py``) writes its process group's id to a file of its
own as it starts. Against ``check`` it reads and never answers: with a long idle limit, the run is
still waiting on it when the signal comes, whatever the machine's speed. Against ``fuzz`` it answers
pings alone, so that the campaign runs case after case, starting targets, until its long budget. The
signal is sent once enough targets have written their file (no sleep stands for that), and after
mcpref's exit no process is alive in any of their groups (the target's child included).

The client (``tests/hostile/client_reports_its_group.py``) does the same, and starts the scripted
server it is given, in its group: against ``check-client`` it then hangs, with a long limit, so that
the scenarios under way are cut short; against ``fuzz-client`` it ends at once, so that the campaign
runs case after case until the signal.
"""

from __future__ import annotations

import contextlib
import json
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
TARGET = ROOT / "tests" / "hostile" / "reports_its_group.py"
CLIENT = ROOT / "tests" / "hostile" / "client_reports_its_group.py"
HANG_GUARD = 120.0  # seconds: a run that outlives this after its signal is a failure, not a wait


def alive_in_group(group: int) -> list[int]:
    """The processes of ``group`` that are alive (a zombie has ended: only its parent's wait is left)."""
    alive = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        with contextlib.suppress(OSError):
            fields = stat.read_text().rpartition(")")[2].split()
            if int(fields[2]) == group and fields[0] != "Z":
                alive.append(int(stat.parent.name))
    return alive


def interrupted(
    tmp_path: Path, command: list[str], signum: int, ready: int, *mode: str
) -> subprocess.CompletedProcess[str]:
    """``command`` (mcpref's arguments before the target) run until ``ready`` targets have started,
    then sent ``signum``; its completed process, once no process of any target's group is left."""
    markers = tmp_path / "markers"
    target = [sys.executable, str(TARGET), str(markers), *mode]
    return signalled(tmp_path, [*command, "--idle-limit", "600", "--", *target], signum, ready)


def signalled(tmp_path: Path, command: list[str], signum: int, ready: int) -> subprocess.CompletedProcess[str]:
    """mcpref run with ``command`` until ``ready`` processes have written their marker into
    ``tmp_path / "markers"``, then sent ``signum``; its completed process, once no process of any of
    their groups is left."""
    markers = tmp_path / "markers"
    markers.mkdir()
    argv = [sys.executable, "-m", "mcpref", *command]
    proc = subprocess.Popen(argv, cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + HANG_GUARD
        while len([p for p in markers.iterdir() if p.suffix != ".tmp"]) < ready:
            assert proc.poll() is None, proc.communicate()
            assert time.monotonic() < deadline, "the targets did not start"
            time.sleep(0.02)  # polling the markers, not a wait standing for them
        proc.send_signal(signum)
        stdout, stderr = proc.communicate(timeout=HANG_GUARD)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    groups = {int(p.read_text()) for p in markers.iterdir() if p.suffix != ".tmp"}
    assert len(groups) >= ready
    left = {group: alive_in_group(group) for group in groups}
    assert not any(left.values()), left
    return subprocess.CompletedProcess(argv, proc.returncode, stdout, stderr)


def check_ended(done: subprocess.CompletedProcess[str], signum: int) -> None:
    name = signal.Signals(signum).name
    assert done.returncode == 128 + signum, (done.returncode, done.stderr[-2000:])
    assert "Traceback" not in done.stderr and "nothing was judged" not in done.stderr, done.stderr
    # The one line about the signal, after any progress lines.
    assert done.stderr.splitlines()[-1] == f"mcpref: interrupted by {name}: what was judged before it is reported"
    assert f"interrupted by {name}: a partial report" in done.stdout


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM], ids=["SIGINT", "SIGTERM"])
def test_a_signal_during_check_ends_every_target_and_prints_the_partial_report(tmp_path: Path, signum: int) -> None:
    done = interrupted(tmp_path, ["check"], signum, ready=2)
    check_ended(done, signum)
    assert "stopped when mcpref got" in done.stdout  # the rules left untested say why


@pytest.mark.parametrize(
    ("signum", "jobs"),
    [(signal.SIGINT, 1), (signal.SIGTERM, 1), (signal.SIGINT, 2), (signal.SIGTERM, 2)],
    ids=["SIGINT", "SIGTERM", "SIGINT-jobs-2", "SIGTERM-jobs-2"],
)
def test_a_signal_during_fuzz_ends_every_target_and_prints_the_partial_report(
    tmp_path: Path, signum: int, jobs: int
) -> None:
    report = tmp_path / "report.json"
    command = ["fuzz", "--seed", "1", "--budget", "600", "--jobs", str(jobs), "--report", str(report)]
    # Targets the campaign started: after the one started to see that the command runs, a kept process
    # and two spares a job, then a spare for each case that runs fresh.
    done = interrupted(tmp_path, [*command, "--campaign-dir", str(tmp_path / "c")], signum, 4 + 3 * jobs, "pings")
    check_ended(done, signum)
    assert f'"interrupted": "{signal.Signals(signum).name}"' in report.read_text()


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM], ids=["SIGINT", "SIGTERM"])
def test_a_signal_during_check_client_ends_every_client_and_prints_the_partial_report(tmp_path: Path, signum: int) -> None:
    client = [sys.executable, str(CLIENT), str(tmp_path / "markers"), "hangs", "{server}"]
    # Two clients started: the plain tool call's and another scenario's, both waiting.
    done = signalled(tmp_path, ["check-client", "--limit", "600", "--", *client], signum, ready=2)
    check_ended(done, signum)
    assert f"was stopped when mcpref got {signal.Signals(signum).name}" in done.stdout  # the rules left untested say why


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM], ids=["SIGINT", "SIGTERM"])
def test_a_signal_during_fuzz_client_ends_every_client_and_prints_the_partial_report(tmp_path: Path, signum: int) -> None:
    client = [sys.executable, str(CLIENT), str(tmp_path / "markers"), "quits", "{server}"]
    command = ["fuzz-client", "--seed", "1", "--cases", "100000", "--json", "--"]
    # Clients started one after the other: the third starts once the plain call and a case are done.
    done = signalled(tmp_path, [*command, *client], signum, ready=3)
    assert done.returncode == 128 + signum, (done.returncode, done.stderr[-2000:])
    assert "Traceback" not in done.stderr and "nothing was judged" not in done.stderr, done.stderr
    name = signal.Signals(signum).name
    assert done.stderr.splitlines()[-1] == f"mcpref: interrupted by {name}: what was judged before it is reported"
    assert json.loads(done.stdout)["interrupted"] == name
