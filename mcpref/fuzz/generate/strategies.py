"""Hypothesis strategies for whole stdio sessions, cut into chunks.

A ``Case`` is a list of lines (each ending in LF) and the positions where the joined
stream is cut into writes. Everything shrinks toward the plain: fewer lines (lists
shrink), shorter hostile lines, earlier choices in each ``one_of`` (the well-formed
ones come first), and no cuts at all (a single chunk).

Ids are unique within a case (made from the message's position), so every answer can
be matched to exactly one request; their shapes are the hostile part: huge integers,
negative ones, numeric strings, non-ASCII strings, raw U+2028 inside a string.
"""

from __future__ import annotations

import functools
import itertools
import json
import math
from collections.abc import Callable
from dataclasses import dataclass, replace

from hypothesis import strategies as st

from mcpref.reference import eras
from mcpref.reference.versions import SUPPORTED_NAMES

JsonDict = dict[str, object]


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

        Such a case can run in a process kept from an earlier one (``fuzz.target.Session``):
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


def encode(obj: object) -> bytes:
    """One message line, with raw non-ASCII characters so that multi-byte UTF-8 gets cut."""
    return json.dumps(obj, ensure_ascii=False, separators=(",", ":")).encode() + b"\n"


def request(request_id: object, method: str, params: JsonDict | None = None) -> JsonDict:
    message: JsonDict = {"jsonrpc": "2.0", "id": request_id, "method": method}
    if params is not None:
        message["params"] = params
    return message


def notification(method: str, params: JsonDict | None = None) -> JsonDict:
    message: JsonDict = {"jsonrpc": "2.0", "method": method}
    if params is not None:
        message["params"] = params
    return message


CLIENT_INFO: JsonDict = dict(eras.CLIENT_INFO)


def initialize(request_id: object, version: object, capabilities: JsonDict | None = None) -> JsonDict:
    params = {"protocolVersion": version, "capabilities": capabilities or {}, "clientInfo": CLIENT_INFO}
    return request(request_id, "initialize", params)


INITIALIZED = notification("notifications/initialized")
# The plain handshake of each version, which most cases start with: see ``Case.kept_handshake``.
PLAIN_HANDSHAKES = frozenset(encode(initialize("init-1", v)) + encode(INITIALIZED) for v in SUPPORTED_NAMES)


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


def _nested(depth: int) -> str:
    return "[" * depth + "]" * depth


HOSTILE_KINDS = (
    "not-json",
    "truncated",
    "invalid-utf8",
    "nan",
    "deep",
    "lone-surrogate",
    "raw-separator",
    "raw-cr",
    "bom",
    "huge",
    "odd-id",
    "bad-envelope",
    "duplicate-key",
    "extra-key",
    "text",
)
INVALID_UTF8 = st.sampled_from([b"\xff", b"\xc3", b"\xed\xa0\x80", b"\xc0\xaf"])
NON_FINITE = st.sampled_from(["NaN", "Infinity", "-Infinity"])
DEPTHS = st.sampled_from([100, 300, 1000, 100_000])
SEPARATORS = st.sampled_from(["\u2028", "\u2029", "\u0085", "\x0b", "\x0c", "\x1c"])
HUGE_SIZES = st.sampled_from(["answer", "line"])
BAD_ENVELOPES = st.sampled_from(
    ["method-number", "jsonrpc-1", "no-jsonrpc", "params-string", "params-null", "scalar", "no-method"]
)
OVER_A_MEBIBYTE = b"x" * 1_200_000
TEXT_LINES = st.text(st.characters(codec="utf-8", exclude_characters="\n"), max_size=40)


def _with_param(line: bytes, member: bytes) -> bytes:
    """``line`` (a request object, without its LF) with one more member in its params, and an LF."""
    if b'"params":{' in line:
        return line.replace(b'"params":{', b'"params":{' + member + b",", 1) + b"\n"
    return line[:-1] + b',"params":{' + member + b"}}\n"


