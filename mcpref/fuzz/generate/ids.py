"""The ids mcpref's requests carry.

Ids are unique within a case (made from the message's position), so every answer can
be matched to exactly one request; their shapes are the hostile part: huge integers,
negative ones, numeric strings, non-ASCII strings, raw U+2028 inside a string.
"""

from __future__ import annotations

from collections.abc import Callable

from hypothesis import strategies as st

# Strategies are built once, here: building one per draw costs Hypothesis more than drawing from it.
_ID_SHAPES: tuple[Callable[[int], int | str], ...] = (
    lambda index: index,
    str,
    lambda index: 2**53 + 1 + index,
    lambda index: -1 - index,
    lambda index: f"é-{index}",
    lambda index: f"\u2028{index}",
    lambda index: f"日本{index}",
    lambda index: 10**30 + index,
)
ID_SHAPES = st.sampled_from(_ID_SHAPES)


def valid_id(draw: st.DrawFn, index: int) -> int | str:
    """A well-formed id made from the message's position, in one of the shapes peers mishandle."""
    return draw(ID_SHAPES, label="id")(index)


INVALID_IDS: st.SearchStrategy[object] = st.sampled_from([None, True, False, 1.5, 1.0, {}, [], {"id": 1}])
