"""OpenAI's Codex CLI as a command-line MCP client, for ``make field-clients``.

    python field/codex_client.py [--codex PATH] [--timeout S] [--protocol-version 2026-07-28] -- SERVER_CMD...

Codex (npm ``@openai/codex``, pinned in ``field/client-pins/``) connects to the MCP servers of
its configuration through its ``rmcp-client`` crate, on ``rmcp``, the official Rust SDK. Its
``app-server`` mode (JSON-RPC on stdin/stdout, what its editor extensions speak) has a request
that calls one tool of one server directly, with no model in between: this driver starts
``codex app-server`` with the server under test as its only MCP server (``-c mcp_servers...``,
the call bounded by Codex's own ``tool_timeout_sec``, ``--timeout``), opens a thread, calls
``echo`` with ``{"text": "hello"}`` and prints the text content of the result, one item a line.
With ``--protocol-version 2026-07-28``, Codex's mode of that era (a feature it marks "under
development"). What the server asks of Codex's user (an elicitation) is declined. Codex's settings and state go
to a folder of its own under ``.field/clients``. Standard library only. Exit status: 0 the call
succeeded, 1 it failed or the tool reported an error (on stderr), 2 bad usage.
"""

from __future__ import annotations

import argparse
import json
import queue
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import IO

ROOT = Path(__file__).resolve().parents[1]
CODEX = ROOT / ".field" / "clients" / "node_modules" / ".bin" / "codex"
HOME = ROOT / ".field" / "clients" / "codex-home"
LIMIT = 15.0  # seconds: no exchange with a scripted server takes more than one
CALL_TIMEOUT = 10  # Codex's own bound on one tool call (tool_timeout_sec), as an application sets it
Message = dict[str, object]


# Nothing Codex does here needs the network, and even outside make field's isolation (a reproducer
# pasted in a shell) it reaches nothing: its model provider is at a port that does not answer (no
# Responses WebSocket opened at a thread's start), and the features that look up hosts when
# Codex starts are off (seen with strace: no DNS query is left).
OFFLINE = {
    "model_provider": "field",
    "model_providers.field.name": "field",
    "model_providers.field.base_url": "http://127.0.0.1:9/v1",
}
NETWORK_FEATURES = ("plugins", "remote_plugin", "apps", "in_app_updates", "skill_mcp_dependency_install")
MODERN = "2026-07-28"


def command(codex: str, server: list[str], timeout: int, version: str | None) -> list[str]:
    settings: dict[str, object] = {"command": server[0], "args": server[1:], "tool_timeout_sec": timeout}
    switches = [("--disable", feature) for feature in NETWORK_FEATURES]
    if version == MODERN:  # Codex's 2026-07-28 mode: a feature "under development", and the version per server
        settings["env"] = {"CODEX_MCP_PROTOCOL_VERSION": version}
        switches.append(("--enable", "mcp_2026_07_28"))
    overrides = [f"mcp_servers.target.{key}={_toml(value)}" for key, value in settings.items()]
    overrides += [f"{key}={_toml(value)}" for key, value in OFFLINE.items()]
    return [
        codex,
        "app-server",
        *(word for item in overrides for word in ("-c", item)),
        *(w for s in switches for w in s),
    ]


def _toml(value: object) -> str:
    """A TOML value, as Codex's ``-c key=value`` parses it (JSON is TOML but for tables)."""
    if isinstance(value, dict):
        return "{" + ", ".join(f"{key} = {_toml(item)}" for key, item in value.items()) + "}"
    return json.dumps(value)


def reader(stream: IO[bytes], inbox: queue.Queue[Message | None]) -> None:
    for line in stream:
        try:
            message = json.loads(line)
        except ValueError:
            continue  # not a message of the app-server protocol
        if isinstance(message, dict):
            inbox.put(message)
    inbox.put(None)


