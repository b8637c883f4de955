"""The official Python SDK client (PyPI ``mcp``, pinned in the dev extras) against ``mcpref serve``.

For every protocol version both sides support, the SDK's own ``ClientSession`` starts the
reference over stdio, completes the handshake, lists the tools, calls ``lire_prix`` for a
success and for a tool error, and pings. The SDK always requests its latest handshake
version from ``ClientSession.initialize()``; to request another, the test sends the same
``InitializeRequest`` through the session's public ``send_request`` and then does what
``initialize()`` does after it (``adopt`` the result, send ``notifications/initialized``).
The SDK's default high-level ``Client`` (``mode="auto"``) is run too: it first probes
``server/discover`` (the 2026-07-28 era), which the reference refuses as a request before
initialize, and falls back to the handshake.
"""

from __future__ import annotations

import sys
from typing import Any

import anyio
import pytest
from peerlib import REFERENCE, ROOT, SHARED_VERSIONS

mcp = pytest.importorskip("mcp", reason="the official Python SDK (PyPI mcp) is not installed: pip install -e '.[dev]'")

import mcp_types as types  # noqa: E402 (after the skip)
from mcp import Client  # noqa: E402
from mcp.client.session import ClientSession  # noqa: E402
from mcp.client.stdio import StdioServerParameters, stdio_client  # noqa: E402
from mcp.shared.exceptions import MCPError  # noqa: E402

pytestmark = pytest.mark.peers
CLIENT = types.Implementation(name="mcpref-interop-python", version="0.1.0")


def server(*options: str) -> StdioServerParameters:
    return StdioServerParameters(command=REFERENCE[0], args=[*REFERENCE[1:], *options], cwd=str(ROOT))


async def handshake(session: ClientSession, version: str) -> types.InitializeResult:
    """``ClientSession.initialize()``, requesting ``version`` instead of the SDK's latest."""
    params = types.InitializeRequestParams(protocol_version=version, capabilities=types.ClientCapabilities(), client_info=CLIENT)
    result = await session.send_request(types.InitializeRequest(params=params), types.InitializeResult)
    session.adopt(result)
    await session.send_notification(types.InitializedNotification())
    return result


def text_of(result: types.CallToolResult) -> tuple[str, bool]:
    assert len(result.content) == 1 and isinstance(result.content[0], types.TextContent)
    return result.content[0].text, bool(result.is_error)


async def session_at(version: str) -> dict[str, Any]:
    async with stdio_client(server()) as (read, write), ClientSession(read, write, client_info=CLIENT) as session:
        result = await handshake(session, version)
        tools = await session.list_tools()
        croissant = await session.call_tool("lire_prix", {"produit": "croissant"})
        kiwi = await session.call_tool("lire_prix", {"produit": "kiwi"})
        await session.send_ping()
        return {
            "version": session.protocol_version,
            "server": (result.server_info.name, result.server_info.version),
            "capabilities": result.capabilities.model_dump(exclude_none=True),
            "tools": [(tool.name, tool.title) for tool in tools.tools],
            "croissant": text_of(croissant),
            "kiwi": text_of(kiwi),
        }


@pytest.mark.spec("LIFE-VERSION-ACCEPT", "LIFE-INIT-RESULT", "TOOLS-LIST-SHAPE", "TOOLS-EXEC-ERROR", "LIFE-PING")
@pytest.mark.parametrize("version", SHARED_VERSIONS)
def test_the_python_sdk_client_completes_a_session_at_each_shared_version(version: str) -> None:
    seen = anyio.run(session_at, version)
    assert seen["version"] == version
    assert seen["server"] == ("mcpref", "0.1.0")
    assert seen["capabilities"] == {"tools": {"list_changed": False}}
    with_title = version >= "2025-06-18"
    assert seen["tools"] == [
        ("lire_prix", "Prix" if with_title else None),
        ("echo", "Echo" if with_title else None),
        ("fail", "Fail" if with_title else None),
        ("attendre", "Attendre" if with_title else None),
    ]
    assert seen["croissant"] == ("130 centimes", False)
    assert seen["kiwi"] == ("Produit inconnu", True)


@pytest.mark.spec("LIFE-PRE-INIT-REFUSED", "LIFE-VERSION-ACCEPT")
def test_the_default_python_client_probes_discover_then_falls_back_to_the_handshake() -> None:
    async def default_client() -> tuple[str, str, bool]:
        async with Client(server(), client_info=CLIENT) as client:
            price = await client.call_tool("lire_prix", {"produit": "croissant"})
            text, is_error = text_of(price)
            return client.protocol_version, text, is_error

    assert anyio.run(default_client) == ("2025-11-25", "130 centimes", False)


@pytest.mark.spec("LIFE-VERSION-REJECT", "LIFE-VERSION-COUNTER-OFFER")
def test_an_unsupported_version_is_refused_with_data_or_counter_offered() -> None:
    async def refused() -> MCPError:
        async with stdio_client(server()) as (read, write), ClientSession(read, write, client_info=CLIENT) as session:
            with pytest.raises(MCPError) as caught:
                await handshake(session, "2024-10-07")
            return caught.value

    error = anyio.run(refused)
    assert error.code == -32602
    assert error.error.data == {"requested": "2024-10-07", "supported": list(reversed(SHARED_VERSIONS))}

    async def counter_offered() -> str | None:
        params = server("--version-policy", "counter-offer")
        async with stdio_client(params) as (read, write), ClientSession(read, write, client_info=CLIENT) as session:
            result = await handshake(session, "2024-10-07")
            await session.send_ping()
            return result.protocol_version

    assert anyio.run(counter_offered) == "2025-11-25"


def test_the_pinned_sdk_is_the_one_installed() -> None:
    from importlib.metadata import version

    pinned = [line for line in (ROOT / "pyproject.toml").read_text().splitlines() if '"mcp==' in line]
    assert pinned and f'"mcp=={version("mcp")}"' in pinned[0]
    assert sys.version_info >= (3, 11)
