"""Bounded memory in a real ``mcpref serve``: a line that never ends, a flood, slow work in flight.

Peak resident memory is read from /proc (VmHWM), so these tests are Linux-only; the bounds
are loose multiples of what the server holds by design, far below what an unbounded
buffer or queue would reach with the same input.
"""

from __future__ import annotations

import json
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from mcpref.fuzz.generate.messages import INITIALIZED, encode, initialize, request

pytestmark = pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="needs /proc to read peak memory")

MIB = 1024 * 1024
HANDSHAKE = encode(initialize(0, "2025-11-25")) + encode(INITIALIZED)


def peak_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1])
    raise AssertionError("no VmHWM")


def serve(*options: str) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [sys.executable, "-m", "mcpref.reference", *options],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
    )


def drain(proc: subprocess.Popen[bytes], into: list[bytes]) -> threading.Thread:
    assert proc.stdout
    reader = threading.Thread(target=lambda: into.append(proc.stdout.read()))  # type: ignore[union-attr]
    reader.start()
    return reader


@pytest.mark.spec("FRAME-MAX-LINE")
def test_a_line_that_never_ends_holds_at_most_the_line_limit() -> None:
    proc = serve("--max-line-bytes", str(MIB))
    output: list[bytes] = []
    reader = drain(proc, output)
    assert proc.stdin
    try:
        block = b"x" * 65536
        for _ in range(64 * MIB // len(block)):  # 64 MiB without a newline
            proc.stdin.write(block)
        proc.stdin.flush()
        time.sleep(0.2)
        peak = peak_kib(proc.pid)
        proc.stdin.write(b"\n" + encode(request(1, "ping")))
        proc.stdin.close()
        assert proc.wait(timeout=30) == 0
    finally:
        proc.kill()
        reader.join(timeout=30)
    assert peak < 48 * 1024, f"peak {peak} KiB for a 1 MiB line limit"
    answers = [json.loads(line) for line in output[0].splitlines()]
    assert [(a["id"], a.get("error", {}).get("code")) for a in answers] == [(None, -32700), (1, None)]


@pytest.mark.spec("STDIO-SURVIVE")
def test_a_flood_sent_to_a_client_that_does_not_read_is_held_back_not_queued() -> None:
    count = 300_000
    proc = serve()
    assert proc.stdin and proc.stdout
    flood = HANDSHAKE + b"".join(encode(request(i, "ping")) for i in range(count))
    writer = threading.Thread(target=lambda: (proc.stdin.write(flood), proc.stdin.close()))  # type: ignore[union-attr]
    writer.start()
    try:
        time.sleep(2.0)  # nobody reads stdout: the server must stop reading stdin
        held = peak_kib(proc.pid)
        output: list[bytes] = []
        reader = drain(proc, output)
        writer.join(timeout=60)
        assert proc.wait(timeout=60) == 0
        reader.join(timeout=30)
    finally:
        proc.kill()
    assert held < 40 * 1024, f"peak {held} KiB while the client was not reading {len(flood)} bytes of requests"
    assert output[0].count(b"\n") == count + 1


@pytest.mark.spec("RPC-CONCURRENT", "STDIO-EOF-DRAIN")
def test_ten_thousand_slow_requests_in_flight_stay_small_and_all_get_answered() -> None:
    count = 10_000
    proc = serve()
    output: list[bytes] = []
    reader = drain(proc, output)
    assert proc.stdin
    slow = {"name": "attendre", "arguments": {"ms": 3000}}
    try:
        proc.stdin.write(HANDSHAKE + b"".join(encode(request(i, "tools/call", slow)) for i in range(count)))
        proc.stdin.flush()
        time.sleep(1.5)
        peak = peak_kib(proc.pid)
        proc.stdin.close()
        assert proc.wait(timeout=60) == 0
    finally:
        proc.kill()
        reader.join(timeout=30)
    assert peak < 64 * 1024, f"peak {peak} KiB with {count} requests in flight"
    assert output[0].count(b'"attendu 3000 ms"') == count
