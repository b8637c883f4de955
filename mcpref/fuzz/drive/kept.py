"""A target process kept across cases, after a handshake of its own (``Session``)."""

from __future__ import annotations

from collections.abc import Sequence

from mcpref.fuzz.drive.client_side import SENTINEL_ID
from mcpref.fuzz.drive.observation import Observation
from mcpref.fuzz.drive.process import Process
from mcpref.fuzz.drive.target import Run, probe
from mcpref.fuzz.drive.timing import OutOfTime, Timing
from mcpref.reference.versions import Era

# How long a kept run reads on for a missing answer without a sign of work from the target: a
# target computing it shows CPU time within this, one starved of a core is seen runnable.
KEPT_LOOK = 0.002



class Session:
    """A target process kept across cases, after a handshake of its own.

    Starting a process costs far more than a case (tens of milliseconds for a Python
    target), so cases that begin with this very handshake, cut after it, run here: only
    their body is written, chunk by chunk, then a probe with an id of its own. Their
    observation is the handshake's output followed by the body's, which is what a fresh
    process shows when the target keeps no state from one case to the next. What it shows
    otherwise is for the caller to confirm in a fresh process (``run_case``).
    """

    def __init__(
        self,
        argv: list[str],
        timing: Timing,
        handshake: tuple[bytes, ...],
        process: Process | None = None,
        era: Era = Era.LEGACY,
    ) -> None:
        """``handshake``: the chunks it is written in. ``process``, when given, is the target started
        earlier and sent nothing yet."""
        self.timing = timing
        self.era = era
        self.process = process or Process(argv, timing)
        self.process.answers_requests = era is Era.LEGACY
        self.cases = 0
        try:
            self.alive = self._probe(handshake, None)  # a fresh target may take its time to start
        except OutOfTime:
            self.process.finish()  # no session to close: none outlives its run
            raise
        self.first_probe = self.process.probes[0]
        self.handshake_output = tuple(self.process.lines)
        self.handshake_marks = tuple(self.process.sent_marks)
        self.handshake_size = sum(map(len, handshake))

    def _probe(self, chunks: Sequence[bytes], idle: float | None) -> bool:
        """Write ``chunks`` as a case does, then a probe; whether the target answered it and can go on."""
        process = self.process
        for chunk in chunks:
            process.send(chunk, 0.0)
        process.probes = (f"{SENTINEL_ID}/{self.cases}",)
        process.sentinel_seen = False
        if process.read_nothing():  # given up on before it read a byte: its probe is not waited for
            return False
        process.send_probe(probe(process.probes[0], self.era), idle)
        return (
            process.sentinel_seen
            and process.stdin_open
            and process.stdout_open
            and process.waits_for_reads  # else chunk boundaries are no longer ours
            and not process.out  # a half-written line would run into the next case's output
            and process.proc.poll() is None
        )

    def run(self, chunks: Sequence[bytes], settle: float) -> Run:
        """Run one case's body (the chunks after the handshake).

        A kept run never accuses, so a target idle for the probe's retry time ends the
        session, and the case is run again in a fresh process with the whole patience.
        """
        if not self.alive:
            raise RuntimeError("Session.run after the session ended")  # the caller's bug
        process = self.process
        self.cases += 1
        process.lines, process.notes, process.received, process.slowest = [], [], 0, 0.0
        # The case's stream is the handshake and this body; earlier bodies are not in it.
        process.sent_marks, process.stream_written = [], self.handshake_size
        self.alive = self._probe(chunks, self.timing.patience.retry)
        process.pump(settle)
        return self._observed()

    def read_on(self) -> Run:
        """The last case's run again, after reading on while the target works (``Process.read_on``):
        a server that answers out of order may still owe answers that the probe's overtook."""
        self.process.read_on(0.0, KEPT_LOOK)
        return self._observed()

    def _observed(self) -> Run:
        process = self.process
        survived = process.sentinel_seen and process.proc.poll() is None
        observation = Observation(
            self.handshake_output + tuple(process.lines),
            bytes(process.out),
            survived,
            (self.first_probe, process.probes[0]),
            False,
            process.slowest,
            "" if survived else process.ending(),
            self.handshake_marks + tuple(process.sent_marks),
        )
        return Run(observation, process.proc.poll(), bytes(process.err), tuple(process.notes))

    def close(self) -> None:
        self.alive = False
        self.process.finish()
