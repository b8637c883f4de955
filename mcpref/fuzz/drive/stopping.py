"""What SIGINT and SIGTERM do to a run: every target process group is killed at once, and the run
ends as a run whose time is up (``OutOfTime`` from the next wait), so that what was judged before
is reported, marked interrupted, and the command exits with 128 + the signal's number.

Every target is started in a process group of its own (``fuzz.drive.process``, ``client_run``),
which is ``enter``-ed here while it runs: a signal kills each group whole (``os.killpg``), its
children included, whatever the thread that started it is doing. Processes of ``forward_to``
(the jobs of ``fuzz --jobs``) get the signal too, and kill their own targets' groups. A second
signal ends mcpref at once, after killing the groups again.
"""

from __future__ import annotations

import contextlib
import os
import signal
import sys
import threading
from collections.abc import Iterator
from types import FrameType

from mcpref.fuzz.drive.timing import OutOfTime

SIGNALS = (signal.SIGINT, signal.SIGTERM)

_lock = threading.RLock()  # re-entrant: the handler may run while its thread holds it
_groups: set[int] = set()  # the process groups of the targets alive, by their leader's pid
_forwarded: list[int] = []  # processes that get the signal too
_received: int | None = None
_at_once = True  # whether a second signal ends this process at once (``on_signals``)


def received() -> int | None:
    """The signal that stopped the run, if one did."""
    return _received


def name() -> str:
    """The name of the signal received (``SIGINT``), or "" when none was."""
    return "" if _received is None else signal.Signals(_received).name


def check() -> None:
    """``OutOfTime`` once a signal stopped the run: no new process, no more waiting."""
    if _received is not None:
        raise OutOfTime


def _kill(group: int) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):  # ended already
        os.killpg(group, signal.SIGKILL)


def enter(group: int) -> None:
    """A target's process group, started: killed at once if a signal came meanwhile."""
    with _lock:
        _groups.add(group)
        if _received is not None:
            _kill(group)


def leave(group: int) -> None:
    """A target's process group, killed and reaped by its driver."""
    with _lock:
        _groups.discard(group)


def forward_to(pids: list[int]) -> None:
    """Processes (the jobs of a campaign) that get the signal this process gets."""
    with _lock:
        _forwarded[:] = pids


def _handle(signum: int, frame: FrameType | None) -> None:
    global _received
    again = _received is not None
    _received = signum
    with _lock:
        for group in list(_groups):
            _kill(group)
        for pid in _forwarded:  # the jobs: a second signal kills them, as they then start no target
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL if again and _at_once else signum)
    if again and _at_once:  # a second signal: no partial report, mcpref ends now
        sys.stderr.write(f"\nmcpref: {signal.Signals(signum).name} again: stopped at once\n")
        sys.stderr.flush()
        os._exit(128 + signum)


@contextlib.contextmanager
def on_signals(at_once: bool = True) -> Iterator[None]:
    """SIGINT and SIGTERM handled as this module says, within the block (the main thread's). Without
    ``at_once`` (in a job, which gets a signal from the terminal and its copy from mcpref), a second
    signal is taken as the first."""
    global _received, _at_once
    _received, _at_once = None, at_once
    previous = {signum: signal.signal(signum, _handle) for signum in SIGNALS}
    # Signals held back until now (``held``) are delivered here, to the handler.
    signal.pthread_sigmask(signal.SIG_UNBLOCK, SIGNALS)
    try:
        yield
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)


@contextlib.contextmanager
def held() -> Iterator[None]:
    """SIGINT and SIGTERM held back within the block, and in the processes started there until they
    take them (``on_signals``): a job started then cannot die of one before it can handle it."""
    signal.pthread_sigmask(signal.SIG_BLOCK, SIGNALS)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_UNBLOCK, SIGNALS)
