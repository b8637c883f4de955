"""The ``mcpref`` command.

    mcpref serve   [--version-policy P] [--max-line-bytes N]
    mcpref fuzz    [--budget S] [--max-cases N] [--seed N] [--profile spec|strict] [--protocol-version V]
                   [--report PATH] [--campaign-dir DIR] [--database URL [--database-read-only]]
                   [--pause S] [--jobs N] [--progress] [CI] [WAIT] [-- CMD [ARGS...]]
    mcpref check   [--profile spec|strict] [--json] [--html PATH] [--time-limit S] [CI] [WAIT] [-- CMD [ARGS...]]
    mcpref replay  FILE [--transcript] [WAIT] [-- CMD [ARGS...]]
    mcpref compare [--profile spec|strict] [--json] [--label NAME ...] [--html PATH] [CI] [WAIT]
                   [--clients [--limit S]] -- CMD1 [ARGS] --- CMD2 [ARGS] [--- ...]
    mcpref check-client [--profile spec|strict] [--json] [--html PATH] [--scenario NAME | --script JSON]
                   [--protocol-version V] [--limit S] [CI] -- CLIENT_CMD [ARGS...] (naming {server})
    mcpref fuzz-client [--seed N] [--cases N] [--profile spec|strict] [--json] [--database DIR]
                   [--protocol-version V] [--limit S] [--progress] [CI] -- CLIENT_CMD [ARGS...] (naming {server})
    mcpref client  [--tool NAME] [--arguments JSON] [--root URI] [--timeout S] -- SERVER_CMD [ARGS...]
    mcpref vectors export DIR
    mcpref explain FILE [--timeout S]
    mcpref merge   REPORT... [--report PATH] [CI]

    WAIT: [--idle-limit S] [--wait-limit S]   (how long a target is waited for: ``fuzz.waiting``)
    CI:   [--baseline FILE] [--write-baseline FILE] [--junit-xml PATH]   (``fuzz.ci``)

The target command is an argv list taken after ``--`` and started without a shell; with
none, the target is the bundled reference server. Exit status: 0 nothing found, 1
failures found, 2 bad usage or a target that could not be started at all; held to a
``--baseline``, 0 when exactly the listed rules fail.
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import json
import math
import os
import re
import sys
import time
from dataclasses import replace
from pathlib import Path
from typing import cast

from mcpref import __version__
from mcpref.fuzz.campaign.database import DatabaseError, key_prefix, open_database
from mcpref.fuzz.campaign.jobs import run_jobs
from mcpref.fuzz.campaign.outcome import stderr_progress
from mcpref.fuzz.campaign.runner import Campaign
from mcpref.fuzz.drive import waiting
from mcpref.fuzz.drive.target import OutOfTime, TargetError, Timing, run_case, within
from mcpref.fuzz.generate.corpus_modern import add_era_argument, era_of_version
from mcpref.fuzz.integrate import check, selection
from mcpref.fuzz.integrate import check_client as check_client_command
from mcpref.fuzz.integrate import compare as compare_command
from mcpref.fuzz.integrate import fuzz_client as fuzz_client_command
from mcpref.fuzz.integrate import merge as merge_command
from mcpref.fuzz.integrate import replay as replay_command
from mcpref.fuzz.judge.oracle import Profile
from mcpref.fuzz.report import campaign_report, ci, html, statuses, stock
from mcpref.fuzz.report import explain as explain_command
from mcpref.fuzz.report import vectors as vectors_command
from mcpref.fuzz.report.baseline import TARGET, BaselineError
from mcpref.fuzz.report.matrix import combine
from mcpref.fuzz.report.reproducer import (
    ReproducerError,
    stderr_once,
    table,
    write_atomic,
)
from mcpref.reference import client_stdio, server
from mcpref.reference.versions import Era

EXIT_CLEAN, EXIT_FOUND, EXIT_USAGE = 0, 1, 2
DEFAULT_TARGET = [sys.executable, "-m", "mcpref.reference"]
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
EXIT_HELP = (
    "Exit status: 0 nothing failed; 1 failures found (held to --baseline: a failure it does not list, "
    "or a listed rule that passes); 2 bad usage, or a target that could not be started."
)


def _epilog(*parts: str) -> str:
    return " ".join(parts)  # argparse reflows an epilog into one paragraph


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="mcpref", description="Reference, oracle and fuzzer for the MCP stdio layer.", epilog=EXIT_HELP
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
        epilog=check_client_command.HELP,
    )
    check_client_command.add_arguments(check_client)
    fuzz_client = commands.add_parser(
        "fuzz-client",
        help="run a Hypothesis campaign against a client command",
        usage=fuzz_client_command.USAGE,
        epilog=fuzz_client_command.HELP,
    )
    fuzz_client_command.add_arguments(fuzz_client)
    profiles = [p.value for p in Profile]

    fuzz = commands.add_parser(
        "fuzz",
        help="run a Hypothesis campaign against a server command",
        usage="mcpref fuzz [OPTIONS] [-- CMD [ARGS...]]",
        epilog=_epilog(TARGET_HELP, PROFILES_HELP, EXIT_HELP),
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
        epilog=_epilog(TARGET_HELP, PROFILES_HELP, EXIT_HELP),
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
            "Exit status: 0 the case no longer fails; 1 it fails; 2 bad usage, or a target that could not "
            "be started.",
        ),
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
            EXIT_HELP,
        ),
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
            EXIT_HELP,
        ),
    )
    merge_command.add_arguments(merge)

    vectors = commands.add_parser("vectors", help="the fixed corpus as language-neutral test vectors")
    vector_commands = vectors.add_subparsers(dest="vectors_command", required=True)
    export = vector_commands.add_parser("export", help="write one JSON file per scenario, index.json and SCHEMA.md")
    export.add_argument("directory", type=Path)
    return parser


def _split_command(argv: list[str]) -> tuple[list[str], list[str] | None]:
    if "--" in argv:
        cut = argv.index("--")
        return argv[:cut], argv[cut + 1 :]
    return argv, None


def main(argv: list[str] | None = None) -> int:
    own, target = _split_command(list(sys.argv[1:] if argv is None else argv))
    parser = build_parser()
    args = parser.parse_args(own)
    if target == []:
        parser.error("-- must be followed by a command")
    if args.command == "serve":
        return server.run(args)
    if args.command == "client":
        return client_stdio.run(args, target or [])
    if args.command == "check-client":
        return check_client_command.run(args, target or [])
    if args.command == "fuzz-client":
        return fuzz_client_command.run(args, target or [])
    if args.command == "vectors":
        return vectors_command.run(args)
    if args.command == "explain":
        return _explain(args)
    if args.command == "merge":
        return merge_command.run(args)
    try:
        timing = Timing(patience=waiting.from_arguments(args))
        args.rules = selection.from_arguments(args) if args.command != "replay" else selection.Selection()
    except (ValueError, selection.SelectionError) as exc:
        print(f"mcpref: {exc}", file=sys.stderr)
        return EXIT_USAGE
    try:
        if args.command == "fuzz":
            return _fuzz(args, target or DEFAULT_TARGET, timing)
        if args.command == "check":
            return _check(args, target or DEFAULT_TARGET, timing)
        if args.command == "compare":
            return compare_command.run(args, target, timing)
        return replay_command.run(args, target, timing)
    except TargetError as exc:
        print(f"mcpref: {exc}", file=sys.stderr)
        return EXIT_USAGE
    except (ReproducerError, BaselineError, DatabaseError) as exc:
        print(f"mcpref: {exc}", file=sys.stderr)
        return EXIT_USAGE


def _campaign_dir(command: list[str]) -> Path:
    digest = hashlib.sha256("\0".join(command).encode()).hexdigest()[:10]
    name = re.sub(r"[^A-Za-z0-9_.-]+", "-", Path(command[-1]).name)[:40]
    return Path("campaigns") / f"{name}-{digest}"


def _fuzz(args: argparse.Namespace, command: list[str], timing: Timing) -> int:
    if (args.budget is not None and args.budget <= 0) or args.pause < 0 or args.jobs < 1:
        print("mcpref: --budget must be positive, --pause not negative and --jobs at least 1", file=sys.stderr)
        return EXIT_USAGE
    if args.max_cases is not None and args.max_cases < 1:
        print("mcpref: --max-cases must be at least 1", file=sys.stderr)
        return EXIT_USAGE
    budget = args.budget if args.budget is not None else DEFAULT_BUDGET if args.max_cases is None else math.inf
    profile = Profile(args.profile)
    baseline = ci.prepare(args, profile)
    directory = args.campaign_dir or _campaign_dir(command)
    prefix = key_prefix(command, args.version, profile)
    database = open_database(directory, args.database, read_only=args.database_read_only, prefix=prefix)
    timing = replace(timing, pause=args.pause)
    began = time.monotonic()
    # TargetError when the command cannot start at all. The budget bounds this look too: a target
    # that holds it to the end started, and leaves the campaign no time.
    with contextlib.suppress(OutOfTime):
        run_case(command, [], within(timing, budget))
    budget = max(budget - (time.monotonic() - began), 1e-3)
    show = args.progress or sys.stderr.isatty()
    campaign = Campaign(
        command,
        profile=profile,
        budget=budget,
        max_cases=args.max_cases,
        seed=args.seed,
        version=args.version,
        database=database,
        timing=timing,
        progress=stderr_progress if show else None,
        rules=args.rules.rules if args.rules.narrowed else None,
    )
    outcome = run_jobs(args.jobs, campaign)
    if args.rules.narrowed:  # an attribution may file a failure under a rule left out
        chosen = [failure for failure in outcome.failures if args.rules.chosen(failure.rule)]
        outcome = replace(outcome, failures=chosen)
    if show:
        sys.stderr.write("\n")
    setting = campaign_report.Setting(
        command, profile, args.seed, args.jobs, directory, era_of_version(args.version), args.max_cases
    )
    campaign_report.save_reproducers(outcome, setting)
    print("\n".join(campaign_report.summary(outcome, setting)))
    report = campaign_report.document(outcome, setting)
    if args.report is not None:
        write_atomic(args.report, json.dumps(report, indent=2) + "\n")
    shown = {TARGET: compare_command.default_labels([command])[0]}
    seconds = time.monotonic() - began
    return ci.conclude(args, profile, "mcpref fuzz", {TARGET: ci.fuzz_rows(report)}, baseline, shown, seconds)


def _check(args: argparse.Namespace, command: list[str], timing: Timing) -> int:
    if args.time_limit <= 0:
        print("mcpref: --time-limit must be positive", file=sys.stderr)
        return EXIT_USAGE
    profile = Profile(args.profile)
    baseline = ci.prepare(args, profile)
    started = time.monotonic()
    only = args.rules.rules if args.rules.narrowed else None
    asked = None if args.version is None else era_of_version(args.version)
    era, rows = check.check_served(command, profile, timing, asked, only, args.time_limit)
    if asked is None and era is Era.MODERN:
        print(f"mcpref check: {check.MODERN_ALONE}", file=sys.stderr)
    seconds = time.monotonic() - started
    sdk = stock.sdks()[args.sdk] if args.sdk is not None else None
    recognised = False
    if sdk is None and not args.rules.narrowed:
        sdk = stock.recognise(rows, era.value, profile.value)
        recognised = sdk is not None
    shared = stock.mark(rows, sdk, era.value, profile.value) if sdk is not None else []
    if args.junit_xml is not None:  # each failure in the XML names a reproducer file
        ci.save_reproducers(rows, command, profile, ci.reproducers_beside(args.junit_xml))
    if args.html is not None:
        label = compare_command.default_labels([command])[0]
        result = combine([command], [label], [rows], profile)
        write_atomic(args.html, html.page(result, f"mcpref check: {label}"))
    if args.json:
        document: dict[str, object] = {
            "command": command, "profile": profile.value, "era": era.value, "cause": check.check_cause(rows),
            "rules": rows,
        }
        carried = (finding for row in rows for finding in cast(list[dict[str, object]], row["findings"]))
        document["stderr"] = stderr_once(carried)  # the target's tracebacks once each, not once a finding
        if sdk is not None:
            document["stock"] = {
                "sdk": sdk.name, "package": sdk.package, "report_to": sdk.report_to, "rules": shared, "recognised": recognised
            }
        print(json.dumps(document, indent=2))
    else:
        shown_rows = []
        for row in rows:
            note = statuses.note(row)
            if "stock" in row:
                note = f"[stock {row['stock']} too] {note}"
            shown_rows.append((str(row["id"]), str(row["level"]), str(row["status"]), note))
        print(table(["ID", "LEVEL", "STATUS", "NOTE"], shown_rows))
        print(statuses.summary(rows, check.check_cause(rows)))
        if sdk is not None and any(row["status"] in (statuses.FAIL, statuses.WARN) for row in rows):
            print(stock.summary(shared, sdk, recognised))
    shown = {TARGET: compare_command.default_labels([command])[0]}
    return ci.conclude(args, profile, "mcpref check", {TARGET: rows}, baseline, shown, seconds)


def _explain(args: argparse.Namespace) -> int:
    """Never fails for want of a model: the recorded explanation stands in, and says so."""
    if args.timeout <= 0:
        print("mcpref: --timeout must be positive", file=sys.stderr)
        return EXIT_USAGE
    try:
        items = explain_command.load_items(args.file)
    except explain_command.ExplainError as exc:
        print(f"mcpref: {exc}", file=sys.stderr)
        return EXIT_USAGE
    print(explain_command.render(explain_command.explain(items, os.environ, args.timeout)))
    return EXIT_CLEAN


if __name__ == "__main__":
    sys.exit(main())
