"""One target process driven without ever blocking on it (``Process``): its pipes, its writes, its reads.

In: an argv list and a ``Timing``. Out: what the process showed, for ``run_case`` (``fuzz.drive.target``)
and a ``Session`` (``fuzz.drive.kept``) to make a ``Run`` of: its stdout lines, the tail of its stderr,
the notes on how it stopped, its latency, and the session's ``Event``s when they are recorded.

How long each wait lasts is ``fuzz.drive.waiting``'s to say: a target is waited for while it
shows signs of work, and given up on when it shows none, so that slow is never taken for
dead. The driver never blocks on the target: stdin is written without blocking, stdout and
stderr are read as they come, every wait ends, stdout is capped, and the
target runs in its own process group, which is killed at the end of the case, so no
child process outlives it. The signs of work come from /proc (``fuzz.drive.signs``).
A target that cannot be started raises ``TargetError``.
Requests the target sends to the client (sampling, roots, elicitation, ping) are answered
as a client without those capabilities answers them: ``-32601``, and ``{}`` for ping; in a
modern run they are left unanswered, as a modern client on stdio leaves them.
"""

from __future__ import annotations

import contextlib
import os
import selectors
import signal
import subprocess
import time
from collections.abc import Callable

from mcpref.fuzz.drive import stopping
from mcpref.fuzz.drive.client_side import SENTINEL_IDS, inspect_line
from mcpref.fuzz.drive.echoes import Written
from mcpref.fuzz.drive.observation import UNANSWERED, Direction, Event
from mcpref.fuzz.drive.signs import look, pipe_full, process_cpu_ns, unread
from mcpref.fuzz.drive.timing import OutOfTime, Timing
from mcpref.fuzz.drive.waiting import Sample, Verdict, Wait

EXITING = 0.25  # seconds a process whose stdout closed is given to exit, for its status to be said


class TargetError(Exception):
    """The target command could not be started at all."""


# Stdout lines a case keeps at most (besides ``Timing.max_output`` bytes): a server answers a case's
# requests in far fewer, and a flood of short lines costs the judging and the report per line.
MAX_LINES = 10_000

# Most waits end within this, and need no look at the target's signs of work (a look reads
# two /proc files a thread).
QUICK = 0.02


