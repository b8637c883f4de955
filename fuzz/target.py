"""Driving target processes through cases, whatever the target does.

A case is a list of chunks. Each chunk is written with its own write, and the next
only once the target has read it all, so that the kernel does not merge two of them:
chunk boundaries reach the target as they were drawn. In a fresh process a short pause
follows each chunk, which a slow server spends on it (one that answers out of order
could otherwise answer the probe first and the request after the case ended). Then a
liveness probe (a ``ping`` with a unique string id) tells an answering server from a
dead or deaf one.

The driver never blocks on the target: stdin is written without blocking, stdout and
stderr are read as they come, every wait has a deadline, stdout is capped, and the
target runs in its own process group, which is killed at the end of the case, so no
child process outlives it. ``run_case`` runs one case in a fresh process; a ``Session``
keeps one process for many. A target that cannot be started raises ``TargetError``.
Requests the target sends to the client (sampling, roots, elicitation, ping) are answered
as a client without those capabilities answers them: ``-32601``, and ``{}`` for ping.
"""

from __future__ import annotations

import array
import contextlib
import fcntl
import json
import os
import selectors
import signal
import subprocess
import termios
import time
from dataclasses import dataclass
from pathlib import Path

from reference.oracle import Observation

SENTINEL_ID = "mcpref-sentinel"
SENTINEL_IDS = (SENTINEL_ID, SENTINEL_ID + "-2")


def probe(probe_id: str) -> bytes:
    """The liveness probe: a ``ping`` whose id no case uses (they all start with ``SENTINEL_ID``)."""
    return (json.dumps({"jsonrpc": "2.0", "id": probe_id, "method": "ping"}) + "\n").encode()


SENTINEL = probe(SENTINEL_IDS[0])
SECOND_SENTINEL = probe(SENTINEL_IDS[1])


def _unread(fd: int) -> int:
    """Bytes written to a pipe that its reader has not read yet (Linux answers on the write end)."""
    count = array.array("i", [0])
    fcntl.ioctl(fd, termios.FIONREAD, count)
    return count[0]


class TargetError(Exception):
    """The target command could not be started at all."""


@dataclass(frozen=True)
class Timing:
    pause: float = 0.003  # after each chunk of a fresh run
    answer_timeout: float = 3.0  # for the liveness probe's answer (after a first 0.5 s try)
    settle: float = 0.01  # after the probe's answer, for late or repeated answers
    max_output: int = 16 * 1024 * 1024  # stdout bytes kept per case


@dataclass(frozen=True)
class Run:
    observation: Observation
    exit_status: int | None  # None while it was still running when the case ended
    stderr_tail: bytes
    notes: tuple[str, ...]


