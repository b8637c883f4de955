"""``mcpref check-client``: the client scenarios run against a client command, one verdict per rule.

The plain tool call runs first: the differential rules compare every other scenario with it.
The rest run side by side, each with a scripted server of its own. A rule's row reads as a
server's does (``report.statuses``): ``fail`` or ``warn`` with its findings, ``pass`` where a
scenario showed the client in the rule's situation and nothing was found, ``untested`` where the
scenarios listing it never got there, ``n/a`` where none lists it.
"""

from __future__ import annotations

import argparse
import json
import shlex
import sys
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor

from mcpref.fuzz.drive.client_run import LIMIT, ClientRun, TemplateError, run_client
from mcpref.fuzz.generate.client_scripts import PLAIN, SCRIPTS, ServerScript
from mcpref.fuzz.judge.client import ClientVerdict, judge_client
from mcpref.fuzz.judge.findings import Profile, Status
from mcpref.fuzz.report import statuses
from mcpref.fuzz.report.reproducer import finding_json, table
from mcpref.reference.rules import CLIENT_RULES

WORKERS = 4
EXIT_CLEAN, EXIT_FOUND, EXIT_USAGE = 0, 1, 2
USAGE = "mcpref check-client [--profile spec|strict] [--json] [--scenario NAME] -- CLIENT_CMD [ARGS...] (naming {server})"
HELP = (
    "The client command is an argv list, started without a shell, in which the word {server} stands for the "
    "scripted server's command (inside a longer word: its shell-quoted command line). Exit status: 0 nothing "
    "failed; 1 failures found; 2 bad usage, or a client that could not be started."
)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--profile", choices=[p.value for p in Profile], default="spec")
    parser.add_argument("--json", action="store_true", help="machine-readable output")
    parser.add_argument(
        "--scenario", action="append", default=None, metavar="NAME", choices=[s.name for s in SCRIPTS],
        help="run only this scenario (and the plain tool call it is compared with); repeatable",
    )  # fmt: skip
    parser.add_argument("--limit", type=float, default=LIMIT, metavar="SECONDS", help="time a client gets per scenario")


def run_scenarios(template: Sequence[str], scripts: Sequence[ServerScript], limit: float = LIMIT) -> list[tuple[ClientRun, ClientVerdict]]:
    plain = run_client(template, PLAIN, limit)
    others = [script for script in scripts if script != PLAIN]
    with ThreadPoolExecutor(WORKERS) as pool:
        runs = list(pool.map(lambda script: run_client(template, script, limit), others))
    return [(run, judge_client(run, plain)) for run in (plain, *runs)]


def _reproduce(template: Sequence[str], script: ServerScript) -> str:
    return shlex.join(["mcpref", "check-client", "--scenario", script.name, "--", *template])


def rows(template: Sequence[str], results: Sequence[tuple[ClientRun, ClientVerdict]], profile: Profile) -> list[dict[str, object]]:
    table_rows: list[dict[str, object]] = []
    for rule in CLIENT_RULES:
        exercised = [run for run, _ in results if rule.id in run.script.rules]
        seen = any(rule.id in verdict.seen for _, verdict in results)
        hits = [(run, f) for run, verdict in results for f in verdict.findings if f.rule == rule.id]
        hits.sort(key=lambda hit: hit[1].status(profile) is not Status.FAIL)
        status = statuses.of([f.status(profile) for _, f in hits], seen, bool(exercised))
        row: dict[str, object] = {
            "id": rule.id,
            "level": rule.level.value,
            "status": status,
            "scenarios": [run.script.name for run in exercised],
            "findings": [
                {
                    "scenario": run.script.name,
                    **finding_json(f, profile),
                    "script": json.loads(run.script.dumps()),
                    "reproduce": _reproduce(template, run.script),
                    "exit_status": run.exit_status,
                    "client_stderr": run.stderr.decode("utf-8", "replace")[-2000:],
                }
                for run, f in hits
            ],
        }
        if status == statuses.UNTESTED:
            first = exercised[0]
            what = "reached the situation" if first.events else "started the scripted server"
            row["reason"] = f'the client never {what} in "{first.script.name}"'
            if first.events and rule.id == "CLIENT-RESULT-SHOWN":
                row["reason"] = "the client printed no tool result in any scenario: nothing shown to judge"
        table_rows.append(row)
    return table_rows


def run(args: argparse.Namespace, template: list[str]) -> int:
    if not template or args.limit <= 0:
        print(f"mcpref: a client command after -- and a positive --limit are needed\nusage: {USAGE}", file=sys.stderr)
        return EXIT_USAGE
    profile = Profile(args.profile)
    scripts = [s for s in SCRIPTS if args.scenario is None or s.name in args.scenario or s == PLAIN]
    try:
        results = run_scenarios(template, scripts, args.limit)
    except TemplateError as exc:
        print(f"mcpref: {exc}", file=sys.stderr)
        return EXIT_USAGE
    except OSError as exc:
        print(f"mcpref: cannot start {template[0]}: {exc}", file=sys.stderr)
        return EXIT_USAGE
    found = rows(template, results, profile)
    if args.json:
        print(json.dumps({"command": template, "profile": profile.value, "side": "client", "rules": found}, indent=2))
    else:
        shown = [(str(row["id"]), str(row["level"]), str(row["status"]), statuses.note(row)) for row in found]
        print(table(["ID", "LEVEL", "STATUS", "NOTE"], shown))
        print(statuses.summary(found))
    return EXIT_FOUND if any(row["status"] == statuses.FAIL for row in found) else EXIT_CLEAN
