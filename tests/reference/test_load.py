"""Heavy interleaving through a real ``mcpref serve``: every request gets exactly one answer.

Ten thousand requests with random ids (strings and integers), payload sizes and delays,
cancellations mixed in, all cut into random chunks, while stdout is read concurrently.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
import threading
from typing import Any

import pytest

from mcpref.fuzz.drive.observation import Observation
from mcpref.fuzz.generate.messages import INITIALIZED, encode, initialize, notification, request
from mcpref.fuzz.judge.oracle import judge, split_lines

COUNT = 10_000


def workload(rng: random.Random) -> tuple[list[bytes], dict[str, Any], set[str]]:
    """The lines to send, what each request id must be answered with, and the cancelled ids."""
    lines = [encode(initialize("init", "2025-11-25")), encode(INITIALIZED)]
    expected: dict[str, Any] = {}
    cancelled: set[str] = set()
    for index in range(COUNT):
        request_id: int | str = index if rng.random() < 0.5 else f"r-{index}-é"
        key = json.dumps(request_id)
        kind = rng.choice(["ping", "echo", "wait"])
        if kind == "ping":
            lines.append(encode(request(request_id, "ping")))
            expected[key] = {}
        elif kind == "echo":
            text = "x\u2028y" * rng.randint(0, 700)
            lines.append(encode(request(request_id, "tools/call", {"name": "echo", "arguments": {"text": text}})))
            expected[key] = text
        else:
            ms = rng.randint(0, 30)
            lines.append(encode(request(request_id, "tools/call", {"name": "attendre", "arguments": {"ms": ms}})))
            expected[key] = f"attendu {ms} ms"
            if rng.random() < 0.05:
                lines.append(encode(notification("notifications/cancelled", {"requestId": request_id})))
                cancelled.add(key)
    return lines, expected, cancelled


def cut(stream: bytes, rng: random.Random) -> list[bytes]:
    chunks, start = [], 0
    while start < len(stream):
        size = rng.choice([1, 7, 100, 4096, 65536])
        chunks.append(stream[start : start + size])
        start += size
    return chunks


@pytest.mark.spec("RPC-ONE-ANSWER", "RPC-ID-ECHO", "RPC-CANCEL", "RPC-CONCURRENT", "FRAME-CHUNK-INVARIANT")
def test_ten_thousand_interleaved_requests_each_get_exactly_one_answer() -> None:
    rng = random.Random(20261130)
    lines, expected, cancelled = workload(rng)
    stream = b"".join(lines)
    proc = subprocess.Popen(
        [sys.executable, "-m", "mcpref.reference"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL
    )
    assert proc.stdin and proc.stdout
    output: list[bytes] = []
    reader = threading.Thread(target=lambda: output.append(proc.stdout.read()))  # type: ignore[union-attr]
    reader.start()
    try:
        for chunk in cut(stream, rng):
            proc.stdin.write(chunk)
            proc.stdin.flush()
        proc.stdin.close()
        assert proc.wait(timeout=120) == 0
    finally:
        proc.kill()
        reader.join(timeout=30)
    answers = [json.loads(line) for line in split_lines(output[0])]
    by_id: dict[str, list[Any]] = {}
    for answer in answers:
        by_id.setdefault(json.dumps(answer["id"]), []).append(answer)
    assert by_id.pop('"init"')[0]["result"]["protocolVersion"] == "2025-11-25"
    assert set(by_id) <= set(expected)
    assert [key for key, got in by_id.items() if len(got) != 1] == []
    assert sorted(set(expected) - set(by_id) - cancelled) == []
    for key, (answer,) in by_id.items():
        result = answer["result"]
        want = expected[key]
        assert result == want if isinstance(want, dict) else result["content"][0]["text"] == want, key
    observation = Observation(tuple(split_lines(output[0])), b"", True, (), eof=True)
    assert judge(stream, observation) == []
