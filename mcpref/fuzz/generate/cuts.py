"""Where a case is cut: ``cut`` draws the positions a ``Case``'s stream is split into writes,
anywhere after the plain handshake a case starts with, or aimed inside the multi-byte characters
of string ids.
"""

from __future__ import annotations

from hypothesis import strategies as st

from mcpref.fuzz.generate.case import Case


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
