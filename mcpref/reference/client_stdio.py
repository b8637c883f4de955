"""``mcpref client``: the reference client over a child process's stdio, a thin loop around ``Client``.

Beside ``server``, the one other module of ``reference`` that does I/O and keeps time. It starts
the server command (an argv list, no shell), opens the connection, calls one tool (or lists the
tools), prints the result's text content on stdout, and shuts the server down as the stdio
transport describes (CLIENT-SHUTDOWN): stdin closed, then SIGTERM, then SIGKILL, each after a
grace period. Every wait for the server is bounded (CLIENT-SERVER-GONE): its end of output ends
the wait at once, and silence ends it after ``--timeout`` seconds.

Exit status: 0 the call succeeded; 1 the server failed, refused, went away or fell silent, or the
tool reported an error; 2 bad usage, or a server command that could not be started.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import select
import subprocess
import sys
from typing import IO

from .client import Answered, Client, Closed, Event, Failed, Opened
from .messages import JsonObject
from .versions import BY_NAME, LATEST, SUPPORTED_NAMES, V2026_07_28

READ_SIZE = 64 * 1024
GRACE = 2.0  # seconds the server gets to exit after stdin closes, and again after SIGTERM
EXIT_OK, EXIT_FAILED, EXIT_USAGE = 0, 1, 2


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--tool", default=None, help="the tool to call (default: list the tools)")
    parser.add_argument("--arguments", default="{}", metavar="JSON", help="the tool's arguments, a JSON object")
    parser.add_argument(
        "--protocol-version", choices=[*SUPPORTED_NAMES, V2026_07_28.name], default=LATEST.name, dest="offered",
        help=f"the version offered (default {LATEST.name}); {V2026_07_28.name}: ask server/discover first, "
        "fall back to the legacy handshake for a legacy server",
    )
    parser.add_argument("--root", action="append", default=[], metavar="URI", help="declare roots and list this one")
    parser.add_argument("--timeout", type=float, default=10.0, metavar="SECONDS", help="longest wait for an answer (default 10)")


def _say(text: str) -> None:
    with contextlib.suppress(OSError, ValueError):
        sys.stderr.write(f"mcpref client: {text}\n")


def _show(text: str) -> None:
    sys.stdout.buffer.write(text.encode("utf-8", "backslashreplace") + b"\n")
    sys.stdout.flush()


def _shown(result: JsonObject, tool: str | None) -> int:
    """Print what the answer carries; the exit status it stands for."""
    if tool is None:
        tools = result.get("tools")
        for entry in tools if isinstance(tools, list) else []:
            if isinstance(entry, dict):
                _show(str(entry.get("name")))
        return EXIT_OK
    content = result.get("content")
    for item in content if isinstance(content, list) else []:
        if isinstance(item, dict) and item.get("type") == "text" and isinstance(item.get("text"), str):
            _show(str(item["text"]))
    return EXIT_FAILED if result.get("isError") is True else EXIT_OK


def _shutdown(process: subprocess.Popen[bytes]) -> None:
    """stdin closed first, then SIGTERM, then SIGKILL (CLIENT-SHUTDOWN)."""
    with contextlib.suppress(OSError):
        assert process.stdin is not None
        process.stdin.close()
    for stop in (process.terminate, process.kill):
        try:
            process.wait(GRACE)
            return
        except subprocess.TimeoutExpired:
            stop()
    process.wait()


def _flush(client: Client, stdin: IO[bytes]) -> None:
    """Write what the client has to say; before any return too, so that nothing it owes is lost."""
    pending = client.data_to_send()
    if pending:
        try:
            stdin.write(pending)
            stdin.flush()
        except OSError:
            pass  # the server is gone: its end of output says so


def _converse(client: Client, process: subprocess.Popen[bytes], args: argparse.Namespace, arguments: JsonObject) -> int:
    assert process.stdin is not None and process.stdout is not None
    client.open()
    while True:
        _flush(client, process.stdin)
        ready, _, _ = select.select([process.stdout], [], [], args.timeout)
        if not ready:
            _say(f"no answer within {args.timeout:g} s")  # CLIENT-SERVER-GONE: never wait forever
            client.give_up(f"no answer within {args.timeout:g} s")  # CLIENT-CANCEL
            _flush(client, process.stdin)
            return EXIT_FAILED
        events: list[Event] = client.receive_data(os.read(process.stdout.fileno(), READ_SIZE))
        for event in events:
            if isinstance(event, Opened):
                method, params = ("tools/call", {"name": args.tool, "arguments": arguments})
                if args.tool is None:
                    method, params = ("tools/list", {})
                if client.request(method, params) is None:
                    _say(f"the server announced no tools (it offered {sorted(event.capabilities)})")
                    return EXIT_FAILED
            elif isinstance(event, Answered):
                return _shown(event.result, args.tool)
            elif isinstance(event, Failed):
                _say(f"the server answered an error: {json.dumps(event.error)}")
                return EXIT_FAILED
            else:
                assert isinstance(event, Closed)
                _say(event.reason)
                return EXIT_FAILED


def run(args: argparse.Namespace, server_argv: list[str]) -> int:
    if not server_argv or args.timeout <= 0:
        _say("a server command after -- and a positive --timeout are needed")
        return EXIT_USAGE
    try:
        arguments = json.loads(args.arguments)
    except ValueError as exc:
        _say(f"--arguments is not JSON: {exc}")
        return EXIT_USAGE
    if not isinstance(arguments, dict):
        _say("--arguments must be a JSON object")
        return EXIT_USAGE
    client = Client(BY_NAME[args.offered], tuple(args.root))
    try:
        process = subprocess.Popen(server_argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    except OSError as exc:
        _say(f"cannot start {server_argv[0]}: {exc}")
        return EXIT_USAGE
    try:
        return _converse(client, process, args, arguments)
    finally:
        assert process.stdin is not None
        _flush(client, process.stdin)  # notifications/initialized, even when the call is not made
        _shutdown(process)
