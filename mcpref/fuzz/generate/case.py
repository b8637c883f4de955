"""A ``Case``, the lines of one session and the chunks they are written in.

A ``Case`` is a list of lines (each ending in LF) and the positions where the joined
stream is cut into writes; ``cuts`` draws those positions. This module imports no Hypothesis:
the commands that only run and judge cases (check, replay, compare ...) start without it.
"""

from __future__ import annotations

import functools
import itertools
from dataclasses import dataclass

from mcpref.fuzz.generate.messages import PLAIN_HANDSHAKES


@dataclass(frozen=True)
class Case:
    lines: tuple[bytes, ...]
    cuts: tuple[int, ...] = ()
    settle: float = 0.0  # extra seconds to wait for tools that answer late
    eof: bool = False  # the case ends by closing stdin and waiting for the exit, instead of probing

    # Computed once a case: a case runs and is judged several times, and its lines may
    # be megabytes long.
    @functools.cached_property
    def stream(self) -> bytes:
        return b"".join(self.lines)

    @functools.cached_property
    def chunks(self) -> tuple[bytes, ...]:
        stream = self.stream
        bounds = (0, *self.cuts, len(stream))
        return tuple(stream[a:b] for a, b in itertools.pairwise(bounds) if b > a)

    @property
    def messages(self) -> int:
        return len(self.lines)

    @property
    def kept_handshake(self) -> tuple[bytes, ...] | None:
        """The plain handshake this case starts with, as the chunks it is written in (one, or
        initialize and notifications/initialized apart), when a cut follows it; else None.

        Such a case can run in a process kept from an earlier one (``fuzz.drive.kept.Session``):
        its body reaches the target as the same chunks either way. One that ends by closing stdin
        ends its process: it runs in a fresh one.
        """
        if self.eof:
            return None
        if (head := self.opening_chunk(PLAIN_HANDSHAKES)) is not None:
            return (head,)
        stepwise = b"".join(self.lines[:2]) in PLAIN_HANDSHAKES and self.chunks[:2] == self.lines[:2]
        return self.lines[:2] if stepwise else None

    def opening_chunk(self, handshakes: frozenset[bytes]) -> bytes | None:
        """The case's first two lines when they are one of ``handshakes`` and its first chunk."""
        head = b"".join(self.lines[:2])
        return head if head in handshakes and self.chunks[0] == head else None
