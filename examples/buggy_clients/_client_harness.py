"""The reference client with hooks for one bug each: ``mcpref client`` around a hooked ``Client``.

``run(client)`` takes the arguments of ``mcpref client`` (``--tool echo -- SERVER_CMD [ARGS...]``)
and runs ``mcpref.reference.client_stdio.run`` itself: the same server start, loop, ``--timeout``,
output and exit status. Only the names that loop looks up are bound to the example's: ``Client``
to ``client`` (a ``HookedClient`` subclass), and, when given, ``_show`` to ``show`` (how one text
of the result is printed) and ``_shutdown`` to ``shutdown`` (how the server is stopped at the
end). Each example is a process of its own, so the binding lasts as long as it runs.

A ``HookedClient`` is the reference ``Client`` unless a subclass overrides one of its hooks:

- ``rewrite(line)``: edits each line written to the server's stdin (one message and its LF);
  ``b""`` drops it.
- ``on_line(line)``: sees each complete line read from the server (``TooLong`` for one over the
  framer's limit) and returns the events it makes; ``self.handle(line)`` is what the reference
  does with it, ``self.send(message)`` writes one more message (through ``rewrite``).
- ``new_framer()``: what cuts the server's output into lines (a ``LineFramer`` by default).
- ``on_eof()``: the server's end of output; ``self.ended()`` is what the reference does then.

``self.args`` holds the parsed arguments, and ``self.call()`` is the request the loop makes once
the handshake is done, for a client that makes it otherwise.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from unittest import mock

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # the repository root, for ``mcpref``

from mcpref.reference import client_stdio
from mcpref.reference.client import Client, Event
from mcpref.reference.framer import FrameEvent, LineFramer
from mcpref.reference.messages import JsonObject, encode, parse_line
from mcpref.reference.versions import ProtocolVersion

USAGE = "%(prog)s [--tool NAME] [--arguments JSON] [--root URI] [--timeout S] -- SERVER_CMD [ARGS...]"


class HookedClient(Client):
    def __init__(self, version: ProtocolVersion, roots: tuple[str, ...], args: argparse.Namespace) -> None:
        super().__init__(version, roots)
        self.args = args
        self._framer = self.new_framer()

    # The hooks, as the reference has them.

    def new_framer(self) -> LineFramer:
        return LineFramer()

    def rewrite(self, line: bytes) -> bytes:
        return line

    def on_line(self, line: FrameEvent) -> list[Event]:
        return self.handle(line)

    def on_eof(self) -> list[Event]:
        return self.ended()

    # What the reference does, for the hooks to call.

    def handle(self, line: FrameEvent) -> list[Event]:
        return super()._line(line)

    def send(self, message: JsonObject) -> None:
        self._send(message)

    def ended(self) -> list[Event]:
        return super().receive_data(b"")

    def call(self) -> tuple[str, JsonObject]:
        """The method and params of the request the loop makes once the handshake is done."""
        if self.args.tool is None:
            return "tools/list", {}
        return "tools/call", {"name": self.args.tool, "arguments": json.loads(self.args.arguments)}

    # The reference's own methods, routed through the hooks.

    def _send(self, message: JsonObject) -> None:
        line = self.rewrite(encode(message))
        if line:
            self._out.append(line)

    def _line(self, line: FrameEvent) -> list[Event]:
        return self.on_line(line)

    def receive_data(self, data: bytes) -> list[Event]:
        return super().receive_data(data) if data else self.on_eof()


def message_in(line: FrameEvent) -> JsonObject | None:
    """The JSON object a line holds, if it holds one (whatever it means)."""
    value = parse_line(line) if isinstance(line, bytes) else None
    return value if isinstance(value, dict) else None


def run(
    client: type[HookedClient] = HookedClient,
    *,
    show: Callable[[str], None] | None = None,
    shutdown: Callable[[subprocess.Popen[bytes]], None] | None = None,
) -> int:
    """Run ``mcpref client`` with the arguments of this process; return its exit status."""
    argv = sys.argv[1:]
    cut = argv.index("--") if "--" in argv else len(argv)
    parser = argparse.ArgumentParser(prog=Path(sys.argv[0]).name, usage=USAGE)
    client_stdio.add_arguments(parser)
    args = parser.parse_args(argv[:cut])

    def make(version: ProtocolVersion, roots: tuple[str, ...]) -> HookedClient:
        return client(version, roots, args)

    with contextlib.ExitStack() as bound:
        bound.enter_context(mock.patch.object(client_stdio, "Client", make))
        if show is not None:
            bound.enter_context(mock.patch.object(client_stdio, "_show", show))
        if shutdown is not None:
            bound.enter_context(mock.patch.object(client_stdio, "_shutdown", shutdown))
        return client_stdio.run(args, argv[cut + 1 :])
