"""``mcpref serve``: the reference server on stdin and stdout, a thin loop around ServerSession.

This is the one module of ``reference`` that does I/O and keeps time. It reads stdin in
chunks as they come, feeds them to the session, performs the effects (writes, timers,
log lines) and waits for stdout to drain before reading more, so a client that stops
reading stalls the server instead of growing its memory.

Exit status (STDIO-EOF-DRAIN, STDIO-SIGNALS): 0 after stdin EOF once every in-flight
request is answered; 1 when stdout was closed by the reader; 2 for bad usage; 130 on
SIGINT and 143 on SIGTERM, without waiting for in-flight work. Only messages go to
stdout (STDIO-STDOUT-MESSAGES-ONLY); the ready line and logs go to stderr.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import signal
import stat
import sys
from collections.abc import Awaitable, Callable

from .dispatcher import ServerSession
from .framer import DEFAULT_MAX_LINE_BYTES
from .session_types import CancelTimer, Effect, Eras, Log, Send, StartTimer, VersionPolicy

READ_SIZE = 64 * 1024
# About 1 KiB each: a client can hold 100 MiB of the server's memory at most, plus one read's worth.
DEFAULT_MAX_IN_FLIGHT = 100_000
EXIT_OK, EXIT_STDOUT_CLOSED, EXIT_SIGINT, EXIT_SIGTERM = 0, 1, 130, 143


def log(text: str) -> None:
    try:
        sys.stderr.write(f"mcpref serve: {text}\n")
        sys.stderr.flush()
    except (OSError, ValueError):
        pass  # stderr is gone too; nothing left to tell


def _is_pipe_like(fd: int) -> bool:
    """asyncio pipe transports take pipes, sockets and terminals; not regular files, nor other
    character devices such as /dev/null, which epoll refuses to watch (they never block)."""
    mode = os.fstat(fd).st_mode
    return stat.S_ISFIFO(mode) or stat.S_ISSOCK(mode) or (stat.S_ISCHR(mode) and os.isatty(fd))


async def _open_stdin(fd: int) -> Callable[[], Awaitable[bytes]]:
    if not _is_pipe_like(fd):

        async def read_file() -> bytes:
            return os.read(fd, READ_SIZE)  # a regular file never blocks for long

        return read_file
    loop = asyncio.get_running_loop()
    reader = asyncio.StreamReader(limit=READ_SIZE)
    pipe = open(fd, "rb", buffering=0, closefd=False)  # noqa: SIM115 (the transport owns it)
    await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), pipe)

    async def read_pipe() -> bytes:
        return await reader.read(READ_SIZE)

    return read_pipe


class _Stdout:
    """Writes answers; notices a reader that went away and then stays quiet."""

    def __init__(self, fd: int, writer: asyncio.StreamWriter | None) -> None:
        self.fd = fd
        self.closed = False
        self.gone = asyncio.Event()  # set with ``closed``, to stop waiting for stdin
        self._writer = writer

    def _close(self) -> None:
        self.closed = True
        self.gone.set()

    @classmethod
    async def open(cls, fd: int) -> _Stdout:
        if not _is_pipe_like(fd):
            return cls(fd, None)
        loop = asyncio.get_running_loop()
        pipe = open(fd, "wb", buffering=0, closefd=False)  # noqa: SIM115 (the transport owns it)
        transport, protocol = await loop.connect_write_pipe(asyncio.streams.FlowControlMixin, pipe)
        return cls(fd, asyncio.StreamWriter(transport, protocol, None, loop))

    def write(self, data: bytes) -> None:
        """Write, or notice that the reader went away; the caller skips it once ``closed``."""
        if self._writer is None:
            self._write_file(data)
        elif self._writer.transport.is_closing():
            self._close()
        else:
            self._writer.write(data)

    def _write_file(self, data: bytes) -> None:
        view = memoryview(data)
        try:
            while view:
                view = view[os.write(self.fd, view) :]
        except OSError:
            self._close()

    async def drain(self) -> None:
        if self._writer is None or self.closed:
            return
        try:
            await self._writer.drain()
        except ConnectionError:
            self._close()

    async def flush(self) -> None:
        """Wait until every byte written is in the pipe. A drain waits only until the write buffer is
        under its high-water mark (64 KiB): what is left would be lost at the exit."""
        if self._writer is not None and not self.closed:
            self._writer.transport.set_write_buffer_limits(high=0)
        await self.drain()


async def serve(
    session: ServerSession, stdin_fd: int = 0, stdout_fd: int = 1, max_in_flight: int = DEFAULT_MAX_IN_FLIGHT
) -> int:
    loop = asyncio.get_running_loop()
    read = await _open_stdin(stdin_fd)
    out = await _Stdout.open(stdout_fd)
    timers: dict[int, asyncio.TimerHandle] = {}
    idle = asyncio.Event()
    idle.set()
    room = asyncio.Event()  # fewer than max_in_flight requests are waiting for their timers
    room.set()

    def perform(effects: list[Effect]) -> None:
        sent: list[bytes] = []  # one write for all the answers of a chunk, not one each
        for effect in effects:
            if isinstance(effect, Send):
                sent.append(effect.data)
            elif isinstance(effect, StartTimer):
                timers[effect.token] = loop.call_later(effect.seconds, fire, effect.token)
                idle.clear()
            elif isinstance(effect, CancelTimer):
                timers.pop(effect.token).cancel()
            else:
                assert isinstance(effect, Log)
                log(effect.text)
        if sent and not out.closed:
            out.write(b"".join(sent))
        if not timers:
            idle.set()
        if len(timers) < max_in_flight:
            room.set()
        else:
            room.clear()

    def fire(token: int) -> None:
        del timers[token]
        perform(session.complete(token))

    log(f"ready; protocol versions {', '.join(version.name for version in session.eras.versions)}")
    gone = asyncio.ensure_future(out.gone.wait())
    while not out.closed:
        # Backpressure: with max_in_flight requests in flight, read nothing more until one ends.
        await room.wait()
        # A timer's answer may find stdout closed while we wait for stdin: stop waiting then.
        reading = asyncio.ensure_future(read())
        await asyncio.wait((reading, gone), return_when=asyncio.FIRST_COMPLETED)
        if not reading.done():  # pragma: no cover (needs a timer to hit a closed stdout mid-read; not forced reliably)
            reading.cancel()
            break
        chunk = reading.result()
        if not chunk:
            break
        perform(session.receive_data(chunk))
        await out.drain()
    gone.cancel()
    if out.closed:
        log("stdout was closed; stopping")
        return EXIT_STDOUT_CLOSED
    perform(session.receive_eof())
    await idle.wait()  # STDIO-EOF-DRAIN: finish in-flight work before leaving
    await out.flush()  # STDIO-EOF-DRAIN: and write all of it out
    return EXIT_STDOUT_CLOSED if out.closed else EXIT_OK


async def _serve_until_signalled(session: ServerSession, max_in_flight: int) -> int:
    loop = asyncio.get_running_loop()
    task = asyncio.current_task()
    assert task is not None
    received: list[int] = []

    def stop(status: int) -> None:
        received.append(status)
        task.cancel()

    loop.add_signal_handler(signal.SIGTERM, stop, EXIT_SIGTERM)  # STDIO-SIGNALS
    loop.add_signal_handler(signal.SIGINT, stop, EXIT_SIGINT)
    try:
        return await serve(session, max_in_flight=max_in_flight)
    except asyncio.CancelledError:
        log("stopped by signal")
        return received[0]


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--eras",
        choices=[eras.value for eras in Eras],
        default=Eras.BOTH.value,
        help="serve the modern 2026-07-28 era, the legacy initialize era, or both (default both)",
    )
    parser.add_argument(
        "--version-policy",
        choices=[policy.value for policy in VersionPolicy],
        default=VersionPolicy.REJECT.value,
        help="answer to an unsupported protocol version: -32602 (reject, default) or the latest supported version",
    )
    parser.add_argument(
        "--max-line-bytes",
        type=int,
        default=DEFAULT_MAX_LINE_BYTES,
        help=f"longest accepted line, without its LF (default {DEFAULT_MAX_LINE_BYTES})",
    )
    parser.add_argument(
        "--max-in-flight",
        type=int,
        default=DEFAULT_MAX_IN_FLIGHT,
        help=f"slow requests in flight before stdin is read no further (default {DEFAULT_MAX_IN_FLIGHT})",
    )


def run(args: argparse.Namespace) -> int:
    if args.max_line_bytes < 1 or args.max_in_flight < 1:
        log("--max-line-bytes and --max-in-flight must be at least 1")
        return 2
    session = ServerSession(
        version_policy=VersionPolicy(args.version_policy), max_line_bytes=args.max_line_bytes, eras=Eras(args.eras)
    )
    try:
        return asyncio.run(_serve_until_signalled(session, args.max_in_flight))
    finally:
        for fd in (0, 1):
            with contextlib.suppress(OSError):
                os.set_blocking(fd, True)  # asyncio made them non-blocking; do not leave a shell that way


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="mcpref serve", description="Run the reference MCP server on stdio.")
    add_arguments(parser)
    return run(parser.parse_args(argv))
