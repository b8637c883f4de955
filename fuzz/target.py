"""Driving one target process through one case, whatever the target does.

A case is a list of chunks. Each chunk is written with its own write, followed by a
short pause so that the kernel does not merge it with the next one: chunk boundaries
reach the target as they were drawn. Then a liveness probe (a ``ping`` with a unique
string id) tells an answering server from a dead or deaf one.

The driver never blocks on the target: stdin is written without blocking, stdout and
stderr are read as they come, every wait has a deadline, stdout is capped, and the
target runs in its own process group, which is killed at the end of the case, so no
child process outlives it. A target that cannot be started raises ``TargetError``.
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

from reference.oracle import Observation

SENTINEL_ID = "mcpref-sentinel"
SENTINEL_IDS = (SENTINEL_ID, SENTINEL_ID + "-2")
SENTINEL = (json.dumps({"jsonrpc": "2.0", "id": SENTINEL_ID, "method": "ping"}) + "\n").encode()
SECOND_SENTINEL = SENTINEL.replace(SENTINEL_ID.encode(), SENTINEL_ID.encode() + b"-2")


def _unread(fd: int) -> int:
    """Bytes written to a pipe that its reader has not read yet (Linux answers on the write end)."""
    count = array.array("i", [0])
    fcntl.ioctl(fd, termios.FIONREAD, count)
    return count[0]


class TargetError(Exception):
    """The target command could not be started at all."""


@dataclass(frozen=True)
class Timing:
    pause: float = 0.003  # between two chunks, so that the pipe keeps them apart
    answer_timeout: float = 3.0  # for the liveness probe's answer (after a first 0.5 s try)
    settle: float = 0.01  # after the probe's answer, for late or repeated answers
    max_output: int = 16 * 1024 * 1024  # stdout bytes kept per case


@dataclass(frozen=True)
class Run:
    observation: Observation
    exit_status: int | None  # None while it was still running when the case ended
    stderr_tail: bytes
    notes: tuple[str, ...]


class _Process:
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
        self.sentinel_seen = False
        self.received = 0  # stdout bytes so far, against max_output
        self.writing = False
        self.waits_for_reads = True

    def pump(self, seconds: float) -> None:
        """Read whatever comes for ``seconds`` (or until stdout closes)."""
        deadline = time.monotonic() + seconds
        while self.stdout_open:
            left = deadline - time.monotonic()
            if left <= 0:
                return
            for key, _ in self.selector.select(left):
                self._read(key.fileobj, key.data)  # type: ignore[arg-type]
            if self.replies and self.at_line_start and not self.writing:
                self.write(b"")  # answer the target's requests now, between two of our lines

    def wait_for_sentinel(self, seconds: float) -> None:
        deadline = time.monotonic() + seconds
        while self.stdout_open and not self.sentinel_seen and time.monotonic() < deadline:
            self.pump(min(0.01, deadline - time.monotonic()))

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
        if value.get("id") in SENTINEL_IDS and "method" not in value:
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
                        self.pump(0.005)
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

    def wait_until_read(self) -> None:
        """Wait until the target has read all we wrote, so that the next write is a read of its own.

        Pauses alone do not keep chunks apart: a target still starting up finds them all
        waiting in the pipe and reads them at once. A target that does not read within the
        timeout is not waited for again.
        """
        deadline = time.monotonic() + self.timing.answer_timeout
        while self.stdin_open and self.waits_for_reads and _unread(self.stdin) > 0:
            if time.monotonic() > deadline:
                self.notes.append("the target did not read its stdin in time")
                self.waits_for_reads = False
                return
            self.pump(0.001)

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


def run_case(argv: list[str], chunks: list[bytes], timing: Timing, *, settle: float = 0.0, eof: bool = False) -> Run:
    """Send ``chunks`` to a fresh ``argv`` process and observe what it does.

    With ``eof`` the case ends by closing stdin and waiting for the exit instead of probing.
    """
    process = _Process(argv, timing)
    try:
        for chunk in chunks:
            process.write(chunk)
            process.wait_until_read()
            process.pump(timing.pause)
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
            process.pump(timing.settle + settle)
            survived = process.sentinel_seen and process.proc.poll() is None
    finally:
        status, trailing = process.finish()
    observation = Observation(tuple(process.lines), trailing, survived, () if eof else SENTINEL_IDS, eof)
    return Run(observation, status, bytes(process.err), tuple(process.notes))
