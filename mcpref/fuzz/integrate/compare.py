"""``mcpref compare``: the fixed corpus of ``check`` against several commands, as one matrix.

    mcpref compare [--profile spec|strict] [--json] [--label NAME ...] [--html PATH] [--idle-limit S]
                   [--wait-limit S] -- CMD1 [ARGS] --- CMD2 [ARGS] [--- ...]
    mcpref compare --clients [--limit S] [...] -- CLIENT1 [ARGS] --- CLIENT2 [ARGS] [--- ...]  (each naming {server})

Each command is started without a shell and judged by ``check_rows`` exactly as ``mcpref
check`` would judge it alone; the matrix has one row per requirement ID and one column per
command, each cell pass, warn, fail, untested or n/a. With ``--clients``, each command is a client
template judged by ``check-client``'s scenarios, and the rows are the CLIENT-* rules. Exit status
(``report.exits``): 1 when a command fails a rule, else 3 when a column has nothing judged, else
0; held to a ``--baseline``, 0 when each column fails exactly its listed rules (``report.ci``).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Mapping, Sequence
from pathlib import Path

from mcpref.fuzz.drive import stopping, waiting
from mcpref.fuzz.drive.client_run import TemplateError
from mcpref.fuzz.drive.process import TargetError
from mcpref.fuzz.drive.target import run_case
from mcpref.fuzz.drive.timing import Timing
from mcpref.fuzz.generate.corpus import Scenario
from mcpref.fuzz.generate.corpus_modern import add_era_argument, era_of_version
from mcpref.fuzz.integrate import check_client, selection
from mcpref.fuzz.integrate.check import check_cause, checked
from mcpref.fuzz.judge.oracle import Profile
from mcpref.fuzz.report import ci, exits, html
from mcpref.fuzz.report.baseline import BaselineError
from mcpref.fuzz.report.matrix import by_label, combine
from mcpref.fuzz.report.reproducer import write_atomic
from mcpref.reference.versions import Era

SEPARATOR = "---"
EXIT_USAGE = exits.USAGE


class UsageError(Exception):
    """The command line of ``compare`` cannot be used."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--profile", choices=[p.value for p in Profile], default="spec")
    parser.add_argument("--json", action="store_true", help="machine-readable output")
    parser.add_argument(
        "--label",
        action="append",
        default=None,
        metavar="NAME",
        help="column name of the next command, once per command in order (default: from the command)",
    )
    parser.add_argument("--html", type=Path, default=None, metavar="PATH", help="also write the matrix as a web page")
    parser.add_argument(
        "--clients", action="store_true",
        help="the commands are clients, each naming {server}: judged by check-client's scenarios",
    )  # fmt: skip
    check_client.add_limit_argument(parser)
    add_era_argument(parser)
    selection.add_arguments(parser)
    ci.add_arguments(parser)
    waiting.add_arguments(parser)


def split_commands(argv: Sequence[str]) -> list[list[str]]:
    """``CMD1 ARGS --- CMD2 ARGS ...`` as a list of argv lists; an empty one is a usage error."""
    commands: list[list[str]] = [[]]
    for word in argv:
        if word == SEPARATOR:
            commands.append([])
        else:
            commands[-1].append(word)
    if any(not command for command in commands):
        raise UsageError(f"an empty command between {SEPARATOR} separators")
    return commands


def default_labels(commands: Sequence[Sequence[str]]) -> list[str]:
    """A short, unique column name per command: the name of its last word, numbered on a clash."""
    names = [Path(command[-1]).name or command[-1] for command in commands]
    return [f"{name}#{index + 1}" if names.count(name) > 1 else name for index, name in enumerate(names)]


def matrix(
    commands: Sequence[list[str]],
    labels: Sequence[str],
    profile: Profile,
    timing: Timing,
    era: Era = Era.LEGACY,
    only: frozenset[str] | None = None,
) -> tuple[dict[str, object], dict[str, Mapping[str, Scenario]]]:
    """Every command through the corpus of ``era`` (the rules of ``only``, with it), and the scenarios
    run against each, by label (``check.Checked``); raises ``TargetError`` naming a command that cannot start."""
    for label, command in zip(labels, commands, strict=True):
        try:
            run_case(command, [], timing, era=era)
        except TargetError as exc:
            raise TargetError(f"{label}: {exc}") from None
    found = [checked(command, profile, timing, era, only) for command in commands]
    ran = {label: each.scenarios for label, each in zip(labels, found, strict=True)}
    return combine(commands, labels, [each.rows for each in found], profile), ran


