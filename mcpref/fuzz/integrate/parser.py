"""The ``mcpref`` command line: the argparse parser of every subcommand, with its help texts and
the defaults that help shows. ``cli`` runs what it parses.
"""

from __future__ import annotations

import argparse
import textwrap
from pathlib import Path

from mcpref import __version__
from mcpref.fuzz.drive import waiting
from mcpref.fuzz.drive.timing import Timing
from mcpref.fuzz.generate.corpus_modern import add_era_argument
from mcpref.fuzz.integrate import check_client as check_client_command
from mcpref.fuzz.integrate import compare as compare_command
from mcpref.fuzz.integrate import fuzz_client as fuzz_client_command
from mcpref.fuzz.integrate import merge as merge_command
from mcpref.fuzz.integrate import selection
from mcpref.fuzz.judge.oracle import Profile
from mcpref.fuzz.report import ci, exits, stock
from mcpref.reference import client_stdio, server

DEFAULT_BUDGET = 60.0
CHECK_TIME_LIMIT = 600.0  # seconds: ten times what a slow real server takes


TARGET_HELP = (
    "The target is the command after --, an argv list started without a shell "
    "(mcpref check -- python my_server.py); without --, the bundled reference server."
)
PROFILES_HELP = (
    "Profiles: spec (the default) fails what the specification makes mandatory (MUST, MUST NOT) and "
    "warns on the rest; strict also fails SHOULDs and reference decisions. Measurements only warn."
)
RAW = argparse.RawDescriptionHelpFormatter  # an epilog's paragraphs and exit-status table kept as written


