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

    WAIT: [--idle-limit S] [--wait-limit S]   (how long a target is waited for: ``fuzz.drive.waiting``)
    CI:   [--baseline FILE] [--write-baseline FILE] [--junit-xml PATH]   (``fuzz.report.ci``)

The target command is an argv list taken after ``--`` and started without a shell; with
none, the target is the bundled reference server. The exit statuses are ``report.exits``'s;
the paths a command line names are checked before anything runs (``inputs``). The parser, its
help texts and defaults are ``parser``'s; this module runs what it parses.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from typing import cast

from mcpref.fuzz.drive import stopping, waiting
from mcpref.fuzz.drive.process import TargetError
from mcpref.fuzz.drive.timing import OutOfTime, Timing
from mcpref.fuzz.generate.corpus_modern import era_of_version
from mcpref.fuzz.integrate import check, check_progress, inputs, selection
from mcpref.fuzz.integrate import check_client as check_client_command
from mcpref.fuzz.integrate import compare as compare_command
from mcpref.fuzz.integrate import fuzz_client as fuzz_client_command
from mcpref.fuzz.integrate import merge as merge_command
from mcpref.fuzz.integrate import replay as replay_command
from mcpref.fuzz.integrate.parser import build_parser
from mcpref.fuzz.judge.oracle import Profile
from mcpref.fuzz.report import causes, ci, exits, html, statuses, stock
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

EXIT_CLEAN, EXIT_USAGE = exits.CLEAN, exits.USAGE
DEFAULT_TARGET = [sys.executable, "-m", "mcpref.reference"]


def _split_command(argv: list[str]) -> tuple[list[str], list[str] | None]:
    if "--" in argv:
        cut = argv.index("--")
        return argv[:cut], argv[cut + 1 :]
    return argv, None


def main(argv: list[str] | None = None) -> int:
    """On SIGINT or SIGTERM every target is killed, the run ends, what it judged is reported,
    marked interrupted, and the status is 128 + the signal's number (``fuzz.drive.stopping``)."""
    with stopping.on_signals():
        try:
            status = _command(argv)
        except OutOfTime:  # a command with no partial report to give
            if stopping.received() is None:
                raise
    signum = stopping.received()
    if signum is not None:
        print(f"mcpref: interrupted by {stopping.name()}: what was judged before it is reported", file=sys.stderr)
        return 128 + signum
    return status


def _command(argv: list[str] | None) -> int:
    own, target = _split_command(list(sys.argv[1:] if argv is None else argv))
    parser = build_parser()
    args = parser.parse_args(own)
    if target == []:
        parser.error("-- must be followed by a command")
    unusable = inputs.unusable(args)
    for line in unusable:
        print(f"mcpref {args.command}: {line}", file=sys.stderr)
    if unusable:
        return EXIT_USAGE
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
            # Imported here: Hypothesis and the campaign are a fifth of every other command's start.
            from mcpref.fuzz.integrate import fuzz_command

            return fuzz_command.run(args, target or DEFAULT_TARGET, timing)
        if args.command == "check":
            return _check(args, target or DEFAULT_TARGET, timing)
        if args.command == "compare":
            return compare_command.run(args, target, timing)
        return replay_command.run(args, target, timing)
    except TargetError as exc:
        print(f"mcpref: {exc}", file=sys.stderr)
        return EXIT_USAGE
    except (ReproducerError, BaselineError) as exc:
        print(f"mcpref: {exc}", file=sys.stderr)
        return EXIT_USAGE


def _check(args: argparse.Namespace, command: list[str], timing: Timing) -> int:
    if args.time_limit <= 0:
        print("mcpref: --time-limit must be positive", file=sys.stderr)
        return EXIT_USAGE
    profile = Profile(args.profile)
    baseline = ci.prepare(args, profile)
    started = time.monotonic()
    only = args.rules.rules if args.rules.narrowed else None
    asked = None if args.version is None else era_of_version(args.version)
    found = check.checked(command, profile, timing, asked, only, args.time_limit, check_progress.stderr_line)
    era, rows = found.era, found.rows
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
        ci.save_reproducers(rows, command, profile, ci.reproducers_beside(args.junit_xml), found.scenarios)
    if args.html is not None:
        label = compare_command.default_labels([command])[0]
        result = combine([command], [label], [rows], profile)
        write_atomic(args.html, html.page(result, f"mcpref check: {label}", {label: found.scenarios}))
    if args.json:
        document: dict[str, object] = {
            "command": command, "profile": profile.value, "era": era.value, "cause": check.check_cause(rows),
            "rules": rows,
        }
        carried = (finding for row in rows for finding in cast(list[dict[str, object]], row["findings"]))
        document["stderr"] = stderr_once(carried)  # the target's tracebacks once each, not once a finding
        if stopping.received() is not None:
            document["interrupted"] = stopping.name()
        if sdk is not None:
            document["stock"] = {
                "sdk": sdk.name, "package": sdk.package, "report_to": sdk.report_to, "rules": shared, "recognised": recognised
            }
        print(json.dumps(document, indent=2))
    else:
        shown_rows = []
        for row in rows:
            note = causes.note(row)
            if "stock" in row:
                note = f"[stock {row['stock']} too] {note}"
            shown_rows.append((str(row["id"]), str(row["level"]), str(row["status"]), note))
        print(table(["ID", "LEVEL", "STATUS", "NOTE"], shown_rows))
        print(statuses.summary(rows, check.check_cause(rows)))
        if stopping.received() is not None:
            print(f"interrupted by {stopping.name()}: a partial report")
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