def render(result: dict[str, object], clients: bool = False) -> str:
    """The matrix as text; ``clients`` for a matrix of ``check-client``'s rows, which have no server to blame."""
    commands = result["commands"]
    rules = result["rules"]
    assert isinstance(commands, list) and isinstance(rules, list)
    labels = [str(entry["label"]) for entry in commands]
    lines = [f"profile {result['profile']}"]
    lines += [f"  {entry['label']}: {' '.join(entry['command'])}" for entry in commands]
    # A column with nothing judged says why once (a server that answered nothing, or that serves
    # no version of the era asked for), not in each of its cells.
    causes = {} if clients else {label: check_cause(rows) for label, rows in by_label(result).items()}
    lines += [f"  {label}, nothing judged: {cause}" for label, cause in causes.items() if cause is not None]
    header = ["ID", "LEVEL", *labels]
    rows = [
        [str(rule["id"]), str(rule["level"]), *(str(rule["statuses"][label]) for label in labels)] for rule in rules
    ]
    widths = [max(len(row[i]) for row in [header, *rows]) for i in range(len(header))]
    for row in [header, *rows]:
        lines.append("  ".join(cell.ljust(width) for cell, width in zip(row, widths, strict=True)).rstrip())
    return "\n".join(lines)


def run(args: argparse.Namespace, target: list[str] | None, timing: Timing) -> int:
    """The ``compare`` subcommand; ``target`` is everything after the first ``--``."""
    try:
        if not target:
            raise UsageError(f"compare needs commands: -- CMD1 [ARGS] {SEPARATOR} CMD2 [ARGS]")
        commands = split_commands(target)
        labels: list[str] = args.label or default_labels(commands)
        if len(labels) != len(commands):
            raise UsageError(f"{len(labels)} --label for {len(commands)} commands")
        if len(set(labels)) != len(labels):
            raise UsageError("column labels must be distinct")
    except UsageError as exc:
        print(f"mcpref compare: {exc}", file=sys.stderr)
        return EXIT_USAGE
    profile = Profile(args.profile)
    started = time.monotonic()
    try:
        baseline = ci.prepare(args, profile)
        only = args.rules.rules if args.rules.narrowed else None
        if args.clients:
            if args.version is not None or only is not None:
                raise UsageError("--clients runs check-client's scenarios: no --protocol-version, --select or --ignore")
            per_client = [check_client.client_rows(command, profile, check_client.limits_of(args)) for command in commands]
            result, ran = combine(commands, labels, per_client, profile), dict[str, Mapping[str, Scenario]]()
        else:
            result, ran = matrix(commands, labels, profile, timing, era_of_version(args.version), only)
    except (TargetError, BaselineError, TemplateError, UsageError) as exc:
        print(f"mcpref compare: {exc}", file=sys.stderr)
        return EXIT_USAGE
    except OSError as exc:  # a client that cannot be started
        print(f"mcpref compare: {exc}", file=sys.stderr)
        return EXIT_USAGE
    seconds = time.monotonic() - started
    columns = by_label(result)
    if args.junit_xml is not None and not args.clients:  # each failure in the XML names a reproducer file
        for label, command in zip(labels, commands, strict=True):
            where = ci.reproducers_beside(args.junit_xml, label)
            ci.save_reproducers(columns[label], command, profile, where, ran[label])
    if stopping.received() is not None:
        result["interrupted"] = stopping.name()
    print(json.dumps(result, indent=2) if args.json else render(result, args.clients))
    if stopping.received() is not None and not args.json:
        print(f"interrupted by {stopping.name()}: a partial report")
    if args.html is not None:
        write_atomic(args.html, html.page(result, "mcpref compare: " + ", ".join(labels), ran))
    return ci.conclude(args, profile, "mcpref compare", columns, baseline, {label: label for label in labels}, seconds)
