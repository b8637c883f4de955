"""Item 1: LineFramer throughput against the ceiling of ``bytes.split(b"\\n")`` over the same bytes.

Each ratio is ceiling time ÷ framer time (1.0: as fast as one ``split`` of the whole
stream; above 1: faster, which happens because ``split`` walks the bytes one at a time
in C while the framer first looks for a LF with ``find``, a vectorised ``memchr``).
The chunks are cut before timing; the framer's events are built and dropped like
``split``'s list.

(b)'s growth row divides the cost per byte at 16 MiB by the cost per byte at 1 MiB,
beside the same growth for one plain copy of those bytes (``b"".join`` of the chunks,
the least any framer that hands out the line must do): past the caches, a copy costs
more per byte, and that is the memory's share, not the framer's. The target is met when
the framer's growth is at most 1.1, or at most 1.1 times the copy's; a framer that
scanned its buffered bytes again for each chunk would grow about 16 times.
"""

from __future__ import annotations

from mcpref.reference.framer import LineFramer

from .common import Row, best_of, progress

MIB = 1024 * 1024


def _chunks(data: bytes, size: int) -> list[bytes]:
    return [data[i : i + size] for i in range(0, len(data), size)]


def _feed(chunks: list[bytes]) -> None:
    framer = LineFramer()
    for chunk in chunks:
        framer.receive_data(chunk)
    framer.receive_eof()


def _message(size: int) -> bytes:
    """One echo request of exactly ``size`` bytes, then its LF."""
    head = b'{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{"text":"'
    tail = b'"}}}'
    return head + b"x" * (size - len(head) - len(tail)) + tail + b"\n"


def _one_message(size: int, repeats: int) -> tuple[float, float, float, int]:
    """Framer, ceiling and plain-copy times for one message of ``size`` bytes in 4 KiB chunks."""
    message = _message(size)
    pieces = _chunks(message, 4096)
    framer, ceiling, copy = best_of(
        [lambda: _feed(pieces), lambda: message.split(b"\n"), lambda: b"".join(pieces)], repeats=repeats
    )
    return framer, ceiling, copy, len(message)


def _row(item: str, what: str, framer: float, ceiling: float, size: int, target: str, met: bool | None) -> Row:
    return Row(
        item,
        what,
        ceiling / framer,
        "`bytes.split` of the same bytes",
        target,
        met,
        f"framer {size / framer / MIB:,.0f} MiB/s, split {size / ceiling / MIB:,.0f} MiB/s",
    )


def run() -> list[Row]:
    rows: list[Row] = []

    progress("1a framer: 100k small messages in 64 KiB chunks")
    stream = b"".join(b'{"jsonrpc":"2.0","id":%d,"method":"ping"}\n' % i for i in range(100_000))
    chunks = _chunks(stream, 64 * 1024)
    framer, ceiling = best_of([lambda: _feed(chunks), lambda: stream.split(b"\n")], repeats=9)
    ratio = ceiling / framer
    what = "framer: 100k small messages, 64 KiB chunks"
    rows.append(_row("1a", what, framer, ceiling, len(stream), ">= 0.5", ratio >= 0.5))

    per_byte: dict[int, tuple[float, float]] = {}
    for mib in (1, 4, 16):
        progress(f"1b framer: one {mib} MiB message in 4 KiB chunks")
        framer, ceiling, copy, size = _one_message(mib * MIB, repeats=11 if mib < 16 else 15)
        per_byte[mib] = (framer / size, copy / size)
        ratio = ceiling / framer
        what = f"framer: one {mib} MiB message, 4 KiB chunks"
        if mib == 16:
            rows.append(_row("1b", what, framer, ceiling, size, ">= 0.5", ratio >= 0.5))
        else:
            rows.append(_row("1b", what, framer, ceiling, size, "", None))

    framer_growth = per_byte[16][0] / per_byte[1][0]
    copy_growth = per_byte[16][1] / per_byte[1][1]
    for mib in (4, 16):
        growth = per_byte[mib][0] / per_byte[1][0]
        last = mib == 16
        rows.append(
            Row(
                "1b",
                f"framer cost per byte, {mib} MiB message",
                growth,
                "cost per byte at 1 MiB",
                "<= 1.1 (or 1.1x a copy's growth)" if last else "",
                (framer_growth <= max(1.1, copy_growth * 1.1)) if last else None,
                f"{per_byte[mib][0] * 1e9:.3f} ns/B vs {per_byte[1][0] * 1e9:.3f} ns/B; "
                f"one copy of the bytes grows {per_byte[mib][1] / per_byte[1][1]:.2f}x",
            )
        )

    progress("1c framer: one 64 KiB message, one byte at a time")
    message = _message(64 * 1024)
    single = _chunks(message, 1)
    framer, ceiling = best_of([lambda: _feed(single), lambda: message.split(b"\n")], repeats=5)
    rows.append(
        Row(
            "1c",
            "framer: one 64 KiB message, 1-byte chunks",
            ceiling / framer,
            "`bytes.split` of the same bytes",
            "",
            None,
            f"{framer / len(single) * 1e9:.0f} ns per 1-byte call; split {len(message) / ceiling / MIB:,.0f} MiB/s",
        )
    )
    return rows
