"""A minimal client driving one stdio server over real pipes, for items 2 and 5."""

from __future__ import annotations

import contextlib
import json
import os
import selectors
import subprocess
import threading
import time

from .common import ROOT

INITIALIZE = (
    json.dumps(
        {
            "jsonrpc": "2.0",
            "id": "init",
            "method": "initialize",
            "params": {
                "protocolVersion": "2025-06-18",
                "capabilities": {},
                "clientInfo": {"name": "mcpref-bench", "version": "0.1.0"},
            },
        }
    ).encode()
    + b"\n"
)
INITIALIZED = b'{"jsonrpc":"2.0","method":"notifications/initialized"}\n'


def ping(request_id: int | str) -> bytes:
    return json.dumps({"jsonrpc": "2.0", "id": request_id, "method": "ping"}, separators=(",", ":")).encode() + b"\n"


class TimedOut(Exception):
    pass


class Server:
    """One server process; stdout read as it comes, stderr discarded."""

    def __init__(self, argv: list[str]) -> None:
        self.proc = subprocess.Popen(
            argv, cwd=ROOT, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL
        )
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.stdin = self.proc.stdin
        self.out_fd = self.proc.stdout.fileno()
        self.pending = bytearray()  # stdout bytes after the last line handed out

    @property
    def pid(self) -> int:
        return self.proc.pid

    def send(self, data: bytes) -> None:
        self.stdin.write(data)
        self.stdin.flush()

    def lines(self, count: int, timeout: float) -> list[bytes]:
        """The next ``count`` lines of stdout."""
        deadline = time.monotonic() + timeout
        with selectors.DefaultSelector() as selector:
            selector.register(self.out_fd, selectors.EVENT_READ)
            while (have := self.pending.count(b"\n")) < count:
                left = deadline - time.monotonic()
                if left <= 0 or not selector.select(left):
                    raise TimedOut(f"{have} of {count} lines after {timeout} s")
                data = os.read(self.out_fd, 1 << 20)
                if not data:
                    raise TimedOut("stdout closed")
                self.pending += data
        *lines, rest = bytes(self.pending).split(b"\n", count)
        self.pending = bytearray(rest)
        return lines

    def handshake(self, timeout: float = 30.0) -> None:
        self.send(INITIALIZE)
        self.lines(1, timeout)
        self.send(INITIALIZED)

    def pipelined(self, payload: bytes, answers: int, timeout: float) -> float:
        """Write ``payload`` from a thread while counting answers; the seconds until the last one."""
        started = time.perf_counter()
        writer = threading.Thread(target=self.send, args=(payload,), daemon=True)
        writer.start()
        seen = 0
        deadline = time.monotonic() + timeout
        with selectors.DefaultSelector() as selector:
            selector.register(self.out_fd, selectors.EVENT_READ)
            while seen < answers:
                left = deadline - time.monotonic()
                if left <= 0 or not selector.select(left):
                    raise TimedOut(f"{seen} of {answers} answers after {timeout} s")
                data = os.read(self.out_fd, 1 << 20)
                if not data:
                    raise TimedOut(f"stdout closed after {seen} of {answers} answers")
                seen += data.count(b"\n")
        elapsed = time.perf_counter() - started
        writer.join(timeout)
        return elapsed

    def close(self) -> None:
        with contextlib.suppress(OSError):
            self.stdin.close()
        with contextlib.suppress(ProcessLookupError):
            self.proc.kill()
        self.proc.wait()
        assert self.proc.stdout is not None
        self.proc.stdout.close()

    def __enter__(self) -> Server:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
