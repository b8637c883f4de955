"""How long the driver waits for a target, and when it stops: slow is not dead.

A target is waited for as long as it shows signs of work, and given up on only when it
shows none (STDIO-SURVIVE) or has worked for a long limit without doing what was awaited.
The signs of work are what a ``Sample`` holds: CPU time used by the target's processes,
one of their threads runnable or in uninterruptible sleep, bytes it wrote, bytes it read,
output it wrote that fills a pipe the driver has not read yet. A loaded machine slows a
target down without making it idle (a thread that waits for a core is runnable; a target
whose output the driver reads more slowly than it writes waits on the driver, blocked and
using next to no CPU time), so the same target gets the same verdicts on a fast machine and
a slow one; only the time it took changes, and that is measured, never judged (STDIO-LATENCY).

No I/O and no clock here: the driver (``fuzz.drive.process``) samples the target and passes the
time, so that the policy can be tested on a simulated clock.
"""

from __future__ import annotations

import argparse
import enum
from dataclasses import dataclass

# An idle event loop's timers use far less than this share of a core; work uses more.
CPU_SHARE = 0.01


@dataclass(frozen=True)
class Patience:
    idle: float = 3.0  # no sign of work for this long: the target is stuck, deaf or asleep
    limit: float = 60.0  # working this long without doing what is awaited: give up all the same
    look: float = 0.05  # how often signs of work are sampled during a wait
    retry: float = 0.5  # a first probe unanswered this long is followed by a second, lone one
    # When every wait ends, on the caller's clock, whatever the target does: a campaign's budget.
    # A wait cut by it says nothing of the target (``Verdict.OVERTIME``).
    deadline: float | None = None


@dataclass(frozen=True)
class Sample:
    """The target's signs of work so far, as counters that only grow (but ``running`` and ``stalled``)."""

    cpu_ns: int  # CPU time used by the target's processes
    running: bool  # one of their threads was runnable or in uninterruptible sleep
    received: int  # bytes read from its stdout and stderr
    consumed: int  # bytes it read from its stdin
    stalled: bool  # its stdout or stderr pipe was full: it waits for the driver to read


def active(before: Sample, after: Sample, seconds: float, reading: bool = False) -> bool:
    """Whether the target worked between two samples taken ``seconds`` apart. Awaiting a read
    (``reading``), output is no sign of work: a target that stopped reading and only writes
    does nothing for what it was sent; but one whose output is read more slowly than it
    writes (``stalled``) is waiting on the driver, as a runnable thread is on a core."""
    return (
        after.running
        or after.stalled
        or (after.received > before.received and not reading)
        or after.consumed > before.consumed
        or after.cpu_ns - before.cpu_ns > CPU_SHARE * seconds * 1e9
    )


class Verdict(enum.Enum):
    WAIT = "wait"
    IDLE = "idle"  # no sign of work for the idle bound
    EXHAUSTED = "exhausted"  # signs of work, but not the awaited thing, for the whole limit
    OVERTIME = "overtime"  # the caller's deadline passed first: no verdict on the target


class Wait:
    """One wait for something the target owes (a read, an answer, an exit), on the caller's clock.

    ``idle`` overrides the patience's bound: reading on after the probe stops at the first
    quiet look, not after seconds of quiet. ``reading``: see ``active``.
    """

    def __init__(
        self, patience: Patience, now: float, sample: Sample, idle: float | None = None, reading: bool = False
    ) -> None:
        self.patience = patience
        self.idle = patience.idle if idle is None else idle
        self.reading = reading  # what is awaited is a read of what was written
        self.started = self.active_at = self.looked_at = now
        self.last = self.quiet_from = sample  # the latest sample, and the one at the last sign of work

    def observe(self, now: float, sample: Sample) -> Verdict:
        if self.patience.deadline is not None and now >= self.patience.deadline:
            return Verdict.OVERTIME
        if active(self.last, sample, now - self.looked_at, self.reading):
            self.active_at, self.quiet_from = now, sample
        self.last, self.looked_at = sample, now
        if now - self.active_at >= self.idle:
            return Verdict.IDLE
        if now - self.started >= self.patience.limit:
            return Verdict.EXHAUSTED
        return Verdict.WAIT

    def due(self, now: float) -> bool:
        """Whether it is time to sample the target again."""
        return now - self.looked_at >= min(self.patience.look, self.idle)

    def timeout(self, now: float) -> float:
        """How long the caller may block on the target's pipes before it looks again."""
        return max(0.0, self.looked_at + min(self.patience.look, self.idle) - now)

    def why(self, verdict: Verdict) -> str:
        """What the target was seen doing as the wait ended: a predicate of it ("the target ...")."""
        if verdict is Verdict.IDLE:
            return f"was idle for {self.idle:g} s ({self._meanwhile()})"
        if verdict is Verdict.OVERTIME:
            return "was still running when the run's time was up"
        return f"was still working after {self.patience.limit:g} s"

    def _meanwhile(self) -> str:
        """What the target did while it was idle, in figures: below the share of a core that is
        work is not always nothing, and awaiting a read, output does not count as work."""
        cpu_ms = (self.last.cpu_ns - self.quiet_from.cpu_ns) // 1_000_000
        wrote = self.last.received - self.quiet_from.received
        return ", ".join(
            (
                f"{cpu_ms:,} ms of CPU time" if cpu_ms else "under 1 ms of CPU time",
                f"{wrote:,} byte{'' if wrote == 1 else 's'} of output" if wrote else "no output",
                "nothing read",
            )
        )


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The command line's say in the policy: ``--idle-limit`` and ``--wait-limit``."""
    for flag, default, after in (
        ("--idle-limit", Patience.idle, "without any sign of work"),
        ("--wait-limit", Patience.limit, "working without answering"),
    ):
        parser.add_argument(
            flag,
            type=float,
            default=default,
            metavar="SECONDS",
            help=f"give a target up after this long {after} (default {default:g})",
        )


def from_arguments(args: argparse.Namespace) -> Patience:
    """The patience the command line asked for; ``ValueError`` for limits that are not positive."""
    if args.idle_limit <= 0 or args.wait_limit <= 0:
        raise ValueError("--idle-limit and --wait-limit must be positive")
    return Patience(idle=args.idle_limit, limit=args.wait_limit)
