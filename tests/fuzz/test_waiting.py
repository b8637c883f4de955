"""The waiting policy on a simulated clock: slow is not dead, idle is.

``fuzz.waiting`` takes the time and the target's signs of work from its caller, so every
case here is exact: no process, no sleep.
"""

from __future__ import annotations

import argparse

import pytest

from mcpref.fuzz.drive.waiting import CPU_SHARE, Patience, Sample, Verdict, Wait, active, add_arguments, from_arguments

PATIENCE = Patience(idle=3.0, limit=60.0, look=0.05, retry=0.5)
QUIET = Sample(cpu_ns=0, running=False, received=0, consumed=0, stalled=False)


def busy(seconds: float) -> Sample:
    """A target that has used a whole core since the start, for ``seconds``."""
    return Sample(cpu_ns=int(seconds * 1e9), running=False, received=0, consumed=0, stalled=False)


def run(wait: Wait, samples: dict[float, Sample], end: float) -> tuple[Verdict, float]:
    """Look every ``look`` seconds until the wait gives up; ``samples`` change the target from a time on."""
    now, current = wait.started, QUIET
    while True:
        now = round(now + wait.patience.look, 6)
        current = next((s for t, s in sorted(samples.items(), reverse=True) if t <= now), current)
        verdict = wait.observe(now, current)
        if verdict is not Verdict.WAIT or now >= end:
            return verdict, now


@pytest.mark.spec("STDIO-SURVIVE")
def test_a_target_with_no_sign_of_work_is_given_up_after_the_idle_bound_and_not_before() -> None:
    wait = Wait(PATIENCE, 0.0, QUIET)
    assert wait.observe(2.99, QUIET) is Verdict.WAIT
    assert wait.observe(3.0, QUIET) is Verdict.IDLE
    assert "idle" in wait.why(Verdict.IDLE) and "3 s" in wait.why(Verdict.IDLE)


@pytest.mark.spec("STDIO-SURVIVE", "STDIO-LATENCY")
def test_a_target_that_keeps_working_is_waited_for_up_to_the_limit() -> None:
    wait = Wait(PATIENCE, 0.0, QUIET)
    verdict, at = run(wait, {t / 10: busy(t / 10) for t in range(1, 1000)}, end=100.0)
    assert (verdict, at) == (Verdict.EXHAUSTED, 60.0)
    assert "60 s" in wait.why(verdict)


@pytest.mark.spec("STDIO-SURVIVE")
def test_idleness_counts_from_the_last_sign_of_work() -> None:
    wait = Wait(PATIENCE, 0.0, QUIET)
    # Output at 2.9 s, then nothing: given up 3 s later, at 5.9 s.
    verdict, at = run(wait, {2.9: Sample(0, False, 10, 0, False)}, end=100.0)
    assert (verdict, at) == (Verdict.IDLE, 5.9)


