"""mcpref's oracle-driven campaigns against any stdio MCP server command.

Laid out by the way the data goes, each stage a sub-package that imports only from the stages
before it: ``generate`` (cases) → ``drive`` (a process runs them) → ``judge`` (the oracle's
findings) → ``campaign`` (search until a budget is spent) → ``report`` (files for people and
tools) → ``integrate`` (the command line, the pytest plugin, the Action). ``public_strategies``
is the strategies' public face.

It drives its targets through POSIX pipes, process groups and ``fcntl``: it runs on Linux (what
its suite runs on) and should on other POSIX systems; elsewhere, importing it says so at once.
"""

import os

if os.name != "posix":
    raise ImportError(f"mcpref.fuzz needs a POSIX system such as Linux (this one is {os.name!r})")
