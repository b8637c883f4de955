"""Slow is not dead: verdicts that do not depend on the speed of the target or of the machine.

A correct server made slow (``tests/hostile/slow_but_correct.py``: 0.7 s to start, four
seconds of CPU time per MiB read) gets the reference's verdicts from ``check``; its slowness is
measured (STDIO-LATENCY), never failed. At the driver, a target is given up on only when it
shows no sign of work, or has worked past the limit; work done in a child counts.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from mcpref.fuzz.drive import signs
from mcpref.fuzz.drive.process import Process
from mcpref.fuzz.drive.signs import look, machine_quiet
from mcpref.fuzz.drive.target import run_case
from mcpref.fuzz.drive.timing import Timing
from mcpref.fuzz.drive.waiting import Patience
from mcpref.fuzz.judge.oracle import Profile, Status, judge

ROOT = Path(__file__).resolve().parents[2]
HOSTILE = ROOT / "tests" / "hostile"
INIT = (
    b'{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25",'
    b'"capabilities":{},"clientInfo":{"name":"t","version":"1"}}}\n'
    b'{"jsonrpc":"2.0","method":"notifications/initialized"}\n'
)
PING = b'{"jsonrpc":"2.0","id":1,"method":"ping"}\n'
# Short bounds, so that giving up costs little here; the defaults are 3 s and 60 s.
SHORT = Timing(patience=Patience(idle=0.5, limit=1.0))
# A short idle bound and the default limit: 0.8 s of CPU time can take any wall time on a loaded
# machine, so a test of the idle bound must not also race the limit.
IDLE = Timing(patience=Patience(idle=0.5, limit=60.0))


def check(target: list[str]) -> tuple[int, dict[str, dict[str, object]]]:
    command = [sys.executable, "-m", "mcpref", "check", "--json", "--profile", "spec", "--", *target]
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=300, check=False)
    assert "Traceback" not in done.stderr, done.stderr[-2000:]
    return done.returncode, {row["id"]: row for row in json.loads(done.stdout)["rules"]}


@pytest.mark.spec("STDIO-SURVIVE", "STDIO-LATENCY", "FRAME-MAX-LINE")
def test_a_slow_correct_server_gets_the_references_verdicts() -> None:
    slow_status, slow = check([sys.executable, str(HOSTILE / "slow_but_correct.py")])
    status, fast = check([sys.executable, "-m", "mcpref.reference"])
    assert (slow_status, status) == (0, 0)
    assert {rule: row["status"] for rule, row in slow.items() if rule != "STDIO-LATENCY"} == {
        rule: row["status"] for rule, row in fast.items() if rule != "STDIO-LATENCY"
    }
    # The 1.2 MB line takes the slow server 4.8 s of CPU time once it has started: measured, a
    # warning. Latency is wall time, so on a loaded machine other scenarios may join it.
    assert slow["STDIO-LATENCY"]["status"] == "warn"
    findings = slow["STDIO-LATENCY"]["findings"]
    assert isinstance(findings, list)
    # One cause, however many scenarios were slow (``causes.grouped``), shown by the smallest: the
    # long line's, or a smaller one's that the load slowed too (a kept run's is not confirmed then).
    (late,) = findings
    assert float(late["actual"].removesuffix(" s")) > 2.0
    assert fast["STDIO-LATENCY"]["status"] == "pass"


@pytest.mark.spec("STDIO-SURVIVE")
def test_a_target_that_works_longer_than_the_idle_bound_is_waited_for() -> None:
    run = run_case([sys.executable, str(HOSTILE / "busy_then_serves.py"), "0.8"], [INIT, PING], IDLE)
    assert run.observation.survived, run.notes
    assert run.notes == ()  # its read of each chunk was waited for, never given up on
    assert any(b'"id":1' in line for line in run.observation.output)
    # It worked before it first read: a start-up, not a latency.
    assert not [f for f in judge(INIT + PING, run.observation) if f.status(Profile.STRICT) is Status.FAIL]
    assert run.observation.latency < 0.5


@pytest.mark.spec("STDIO-LATENCY")
def test_a_start_up_longer_than_the_latency_bound_is_never_a_finding() -> None:
    run = run_case([sys.executable, str(HOSTILE / "busy_then_serves.py"), "2.5"], [INIT, PING], Timing())
    assert run.observation.survived, run.notes
    assert run.observation.latency < 2.0
    assert judge(INIT + PING, run.observation) == []


@pytest.mark.spec("STDIO-SURVIVE")
def test_work_done_by_a_child_of_the_target_counts() -> None:
    wrapper = [sys.executable, "-c", "import subprocess, sys; sys.exit(subprocess.call(sys.argv[1:]))"]
    run = run_case([*wrapper, sys.executable, str(HOSTILE / "busy_then_serves.py"), "0.8"], [INIT, PING], IDLE)
    # The wrapper itself is idle past the 0.5 s bound: only its child's work keeps the wait going.
    assert run.observation.survived, run.notes
    assert run.notes == ()


@pytest.mark.spec("STDIO-SURVIVE")
def test_a_target_idle_past_the_bound_is_given_up_and_the_verdict_says_why() -> None:
    run = run_case([sys.executable, str(HOSTILE / "never_reads.py")], [INIT, PING], SHORT)
    assert not run.observation.survived
    assert "idle" in run.observation.ending
    assert any("did not read its stdin" in note for note in run.notes)
    (finding,) = [f for f in judge(INIT + PING, run.observation) if f.rule == "STDIO-SURVIVE"]
    assert "idle" in finding.actual


@pytest.mark.spec("STDIO-SURVIVE")
def test_a_target_still_working_at_the_limit_is_given_up() -> None:
    run = run_case([sys.executable, str(HOSTILE / "busy_then_serves.py")], [INIT], SHORT)
    assert not run.observation.survived
    assert "still working after 1 s" in run.observation.ending


@pytest.mark.spec("STDIO-SURVIVE", "STDIO-STDOUT-MESSAGES-ONLY")
def test_a_flood_the_driver_reads_slower_than_it_writes_is_working_not_idle() -> None:
    # On a loaded machine the driver drains a flood slower than it writes: the flood spends its time
    # blocked on a full pipe, using next to no CPU time, no thread of it runnable, and its output is
    # no sign of work while a read of its stdin is owed. It waits on the driver, as a thread that
    # waits for a core: working. The driver here reads none of its stdout, the limit of slowness.
    process = Process([sys.executable, str(HOSTILE / "floods_stdout.py")], Timing(patience=Patience(idle=0.5, limit=2.0)))
    try:
        process._read = lambda fd, which: None  # type: ignore[method-assign]
        process.write(PING)
        assert not process.wait_until_read()
        assert process.gave_up == "was still working after 2 s"
    finally:
        process.finish()


@pytest.mark.spec("STDIO-SURVIVE")
def test_a_target_that_exited_is_not_waited_for() -> None:
    run = run_case([sys.executable, str(HOSTILE / "exits_at_once.py")], [INIT], Timing())
    assert not run.observation.survived
    assert run.observation.ending == "exited with status 0"


@pytest.mark.parametrize(
    ("proc_stat", "quiet"),
    [
        (b"cpu  1 2 3\nintr 5 0 0\nprocs_running 1\nprocs_blocked 0\n", True),  # the reader alone
        (b"procs_running 2\nprocs_blocked 0\n", False),  # another thread runnable: maybe the target's
        (b"procs_running 1\nprocs_blocked 1\n", False),  # a thread waiting on I/O: maybe the target's
        (b"cpu  1 2 3\n", False),  # cut short, or not Linux's: the threads are read one by one
    ],
)
def test_a_quiet_machine_is_told_by_its_counts_of_runnable_and_blocked_threads(proc_stat: bytes, quiet: bool) -> None:
    assert machine_quiet(proc_stat) is quiet


@pytest.mark.spec("STDIO-SURVIVE")
def test_a_look_sees_a_busy_thread_runnable_and_finds_the_descendants() -> None:
    busy = subprocess.Popen([sys.executable, "-c", "while True: pass"])
    try:
        # Busy, it is runnable, and the machine is not quiet while it runs: its state is read.
        assert look(busy.pid)[2] is True
    finally:
        busy.kill()
        busy.wait()
    shell = subprocess.Popen(["sh", "-c", "sleep 30 & wait"], start_new_session=True)
    try:
        deadline = time.monotonic() + 10
        tree, _, running = look(shell.pid)
        while (len(tree) < 2 or running) and time.monotonic() < deadline:
            time.sleep(0.01)  # until the shell has started its child, and both sleep
            tree, _, running = look(shell.pid)
        assert tree[0] == shell.pid and len(tree) == 2 and not running
    finally:
        os.killpg(shell.pid, signal.SIGKILL)  # the shell and its sleep
        shell.wait()


@pytest.mark.spec("STDIO-SURVIVE")
def test_a_quiet_look_follows_the_processes_the_last_one_found_while_they_live(monkeypatch: pytest.MonkeyPatch) -> None:
    # A child started from a thread other than the main one: a quiet look does not find it through
    # the main thread, so it follows it as the last look found it; a busy look finds it anew.
    spawner = "import subprocess, threading; threading.Thread(target=subprocess.call, args=(['sleep', '30'],)).start()"
    parent = subprocess.Popen([sys.executable, "-c", spawner], start_new_session=True)
    try:
        deadline = time.monotonic() + 10
        children: list[int] = []
        while not children and time.monotonic() < deadline:
            time.sleep(0.01)
            tasks = os.listdir(f"/proc/{parent.pid}/task")
            children = [int(c) for t in tasks for c in Path(f"/proc/{parent.pid}/task/{t}/children").read_text().split()]
        (child,) = children
        for quiet in (True, False):
            monkeypatch.setattr(signs, "machine_quiet", lambda proc_stat, quiet=quiet: quiet)
            assert sorted(look(parent.pid, [parent.pid, child])[0]) == sorted([parent.pid, child])
            assert look(parent.pid)[0] == ([parent.pid] if quiet else [parent.pid, child])
        os.kill(child, signal.SIGKILL)
        while child in look(parent.pid, [parent.pid, child])[0] and time.monotonic() < deadline:
            time.sleep(0.01)  # until the parent has reaped it
        assert look(parent.pid, [parent.pid, child])[0] == [parent.pid]
    finally:
        os.killpg(parent.pid, signal.SIGKILL)
        parent.wait()
