"""Does a server answer the requests it owes when stdin closes right after them? (issue 13)

The ``check`` corpus's EOF scenarios call the reference's demo tools (``attendre``), which a
third-party server does not have: it answers them at once with an unknown-tool error. This probe
sends each target the handshake, ``tools/list`` and a call of one of its own tools, in one write,
then closes stdin at once, and counts the answers; each target ``--repeat`` times (default 5),
inside ``unshare --net``. Run after ``make field`` has installed the targets:

    .venv/bin/python field/eof_probe.py [--repeat N] [--only LABEL ...]
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from fieldlib import ROOT
from isolation import environment, prefixed
from targets import selected

CALLS: dict[str, dict[str, object]] = {
    "mcp-server-time": {"name": "get_current_time", "arguments": {"timezone": "UTC"}},
    "mcp-server-git": {"name": "git_status", "arguments": {"repo_path": ".field/repo"}},
    "fastmcp": {"name": "add", "arguments": {"a": 1, "b": 2}},
    "server-memory": {"name": "read_graph", "arguments": {}},
    "server-sequential-thinking": {
        "name": "sequentialthinking",
        "arguments": {"thought": "t", "nextThoughtNeeded": False, "thoughtNumber": 1, "totalThoughts": 1},
    },
    "mcp-time-go": {"name": "current_time", "arguments": {"timezone": "UTC"}},
    "server-everything": {"name": "echo", "arguments": {"message": "probe"}},
    "server-filesystem": {"name": "list_allowed_directories", "arguments": {}},
    "kubernetes-go": {"name": "configuration_view", "arguments": {}},
    "prometheus-go": {"name": "getPrometheusStatus", "arguments": {}},
    "cortex-rust": {"name": "get_temporal_context", "arguments": {}},
    "azure-csharp": {"name": "get_azure_bestpractices", "arguments": {"intent": "probe"}},
}


def session(call: dict[str, object]) -> bytes:
    messages: list[dict[str, object]] = [
        {
            "jsonrpc": "2.0",
            "id": 0,
            "method": "initialize",
            "params": {
                "protocolVersion": "2025-11-25",
                "capabilities": {},
                "clientInfo": {"name": "probe", "version": "1"},
            },
        },
        {"jsonrpc": "2.0", "method": "notifications/initialized"},
        {"jsonrpc": "2.0", "id": 1, "method": "tools/list"},
        {"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": call},
    ]
    return b"".join(json.dumps(m).encode() + b"\n" for m in messages)


def once(argv: list[str], data: bytes) -> tuple[dict[object, str], int, float]:
    started = time.monotonic()
    done = subprocess.run(
        prefixed(argv), cwd=ROOT, env=environment(), input=data, capture_output=True, timeout=120, check=False
    )
    answers: dict[object, str] = {}
    for line in done.stdout.splitlines():
        try:
            message = json.loads(line)
        except ValueError:
            continue
        if isinstance(message, dict) and "id" in message:
            error = message.get("error")
            answers[message["id"]] = (
                f"error {error.get('code')} {error.get('message')!r}" if isinstance(error, dict) else "result"
            )
    return answers, done.returncode, time.monotonic() - started


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--only", nargs="*", default=None, help="the targets to probe (labels), default all")
    args = parser.parse_args()
    for target in selected(args.only):
        data = session(CALLS[target.label])
        print(f"{target.label}: {json.dumps(CALLS[target.label])}")
        for _ in range(args.repeat):
            answers, status, seconds = once(target.argv, data)
            shown = ", ".join(
                f"id {key}: {answers[key]}" if key in answers else f"id {key}: MISSING" for key in (0, 1, 2)
            )
            print(f"  exit {status} after {seconds:.1f} s; {shown}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
