"""Tests for ``reference.server``: the stdio loop, through real processes and real pipes.

Most tests start ``mcpref serve`` as a subprocess (argv lists, never a shell) and talk to
it as an MCP client would. Every process gets a deadline and is killed in a ``finally``,
so that no test can hang; answers are compared by meaning (parsed JSON). A few tests
call ``serve`` in process over ``os.pipe()`` or regular files, for the paths a
subprocess does not reach easily.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import select
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any

import pytest
from seed_scripts import (
    BAD_LINES,
    FRAMING_CLOSE_AT,
    FRAMING_STEPS,
    HANDSHAKE_SCRIPT,
    TOOLS_SCRIPT,
    call,
    check_framing_answers,
    check_handshake_answers,
    check_tools_answers,
    error_code,
    init,
    line,
    notification,
    request,
    text_of,
)

from mcpref.reference import server
from mcpref.reference.dispatcher import ServerSession
from mcpref.reference.session_types import VersionPolicy

# The stdio loops run only in processes of their own: those processes are measured.
pytestmark = pytest.mark.traced

REPO = Path(__file__).resolve().parents[2]
SERVE = [sys.executable, "-m", "mcpref", "serve"]
PYTHON_M_REFERENCE = [sys.executable, "-m", "mcpref.reference"]
DEADLINE = 60.0  # seconds: only a guard against a hang; a child under coverage on a loaded machine can take 15 to start


class ServerProcess:
    """A running ``mcpref serve``: write lines, read answers with a deadline, always killed at the end."""

    def __init__(
        self,
        *options: str,
        command: list[str] = SERVE,
        stdin: int | IO[bytes] = subprocess.PIPE,
        stdout: int | IO[bytes] = subprocess.PIPE,
    ) -> None:
        self.proc = subprocess.Popen(
            [*command, *options], stdin=stdin, stdout=stdout, stderr=subprocess.PIPE, cwd=REPO
        )
        self._pending = b""
        self._stderr: list[bytes] = []
        self._ready = threading.Event()
        self._stderr_thread = threading.Thread(target=self._read_stderr, daemon=True)
        self._stderr_thread.start()

    def _read_stderr(self) -> None:
        assert self.proc.stderr is not None
        for raw in self.proc.stderr:
            self._stderr.append(raw)
            if b"ready" in raw:
                self._ready.set()
        self._ready.set()

    def wait_ready(self) -> None:
        assert self._ready.wait(DEADLINE), "no ready line on stderr"
        assert any(b"ready" in raw for raw in self._stderr), self.stderr

    def write(self, data: bytes) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(data)
        self.proc.stdin.flush()

    def send(self, *messages: Any) -> None:
        self.write(b"".join(line(message) for message in messages))

    def close_stdin(self) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.close()

    def raw_line(self, timeout: float = DEADLINE) -> bytes:
        """The next stdout line (with its LF), or b"" at end of output."""
        assert self.proc.stdout is not None
        fd = self.proc.stdout.fileno()
        deadline = time.monotonic() + timeout
        while b"\n" not in self._pending:
            remaining = deadline - time.monotonic()
            assert remaining > 0, f"no answer within {timeout} s; got {self._pending!r}"
            readable, _, _ = select.select([fd], [], [], remaining)
            if readable:
                chunk = os.read(fd, 65536)
                if not chunk:
                    rest, self._pending = self._pending, b""
                    return rest
                self._pending += chunk
        head, _, self._pending = self._pending.partition(b"\n")
        return head + b"\n"

    def answer(self, timeout: float = DEADLINE) -> Any:
        raw = self.raw_line(timeout)
        assert raw.endswith(b"\n"), f"stdout ended: {raw!r}"
        assert raw.isascii()
        return json.loads(raw)

    def answers(self, count: int) -> list[Any]:
        return [self.answer() for _ in range(count)]

    def handshake(self, version: str = "2025-06-18") -> None:
        self.send(init(0, version), notification("notifications/initialized"))
        assert self.answer()["result"]["protocolVersion"] == version

    def wait(self, timeout: float = DEADLINE) -> int:
        return self.proc.wait(timeout)

    @property
    def stderr(self) -> str:
        self._stderr_thread.join(DEADLINE)
        return b"".join(self._stderr).decode(errors="replace")

    def close(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait(DEADLINE)
        for stream in (self.proc.stdin, self.proc.stdout):
            if stream is not None:
                with contextlib.suppress(BrokenPipeError):  # unflushed input to a server that left
                    stream.close()
        self._stderr_thread.join(DEADLINE)
        assert self.proc.stderr is not None
        self.proc.stderr.close()


@pytest.fixture
def spawn() -> Iterator[Any]:
    """``spawn(*options, ...)`` starts a server that is killed when the test ends, whatever happens."""
    started: list[ServerProcess] = []

    def start(*options: str, **kwargs: Any) -> ServerProcess:
        process = ServerProcess(*options, **kwargs)
        started.append(process)
        return process

    try:
        yield start
    finally:
        for process in started:
            process.close()


# --- the seeds' scripts through a real process ----------------------------------------


@pytest.mark.spec(
    "LIFE-PRE-INIT-REFUSED",
    "LIFE-VERSION-REJECT",
    "LIFE-INIT-RESULT",
    "CAP-UNANNOUNCED-METHOD",
    "STDIO-STDOUT-MESSAGES-ONLY",
    "STDIO-EOF-DRAIN",
)
@pytest.mark.parametrize("command", [SERVE, PYTHON_M_REFERENCE], ids=["mcpref-serve", "python-m-reference"])
def test_seed_handshake_script(spawn: Any, command: list[str]) -> None:
    process = spawn(command=command)
    process.wait_ready()
    process.send(*HANDSHAKE_SCRIPT)
    check_handshake_answers(process.answers(6))
    process.close_stdin()
    assert process.raw_line() == b""  # nothing more on stdout
    assert process.wait() == 0


@pytest.mark.spec("TOOLS-CALL-RESULT", "TOOLS-EXEC-ERROR", "TOOLS-UNKNOWN", "STDIO-STDOUT-MESSAGES-ONLY")
def test_seed_tools_script(spawn: Any) -> None:
    process = spawn()
    process.wait_ready()
    for message in TOOLS_SCRIPT:  # one write per message, as the lesson's client does
        process.send(message)
    check_tools_answers(process.answers(6))
    process.close_stdin()
    assert process.wait() == 0


@pytest.mark.spec(
    "RPC-CONCURRENT",
    "FRAME-CHUNK-INVARIANT",
    "RPC-PARSE-ERROR",
    "RPC-ERROR-ID-NULL",
    "RPC-INVALID-REQUEST",
    "RPC-NOTIFICATION-SILENT",
    "STDIO-SURVIVE",
    "STDIO-EOF-DRAIN",
)
def test_seed_framing_script_with_its_timing(spawn: Any) -> None:
    process = spawn()
    process.wait_ready()  # the lesson's client waits for the ready line too
    process.handshake()
    start = time.monotonic()
    for offset, chunk in FRAMING_STEPS:
        time.sleep(max(0.0, start + offset - time.monotonic()))
        process.write(chunk)
    time.sleep(max(0.0, start + FRAMING_CLOSE_AT - time.monotonic()))
    process.close_stdin()
    check_framing_answers(process.answers(5))
    assert process.raw_line() == b""
    assert process.wait() == 0


# --- stdout, stderr, exit status -----------------------------------------------------


@pytest.mark.spec("STDIO-STDOUT-MESSAGES-ONLY", "RPC-CLIENT-RESPONSE", "FRAME-OUTPUT-ASCII", "FRAME-NO-EMBEDDED-NEWLINE")
def test_stdout_carries_only_json_lines_and_logs_go_to_stderr(spawn: Any) -> None:
    process = spawn()
    process.wait_ready()
    process.handshake()
    process.write(BAD_LINES)
    process.send({"jsonrpc": "2.0", "id": 77, "result": {}})  # a response to nothing: logged, not answered
    process.send(call(1, "echo", {"text": "a\u2028b\u2029c\u0085d\r\ne"}))
    process.close_stdin()
    out = b""
    while chunk := process.raw_line():
        out += chunk
    assert process.wait() == 0
    lines = out.split(b"\n")
    assert lines.pop() == b""
    assert len(lines) == 3
    for raw in lines:
        assert raw.isascii()
        assert isinstance(json.loads(raw), dict)
    assert text_of(json.loads(lines[-1])) == "a\u2028b\u2029c\u0085d\r\ne"
    stderr = process.stderr
    assert "mcpref serve: ready; protocol versions 2026-07-28, 2025-11-25, 2025-06-18, 2025-03-26, 2024-11-05" in stderr
    assert "dropped a response to id 77" in stderr


@pytest.mark.spec("STDIO-EOF-DRAIN", "RPC-ONE-ANSWER")
def test_eof_drains_in_flight_work_then_exits_0(spawn: Any) -> None:
    process = spawn()
    process.wait_ready()
    process.handshake()
    process.send(call(1, "attendre", {"ms": 300}), call(2, "attendre", {"ms": 100}), request(3, "ping"))
    process.close_stdin()
    seen = process.answers(3)
    assert [answer["id"] for answer in seen] == [3, 2, 1]
    assert process.raw_line() == b""
    assert process.wait() == 0


@pytest.mark.spec("STDIO-EOF-DRAIN")
def test_at_eof_answers_still_buffered_for_a_slow_reader_are_written_before_the_exit(spawn: Any) -> None:
    # About 90 KiB of answers to a client that reads nothing yet: the pipe holds 64 KiB, the rest waits
    # in the server's own write buffer, under the size at which a drain stops waiting. A server that
    # leaves at EOF then loses it; it must wait for the reader instead.
    count, text = 45, "x" * 2000
    process = spawn()
    process.wait_ready()
    process.handshake()
    process.send(*(call(i, "echo", {"text": text}) for i in range(1, count + 1)))
    process.close_stdin()
    with contextlib.suppress(subprocess.TimeoutExpired):
        process.wait(timeout=2)  # a server that loses the buffer has left by now, even on a slow machine
    assert [answer["id"] for answer in process.answers(count)] == list(range(1, count + 1))
    assert process.raw_line() == b""
    assert process.wait() == 0


@pytest.mark.spec("FRAME-EOF-PARTIAL", "STDIO-EOF-DRAIN")
def test_an_unterminated_last_line_is_answered_at_eof(spawn: Any) -> None:
    process = spawn()
    process.wait_ready()
    process.write(line(request(1, "ping")).rstrip(b"\n"))
    process.close_stdin()
    assert process.answer() == {"jsonrpc": "2.0", "id": 1, "result": {}}
    assert process.wait() == 0


@pytest.mark.spec("STDIO-SIGNALS")
@pytest.mark.parametrize(("signum", "status"), [(signal.SIGTERM, 143), (signal.SIGINT, 130)])
def test_a_signal_during_work_stops_the_server_promptly(spawn: Any, signum: int, status: int) -> None:
    process = spawn()
    process.wait_ready()
    process.handshake()
    process.send(call(1, "attendre", {"ms": 60_000}))
    process.send(request(2, "ping"))
    assert process.answer()["id"] == 2  # the long call is in flight
    sent = time.monotonic()
    process.proc.send_signal(signum)
    # Well before the 60-s call would end, however loaded the machine.
    assert process.wait(timeout=30) == status
    assert time.monotonic() - sent < 30
    stderr = process.stderr
    assert "Traceback" not in stderr
    assert "stopped by signal" in stderr


@pytest.mark.spec("STDIO-SIGNALS")
def test_a_closed_stdout_ends_the_server_quietly_even_with_stdin_open(spawn: Any) -> None:
    process = spawn()
    process.wait_ready()
    process.handshake()
    process.send(*(call(i, "attendre", {"ms": 50}) for i in range(1, 21)))
    assert process.proc.stdout is not None
    process.proc.stdout.close()  # the reader goes away while twenty answers are pending
    assert process.wait() == 1  # stdin is still open: the server must not wait for it
    stderr = process.stderr
    assert "Traceback" not in stderr
    assert stderr.count("\n") <= 3  # the ready line and one notice, not one line per answer
    assert "stdout was closed" in stderr


@pytest.mark.spec("STDIO-SIGNALS", "STDIO-EOF-DRAIN")
def test_a_closed_stdout_during_the_final_drain_exits_1(spawn: Any) -> None:
    process = spawn()
    process.wait_ready()
    process.handshake()
    process.send(*(call(i, "attendre", {"ms": 100}) for i in range(1, 11)))
    assert process.proc.stdout is not None
    process.proc.stdout.close()
    process.close_stdin()
    assert process.wait() == 1
    stderr = process.stderr
    assert "Traceback" not in stderr
    assert stderr.count("\n") <= 3


@pytest.mark.spec("STDIO-SIGNALS")
def test_a_closed_stdout_noticed_while_reading_exits_1(spawn: Any) -> None:
    process = spawn()
    process.wait_ready()
    process.handshake()
    assert process.proc.stdout is not None
    process.proc.stdout.close()
    for i in range(20):  # each answer finds stdout closed; the server stops reading
        try:
            process.send(request(i, "ping"))
        except BrokenPipeError:
            break
        time.sleep(0.01)
    assert process.wait() == 1
    assert "Traceback" not in process.stderr


@pytest.mark.spec("STDIO-EOF-DRAIN", "STDIO-STDOUT-MESSAGES-ONLY", "RPC-CONCURRENT")
def test_stdin_and_stdout_can_be_regular_files(spawn: Any, tmp_path: Path) -> None:
    script = tmp_path / "in.jsonl"
    script.write_bytes(
        b"".join(line(message) for message in TOOLS_SCRIPT)
        + line(call(7, "attendre", {"ms": 50}))
        + line(request(8, "ping"))
    )
    output = tmp_path / "out.jsonl"
    with script.open("rb") as stdin, output.open("wb") as stdout:
        process = spawn(stdin=stdin, stdout=stdout)
        assert process.wait() == 0
    seen = [json.loads(raw) for raw in output.read_bytes().splitlines()]
    check_tools_answers(seen[:6])
    assert [answer["id"] for answer in seen[6:]] == [8, 7]


@pytest.mark.spec("STDIO-SIGNALS")
def test_stdout_to_an_unwritable_file_exits_1(spawn: Any, tmp_path: Path) -> None:
    script = tmp_path / "in.jsonl"
    script.write_bytes(line(request(1, "ping")))
    output = tmp_path / "out.jsonl"
    output.write_bytes(b"")
    with script.open("rb") as stdin, output.open("rb") as read_only:
        process = spawn(stdin=stdin, stdout=read_only)
        assert process.wait() == 1
    assert "Traceback" not in process.stderr


@pytest.mark.spec("FRAME-MAX-LINE")
@pytest.mark.parametrize("option", ["--max-line-bytes", "--max-in-flight"])
@pytest.mark.parametrize("value", ["0", "-1"])
def test_limits_below_one_are_bad_usage(spawn: Any, option: str, value: str) -> None:
    process = spawn(option, value)
    assert process.wait() == 2
    assert "--max-line-bytes and --max-in-flight must be at least 1" in process.stderr


@pytest.mark.parametrize("options", [["--version-policy", "maybe"], ["--max-line-bytes", "many"], ["--nope"]])
@pytest.mark.spec("LIFE-VERSION-REJECT", "FRAME-MAX-LINE")
def test_bad_options_are_bad_usage(spawn: Any, options: list[str]) -> None:
    assert spawn(*options).wait() == 2


@pytest.mark.spec("LIFE-VERSION-COUNTER-OFFER")
def test_counter_offer_policy_option(spawn: Any) -> None:
    process = spawn("--version-policy", "counter-offer")
    process.send(init(1, "1999-01-01"))
    assert process.answer()["result"]["protocolVersion"] == "2025-11-25"
    process.close_stdin()
    assert process.wait() == 0


@pytest.mark.spec("FRAME-MAX-LINE", "STDIO-SURVIVE", "RPC-PARSE-ERROR")
def test_an_over_long_line_over_a_pipe_gets_one_parse_error_and_the_session_goes_on(spawn: Any) -> None:
    process = spawn("--max-line-bytes", "1000")
    process.wait_ready()
    process.write(b'{"jsonrpc":"2.0","id":1,"method":"ping","params":{"x":"' + b"x" * 300_000 + b'"}}\n')
    process.send(request(2, "ping"))
    first = process.answer()
    assert (first["id"], error_code(first)) == (None, -32700)
    assert process.answer() == {"jsonrpc": "2.0", "id": 2, "result": {}}
    process.close_stdin()
    assert process.raw_line() == b""
    assert process.wait() == 0


@pytest.mark.spec("FRAME-CHUNK-INVARIANT", "STDIO-SURVIVE")
def test_a_large_line_split_across_many_reads_is_answered(spawn: Any) -> None:
    text = "\u00e9" * 200_000  # 400 kB of two-byte characters, several pipe reads
    process = spawn()
    process.handshake()
    process.write(json.dumps(call(1, "echo", {"text": text}), ensure_ascii=False).encode() + b"\n")
    assert text_of(process.answer()) == text
    process.close_stdin()
    assert process.wait() == 0


# --- in process, over pipes and files --------------------------------------------------


def serve_in_process(session: ServerSession, stdin_fd: int, stdout_fd: int) -> int:
    return asyncio.run(server.serve(session, stdin_fd, stdout_fd))


@pytest.mark.spec("STDIO-EOF-DRAIN", "RPC-CONCURRENT")
def test_serve_over_os_pipes_in_process() -> None:
    in_read, in_write = os.pipe()
    out_read, out_write = os.pipe()
    try:
        os.write(in_write, b"".join(line(message) for message in TOOLS_SCRIPT) + line(call(9, "attendre", {"ms": 20})))
        os.close(in_write)
        in_write = -1
        assert serve_in_process(ServerSession(), in_read, out_write) == 0
        os.close(out_write)
        out_write = -1
        output = b""
        while chunk := os.read(out_read, 65536):
            output += chunk
    finally:
        for fd in (in_read, in_write, out_read, out_write):
            if fd >= 0:
                os.close(fd)
    seen = [json.loads(raw) for raw in output.splitlines()]
    check_tools_answers(seen[:6])
    assert text_of(seen[6]) == "attendu 20 ms"


@pytest.mark.spec("STDIO-SIGNALS")
def test_serve_stops_when_its_stdout_file_cannot_be_written(tmp_path: Path) -> None:
    script = tmp_path / "in.jsonl"
    script.write_bytes(line(request(1, "ping")) + line(request(2, "ping")))
    output = tmp_path / "out.jsonl"
    output.write_bytes(b"")
    with script.open("rb") as stdin, output.open("rb") as read_only:
        assert serve_in_process(ServerSession(), stdin.fileno(), read_only.fileno()) == 1


@pytest.mark.spec("STDIO-SIGNALS", "STDIO-EOF-DRAIN")
def test_serve_exits_1_when_stdout_closes_while_draining_at_eof(tmp_path: Path) -> None:
    # The handshake happened before; the only answer is due after EOF, and the reader is gone by then.
    session = ServerSession()
    session.receive_data(line(init(1, "2025-06-18")) + line(notification("notifications/initialized")))
    script = tmp_path / "in.jsonl"
    script.write_bytes(line(call(2, "attendre", {"ms": 30})))
    out_read, out_write = os.pipe()
    os.close(out_read)
    try:
        with script.open("rb") as stdin:
            assert serve_in_process(session, stdin.fileno(), out_write) == 1
    finally:
        os.close(out_write)


@pytest.mark.spec("STDIO-STDOUT-MESSAGES-ONLY")
def test_log_survives_a_closed_stderr(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    closed = (tmp_path / "stderr.txt").open("w")
    closed.close()
    monkeypatch.setattr(sys, "stderr", closed)
    server.log("nobody listens")  # no exception


@pytest.mark.spec("LIFE-VERSION-REJECT", "FRAME-MAX-LINE")
def test_argument_defaults() -> None:
    parser = argparse.ArgumentParser()
    server.add_arguments(parser)
    args = parser.parse_args([])
    assert VersionPolicy(args.version_policy) is VersionPolicy.REJECT
    assert args.max_line_bytes == 32 * 1024 * 1024
    assert args.max_in_flight == 100_000
    assert server.main(["--max-line-bytes", "0"]) == 2


@pytest.mark.spec("STDIO-EOF-DRAIN")
def test_dev_null_as_stdin_and_stdout_ends_at_once() -> None:
    with open(os.devnull, "rb") as stdin, open(os.devnull, "wb") as stdout:
        done = subprocess.run(
            [sys.executable, "-m", "mcpref.reference"], stdin=stdin, stdout=stdout, stderr=subprocess.PIPE, timeout=DEADLINE, check=False
        )
    assert done.returncode == 0
    assert b"Traceback" not in done.stderr


@pytest.mark.spec("RPC-CONCURRENT")
def test_with_the_in_flight_limit_reached_nothing_more_is_read_until_one_ends() -> None:
    wait = b'{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"attendre","arguments":{"ms":300}}}\n'
    ping = b'{"jsonrpc":"2.0","id":2,"method":"ping"}\n'
    init = (
        b'{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25",'
        b'"capabilities":{},"clientInfo":{"name":"t","version":"1"}}}\n'
        b'{"jsonrpc":"2.0","method":"notifications/initialized"}\n'
    )
    order = {}
    for limit in ("1", "2"):
        proc = subprocess.Popen(
            [sys.executable, "-m", "mcpref.reference", "--max-in-flight", limit],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
        )
        try:
            assert proc.stdin and proc.stdout
            proc.stdin.write(init)
            proc.stdin.flush()
            proc.stdout.readline()  # the server is up and reading: each write below is a read of its own
            proc.stdin.write(wait)
            proc.stdin.flush()
            time.sleep(0.1)
            proc.stdin.write(ping)
            proc.stdin.close()
            answers = [{"id": 0}] + [json.loads(line) for line in proc.stdout.read().splitlines()]
            assert proc.wait(timeout=DEADLINE) == 0
        finally:
            proc.kill()
            proc.wait()
        order[limit] = [answer["id"] for answer in answers]
    assert order == {"1": [0, 1, 2], "2": [0, 2, 1]}
