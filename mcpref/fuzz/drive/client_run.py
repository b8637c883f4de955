"""Running a client under test against the scripted server: one ``ClientRun`` per scenario.

The client is started from a command template (an argv list, no shell) in which the word
``{server}`` becomes the scripted server's argv words, and ``{server}`` inside a longer word the
shell-quoted command line (for clients that take the server as one string). The client runs in a
process group of its own, with stdin from /dev/null, until it exits or ``limit`` seconds pass;
then the group is killed. What the scripted server recorded is read back as ``RecordEvent``s.
The group is ``stopping``'s while it runs: on SIGINT or SIGTERM it is killed whole (the scripted
server, the client's child, with it), and the run, cut short, is no verdict: ``OutOfTime``.
"""

from __future__ import annotations

import contextlib
import json
import os
import shlex
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from mcpref.fuzz.drive import stopping
from mcpref.fuzz.generate.client_scripts import ServerScript

PLACEHOLDER = "{server}"
LIMIT = 20.0  # seconds a client gets for one scenario
# Seconds a client gets at least where the server never answers its call: more than twice the
# TypeScript SDK's default request timeout (60 s), so that a client left to that default shows its
# timeout rather than an endless wait (CLIENT-TIMEOUT).
ENDLESS_WAIT = 130.0
SERVER_END_WAIT = 5.0  # seconds the scripted server gets to record its end once the client exited
ENDINGS = ("eof", "signal", "exit")


class TemplateError(ValueError):
    """A client command template that names no server."""


@dataclass(frozen=True)
class RecordEvent:
    t: float  # time.monotonic() of the scripted server: one clock with the driver's on Linux
    kind: str  # start, read, wrote, ask, eof, signal, exit
    data: object


@dataclass(frozen=True)
class ClientRun:
    script: ServerScript
    events: tuple[RecordEvent, ...]  # what the scripted server saw and did, in order
    exit_status: int | None  # None: the client was still running at the limit, and was killed
    ended: float  # time.monotonic() when the client exited or was killed
    stdout: bytes
    stderr: bytes
    leftover: bool  # the scripted server was still running SERVER_END_WAIT after the client exited
    limit: float = LIMIT  # the seconds the client was given (``Limits``): how long a wait counts as endless (CLIENT-TIMEOUT)

    @property
    def written(self) -> bytes:
        """Every byte the client wrote to the server's stdin."""
        return b"".join(str(e.data).encode("latin-1") for e in self.events if e.kind == "read")


def server_argv(script_file: Path, record_file: Path) -> list[str]:
    return [sys.executable, "-m", "mcpref.fuzz.drive.scripted_server", str(script_file), str(record_file)]


def expand(template: Sequence[str], server: Sequence[str]) -> list[str]:
    if not any(PLACEHOLDER in word for word in template):
        raise TemplateError(f"the client command names no {PLACEHOLDER}: mcpref cannot give it a server")
    argv: list[str] = []
    for word in template:
        if word == PLACEHOLDER:
            argv.extend(server)
        else:
            argv.append(word.replace(PLACEHOLDER, shlex.join(server)))
    return argv


def _events(record_file: Path) -> tuple[RecordEvent, ...]:
    if not record_file.exists():
        return ()
    lines = record_file.read_bytes().split(b"\n")[:-1]  # a last line not yet ended is not yet an event
    return tuple(RecordEvent(**json.loads(line)) for line in lines)


def _running(events: tuple[RecordEvent, ...]) -> bool:
    """Whether the record shows a scripted server started and not yet ended."""
    return bool(events) and not any(e.kind in ENDINGS for e in events)


def _kill_group(pgid: int) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):  # nothing left of it
        os.killpg(pgid, signal.SIGKILL)


@dataclass(frozen=True)
class Limits:
    """How long a client may run: ``scenario`` seconds, and at least ``endless`` where the scripted
    server never answers its call."""

    scenario: float = LIMIT
    endless: float = ENDLESS_WAIT

    def given(self, script: ServerScript) -> float:
        return max(self.scenario, self.endless) if script.silent else self.scenario


DEFAULT_LIMITS: Final = Limits()


def run_client(template: Sequence[str], script: ServerScript, limits: Limits = DEFAULT_LIMITS) -> ClientRun:
    stopping.check()  # no new client once a signal stopped the run
    limit = limits.given(script)
    with tempfile.TemporaryDirectory(prefix="mcpref-client-") as folder:
        script_file, record_file = Path(folder, "script.json"), Path(folder, "record.jsonl")
        script_file.write_text(script.dumps(), encoding="utf-8")
        argv = expand(template, server_argv(script_file, record_file))
        process = subprocess.Popen(
            argv, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True
        )
        stopping.enter(process.pid)  # its group is killed on SIGINT or SIGTERM
        try:
            try:
                stdout, stderr = process.communicate(timeout=limit)
                status: int | None = process.returncode
            except subprocess.TimeoutExpired:
                _kill_group(process.pid)
                stdout, stderr = process.communicate()
                status = None
            ended = time.monotonic()
            deadline = ended + SERVER_END_WAIT
            while _running(_events(record_file)) and time.monotonic() < deadline:
                stopping.check()  # a scripted server killed by a signal records no end
                time.sleep(0.02)
            stopping.check()
        finally:
            _kill_group(process.pid)
            stopping.leave(process.pid)  # the client is reaped: the group's id may be another's from now on
        events = _events(record_file)
        leftover = status is not None and _running(events)
        return ClientRun(script, events, status, ended, stdout, stderr, leftover, limit)
