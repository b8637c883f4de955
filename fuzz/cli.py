"""The ``mcpref`` command: ``serve`` runs the reference; the other subcommands test a target."""

from __future__ import annotations

import argparse
import sys

from reference import server


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="mcpref", description="Reference, oracle and fuzzer for the MCP stdio layer.")
    commands = parser.add_subparsers(dest="command", required=True)
    serve = commands.add_parser("serve", help="run the reference server on stdin/stdout")
    server.add_arguments(serve)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    return server.run(args)


if __name__ == "__main__":
    sys.exit(main())