class Process:
    """One target process, its pipes read as they fill; it runs in a process group of its own."""

    def __init__(self, argv: list[str], timing: Timing) -> None:
        self.timing = timing
        stopping.check()  # no new target once a signal stopped the run
        try:
            self.proc = subprocess.Popen(
                argv,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                start_new_session=True,  # one process group to kill at the end
            )
        except OSError as exc:
            raise TargetError(f"cannot start {argv[0]!r}: {exc.strerror or exc}") from exc
        stopping.enter(self.proc.pid)  # its group is killed on SIGINT or SIGTERM
        assert self.proc.stdin and self.proc.stdout and self.proc.stderr
        self.stdin = self.proc.stdin.fileno()
        for stream in (self.proc.stdin, self.proc.stdout, self.proc.stderr):
            os.set_blocking(stream.fileno(), False)
        self.selector = selectors.DefaultSelector()
        self.selector.register(self.proc.stdout.fileno(), selectors.EVENT_READ, "out")
        self.selector.register(self.proc.stderr.fileno(), selectors.EVENT_READ, "err")
        self.out = bytearray()
        self.lines: list[bytes] = []
        self.err = bytearray()
        self.stdout_open = True
        self.stdin_open = True
        self.at_line_start = True  # our own writes end with LF: safe to slip in a reply
        self.replies: list[bytes] = []
        # A legacy client answers the server's requests; on stdio a modern one never writes a
        # response (MOD-NO-SERVER-REQUESTS), so a modern run leaves them unanswered.
        self.answers_requests = True
        self.notes: list[str] = []
        self.probes: tuple[str, ...] = SENTINEL_IDS  # the probe ids whose answer shows the target alive
        self.sentinel_seen = False
        self.received = 0  # stdout bytes so far, against max_output
        self.overflowed = ""  # what passed the cap of stdout, once it did (``_overflow``)
        self.err_received = 0
        self.written = 0  # bytes written to stdin so far
        self.sent = Written()  # its lines, whose echo is no request of the target's
        # Bytes of the case's own stream written so far (replies and probes are not the case's),
        # and its count as each stdout line was read (``Observation.sent_before``).
        self.stream_written = 0
        self.sent_marks: list[int] = []
        self.writing = False
        self.waits_for_reads = True
        self.first_read_at: float | None = None  # when the target was first seen to read its stdin
        self.slowest = 0.0  # the longest wait for the target once it had started (STDIO-LATENCY)
        self.gave_up = ""  # why the last wait for the target ended without what it waited for
        self.unanswered = ""  # why the last wait for a probe's answer ended without it
        self.gave_up_reading = ""  # why the wait for a read ended so, when it did
        self.events: list[Event] | None = None  # the session as seen, when it is recorded
        self.tree = [self.proc.pid]  # the target's processes at the last look (``sample``)

    def _select(self, timeout: float) -> None:
        """Read what comes within ``timeout``: one pass over the ready pipes. Every wait passes
        here: ``OutOfTime`` once a signal stopped the run."""
        stopping.check()
        for key, _ in self.selector.select(timeout):
            if key.data != "in":
                self._read(key.fileobj, key.data)  # type: ignore[arg-type]
        if self.replies and self.at_line_start and not self.writing:
            self.write(b"")  # answer the target's requests now, between two of our lines

    def pump(self, seconds: float) -> None:
        """Read whatever comes for ``seconds`` (or until stdout closes); with 0, what is there now."""
        deadline = time.monotonic() + seconds
        while self.stdout_open:
            left = deadline - time.monotonic()
            self._select(max(left, 0.0))
            if left <= 0:
                return

    def consumed(self) -> int:
        """Bytes the target has read from its stdin so far; the first seen marks the end of its start-up."""
        if not self.stdin_open:
            return self.written
        consumed = self.written - unread(self.stdin)
        if consumed and self.first_read_at is None:
            self.first_read_at = time.monotonic()
        return consumed

    def sample(self) -> Sample:
        """The target's signs of work so far (``fuzz.drive.waiting``): a look at all its processes."""
        self.tree, cpu, running = look(self.proc.pid, self.tree)
        # A flood read more slowly than it writes is blocked on its full pipe, not idle (STDIO-SURVIVE).
        stalled = any(pipe_full(key.fd) for key in self.selector.get_map().values() if key.data != "in")
        return Sample(cpu, running, self.received + self.err_received, self.consumed(), stalled)

    def baseline(self) -> Sample:
        """The counters a wait starts from, without a look: the CPU time of the processes the last
        look found (one system call each). A wait reads ``running`` from its later samples only,
        and a descendant the last look missed adds to the next sample's CPU time, which counts as
        work: a wait then lasts a look longer, never shorter."""
        cpu = 0
        for process in self.tree:
            with contextlib.suppress(OSError):  # ended since
                cpu += process_cpu_ns(process)
        return Sample(cpu, False, self.received + self.err_received, self.consumed(), False)

    def took(self, started: float) -> None:
        """A wait that began at ``started`` got what it waited for: its length counts from the
        target's first read, so that a start-up is never counted (STDIO-LATENCY)."""
        if self.first_read_at is not None:
            self.slowest = max(self.slowest, time.monotonic() - max(started, self.first_read_at))

    def wait_until(self, done: Callable[[], bool], *, idle: float | None = None, poll: bool = False) -> bool:
        """Read as output comes until ``done()``, or until the waiting policy gives up on the target.

        Returns whether it got there; when not, ``gave_up`` says why. With ``poll`` the pipes
        are polled finely: what is awaited (a read by the target) wakes nothing here, and
        output is no sign of work. ``OutOfTime`` past the deadline.
        """
        started = now = time.monotonic()
        wait: Wait | None = None
        quick = QUICK if idle is None or idle > QUICK else 0.0  # a short idle bound counts from the start
        while not done():
            if self.overflowed:  # a flood is not waited for
                self.gave_up = "its stdout passed its cap"
                return False
            if wait is None and now - started >= quick:
                wait = Wait(self.timing.patience, now, self.baseline(), idle, reading=poll)
            if wait is not None and wait.due(now):
                verdict = _overtime(wait.observe(now, self.sample()))
                if verdict is not Verdict.WAIT:
                    self.gave_up = wait.why(verdict)
                    return False
            if poll:
                self._select(0)
                # Each look costs system calls: look less often as the wait grows, never
                # later than an eighth of the wait so far.
                time.sleep(min(0.001, max(0.00005, (now - started) / 8)))
            else:
                self._select(quick if wait is None else wait.timeout(now))
            now = time.monotonic()
        return True

    def _read(self, fd: int, which: str) -> None:
        try:
            data = os.read(fd, 65536)
        except BlockingIOError:
            return
        if which == "err":
            if self.events is not None and data:
                self.events.append(Event(Direction.STDERR, data))
            self.err += data
            self.err_received += len(data)
            del self.err[: max(0, len(self.err) - 8192)]
            if not data:
                self.selector.unregister(fd)
            return
        if not data:
            self.stdout_open = False
            self.selector.unregister(fd)
            return
        self.received += len(data)
        if self.received > self.timing.max_output:
            self._overflow(f"more than {self.timing.max_output:,} bytes")
            return
        self.out += data
        if b"\n" not in data:
            return
        *lines, rest = bytes(self.out).split(b"\n")  # one split a read, however many lines it holds
        self.out = bytearray(rest)
        # Lines past the cap are not kept, however many one read holds: what a flood costs is the cap's.
        for line in lines[: MAX_LINES + 1 - len(self.lines)]:
            self.lines.append(line)
            self.sent_marks.append(self.stream_written)
            if self.events is not None:
                self.events.append(Event(Direction.RECEIVED, line))
            self._inspect(line)
        if len(self.lines) > MAX_LINES:
            self._overflow(f"more than {MAX_LINES:,} lines")

    def _overflow(self, what: str) -> None:
        """A flood: read no further, written to no more, waited for no longer (what a case keeps is capped)."""
        self.notes.append(f"stdout passed its cap with {what}; the rest was not read")
        self.out = self.out[:65536]  # of a line without end, what a report shows and more
        self.overflowed = what
        self.stdout_open = False
        assert self.proc.stdout
        self.selector.unregister(self.proc.stdout.fileno())
        self.close_stdin()

    def _inspect(self, line: bytes) -> None:
        answers_probe, reply = inspect_line(line, self.probes, self.sent)
        self.sentinel_seen = self.sentinel_seen or answers_probe
        if reply is not None and self.answers_requests:  # as a client that has no capabilities
            self.replies.append(reply)

    def write(self, data: bytes, *, chunk: bool = False) -> None:
        """Write all of ``data`` (reading meanwhile), unless the target stops reading; ``chunk``
        says that ``data`` is the case's own, not a reply or a probe."""
        view = memoryview(data)
        wait: Wait | None = None
        if self.events is not None and data:
            self.events.append(Event(Direction.SENT, data))
        self.sent.add(data)
        self.writing = True
        try:
            while view and self.stdin_open:
                try:
                    written = os.write(self.stdin, view)
                    self.written += written
                    if chunk:
                        self.stream_written += written
                    view = view[written:]
                except BlockingIOError:
                    now = time.monotonic()
                    self.consumed()  # the target's first read may be under way
                    if self.read_nothing():  # given up on already: not waited for again
                        self.notes.append("the target read nothing of its stdin")
                        self.stdin_open = False
                        break
                    if wait is None:
                        wait = Wait(self.timing.patience, now, self.baseline(), reading=True)
                        # Until the pipe to the target has room again, output is read meanwhile.
                        self.selector.register(self.stdin, selectors.EVENT_WRITE, "in")
                    elif wait.due(now) and (verdict := _overtime(wait.observe(now, self.sample()))) is not Verdict.WAIT:
                        self.notes.append(f"the target stopped reading its stdin and {wait.why(verdict)}")
                        self.stdin_open = False
                        break
                    self._select(wait.timeout(now))
                except (BrokenPipeError, ConnectionResetError):
                    self.notes.append("the target closed its stdin")
                    self.stdin_open = False
        finally:
            if wait is not None:
                self.selector.unregister(self.stdin)
            self.writing = False
        if data:
            self.at_line_start = data.endswith(b"\n")
        if self.at_line_start and self.replies:
            pending, self.replies = self.replies, []
            self.write(b"".join(pending))

    def send(self, chunk: bytes, pause: float) -> None:
        """Write one chunk, so that the target reads it on its own, then read for ``pause``.

        Without a pause, a target not seen to read could get two chunks in one read.
        """
        started = time.monotonic()
        self.write(chunk, chunk=True)
        if self.wait_until_read():
            self.took(started)
        self.pump(pause if self.waits_for_reads else max(pause, self.timing.pause))

    def wait_until_read(self) -> bool:
        """Wait until the target has read all we wrote, so that the next write is a read of its own.

        Pauses alone do not keep chunks apart: a target still starting up finds them all
        waiting in the pipe and reads them at once. A target that the policy gives up on
        is not waited for again; one that has ended leaves its unread bytes in the pipe.
        Returns whether the target read it all.
        """
        if not (self.stdin_open and self.waits_for_reads):
            return False
        if not self.wait_until(
            lambda: not self.stdin_open or self.consumed() == self.written or self.proc.poll() is not None, poll=True
        ):
            self.notes.append(f"the target did not read its stdin and {self.gave_up}")
            self.waits_for_reads = False
            self.gave_up_reading = self.gave_up
        return self.stdin_open and self.consumed() == self.written

    def send_probe(self, data: bytes, idle: float | None = None) -> bool:
        """Write a probe and wait for its answer; whether it came."""
        started = time.monotonic()
        self.write(data)
        if self.stdin_open and self.await_probe(idle) and self.sentinel_seen:
            self.took(started)
            return True
        return False

    def await_probe(self, idle: float | None = None) -> bool:
        """Wait for the answer to a probe already written; whether it came."""
        answered = self.wait_until(
            lambda: self.sentinel_seen or not self.stdout_open or self.proc.poll() is not None, idle=idle
        )
        self.unanswered = "" if answered else self.gave_up  # a later wait (reading on) is not the probe's
        return answered

    def read_on(self, settle: float, look: float | None = None) -> None:
        """Read for ``settle``, then on while the target works (looked at every ``look``, by
        default the timing's settle): a server that answers out of order may still owe
        answers the probe overtook."""
        self.pump(settle)
        self.wait_until(lambda: not self.stdout_open, idle=self.timing.settle if look is None else look)
        self.pump(0)  # what it wrote as its work ended, after the last look

    def read_nothing(self) -> bool:
        """Whether the waiting policy gave up on the target before it read a byte, while it runs:
        it is not waited for again, neither to read nor to answer."""
        return self.first_read_at is None and not self.waits_for_reads and self.proc.poll() is None

    def ending(self) -> str:
        """Why the target is not seen alive and answering, for STDIO-SURVIVE: a predicate of it
        ("the server ..."), with the figures seen. A process's stdout closes as it exits, a moment
        before its status can be read: a closed stdout waits that moment for the status."""
        status = self.proc.poll()
        if status is None and not self.stdout_open:
            with contextlib.suppress(subprocess.TimeoutExpired):
                status = self.proc.wait(EXITING)
        if status is not None:
            return f"exited with status {status}"
        if not self.stdout_open:
            return f"wrote {self.overflowed} to stdout" if self.overflowed else "closed its stdout"
        if self.read_nothing():
            return f"read nothing of its stdin, answered nothing, and {self.gave_up_reading}"
        if not self.stdin_open:
            return "stopped reading its stdin"
        return f"{UNANSWERED} and {self.unanswered}" if self.unanswered else UNANSWERED

    def close_stdin(self) -> None:
        if self.stdin_open:
            assert self.proc.stdin
            self.proc.stdin.close()
            self.stdin_open = False

    def finish(self) -> tuple[int | None, bytes]:
        status = self.proc.poll()
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.proc.pid, signal.SIGKILL)
        stopping.leave(self.proc.pid)  # before the wait: until it, the pid is not another's
        self.proc.wait()
        self.selector.close()
        for stream in (self.proc.stdin, self.proc.stdout, self.proc.stderr):
            if stream is not None and not stream.closed:
                stream.close()
        trailing = bytes(self.out)
        self.out.clear()  # the copy alone is kept: a line without end may be 16 MiB long
        return status, trailing


def _overtime(verdict: Verdict) -> Verdict:
    """``verdict``, unless it says that the run's deadline passed: then ``OutOfTime``."""
    if verdict is Verdict.OVERTIME:
        raise OutOfTime
    return verdict
