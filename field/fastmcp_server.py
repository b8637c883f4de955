# mypy: ignore-errors
# It runs in .field/py-fastmcp, where fastmcp is; the project's venv has no fastmcp to check it against.
"""A ten-line FastMCP server for ``make field``: one tool, stdio, as its quick start shows."""

from fastmcp import FastMCP

mcp = FastMCP("field-adder")


@mcp.tool
def add(a: int, b: int) -> int:
    """Add two integers."""
    return a + b


if __name__ == "__main__":
    mcp.run(transport="stdio", show_banner=False)
