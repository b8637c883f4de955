"""A stdio MCP server built on the official Python SDK's high-level API (PyPI ``mcp``, pinned).

It serves the reference's demo tools with the same names and arguments (``lire_prix``,
``echo``, ``fail``, ``attendre``), written the way the SDK's documentation shows, so that
``mcpref check``, ``mcpref fuzz`` and ``mcpref compare`` judge the SDK's own stdio layer,
not a difference in tools. Run: ``.venv/bin/python tests/peers/python_server.py``.
"""

from __future__ import annotations

import anyio
from mcp.server import MCPServer
from mcp_types import CallToolResult, TextContent

PRIX = {"baguette": 110, "croissant": 130}

mcp = MCPServer("mcpref-peer-python")


@mcp.tool()
def lire_prix(produit: str) -> CallToolResult:
    """Price of a bakery product, in euro cents."""
    prix = PRIX.get(produit)
    if prix is None:
        return CallToolResult(content=[TextContent(type="text", text="Produit inconnu")], is_error=True)
    return CallToolResult(content=[TextContent(type="text", text=f"{prix} centimes")])


@mcp.tool()
def echo(text: str) -> str:
    """Returns its text unchanged."""
    return text


@mcp.tool()
def fail() -> CallToolResult:
    """Always fails, as a tool error."""
    return CallToolResult(content=[TextContent(type="text", text="this tool always fails")], is_error=True)


@mcp.tool()
async def attendre(ms: int) -> str:
    """Waits the given number of milliseconds, then answers."""
    await anyio.sleep(ms / 1000)
    return f"attendu {ms} ms"


if __name__ == "__main__":
    mcp.run()
