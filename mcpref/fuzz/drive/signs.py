"""Signs that a target is working, read from /proc: its processes, their CPU time, whether a thread
of theirs is runnable. ``Process`` waits on them (``fuzz.drive.waiting``) rather than on the clock alone.
"""

from __future__ import annotations

import array
import fcntl
import os
import select
import termios
import time
from collections.abc import Sequence


def process_cpu_ns(pid: int) -> int:
    """CPU time (ns) of all of ``pid``'s threads, ended ones included: the process's CPU-time
    clock, whose id Linux builds from the pid (glibc's ``clock_getcpuclockid``): one system call
    where summing each thread's /proc schedstat took a file a thread. OSError once it has ended."""
    return time.clock_gettime_ns((~pid << 3) | 2)  # MAKE_PROCESS_CPUCLOCK(pid, CPUCLOCK_SCHED)


def machine_quiet(proc_stat: bytes) -> bool:
    """Whether, by ``/proc/stat``'s counts, no thread on the machine but the one that read it is
    runnable (``procs_running``) or waiting on I/O (``procs_blocked``). Then none of the target's
    threads is either, and their states need not be read one file a thread: the common case on an
    idle machine. Counts it cannot find make it say no."""
    counts = {}
    for line in proc_stat.splitlines():
        if line.startswith(b"procs_"):
            name, _, value = line.partition(b" ")
            counts[name] = int(value)
    return counts.get(b"procs_running", 2) <= 1 and counts.get(b"procs_blocked", 1) == 0


def look(pid: int, known: Sequence[int] = ()) -> tuple[list[int], int, bool]:
    """The processes of a target (``pid`` and its descendants: a wrapper such as ``npx``, ``uv run``
    or a shell does its work in a child), their CPU time (ns), and whether one of their threads is
    runnable or in disk sleep. ([], 0, False) where /proc cannot tell.

    On a quiet machine (``machine_quiet``) no thread's state need be read, and descendants are
    looked for through each process's main thread only, from which Python, Node.js and shells
    start their children: a first look reads a /proc file for each thread, which the process's
    reaping must drop again, and most looks are the one look at a fresh process on a quiet
    machine. A child started from another thread is found by the first look made while it or
    anything else runs (such a look finds every descendant anew), and followed by the quiet looks
    after it through ``known``, the processes the last look found: a tree found and lost by turns
    would look like work.
    """
    try:
        quiet = machine_quiet(_read("/proc/stat", 65536))  # a line for each core comes first
    except OSError:
        return [], 0, False  # no /proc: not Linux
    found: list[int] = []
    used, running, pids = 0, False, [pid, *known] if quiet else [pid]
    while pids:
        process = pids.pop()
        if process in found:
            continue
        base = f"/proc/{process}/task"
        try:
            cpu = process_cpu_ns(process)
            tasks = [str(process)] if quiet else os.listdir(base)
        except OSError:
            continue  # ended meanwhile
        found.append(process)
        used += cpu
        for task in tasks:
            try:
                if not (quiet or running):
                    running = _read(f"{base}/{task}/stat").rsplit(b")", 1)[1].split()[0] in (b"R", b"D")
                pids.extend(int(child) for child in _read(f"{base}/{task}/children").split())
            except (OSError, IndexError, ValueError):
                continue  # a thread that ended meanwhile
    return found, used, running


def _read(path: str, size: int = 4096) -> bytes:
    """A small /proc file, read without a Python file object (a look reads a dozen of them)."""
    fd = os.open(path, os.O_RDONLY)
    try:
        return os.read(fd, size)
    finally:
        os.close(fd)


def pipe_full(fd: int) -> bool:
    """Whether the pipe that ``fd`` reads has no room for a write: its writer, if it writes, waits
    for the reader. Only a write end's poll tells (the bytes a pipe holds when full depend on the
    sizes of the writes), so one is opened through /proc for the look. False where /proc cannot tell."""
    try:
        writer = os.open(f"/proc/self/fd/{fd}", os.O_WRONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    except OSError:
        return False
    try:
        poll = select.poll()
        poll.register(writer, select.POLLOUT)
        return not poll.poll(0)
    finally:
        os.close(writer)  # held on, it would keep the reader from ever seeing the end of the output


def unread(fd: int) -> int:
    """Bytes written to a pipe that its reader has not read yet (Linux answers on the write end)."""
    count = array.array("i", [0])
    fcntl.ioctl(fd, termios.FIONREAD, count)
    return count[0]
