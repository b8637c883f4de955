"""``mcpref check``'s progress on stderr while it waits: how many scenarios are judged, how many run.

On a terminal, a line rewritten in place every ``PERIOD`` seconds. Elsewhere (a CI log), a line only
when no scenario has ended for ``QUIET`` seconds, and again every ``QUIET`` seconds while that lasts:
a run that waits on a silent server says so, and one that moves on adds nothing to the log.
"""

from __future__ import annotations

import sys
import threading
import time
from collections.abc import Callable
from types import TracebackType

PERIOD = 1.0
QUIET = 5.0


def stderr_line(text: str) -> None:
    """Writes one progress line on stderr: in place on a terminal, else a line of its own."""
    sys.stderr.write(f"\r\x1b[K{text}" if sys.stderr.isatty() else f"{text}\n")
    sys.stderr.flush()


class Progress:
    """Counts the scenarios as they start and end, and shows the counts (see the module)."""

    def __init__(self, total: int, show: Callable[[str], None] | None) -> None:
        self.total = total
        self.show = show
        self.started = self.moved = self.shown = time.monotonic()
        self.running = self.done = 0
        self.note = ""  # what the runs showed of the server, when it is why the others do not run
        self._lock = threading.Lock()
        self._ended = threading.Event()
        self._thread = threading.Thread(target=self._loop, daemon=True)
        self._terminal = sys.stderr.isatty()

    def __enter__(self) -> Progress:
        if self.show is not None:
            self._thread.start()
        return self

    def __exit__(self, kind: type[BaseException] | None, value: BaseException | None, tb: TracebackType | None) -> None:
        self._ended.set()
        if self._thread.is_alive():
            self._thread.join()
            if self._terminal and self.shown > self.started:
                sys.stderr.write("\n")

    def begin(self) -> None:
        with self._lock:
            self.running += 1

    def end(self) -> None:
        with self._lock:
            self.running -= 1
            self.done += 1
            self.moved = time.monotonic()

    def line(self) -> str:
        now = time.monotonic()
        text = f"mcpref check: {self.done} of {self.total} scenarios done, {self.running} running, {now - self.started:.0f} s"
        if self.running and now - self.moved >= QUIET:
            text += f"; waiting on the server for {now - self.moved:.0f} s"
        return f"{text}; {self.note}" if self.note else text

    def _loop(self) -> None:
        assert self.show is not None
        while not self._ended.wait(PERIOD):
            now = time.monotonic()
            if self._terminal or (now - self.moved >= QUIET and now - self.shown >= QUIET):
                self.shown = now
                self.show(self.line())
