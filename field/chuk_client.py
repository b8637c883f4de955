# mypy: ignore-errors
# It runs in .field/py-chuk, where chuk-mcp is; the project's venv has no chuk-mcp to check it against.
"""chuk-mcp (PyPI ``chuk-mcp``, its own MCP implementation) as a command-line client.

    .field/py-chuk/bin/python field/chuk_client.py [--timeout S] -- SERVER_CMD [ARGS...]

chuk-mcp has its own stdio transport and JSON-RPC layer (no dependency on the official SDK). This
driver uses the calls its package documents: ``stdio_client`` starts the server, then
``send_initialize`` (which also sends ``notifications/initialized``), ``send_tools_list``, and
``send_tools_call`` of ``echo`` with ``{"text": "hello"}``: the first two with the library's
default timeouts, the call bounded by its per-request timeout (``--timeout``, 10 s by default), as
the Python SDK driver of ``tests/peers/`` bounds its call; it prints the text content of the
result, one item a line. Exit status: 0 the call succeeded, 1 it failed or the tool reported an error (on stderr), 2 bad usage.
"""

import argparse
import sys
import traceback

import anyio
from chuk_mcp import StdioServerParameters, send_initialize, send_tools_call, send_tools_list, stdio_client

LIMIT = 15.0  # seconds: no exchange with a scripted server takes more than one
CALL_TIMEOUT = 10.0


async def call(params, timeout):
    with anyio.fail_after(LIMIT):
        async with stdio_client(params) as (read_stream, write_stream):
            await send_initialize(read_stream, write_stream)
            await send_tools_list(read_stream, write_stream)
            result = await send_tools_call(read_stream, write_stream, "echo", {"text": "hello"}, timeout=timeout)
    for item in result.content:
        if item.get("type") == "text":
            sys.stdout.buffer.write(str(item.get("text")).encode("utf-8", "backslashreplace") + b"\n")
    return 1 if result.isError else 0


def main(argv):
    if "--" not in argv or argv.index("--") == len(argv) - 1:
        print("usage: chuk_client.py [--timeout S] -- SERVER_CMD [ARGS...]", file=sys.stderr)
        return 2
    cut = argv.index("--")
    parser = argparse.ArgumentParser(prog="chuk_client.py")
    parser.add_argument("--timeout", type=float, default=CALL_TIMEOUT)
    args = parser.parse_args(argv[:cut])
    server = argv[cut + 1 :]
    try:
        return anyio.run(call, StdioServerParameters(command=server[0], args=server[1:]), args.timeout)
    except BaseException:  # a CLI reports every failure and exits 1
        traceback.print_exc()
        return 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