@pytest.mark.parametrize(
    ("after", "working"),
    [
        (Sample(0, True, 0, 0, False), True),  # a thread runnable: on a loaded machine it waits for a core
        (Sample(0, False, 1, 0, False), True),  # it wrote
        (Sample(0, False, 0, 1, False), True),  # it read
        (Sample(0, False, 0, 0, True), True),  # its output fills a pipe: it waits for the driver to read
        (Sample(int(CPU_SHARE * 1e9) + 1, False, 0, 0, False), True),  # more than the share of a core over 1 s
        (Sample(int(CPU_SHARE * 1e9) // 2, False, 0, 0, False), False),  # an idle event loop's timers
        (QUIET, False),
    ],
)
def test_what_counts_as_a_sign_of_work(after: Sample, working: bool) -> None:
    assert active(QUIET, after, 1.0) is working


def test_reading_on_stops_at_the_first_quiet_look() -> None:
    wait = Wait(PATIENCE, 0.0, QUIET, idle=0.01)
    assert wait.due(0.01) and not wait.due(0.009)
    assert wait.observe(0.01, busy(0.01)) is Verdict.WAIT
    assert wait.observe(0.02, busy(0.01)) is Verdict.IDLE


def test_the_caller_blocks_no_longer_than_the_next_look() -> None:
    wait = Wait(PATIENCE, 10.0, QUIET)
    assert wait.timeout(10.0) == pytest.approx(0.05)
    assert wait.timeout(10.04) == pytest.approx(0.01)
    assert wait.timeout(11.0) == 0.0
    assert not wait.due(10.04) and wait.due(10.05)


def test_the_command_line_sets_the_bounds_and_refuses_ones_that_are_not_positive() -> None:
    parser = argparse.ArgumentParser()
    add_arguments(parser)
    assert from_arguments(parser.parse_args([])) == Patience()
    assert from_arguments(parser.parse_args(["--idle-limit", "10", "--wait-limit", "300"])) == Patience(10.0, 300.0)
    with pytest.raises(ValueError, match="positive"):
        from_arguments(parser.parse_args(["--idle-limit", "0"]))


def test_no_wait_outlives_the_callers_deadline_whatever_the_target_does() -> None:
    wait = Wait(Patience(deadline=2.0), 0.0, QUIET)
    verdict, at = run(wait, {t / 10: busy(t / 10) for t in range(1, 1000)}, end=100.0)
    assert (verdict, at) == (Verdict.OVERTIME, 2.0)
    assert "time was up" in wait.why(verdict)


@pytest.mark.spec("STDIO-SURVIVE")
def test_awaiting_a_read_output_alone_is_no_sign_of_work() -> None:
    chatter = Sample(cpu_ns=0, running=False, received=100, consumed=0, stalled=False)
    assert active(QUIET, chatter, 0.05) and not active(QUIET, chatter, 0.05, reading=True)
    wait = Wait(PATIENCE, 0.0, QUIET, reading=True)
    verdict, at = run(wait, {t / 10: Sample(0, False, t, 0, False) for t in range(1, 1000)}, end=100.0)
    assert (verdict, at) == (Verdict.IDLE, 3.0)


@pytest.mark.spec("STDIO-SURVIVE")
def test_awaiting_a_read_a_target_blocked_on_output_not_yet_read_is_working() -> None:
    # A flood drained slower than it writes: next to no CPU time, no thread runnable, output that
    # does not count while a read is owed, and its stdout full at every look: it waits on the driver.
    flood = Sample(cpu_ns=1000, running=False, received=65536, consumed=0, stalled=True)
    assert active(QUIET, flood, 0.05, reading=True)
    wait = Wait(PATIENCE, 0.0, QUIET, reading=True)
    verdict, at = run(wait, {t / 10: Sample(t * 1000, False, t * 65536, 0, True) for t in range(1, 1000)}, end=100.0)
    assert (verdict, at) == (Verdict.EXHAUSTED, 60.0)


@pytest.mark.spec("STDIO-SURVIVE")
def test_the_idle_verdict_says_what_the_target_did_meanwhile_with_the_figures_seen() -> None:
    assert _idle_why({}) == "was idle for 3 s (under 1 ms of CPU time, no output, nothing read)"
    # An idle event loop's timers: below the share of a core that is work, but not nothing.
    timers = {t / 20: Sample(t * 100_000, False, 0, 0, False) for t in range(1, 100)}
    assert _idle_why(timers) == "was idle for 3 s (6 ms of CPU time, no output, nothing read)"
    # Awaiting a read, a target that only writes: its output is said, not denied.
    chatter = {t / 20: Sample(0, False, t, 0, False) for t in range(1, 100)}
    assert _idle_why(chatter, reading=True) == "was idle for 3 s (under 1 ms of CPU time, 60 bytes of output, nothing read)"
    assert _idle_why({0.05: Sample(0, False, 1, 0, False)}, reading=True).endswith("(under 1 ms of CPU time, 1 byte of output, nothing read)")


def _idle_why(samples: dict[float, Sample], reading: bool = False) -> str:
    wait = Wait(PATIENCE, 0.0, QUIET, reading=reading)
    verdict, _ = run(wait, samples, end=100.0)
    assert verdict is Verdict.IDLE
    return wait.why(verdict)