class Process:
    """One target process, its pipes read as they fill; it runs in a process group of its own."""

    def __init__(self, argv: list[str], timing: Timing) -> None:
        self.timing = timing
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
        self.notes: list[str] = []
        self.probes: tuple[str, ...] = SENTINEL_IDS  # the probe ids whose answer shows the target alive
        self.sentinel_seen = False
        self.received = 0  # stdout bytes so far, against max_output
        self.writing = False
        self.waits_for_reads = True
        self.cpu_ns = 0  # the CPU time of the target's threads when ``working`` last looked

    def _select(self, timeout: float) -> None:
        """Read what comes within ``timeout``: one pass over the ready pipes."""
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

    def wait_for_sentinel(self, seconds: float) -> None:
        deadline = time.monotonic() + seconds
        while self.stdout_open and not self.sentinel_seen and (left := deadline - time.monotonic()) > 0:
            self._select(left)

    def _read(self, fd: int, which: str) -> None:
        try:
            data = os.read(fd, 65536)
        except BlockingIOError:
            return
        if which == "err":
            self.err += data
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
            self.notes.append(f"stdout passed {self.timing.max_output} bytes; the rest was not read")
            self.stdout_open = False
            self.selector.unregister(fd)
            return
        self.out += data
        while (cut := self.out.find(b"\n")) >= 0:
            line = bytes(self.out[:cut])
            del self.out[: cut + 1]
            self.lines.append(line)
            self._inspect(line)

    def _inspect(self, line: bytes) -> None:
        if SENTINEL_ID.encode() not in line and b'"method"' not in line:
            return
        try:
            value = json.loads(line)
        except ValueError:
            return
        if not isinstance(value, dict):
            return
        if value.get("id") in self.probes and "method" not in value:
            self.sentinel_seen = True
        elif isinstance(value.get("method"), str) and "id" in value:
            # A request from the server: answer as a client that has no capabilities.
            result: dict[str, object] = {"jsonrpc": "2.0", "id": value["id"]}
            if value["method"] == "ping":
                result["result"] = {}
            else:
                result["error"] = {"code": -32601, "message": "Method not found"}
            self.replies.append((json.dumps(result) + "\n").encode())

    def write(self, data: bytes) -> None:
        """Write all of ``data`` (reading meanwhile), unless the target stops reading."""
        view = memoryview(data)
        deadline = time.monotonic() + self.timing.answer_timeout
        self.writing = True
        try:
            while view and self.stdin_open:
                try:
                    view = view[os.write(self.stdin, view) :]
                except BlockingIOError:
                    if time.monotonic() > deadline:
                        self.notes.append("the target stopped reading its stdin")
                        self.stdin_open = False
                    else:
                        self._wait_writable(0.005)
                except (BrokenPipeError, ConnectionResetError):
                    self.notes.append("the target closed its stdin")
                    self.stdin_open = False
        finally:
            self.writing = False
        if data:
            self.at_line_start = data.endswith(b"\n")
        if self.at_line_start and self.replies:
            pending, self.replies = self.replies, []
            self.write(b"".join(pending))

    def _wait_writable(self, timeout: float) -> None:
        """Read what comes until the pipe to the target has room again (or ``timeout``)."""
        self.selector.register(self.stdin, selectors.EVENT_WRITE, "in")
        try:
            self._select(timeout)
        finally:
            self.selector.unregister(self.stdin)

    def working(self) -> bool:
        """Whether a thread of the target is running, or they ran for over 1 ms since the last
        call (False where /proc cannot tell). Clock ticks are too coarse for this: nanoseconds."""
        running, used = False, 0
        try:
            tasks = list(Path(f"/proc/{self.proc.pid}/task").iterdir())
        except OSError:
            return False
        for task in tasks:
            try:
                running |= (task / "stat").read_text().rsplit(")", 1)[1].split()[0] == "R"
                used += int((task / "schedstat").read_text().split()[0])
            except (OSError, IndexError, ValueError):
                continue  # a thread that ended meanwhile
        before, self.cpu_ns = self.cpu_ns, used
        return running or used - before > 1_000_000

    def send(self, chunk: bytes, pause: float) -> None:
        """Write one chunk, so that the target reads it on its own, then read for ``pause``.

        Without a pause, a target not seen to read could get two chunks in one read.
        """
        self.write(chunk)
        self.wait_until_read()
        self.pump(pause if self.waits_for_reads else max(pause, self.timing.pause))

    def wait_until_read(self) -> None:
        """Wait until the target has read all we wrote, so that the next write is a read of its own.

        Pauses alone do not keep chunks apart: a target still starting up finds them all
        waiting in the pipe and reads them at once. A target that does not read within the
        timeout is not waited for again.
        """
        deadline = time.monotonic() + self.timing.answer_timeout
        # A target that has ended leaves its unread bytes in the pipe: nothing to wait for.
        while self.stdin_open and self.waits_for_reads and _unread(self.stdin) > 0 and self.proc.poll() is None:
            if time.monotonic() > deadline:
                self.notes.append("the target did not read its stdin in time")
                self.waits_for_reads = False
                return
            # A read by the target wakes nothing here: poll, more finely than epoll's milliseconds.
            self._select(0)
            time.sleep(0.00005)

    def close_stdin(self) -> None:
        if self.stdin_open:
            assert self.proc.stdin
            self.proc.stdin.close()
            self.stdin_open = False

    def finish(self) -> tuple[int | None, bytes]:
        status = self.proc.poll()
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.proc.pid, signal.SIGKILL)
        self.proc.wait()
        self.selector.close()
        for stream in (self.proc.stdin, self.proc.stdout, self.proc.stderr):
            if stream is not None and not stream.closed:
                stream.close()
        return status, bytes(self.out)