def hostile_line(draw: st.DrawFn, index: int, kind: str, base: Callable[[object], JsonDict] | None = None) -> bytes:
    """A line that tests the peer's parser and framer, most carrying a request to answer.

    The request is a ``ping``, or what ``base`` builds for the drawn id (another era's probe).
    """
    request_id = valid_id(draw, index)
    ping = encode(request(request_id, "ping") if base is None else base(request_id)).rstrip(b"\n")
    if kind == "not-json":
        return b"pas du json\n"
    if kind == "truncated":
        return ping[: draw(st.integers(1, len(ping) - 1))] + b"\n"
    if kind == "invalid-utf8":
        bad = draw(INVALID_UTF8)
        return encode(request(request_id, "tools/call", {"name": "echo", "arguments": {"text": "@"}})).replace(
            b"@", bad
        )
    if kind == "nan":
        constant = draw(NON_FINITE)
        return _with_param(ping, b'"x":' + constant.encode())
    if kind == "deep":
        depth = draw(DEPTHS)
        return _with_param(ping, b'"x":' + _nested(depth).encode())
    if kind == "lone-surrogate":
        return _with_param(ping, b'"x":"\\ud800"')
    if kind == "raw-separator":
        separator = draw(SEPARATORS)
        if separator in "\x0b\x0c\x1c":
            return _with_param(ping, b'"x":"a' + separator.encode() + b'"')  # raw control: not JSON
        return encode(request(request_id, "tools/call", {"name": "echo", "arguments": {"text": f"a{separator}b"}}))
    if kind == "raw-cr":
        return ping.replace(b",", b",\r", 1) + b"\n"
    if kind == "bom":
        return b"\xef\xbb\xbf" + ping + b"\n"
    if kind == "huge":
        if draw(HUGE_SIZES) == "answer":  # an answer larger than a pipe's buffer
            return encode(request(request_id, "tools/call", {"name": "echo", "arguments": {"text": "x" * 70_000}}))
        return _with_param(ping, b"".join((b'"x":"', OVER_A_MEBIBYTE, b'"')))  # a line over 1 MiB
    if kind == "odd-id":
        return encode(request(draw(INVALID_IDS), "ping"))
    if kind == "bad-envelope":
        shape = draw(BAD_ENVELOPES)
        body: object = {
            "method-number": {"jsonrpc": "2.0", "id": request_id, "method": 5},
            "jsonrpc-1": {"jsonrpc": "1.0", "id": request_id, "method": "ping"},
            "no-jsonrpc": {"id": request_id, "method": "ping"},
            "params-string": {"jsonrpc": "2.0", "id": request_id, "method": "ping", "params": "x"},
            "params-null": {"jsonrpc": "2.0", "id": request_id, "method": "ping", "params": None},
            "scalar": 42,
            "no-method": {"jsonrpc": "2.0", "id": request_id},
        }[shape]
        return encode(body)
    if kind == "duplicate-key":
        return ping.replace(b'"jsonrpc":"2.0"', b'"jsonrpc":"2.0","jsonrpc":"2.0"') + b"\n"
    if kind == "extra-key":
        return ping[:-1] + b',"extra":true}\n'
    text = draw(TEXT_LINES)
    return text.encode() + b"\n"


HOSTILE = st.sampled_from(HOSTILE_KINDS)


def hostile_body(draw: st.DrawFn, index: int, base: Callable[[object], JsonDict]) -> bytes:
    """A hostile line of any kind, built on what ``base`` makes of the drawn id."""
    return hostile_line(draw, index, draw(HOSTILE, label="hostile"), base)


NOTIFICATION_METHODS = ("notifications/unknown", "notifications/cancelled", "notifications/initialized")
BATCH_MEMBERS = st.lists(st.integers(0, 2), max_size=3)
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
def body_line(draw: st.DrawFn, index: int) -> DrawnLine:
    return DrawnLine(_body_bytes(draw, index))


def _body_bytes(draw: st.DrawFn, index: int) -> bytes:
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
    members = draw(BATCH_MEMBERS)
    batch = [
        request(f"b{index}-{n}", "ping") if m == 0 else notification("notifications/unknown") if m == 1 else 7
        for n, m in enumerate(members)
    ]
    return encode(batch)


def _inside_string_ids(stream: bytes) -> list[int]:
    positions: list[int] = []
    start = stream.find(b'"id":"')
    while start >= 0:
        end = stream.find(b'"', start + 6)
        positions += [i for i in range(start + 6, end) if 0x80 <= stream[i] <= 0xBF]
        start = stream.find(b'"id":"', end)
    return positions


FRESH_MAX_LINES = 8
# A cut is drawn as (aimed or not, a 32-bit spot): a spot scales to the positions after the
# handshake, or picks one of the aimed ones. Built once, unlike strategies bounded by each
# case's length, which Hypothesis would validate anew every case.
CUT_SPOTS = st.lists(st.tuples(st.booleans(), st.integers(0, 2**32 - 1)), max_size=8)
EVERY_AIMED = st.booleans()


@st.composite
def cases(draw: st.DrawFn, version: str | None = None, max_lines: int = 32) -> Case:
    """A session: a handshake ordering, then well-formed and hostile lines, cut into chunks."""
    lines = [encode(message) for message in draw(handshake(version))]
    plain = b"".join(lines[:2]) in PLAIN_HANDSHAKES
    # The other orderings run in a fresh process, which pauses after every chunk: their
    # bodies stay short, the handshake being what they test.
    count = draw(st.integers(0, max_lines if plain else FRESH_MAX_LINES), label="body lines")
    lines += [draw(body_line(index)).data for index in range(count)]
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