class Session:
    def __init__(self, process: subprocess.Popen[bytes]) -> None:
        assert process.stdin is not None and process.stdout is not None
        self.process, self.stdin = process, process.stdin
        self.inbox: queue.Queue[Message | None] = queue.Queue()
        threading.Thread(target=reader, args=(process.stdout, self.inbox), daemon=True).start()
        self.next_id = 0

    def send(self, message: Message) -> None:
        self.stdin.write(json.dumps(message).encode() + b"\n")
        self.stdin.flush()

    def request(self, method: str, params: Message) -> Message:
        self.next_id += 1
        self.send({"id": self.next_id, "method": method, "params": params})
        deadline = time.monotonic() + LIMIT
        while True:
            message = self.inbox.get(timeout=max(0.0, deadline - time.monotonic()))
            if message is None:
                raise RuntimeError(f"codex app-server closed its output during {method}")
            if "method" in message and "id" in message:
                self.answer(message)
            elif message.get("id") == self.next_id:
                if "error" in message:
                    raise RuntimeError(f"{method}: {json.dumps(message['error'])}")
                result = message.get("result")
                return result if isinstance(result, dict) else {}

    def answer(self, request: Message) -> None:
        """Codex's own requests of its user: an elicitation is declined, the rest refused."""
        if request["method"] == "mcpServer/elicitation/request":
            self.send({"id": request["id"], "result": {"action": "decline"}})
        else:
            self.send({"id": request["id"], "error": {"code": -32601, "message": "not served by this driver"}})


def call(codex: str, server: list[str], timeout: int, version: str | None) -> int:
    HOME.mkdir(parents=True, exist_ok=True)
    env = {"PATH": "/usr/local/bin:/usr/bin:/bin", "HOME": str(HOME), "CODEX_HOME": str(HOME), "RUST_LOG": "error"}
    process = subprocess.Popen(command(codex, server, timeout, version), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                               env=env, cwd=HOME)  # fmt: skip
    try:
        session = Session(process)
        session.request("initialize", {"clientInfo": {"name": "mcpref-field-codex-driver", "version": "0.1.0"}})
        session.send({"method": "initialized"})
        thread = session.request("thread/start", {"ephemeral": True})["thread"]
        assert isinstance(thread, dict)
        params: Message = {"threadId": thread["id"], "server": "target", "tool": "echo", "arguments": {"text": "hello"}}
        result = session.request("mcpServer/tool/call", params)
    finally:
        if process.stdin is not None:
            process.stdin.close()
        try:  # Codex takes a few seconds to stop its servers: this driver never cuts that short
            process.wait(timeout=LIMIT)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
    content = result.get("content")
    for item in content if isinstance(content, list) else []:
        if isinstance(item, dict) and item.get("type") == "text":
            sys.stdout.buffer.write(str(item.get("text")).encode("utf-8", "backslashreplace") + b"\n")
    if result.get("isError"):
        print(f"the tool reported an error: {json.dumps(result)}", file=sys.stderr)
        return 1
    return 0


def main(argv: list[str]) -> int:
    if "--" not in argv or argv.index("--") == len(argv) - 1:
        print(
            "usage: codex_client.py [--codex PATH] [--timeout S] [--protocol-version V] -- SERVER_CMD...",
            file=sys.stderr,
        )
        return 2
    cut = argv.index("--")
    parser = argparse.ArgumentParser(prog="codex_client.py")
    parser.add_argument("--codex", default=str(CODEX))
    parser.add_argument("--timeout", type=int, default=CALL_TIMEOUT)
    parser.add_argument(
        "--protocol-version", choices=[MODERN], help="Codex's 2026-07-28 mode (default: its legacy one)"
    )
    args = parser.parse_args(argv[:cut])
    try:
        return call(args.codex, argv[cut + 1 :], args.timeout, args.protocol_version)
    except Exception as error:  # a CLI reports every failure and exits 1
        print(f"codex_client.py: {type(error).__name__}: {error}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
