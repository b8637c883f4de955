"""Hypothesis strategies for whole legacy stdio sessions, cut into chunks.

A session is a handshake ordering (complete, incomplete, repeated, out of order or
malformed), then body lines: requests, notifications, answers to no request, batches and
hostile lines (``generate.hostile``), drawn as a ``Case`` (``generate.case``). Everything
shrinks toward the plain: fewer lines (lists shrink), shorter hostile lines, earlier
choices in each ``one_of`` (the well-formed ones come first), and no cuts at all (a
single chunk).
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable
from dataclasses import dataclass, replace

from hypothesis import strategies as st

from mcpref.fuzz.generate.case import Case
from mcpref.fuzz.generate.cuts import cut
from mcpref.fuzz.generate.hostile import HOSTILE_KINDS, hostile_line
from mcpref.fuzz.generate.ids import valid_id
from mcpref.fuzz.generate.messages import (
    INITIALIZED,
    PLAIN_HANDSHAKES,
    JsonDict,
    encode,
    initialize,
    notification,
    request,
)
from mcpref.reference.versions import SUPPORTED_NAMES

VERSIONS = st.sampled_from(SUPPORTED_NAMES)
# Most sessions start with the plain handshake, which a kept process has already done
# (``Case.kept_handshake``); the other orderings each need a process of their own.
PLAIN_SHARE = 150
HANDSHAKE_SHAPES = st.sampled_from(
    ("full",) * PLAIN_SHARE + ("no-initialized", "none", "twice", "early-initialized", "bad-version", "malformed")
)
# One plain handshake in eight is written in two chunks.
STEPWISE = st.sampled_from((False,) * 7 + (True,))
BAD_VERSIONS = st.sampled_from(["1999-01-01", "2026-07-28", "", "2025-03-26 "])
_MALFORMED_INIT_PARAMS: tuple[Callable[[str], JsonDict], ...] = (
    lambda version: {},
    lambda version: {"protocolVersion": 2025},
    lambda version: {"protocolVersion": version},  # no capabilities, no clientInfo
)
MALFORMED_INIT_PARAMS = st.sampled_from(_MALFORMED_INIT_PARAMS)


@functools.cache
@st.composite
def handshake(draw: st.DrawFn, version: str | None) -> list[JsonDict]:
    """A handshake ordering: complete, incomplete, repeated, out of order or malformed."""
    chosen = version or draw(VERSIONS, label="version")
    other = draw(VERSIONS)
    shape = draw(HANDSHAKE_SHAPES, label="handshake")
    init = initialize("init-1", chosen)
    if shape == "full":
        return [init, INITIALIZED]
    if shape == "no-initialized":
        return [init]
    if shape == "none":
        return []
    if shape == "twice":
        return [init, INITIALIZED, initialize("init-2", other)]
    if shape == "early-initialized":
        return [INITIALIZED, init, INITIALIZED]
    if shape == "bad-version":
        bad = draw(BAD_VERSIONS)
        return [initialize("init-0", bad), init, INITIALIZED]
    broken = draw(MALFORMED_INIT_PARAMS)(chosen)
    return [request("init-0", "initialize", broken), init, INITIALIZED]


_TOOL_CALLS: list[JsonDict] = [  # good calls first, so that shrinking prefers them
    {"name": "lire_prix", "arguments": {"produit": "croissant"}},
    {"name": "lire_prix", "arguments": {"produit": "kiwi"}},
    {"name": "echo", "arguments": {"text": "héllo\u2028wörld"}},
    {"name": "fail", "arguments": {}},
    {"name": "attendre", "arguments": {"ms": 20}},
    {"name": "lire_prix", "arguments": {"produit": 5}},
    {"name": "lire_prix", "arguments": {}},
    {"name": "echo", "arguments": {"text": "x", "extra": 1}},
    {"name": "tout_effacer", "arguments": {}},
    {"name": 5},
    {"name": "echo", "arguments": "x"},
    {"name": "fail"},
]
TOOL_CALLS = st.sampled_from(_TOOL_CALLS)

METHODS = (
    "ping",
    "tools/list",
    "tools/call",
    "bogus/x",
    "Tools/List",
    "resources/list",
    "prompts/list",
    "logging/setLevel",
    "initialize",  # again, after the handshake
)


def plain_request(draw: st.DrawFn, index: int, method: str) -> JsonDict:
    request_id = valid_id(draw, index)
    if method == "tools/call":
        # Each call asks for progress, by its own id (PROGRESS-TOKEN), as SDK clients do.
        params = {**draw(TOOL_CALLS, label="call"), "_meta": {"progressToken": request_id}}
        return request(request_id, method, params)
    if method == "logging/setLevel":
        return request(request_id, method, {"level": "info"})
    if method == "initialize":
        return initialize(request_id, draw(VERSIONS))
    return request(request_id, method)


NOTIFICATION_METHODS = ("notifications/unknown", "notifications/cancelled", "notifications/initialized")
# A batch member: a ping, a notification, what is no message (7), or, in a session of the only
# version with batches, an initialize, which no batch may hold (RPC-BATCH-INITIALIZE): a member owed
# an error under its own id. In other versions the batch is refused whole, and what became of its
# initialize cannot be told: the process that read it could not be kept (``initialized_again``).
BATCH_MEMBERS = {False: st.lists(st.integers(0, 2), max_size=3), True: st.lists(st.integers(0, 3), max_size=3)}
BATCH_VERSION = "2025-03-26"
# A body line's kind, each given a share in sevenths (hostile lines are where servers break),
# and within it, its shape, evenly. One draw picks both: each draw costs a case time.
_SHAPES_OF: dict[str, tuple[str, ...]] = {
    "request": METHODS,
    "notification": NOTIFICATION_METHODS,
    "response": ("",),
    "batch": ("",),
    "hostile": HOSTILE_KINDS,
}
_SEVENTHS = {"request": 1, "notification": 1, "response": 1, "batch": 1, "hostile": 3}
_SCALE = math.lcm(*(len(shapes) for shapes in _SHAPES_OF.values()))
# Well-formed kinds first, so that shrinking prefers them.
LINE_SHAPES = st.sampled_from(
    [
        (kind, shape)
        for kind, shapes in _SHAPES_OF.items()
        for shape in shapes
        for _ in range(_SEVENTHS[kind] * _SCALE // len(shapes))
    ]
)


@dataclass(frozen=True)
class DrawnLine:
    """A body line as its strategy returns it.

    Hypothesis holds every ``bytes`` value drawn for as long as it caches the test case
    (up to ten thousand of them), but only a weak reference to other objects: a line of
    a megabyte must not outlive its case.
    """

    data: bytes


@functools.cache
@st.composite
def body_line(draw: st.DrawFn, index: int, batches: bool = False) -> DrawnLine:
    """A body line; ``batches``: of a session at ``BATCH_VERSION``."""
    return DrawnLine(_body_bytes(draw, index, batches))


def _body_bytes(draw: st.DrawFn, index: int, batches: bool) -> bytes:
    kind, shape = draw(LINE_SHAPES, label="line")
    if kind == "request":
        return encode(plain_request(draw, index, shape))
    if kind == "notification":
        params: JsonDict | None = {"requestId": index - 1} if shape == "notifications/cancelled" else None
        return encode(notification(shape, params))
    if kind == "response":
        return encode({"jsonrpc": "2.0", "id": f"client-{index}", "result": {}})
    if kind == "hostile":
        return hostile_line(draw, index, shape)
    members = draw(BATCH_MEMBERS[batches])
    kinds: tuple[Callable[[str], object], ...] = (
        lambda member_id: request(member_id, "ping"),
        lambda member_id: notification("notifications/unknown"),
        lambda member_id: 7,
        lambda member_id: initialize(member_id, BATCH_VERSION),
    )
    return encode([kinds[m](f"b{index}-{n}") for n, m in enumerate(members)])


FRESH_MAX_LINES = 8


@st.composite
def cases(draw: st.DrawFn, version: str | None = None, max_lines: int = 32) -> Case:
    """A session: a handshake ordering, then well-formed and hostile lines, cut into chunks."""
    lines = [encode(message) for message in draw(handshake(version))]
    plain = b"".join(lines[:2]) in PLAIN_HANDSHAKES
    # The other orderings run in a fresh process, which pauses after every chunk: their
    # bodies stay short, the handshake being what they test.
    count = draw(st.integers(0, max_lines if plain else FRESH_MAX_LINES), label="body lines")
    batches = f'"protocolVersion":"{BATCH_VERSION}"'.encode() in lines[0] if lines else False
    lines += [draw(body_line(index, batches)).data for index in range(count)]
    # A plain handshake is never cut inside its lines, and always cut after, so that a kept
    # process can run the body; the other orderings test the cutting of handshakes. Some plain
    # handshakes come as a client that awaits the initialize answer writes them,
    # notifications/initialized a chunk later: only then can what the server writes before
    # receiving it be seen (LIFE-SERVER-EARLY). The first body line may complete a plain
    # handshake too (an initialize alone, then notifications/initialized): the stream is then a
    # plain one, cut after its handshake, with the draws of the ordering drawn.
    head = len(lines[0]) + len(lines[1]) if b"".join(lines[:2]) in PLAIN_HANDSHAKES else 0
    case = cut(draw, lines, head)
    if not plain:
        return case
    if draw(STEPWISE, label="initialized a chunk after initialize"):
        return replace(case, cuts=(len(lines[0]), *case.cuts))
    return case
