"""mcpref's oracle-driven campaigns against any stdio MCP server command."""
