"""The ``mcpref`` command.

``mcpref serve`` runs the reference server without importing the oracle and the fuzzer
(Hypothesis among them): a client that starts it waits for its first answer, and that import
took four times the server's own start. Every other command is ``mcpref.fuzz.integrate.cli``'s.
"""

from __future__ import annotations

import sys


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if args[:1] == ["serve"]:
        from mcpref.reference import server

        return server.main(args[1:])
    from mcpref.fuzz.integrate import cli

    return cli.main(args)
