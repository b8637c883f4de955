"""A ``Case``, the lines of one session and the chunks they are written in, and where it is cut.

A ``Case`` is a list of lines (each ending in LF) and the positions where the joined
stream is cut into writes. ``cut`` draws those positions: anywhere after the plain
handshake a case starts with, or aimed inside the multi-byte characters of string ids.
"""

from __future__ import annotations

import functools
import itertools
from dataclasses import dataclass

from hypothesis import strategies as st

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


def _inside_string_ids(stream: bytes) -> list[int]:
    positions: list[int] = []
    start = stream.find(b'"id":"')
    while start >= 0:
        end = stream.find(b'"', start + 6)
        positions += [i for i in range(start + 6, end) if 0x80 <= stream[i] <= 0xBF]
        start = stream.find(b'"id":"', end)
    return positions


# A cut is drawn as (aimed or not, a 32-bit spot): a spot scales to the positions after the
# handshake, or picks one of the aimed ones. Built once, unlike strategies bounded by each
# case's length, which Hypothesis would validate anew every case.
CUT_SPOTS = st.lists(st.tuples(st.booleans(), st.integers(0, 2**32 - 1)), max_size=8)
EVERY_AIMED = st.booleans()


def cut(draw: st.DrawFn, lines: list[bytes], head: int) -> Case:
    """The case of ``lines``, cut into chunks anywhere after the first ``head`` bytes."""
    stream = b"".join(lines)
    cuts: tuple[int, ...] = (head,) if 0 < head < len(stream) else ()
    inside = len(stream) - head - 1  # the positions a cut can take, after the handshake's
    if inside > 0:
        # Cuts anywhere, or aimed inside the multi-byte characters of string ids, where
        # per-chunk decoding breaks something the answer shows: some, or every one of them.
        aimed = [position for position in _inside_string_ids(stream) if position > head]
        if len(aimed) > 0 and draw(EVERY_AIMED, label="cut at every aimed position"):
            cuts += tuple(aimed[:64])
        else:
            spots = draw(CUT_SPOTS, label="cuts")
            chosen = {
                aimed[spot % len(aimed)] if at_aimed and aimed else head + 1 + (spot * inside >> 32)
                for at_aimed, spot in spots
            }
            cuts += tuple(sorted(chosen))
    settle = 0.05 if any(b'"attendre"' in line for line in lines) else 0.0
    return Case(tuple(lines), cuts, settle)
