"""Item 5: peak resident memory of ``mcpref serve`` under two loads, and its growth across rounds.

Read from /proc/<pid>/status: VmHWM (the peak resident set since it was last reset, which
each round does through /proc/<pid>/clear_refs) and VmRSS (now). The reference point of
the peak is the server's maximum line length (``--max-line-bytes``, 32 MiB by default):
what the server must be able to hold for one line. The growth across rounds compares the
highest peak of the second half of the rounds with that of the first half: a leak shows
as a second half higher by what it keeps, while the allocator's warm-up (its arenas fill
during the first rounds, then get reused) and its jitter of a few hundred KiB do not
reach the 5% allowed (1.5 MiB here: 50 bytes kept per request and round would pass it).

- Long line: after a ping, 1 GiB of ``x`` with no newline, then a newline and a ping;
  the server answers one -32700 (FRAME-MAX-LINE) and the ping. Three rounds, under the
  default limit and under a 4 MiB limit, to show the peak follows the limit, not the input.
- In flight: after a handshake, 10,000 ``tools/call attendre {"ms": 60000}`` and a ping,
  whose answer says they have all been read; then the 10,000 are cancelled
  (notifications/cancelled) and a ping answered. Six rounds.
"""

from __future__ import annotations

import json
import os

from mcpref.reference.framer import DEFAULT_MAX_LINE_BYTES

from .client import Server, ping
from .common import SERVE, Row, proc_status, progress, reset_peak

MIB = 1024 * 1024
GIB = 1024 * MIB
LONG_LINE_ROUNDS = 4
IN_FLIGHT_ROUNDS = 6
IN_FLIGHT = 10_000
SMALL_LIMIT = 4 * MIB


def _mib(size: int) -> str:
    return f"{size / MIB:.1f} MiB"


def _growth(peaks: list[int]) -> float:
    half = len(peaks) // 2
    return max(peaks[half:]) / max(peaks[:half])


def long_line(limit: int) -> tuple[int, list[int], list[int]]:
    """(idle RSS, VmHWM after each round, VmRSS after each round)."""
    argv = SERVE if limit == DEFAULT_MAX_LINE_BYTES else [*SERVE, "--max-line-bytes", str(limit)]
    block = b"x" * MIB
    peaks: list[int] = []
    after: list[int] = []
    with Server(argv) as server:
        server.send(ping("idle"))
        server.lines(1, 30.0)
        idle = proc_status(server.pid)["VmRSS"]
        for round_ in range(LONG_LINE_ROUNDS):
            reset_peak(server.pid)
            fd = server.stdin.fileno()
            for _ in range(GIB // MIB):
                view = memoryview(block)
                while view:
                    view = view[os.write(fd, view) :]
            server.send(b"\n" + ping(f"after-{round_}"))
            answers = server.lines(2, 120.0)
            assert b"-32700" in answers[0] and f"after-{round_}".encode() in answers[1], answers
            status = proc_status(server.pid)
            peaks.append(status["VmHWM"])
            after.append(status["VmRSS"])
    return idle, peaks, after


def _attendre(request_id: str) -> bytes:
    call = {"name": "attendre", "arguments": {"ms": 60000}}
    return json.dumps({"jsonrpc": "2.0", "id": request_id, "method": "tools/call", "params": call}).encode() + b"\n"


def _cancel(request_id: str) -> bytes:
    params = {"requestId": request_id, "reason": "bench"}
    return json.dumps({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": params}).encode() + b"\n"


def in_flight() -> tuple[int, list[int], list[int], list[int], int]:
    """(idle RSS, VmHWM and VmRSS with the requests in flight, VmRSS once cancelled, request size)."""
    peaks: list[int] = []
    holding: list[int] = []
    released: list[int] = []
    with Server(SERVE) as server:
        server.handshake()
        server.send(ping("idle"))
        server.lines(1, 30.0)
        idle = proc_status(server.pid)["VmRSS"]
        size = len(_attendre("r0-00000"))
        for round_ in range(IN_FLIGHT_ROUNDS):
            reset_peak(server.pid)
            ids = [f"r{round_}-{n:05d}" for n in range(IN_FLIGHT)]
            server.send(b"".join(map(_attendre, ids)) + ping(f"held-{round_}"))
            assert f"held-{round_}".encode() in server.lines(1, 120.0)[0]
            holding.append(proc_status(server.pid)["VmRSS"])
            server.send(b"".join(map(_cancel, ids)) + ping(f"released-{round_}"))
            assert f"released-{round_}".encode() in server.lines(1, 120.0)[0]
            status = proc_status(server.pid)
            peaks.append(status["VmHWM"])  # the round's peak: holding, then cancelling
            released.append(status["VmRSS"])
    return idle, peaks, holding, released, size


def run() -> list[Row]:
    rows: list[Row] = []
    for limit in (DEFAULT_MAX_LINE_BYTES, SMALL_LIMIT):
        progress(f"5 memory: {LONG_LINE_ROUNDS} rounds of 1 GiB without a newline, --max-line-bytes {limit}")
        idle, peaks, after = long_line(limit)
        peak = max(peaks) - idle
        rows.append(
            Row(
                "5",
                f"peak RSS over idle, 1 GiB without newline, limit {limit // MIB} MiB",
                peak / limit,
                f"the max line length, {limit // MIB} MiB",
                "<= 2",
                peak <= 2 * limit,
                f"highest VmHWM {_mib(max(peaks))}, idle {_mib(idle)}; the input is {GIB // limit}x the limit",
            )
        )
        rows.append(
            Row(
                "5",
                f"peak RSS, rounds {LONG_LINE_ROUNDS // 2 + 1}-{LONG_LINE_ROUNDS} of 1 GiB (limit {limit // MIB} MiB)",
                _growth(peaks),
                f"rounds 1-{LONG_LINE_ROUNDS // 2}",
                "<= 1.05",
                _growth(peaks) <= 1.05,
                "VmHWM " + " / ".join(_mib(p) for p in peaks) + "; VmRSS after " + " / ".join(_mib(a) for a in after),
            )
        )
    progress(f"5 memory: {IN_FLIGHT_ROUNDS} rounds of {IN_FLIGHT:,} attendre calls in flight, then cancelled")
    idle, peaks, holding, released, size = in_flight()
    held = holding[0] - idle
    rows += [
        Row(
            "5",
            f"peak RSS over idle, {IN_FLIGHT:,} slow requests in flight",
            (max(peaks) - idle) / DEFAULT_MAX_LINE_BYTES,
            f"the max line length, {DEFAULT_MAX_LINE_BYTES // MIB} MiB",
            "<= 2",
            max(peaks) - idle <= 2 * DEFAULT_MAX_LINE_BYTES,
            f"highest VmHWM {_mib(max(peaks))}, idle {_mib(idle)}; {held / IN_FLIGHT:,.0f} B per request in flight "
            f"({held / IN_FLIGHT / size:.0f}x its {size} B line)",
        ),
        Row(
            "5",
            f"peak RSS, rounds {IN_FLIGHT_ROUNDS // 2 + 1}-{IN_FLIGHT_ROUNDS} of {IN_FLIGHT:,} in flight",
            _growth(peaks),
            f"rounds 1-{IN_FLIGHT_ROUNDS // 2}",
            "<= 1.05",
            _growth(peaks) <= 1.05,
            "VmRSS in flight " + " / ".join(_mib(h) for h in holding) + "; after cancelling "
            + " / ".join(_mib(r) for r in released) + "; VmHWM " + " / ".join(_mib(p) for p in peaks),
        ),
    ]
    return rows
