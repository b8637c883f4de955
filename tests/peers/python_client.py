"""The official Python SDK client (PyPI ``mcp``, pinned in the dev extras) as a command-line client.

    python tests/peers/python_client.py [--mode auto|legacy|2026-07-28] [--timeout S] -- SERVER_CMD [ARGS...]

Starts the server through the SDK's stdio transport, lists the tools, calls ``echo`` with
``{"text": "hello"}`` (bounded by the SDK's own request timeout, ``--timeout``, 10 s by default) and prints the text content
of the result, one item a line: what a small CLI built on the SDK does, for ``mcpref
check-client``. Exit status: 0 the call succeeded, 1 it failed or the tool reported an error (the
exception on stderr), 2 bad usage.
"""

from __future__ import annotations

import argparse
import sys
import traceback

import anyio
import mcp_types as types
from mcp import Client
from mcp.client.stdio import StdioServerParameters

LIMIT = 15.0  # seconds: no exchange with a scripted server takes more than one
CALL_TIMEOUT = 10.0  # the SDK's own timeout of one request (--timeout): how an application bounds a call


async def call(params: StdioServerParameters, mode: str, timeout: float) -> int:
    info = types.Implementation(name="mcpref-peer-python-client", version="0.1.0")
    with anyio.fail_after(LIMIT):
        async with Client(params, client_info=info, mode=mode) as client:  # type: ignore[arg-type]
            await client.list_tools()
            result = await client.call_tool("echo", {"text": "hello"}, read_timeout_seconds=timeout)
    for item in result.content:
        if isinstance(item, types.TextContent):
            sys.stdout.buffer.write(item.text.encode("utf-8", "backslashreplace") + b"\n")
    return 1 if result.is_error else 0


def main(argv: list[str]) -> int:
    if "--" not in argv or argv.index("--") == len(argv) - 1:
        print("usage: python_client.py [--mode MODE] [--timeout S] -- SERVER_CMD [ARGS...]", file=sys.stderr)
        return 2
    cut = argv.index("--")
    parser = argparse.ArgumentParser(prog="python_client.py")
    parser.add_argument("--mode", default="auto", choices=["auto", "legacy", "2026-07-28"])
    parser.add_argument("--timeout", type=float, default=CALL_TIMEOUT)
    args = parser.parse_args(argv[:cut])
    server = argv[cut + 1 :]
    try:
        return anyio.run(call, StdioServerParameters(command=server[0], args=server[1:]), args.mode, args.timeout)
    except BaseException:  # a CLI reports every failure and exits 1
        traceback.print_exc()
        return 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