def _epilog(*parts: str) -> str:
    """The parts as paragraphs, then the table of exit statuses that every command shares."""
    return "\n\n".join([*(textwrap.fill(part, 79) for part in parts), exits.TABLE])


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="mcpref", description="Reference, oracle and fuzzer for the MCP stdio layer.", epilog=_epilog(),
        formatter_class=RAW,
    )
    parser.add_argument("--version", action="version", version=f"mcpref {__version__}")
    commands = parser.add_subparsers(dest="command", required=True)
    serve = commands.add_parser("serve", help="run the reference server on stdin/stdout")
    server.add_arguments(serve)
    client = commands.add_parser(
        "client",
        help="run the reference client: start a server, call one tool, print its text",
        usage="mcpref client [--tool NAME] [--arguments JSON] [OPTIONS] -- SERVER_CMD [ARGS...]",
        epilog="Exit status: 0 the call succeeded; 1 the server failed, refused, went away or fell silent, "
        "or the tool reported an error; 2 bad usage, or a server that could not be started.",
    )
    client_stdio.add_arguments(client)
    check_client = commands.add_parser(
        "check-client",
        help="run the client scenarios against a client command and print one row per CLIENT-* rule",
        usage=check_client_command.USAGE,
        epilog=_epilog(check_client_command.HELP),
        formatter_class=RAW,
    )
    check_client_command.add_arguments(check_client)
    fuzz_client = commands.add_parser(
        "fuzz-client",
        help="run a Hypothesis campaign against a client command",
        usage=fuzz_client_command.USAGE,
        epilog=_epilog(fuzz_client_command.HELP),
        formatter_class=RAW,
    )
    fuzz_client_command.add_arguments(fuzz_client)
    profiles = [p.value for p in Profile]

    fuzz = commands.add_parser(
        "fuzz",
        help="run a Hypothesis campaign against a server command",
        usage="mcpref fuzz [OPTIONS] [-- CMD [ARGS...]]",
        epilog=_epilog(TARGET_HELP, PROFILES_HELP),
        formatter_class=RAW,
    )
    fuzz.add_argument(
        "--budget",
        type=float,
        default=None,
        help=f"seconds of generation (default {DEFAULT_BUDGET:g}, or no limit with --max-cases)",
    )
    fuzz.add_argument(
        "--max-cases",
        type=int,
        default=None,
        metavar="N",
        help="cases generated at most, and as many more to shrink what they found; "
        "with --seed, the same cases on any machine",
    )
    fuzz.add_argument("--seed", type=int, default=None, help="Hypothesis seed, for a reproducible campaign")
    fuzz.add_argument("--profile", choices=profiles, default="spec")
    add_era_argument(fuzz, "negotiate only this version; 2026-07-28 fuzzes the modern era (default: the legacy versions)")
    fuzz.add_argument("--report", type=Path, default=None, help="write a JSON report here")
    fuzz.add_argument("--campaign-dir", type=Path, default=None, help="example database and reproducers")
    fuzz.add_argument(
        "--database",
        default=None,
        metavar="URL",
        help="a Redis example database shared by campaigns (redis://HOST:PORT/N) instead of the campaign directory's",
    )
    fuzz.add_argument(
        "--database-read-only",
        action="store_true",
        help="only read --database; examples found are kept in the campaign directory's",
    )
    fuzz.add_argument(
        "--pause",
        type=float,
        default=Timing.pause,
        help="seconds to wait after each chunk of a fresh run",
    )
    fuzz.add_argument(
        "--jobs", type=int, default=1, help="campaigns side by side, one process and seed each (default 1)"
    )
    fuzz.add_argument("--progress", action="store_true", help="progress on stderr even when it is not a terminal")
    selection.add_arguments(fuzz)
    ci.add_arguments(fuzz)
    waiting.add_arguments(fuzz)

    check = commands.add_parser(
        "check",
        help="run the fixed corpus and print one row per requirement",
        usage="mcpref check [OPTIONS] [-- CMD [ARGS...]]",
        epilog=_epilog(TARGET_HELP, PROFILES_HELP),
        formatter_class=RAW,
    )
    check.add_argument("--profile", choices=profiles, default="spec")
    check.add_argument("--json", action="store_true", help="machine-readable output")
    check.add_argument("--html", type=Path, default=None, metavar="PATH", help="also write the results as a web page")
    add_era_argument(check)
    check.add_argument(
        "--sdk",
        choices=sorted(stock.sdks()),
        default=None,
        help="the official SDK the server is built on: mark the findings a stock server of it shows too "
        "(without it, an SDK whose stock findings the server shows, every one, is recognised)",
    )
    selection.add_arguments(check)
    ci.add_arguments(check)
    waiting.add_arguments(check)
    check.add_argument(
        "--time-limit",
        type=float,
        default=CHECK_TIME_LIMIT,
        metavar="SECONDS",
        help="end every wait by then, whatever the target does; a scenario cut short leaves its "
        f"rules untested (default {CHECK_TIME_LIMIT:g})",
    )

    replay = commands.add_parser(
        "replay",
        help="re-run a saved failing case, of a server or of a client",
        usage="mcpref replay FILE [OPTIONS] [-- CMD [ARGS...]]",
        epilog=_epilog(
            "The target is the reproducer's own command; a command after -- replaces it, an argv list "
            "started without a shell (for a client's reproducer, a template naming {server}). A client's "
            "reproducer plays its scripted server again; --transcript then shows <- what the client wrote, "
            "-> what the server wrote, and -- its end.",
            "For replay, the one case is the rule judged: 0 it no longer fails; 1 it fails; 3 it could not be "
            "judged (the target was not seen through it, and nothing was found).",
        ),
        formatter_class=RAW,
    )
    replay.add_argument("file", type=Path)
    replay.add_argument(
        "--transcript",
        action="store_true",
        help="print the session as it went: -> sent (a ~~ line at each chunk boundary), <- received, !! stderr",
    )
    waiting.add_arguments(replay)

    compare = commands.add_parser(
        "compare",
        help="run the fixed corpus against several commands, one matrix",
        usage="mcpref compare [OPTIONS] -- CMD1 [ARGS...] --- CMD2 [ARGS...] [--- ...]",
        epilog=_epilog(
            "The targets are argv lists after --, separated by ---, each started without a shell.",
            PROFILES_HELP,
            "A column in which nothing was judged makes the run's status 3, unless a column fails.",
        ),
        formatter_class=RAW,
    )
    compare_command.add_arguments(compare)

    explain = commands.add_parser(
        "explain", help="explain each finding of a report or reproducer in plain words (a model at AI_URL, if any)"
    )
    explain.add_argument("file", type=Path, help="a reproducer, a fuzz report, or check or compare --json output")
    explain.add_argument(
        "--timeout", type=float, default=30.0, metavar="SECONDS", help="for the model's answer (default 30)"
    )

    merge = commands.add_parser(
        "merge",
        help="merge the fuzz --report files of several workers into one report",
        usage="mcpref merge REPORT... [--report PATH] [CI]",
        epilog=_epilog(
            "Each rule found broken is listed once, with the smallest case any worker kept; reports of "
            "another command, profile or era are refused.",
        ),
        formatter_class=RAW,
    )
    merge_command.add_arguments(merge)

    vectors = commands.add_parser("vectors", help="the fixed corpus as language-neutral test vectors")
    vector_commands = vectors.add_subparsers(dest="vectors_command", required=True)
    export = vector_commands.add_parser("export", help="write one JSON file per scenario, index.json and SCHEMA.md")
    export.add_argument("directory", type=Path)
    return parser
