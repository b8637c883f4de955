"""mcpref's oracle-driven campaigns against any stdio MCP server command.

It drives its targets through POSIX pipes, process groups and ``fcntl``: it runs on Linux (what
its suite runs on) and should on other POSIX systems; elsewhere, importing it says so at once.
"""

import os

if os.name != "posix":
    raise ImportError(f"mcpref.fuzz needs a POSIX system such as Linux (this one is {os.name!r})")
