"""Which version does each server answer to each version asked for, and what does it say first? (issue 13)

For every target and every version asked for (the four handshake versions, the stateless
2026-07-28 and an unpublished 1999-01-01): ``initialize`` alone, the answer awaited with stdin
still open (some servers drop what they owe at EOF), then ``notifications/initialized`` and
``tools/list``. Prints, per target, a line per version: the version answered (or the error), the
server's own requests and notifications written before the initialize answer (LIFE-SERVER-EARLY),
and the Tool fields listed beyond name, description and inputSchema. Inside ``unshare --net``,
after ``make field`` has installed the targets:

    .venv/bin/python field/version_probe.py [--only LABEL ...]
"""

from __future__ import annotations

import argparse
import json
import selectors
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from fieldlib import ROOT
from isolation import environment, prefixed
from targets import selected

ASKED = ("2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25", "2026-07-28", "1999-01-01")
BASE_FIELDS = {"name", "description", "inputSchema"}
WAIT = 20.0


def message(body: dict[str, object]) -> bytes:
    return json.dumps({"jsonrpc": "2.0", **body}).encode() + b"\n"


def read_until(
    process: subprocess.Popen[bytes], wanted: int, seen: list[dict[str, object]]
) -> dict[str, object] | None:
    """Messages until the answer with id ``wanted`` (returned), all of them appended to ``seen``."""
    assert process.stdout is not None
    selector = selectors.DefaultSelector()
    selector.register(process.stdout, selectors.EVENT_READ)
    deadline = time.monotonic() + WAIT
    while time.monotonic() < deadline:
        if not selector.select(deadline - time.monotonic()):
            break
        line = process.stdout.readline()
        if not line:
            break
        try:
            value = json.loads(line)
        except ValueError:
            continue
        if isinstance(value, dict):
            seen.append(value)
            if value.get("id") == wanted and "method" not in value:
                return value
    return None


def probe(argv: list[str], version: str) -> str:
    process = subprocess.Popen(
        prefixed(argv), cwd=ROOT, env=environment(), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
    )  # fmt: skip
    assert process.stdin is not None
    seen: list[dict[str, object]] = []
    try:
        params = {"protocolVersion": version, "capabilities": {}, "clientInfo": {"name": "probe", "version": "1"}}
        process.stdin.write(message({"id": 0, "method": "initialize", "params": params}))
        process.stdin.flush()
        answer = read_until(process, 0, seen)
        early = [str(m.get("method")) for m in seen if "method" in m]
        if answer is None:
            return "no answer"
        result = answer.get("result")
        if not isinstance(result, dict):
            return f"error {json.dumps(answer.get('error'))[:120]}; before it: {early or 'nothing'}"
        process.stdin.write(
            message({"method": "notifications/initialized"}) + message({"id": 1, "method": "tools/list"})
        )
        process.stdin.flush()
        listing = read_until(process, 1, seen)
        listed = (listing or {}).get("result")
        tools = listed.get("tools") if isinstance(listed, dict) else None
        fields = sorted({key for tool in tools or [] if isinstance(tool, dict) for key in tool} - BASE_FIELDS)
        return f"answered {result.get('protocolVersion')}; before it: {early or 'nothing'}; other Tool fields: {fields}"
    finally:
        process.stdin.close()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--only", nargs="*", default=None, help="the targets to probe (labels), default all")
    for target in selected(parser.parse_args().only):
        print(f"{target.label}:")
        for version in ASKED:
            print(f"  asked {version}: {probe(target.argv, version)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
