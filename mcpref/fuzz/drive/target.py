"""Driving target processes through cases, whatever the target does.

In: an argv list (or a ``Process`` started for it), a case's chunks, a ``Timing`` and the era.
Out: a ``Run``: the ``Observation`` the oracle judges, the exit status, the tail of stderr, notes,
and the session's events when they are recorded.

A case is a list of chunks. Each chunk is written with its own write, and the next
only once the target has read it all, so that the kernel does not merge two of them:
chunk boundaries reach the target as they were drawn. In a fresh process a short pause
follows each chunk, which a slow server spends on it (one that answers out of order
could otherwise answer the probe first and the request after the case ended). Then a
liveness probe (a request with a unique string id that every server of the era answers
at once: ``ping``, or ``server/discover`` in the modern era) tells an answering server
from a dead or deaf one. Any answer to it, an error included, shows the server alive.

``run_case`` runs one case in a fresh process (``fuzz.drive.process``); a ``Session``
(``fuzz.drive.kept``) keeps one process for many.
"""

from __future__ import annotations

import json
import time
from collections.abc import Sequence
from dataclasses import dataclass

from mcpref.fuzz.drive.client_side import SENTINEL_IDS
from mcpref.fuzz.drive.observation import Event, Observation
from mcpref.fuzz.drive.process import Process
from mcpref.fuzz.drive.timing import Timing
from mcpref.reference.eras import DIALECTS
from mcpref.reference.versions import KNOWN, Era


def probe(probe_id: str, era: Era = Era.LEGACY) -> bytes:
    """The era's liveness probe, with an id no case uses (they all start with ``SENTINEL_ID``)."""
    newest = next(version for version in reversed(KNOWN) if version.era is era)
    return (json.dumps(DIALECTS[era].probe(probe_id, newest)) + "\n").encode()


@dataclass(frozen=True)
class Run:
    observation: Observation
    exit_status: int | None  # None while it was still running when the case ended
    stderr_tail: bytes
    notes: tuple[str, ...]
    events: tuple[Event, ...] = ()  # the session in the order seen, when it was recorded
    seconds: float = 0.0  # how long the case took, from its first write to the end of its run
    # The driver stopped on the target for good: it flooded its stdout past the cap, or it was given
    # up on before it read a byte (``Process.read_nothing``). Any case would show the same.
    hopeless: bool = False


def run_case(
    argv: list[str],
    chunks: Sequence[bytes],
    timing: Timing,
    *,
    settle: float = 0.0,
    eof: bool = False,
    process: Process | None = None,
    record: bool = False,
    era: Era = Era.LEGACY,
) -> Run:
    """Send ``chunks`` to a fresh ``argv`` process and observe what it does.

    ``process``, when given, is that process started earlier, which has been sent nothing.
    With ``eof`` the case ends by closing stdin and waiting for the exit instead of probing.
    With ``record`` the run keeps the session's events in the order they were seen.
    ``era`` chooses the liveness probe.
    """
    if process is None:
        process = Process(argv, timing)
    started = time.monotonic()
    process.timing = timing
    process.answers_requests = era is Era.LEGACY
    if record:
        process.events = []
    try:
        for chunk in chunks:
            if process.read_nothing():
                break  # a target given up on before it read a byte is not waited for again
            process.send(chunk, timing.pause)
        if process.read_nothing():  # nor its answer to a probe: it would wait as long for nothing
            survived = False
        elif eof:
            process.close_stdin()
            process.pump(settle)
            # What an exit means after EOF is the caller's to judge (STDIO-EOF-DRAIN).
            process.wait_until(lambda: not process.stdout_open and process.proc.poll() is not None)
            survived = not process.overflowed  # a flood was not seen to the end of its stdin
        else:
            # Two probes: a target that drops what shares a read with other bytes still answers
            # the second, lone one, and is then found for what it dropped, not taken for dead.
            answered = process.send_probe(probe(SENTINEL_IDS[0], era), timing.patience.retry)
            if not answered and process.stdin_open and process.stdout_open and process.proc.poll() is None:
                process.send_probe(probe(SENTINEL_IDS[1], era))
            process.read_on(timing.settle + settle)
            survived = process.sentinel_seen and process.proc.poll() is None
        ending = "" if survived else process.ending()  # before the kill at the end of the case
        hopeless = bool(process.overflowed) or process.read_nothing()
    finally:
        status, trailing = process.finish()
    observation = Observation(
        tuple(process.lines),
        trailing,
        survived,
        () if eof else SENTINEL_IDS,
        eof,
        process.slowest,
        ending,
        tuple(process.sent_marks),
    )
    events = tuple(process.events or ())
    seconds = time.monotonic() - started
    return Run(observation, status, bytes(process.err), tuple(process.notes), events, seconds, hopeless)
