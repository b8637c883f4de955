"""Hostile lines: lines that test a peer's parser and framer, most carrying a request to answer.

Not JSON, cut short, invalid UTF-8, NaN, deep nesting, a lone surrogate, a raw separator or CR,
a BOM, an answer larger than a pipe's buffer or a line over a mebibyte, an odd id, a broken
envelope, params that are not structured, a duplicate or extra key, or free text.
"""

from __future__ import annotations

from collections.abc import Callable

from hypothesis import strategies as st

from mcpref.fuzz.generate.ids import INVALID_IDS, valid_id
from mcpref.fuzz.generate.messages import JsonDict, encode, request


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
    "unstructured-params",
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
    ["method-number", "jsonrpc-1", "no-jsonrpc", "scalar", "no-method"]
)
# Neither object nor array: not even JSON-RPC's structured params (RPC-PARAMS-OBJECT).
UNSTRUCTURED_PARAMS = st.sampled_from(["x", None, 5, False])
OVER_A_MEBIBYTE = b"x" * 1_200_000
# Every character UTF-8 encodes (no surrogate), named by category: ``codec="utf-8"`` names the same
# set, but has Hypothesis build its table over every code point in Python, 233 MiB at a first run.
TEXT_LINES = st.text(st.characters(exclude_categories=["Cs"], exclude_characters="\n"), max_size=40)


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
    probe = request(request_id, "ping") if base is None else base(request_id)
    ping = encode(probe).rstrip(b"\n")
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
            "scalar": 42,
            "no-method": {"jsonrpc": "2.0", "id": request_id},
        }[shape]
        return encode(body)
    if kind == "unstructured-params":
        return encode({**probe, "params": draw(UNSTRUCTURED_PARAMS)})
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