def run_case(
    argv: list[str],
    chunks: list[bytes],
    timing: Timing,
    *,
    settle: float = 0.0,
    eof: bool = False,
    process: Process | None = None,
) -> Run:
    """Send ``chunks`` to a fresh ``argv`` process and observe what it does.

    ``process``, when given, is that process started earlier, which has been sent nothing.
    With ``eof`` the case ends by closing stdin and waiting for the exit instead of probing.
    """
    if process is None:
        process = Process(argv, timing)
    process.timing = timing
    try:
        for chunk in chunks:
            process.send(chunk, timing.pause)
        if eof:
            process.close_stdin()
            process.pump(timing.answer_timeout + settle)
            if not process.stdout_open:
                with contextlib.suppress(subprocess.TimeoutExpired):
                    process.proc.wait(timing.answer_timeout)
            survived = True  # what an exit means after EOF is the caller's to judge (STDIO-EOF-DRAIN)
        else:
            # Two probes: a target that drops what shares a read with other bytes still answers
            # the second, lone one, and is then found for what it dropped, not taken for dead.
            process.write(SENTINEL)
            if process.stdin_open:
                process.wait_for_sentinel(min(0.5, timing.answer_timeout))
            if process.stdin_open and not process.sentinel_seen and process.stdout_open:
                process.write(SECOND_SENTINEL)
                process.wait_for_sentinel(timing.answer_timeout)
            process.working()
            process.pump(timing.settle + settle)
            # A server that answers out of order may still owe answers the probe overtook:
            # wait while it works (a slow answer to a long line takes it tens of milliseconds).
            deadline = time.monotonic() + timing.answer_timeout
            worked = False
            while process.stdout_open and process.working() and time.monotonic() < deadline:
                worked = True
                process.pump(timing.settle)
            if worked:
                process.pump(timing.settle)  # what it wrote as its work ended, after the last read
            survived = process.sentinel_seen and process.proc.poll() is None
    finally:
        status, trailing = process.finish()
    observation = Observation(tuple(process.lines), trailing, survived, () if eof else SENTINEL_IDS, eof)
    return Run(observation, status, bytes(process.err), tuple(process.notes))


class Session:
    """A target process kept across cases, after a handshake of its own.

    Starting a process costs far more than a case (tens of milliseconds for a Python
    target), so cases that begin with this very handshake, cut after it, run here: only
    their body is written, chunk by chunk, then a probe with an id of its own. Their
    observation is the handshake's output followed by the body's, which is what a fresh
    process shows when the target keeps no state from one case to the next. What it shows
    otherwise is for the caller to confirm in a fresh process (``run_case``).
    """

    def __init__(self, argv: list[str], timing: Timing, handshake: bytes, process: Process | None = None) -> None:
        """``process``, when given, is the target started earlier and sent nothing yet."""
        self.timing = timing
        self.process = process or Process(argv, timing)
        self.cases = 0
        self.alive = self._probe([handshake], timing.answer_timeout)  # a fresh target may take its time
        self.first_probe = self.process.probes[0]
        self.handshake_output = tuple(self.process.lines)

    def _probe(self, chunks: list[bytes], timeout: float) -> bool:
        """Write ``chunks`` as a case does, then a probe; whether the target answered it and can go on."""
        process = self.process
        for chunk in chunks:
            process.send(chunk, 0.0)
        process.probes = (f"{SENTINEL_ID}/{self.cases}",)
        process.sentinel_seen = False
        process.write(probe(process.probes[0]))
        process.wait_for_sentinel(timeout)
        return (
            process.sentinel_seen
            and process.stdin_open
            and process.stdout_open
            and process.waits_for_reads  # else chunk boundaries are no longer ours
            and not process.out  # a half-written line would run into the next case's output
            and process.proc.poll() is None
        )

    def run(self, chunks: list[bytes], settle: float) -> Run:
        """Run one case's body (the chunks after the handshake)."""
        if not self.alive:
            raise RuntimeError("Session.run after the session ended")  # the caller's bug
        process = self.process
        self.cases += 1
        process.lines, process.notes, process.received = [], [], 0
        self.alive = self._probe(chunks, min(0.5, self.timing.answer_timeout))
        process.pump(settle)
        observation = Observation(
            self.handshake_output + tuple(process.lines),
            bytes(process.out),
            process.sentinel_seen and process.proc.poll() is None,
            (self.first_probe, process.probes[0]),
        )
        return Run(observation, process.proc.poll(), bytes(process.err), tuple(process.notes))

    def close(self) -> None:
        self.alive = False
        self.process.finish()
