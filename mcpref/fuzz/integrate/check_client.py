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
import time
from collections.abc import Callable, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path
from typing import TypeVar

from mcpref.fuzz.drive import stopping
from mcpref.fuzz.drive.client_run import (
    DEFAULT_LIMITS,
    ENDLESS_WAIT,
    LIMIT,
    ClientRun,
    Limits,
    TemplateError,
    run_client,
)
from mcpref.fuzz.drive.timing import OutOfTime
from mcpref.fuzz.generate.client_scripts import MODERN_PLAIN, PLAIN, SCRIPTS, ServerScript, era_of, plain_of
from mcpref.fuzz.generate.corpus_modern import add_era_argument, era_of_version
from mcpref.fuzz.judge.client import ClientVerdict, judge_client
from mcpref.fuzz.judge.findings import Profile, Status
from mcpref.fuzz.report import causes, ci, exits, html, statuses
from mcpref.fuzz.report.baseline import BaselineError
from mcpref.fuzz.report.client_reproducer import ClientReproducer
from mcpref.fuzz.report.matrix import combine
from mcpref.fuzz.report.reproducer import finding_json, table, visible, write_atomic
from mcpref.reference.rules import CLIENT_RULES

T = TypeVar("T")
WORKERS = 4
EXIT_USAGE = exits.USAGE
USAGE = (
    "mcpref check-client [--profile spec|strict] [--json] [--html PATH] [--scenario NAME | --script JSON] "
    "[--protocol-version V] [--limit S] [CI] -- CLIENT_CMD [ARGS...] (naming {server})"
)
HELP = (
    "The client command is an argv list, started without a shell, in which the word {server} stands for the "
    "scripted server's command (inside a longer word: its shell-quoted command line)."
)
ERA_HELP = (
    "only the scenarios of this version's era: servers that speak the initialize handshake (answering the "
    "version the client asks for, if mcpref knows it) or 2026-07-28 servers, and the legacy one a client of "
    "both eras must fall back for (default: both eras)"
)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--profile", choices=[p.value for p in Profile], default="spec")
    parser.add_argument("--json", action="store_true", help="machine-readable output")
    parser.add_argument("--html", type=Path, default=None, metavar="PATH", help="also write the verdicts as a web page")
    parser.add_argument(
        "--scenario", action="append", default=None, metavar="NAME", choices=[s.name for s in SCRIPTS],
        help="run only this scenario (and the plain tool call it is compared with); repeatable",
    )  # fmt: skip
    parser.add_argument(
        "--script", type=_script, default=None, metavar="JSON",
        help="run this scripted server's behaviour instead (a reproducer of fuzz-client), with the plain tool call",
    )  # fmt: skip
    add_era_arguments(parser)
    ci.add_arguments(parser)


def add_era_arguments(parser: argparse.ArgumentParser) -> None:
    """``--protocol-version`` and ``--limit``, which ``fuzz-client`` takes too."""
    add_era_argument(parser, ERA_HELP)
    add_limit_argument(parser)


def add_limit_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--limit", type=float, default=LIMIT, metavar="SECONDS", help="time a client gets per scenario")
    parser.add_argument(
        "--endless-wait", type=float, default=ENDLESS_WAIT, metavar="SECONDS",
        help="time a client gets at least where the server never answers its call: a longer wait is endless (CLIENT-TIMEOUT)",
    )  # fmt: skip


def limits_of(args: argparse.Namespace) -> Limits:
    return Limits(args.limit, args.endless_wait)


def _script(text: str) -> ServerScript:
    try:
        return ServerScript.loads(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(f"not a scripted server's behaviour: {exc}") from None


def reproducer(template: Sequence[str], script: ServerScript) -> str:
    """The command line that runs ``script`` again against the same client."""
    fixed = next((s for s in SCRIPTS if s.same_as(script)), None)
    chosen = ["--scenario", fixed.name] if fixed else ["--script", script.dumps()]
    return shlex.join(["mcpref", "check-client", *chosen, "--", *template])


def run_scenarios(template: Sequence[str], scripts: Sequence[ServerScript], limits: Limits = DEFAULT_LIMITS) -> list[tuple[ClientRun, ClientVerdict]]:
    """Each of ``scripts`` run and judged; the plain tool call of each era they hold is run whatever
    they are, to compare with (the legacy one always: a dual-era client's fallback is keyed to it).
    After SIGINT or SIGTERM, only those that ran to their end, with their plain call, are judged."""
    plains = [PLAIN, *([MODERN_PLAIN] if any(script.modern for script in scripts) else [])]
    played = [*plains, *(script for script in scripts if script not in plains)]
    with ThreadPoolExecutor(WORKERS) as pool:
        futures = {script: pool.submit(run_client, template, script, limits) for script in played}
    runs = {script: future.result() for script, future in futures.items() if not _stopped(future)}
    return [
        (runs[script], judge_client(runs[script], runs[plain_of(script)]))
        for script in played
        if script in scripts and script in runs and plain_of(script) in runs
    ]


def _stopped(future: Future[ClientRun]) -> bool:
    """Whether a signal cut the run short (any other exception is raised by ``result``)."""
    return isinstance(future.exception(), OutOfTime)


def replay(reproducer: ClientReproducer, template: Sequence[str] | None, transcript: bool, limits: Limits = DEFAULT_LIMITS) -> int:
    """``mcpref replay`` of a client's reproducer: its script played again, and judged."""
    command = list(template) if template else reproducer.template
    done = reported(command, lambda: run_scenarios(command, [reproducer.script], limits))
    if done is None:
        return EXIT_USAGE
    if not done:  # stopped by a signal: nothing to report
        raise OutOfTime
    [(run, verdict)] = done
    if transcript:  # <- what the client wrote, -> what the scripted server wrote, -- what befell it
        for event in run.events:
            if event.kind == "read" and event.data:
                print(f"<- {visible(str(event.data).encode('latin-1'))}")
            elif event.kind == "wrote":
                print(f"-> {event.data}")
            elif event.kind in ("eof", "signal", "exit"):
                print(f"-- {event.kind} {event.data}".rstrip())
    findings = verdict.findings
    for finding in findings:
        print(f"{finding.status(reproducer.profile).value} {finding.rule}: {finding.message} (expected {finding.expected})")
    if reproducer.rule not in {finding.rule for finding in findings}:
        print(f"{reproducer.rule}: not broken in this run" + ("" if findings else ": the case passes"))
    failed = any(finding.status(reproducer.profile) is Status.FAIL for finding in findings)
    return exits.of(failed, bool(findings) or bool(verdict.seen))


def reported(template: Sequence[str], work: Callable[[], T]) -> T | None:
    """``work()``; None once a bad template or baseline, or a client that cannot start, is told on stderr."""
    try:
        return work()
    except (TemplateError, BaselineError) as exc:
        print(f"mcpref: {exc}", file=sys.stderr)
    except OSError as exc:
        print(f"mcpref: cannot start {template[0]}: {exc}", file=sys.stderr)
    return None


def client_rows(template: Sequence[str], profile: Profile, limits: Limits = DEFAULT_LIMITS) -> list[dict[str, object]]:
    """Every scenario against the client of ``template``: one row per CLIENT-* rule."""
    return rows(template, run_scenarios(template, SCRIPTS, limits), profile)


def rows(
    template: Sequence[str],
    results: Sequence[tuple[ClientRun, ClientVerdict]],
    profile: Profile,
    stopped: Sequence[ServerScript] = (),
) -> list[dict[str, object]]:
    """One row per CLIENT-* rule; a rule listed only by ``stopped`` scenarios (cut short by a signal) is untested."""
    table_rows: list[dict[str, object]] = []
    speaks_modern = any("CLIENT-MOD-META" in verdict.seen for _, verdict in results)  # it wrote _meta versions
    for rule in CLIENT_RULES:
        exercised = [run for run, _ in results if rule.id in run.script.rules]
        cut = [script.name for script in stopped if rule.id in script.rules]
        seen = any(rule.id in verdict.seen for _, verdict in results)
        hits = [(run, f) for run, verdict in results for f in verdict.findings if f.rule == rule.id]
        hits.sort(key=lambda hit: hit[1].status(profile) is not Status.FAIL)
        status = statuses.of([f.status(profile) for _, f in hits], seen, bool(exercised or cut))
        row: dict[str, object] = {
            "id": rule.id,
            "level": rule.level.value,
            "status": status,
            "scenarios": [run.script.name for run in exercised] + cut,
            "findings": [
                {
                    "scenario": run.script.name,
                    **finding_json(f, profile),
                    "script": json.loads(run.script.dumps()),
                    "reproducer": reproducer(template, run.script),
                    "exit_status": run.exit_status,
                    "client_stderr": run.stderr.decode("utf-8", "replace")[-2000:],
                }
                for run, f in hits
            ],
        }
        if status == statuses.UNTESTED and cut and not exercised:
            row["reason"] = f'"{cut[0]}" was stopped when mcpref got {stopping.name()}'
        elif status == statuses.UNTESTED:
            first = exercised[0]
            what = "reached the situation" if first.events else "started the scripted server"
            row["reason"] = f'the client never {what} in "{first.script.name}"'
            known = [(run.script.name, why) for run, verdict in results for r, why in verdict.untested if r == rule.id]
            if known:  # what the judge saw instead of the situation
                row["reason"] = f'in "{known[0][0]}", {known[0][1]}'
            elif first.events and rule.id == "CLIENT-RESULT-SHOWN":
                row["reason"] = "the client printed no tool result in any scenario: nothing shown to judge"
            elif first.events and first.script.discover_code != PLAIN.discover_code:
                row["reason"] = "the client did not probe with server/discover, or fell back in neither scenario"
            elif first.events and first.script.modern and not speaks_modern:
                row["reason"] = (f'the client sent no request of the 2026-07-28 era in "{first.script.name}" '
                                 "(no server/discover, no _meta version): a legacy-only client")  # fmt: skip
            elif first.events and rule.id == "CLIENT-CANCEL" and first.exit_status is None:
                row["reason"] = (f'the client was still waiting for its call when the time limit stopped it in "{first.script.name}": '
                                 "it gave up on nothing (its wait is CLIENT-TIMEOUT's)")  # fmt: skip
            elif first.events and rule.id == "CLIENT-TIMEOUT":
                row["reason"] = (f'the client sent no tools/call in "{first.script.name}", or sent it with less than '
                                 "half of the time limit left: too late to tell a long timeout from none")  # fmt: skip
            elif first.events and first.script.asks_input:
                row["reason"] = f'the client did not call again after input_required in "{first.script.name}" (lawful)'
        table_rows.append(row)
    return table_rows


def run(args: argparse.Namespace, template: list[str]) -> int:
    if not template or args.limit <= 0 or args.endless_wait <= 0:
        print(f"mcpref: a client command after -- and a positive --limit and --endless-wait are needed\nusage: {USAGE}", file=sys.stderr)
        return EXIT_USAGE
    profile = Profile(args.profile)
    era = None if args.version is None else era_of_version(args.version)
    scripts = [s for s in SCRIPTS if (args.scenario is None or s.name in args.scenario or s == PLAIN)
               and (era is None or era_of(s) is era)]  # fmt: skip
    if args.script is not None:  # played whatever its era
        scripts = [PLAIN, args.script]
    started = time.monotonic()
    ran = reported(template, lambda: (ci.prepare(args, profile), run_scenarios(template, scripts, limits_of(args))))
    if ran is None:
        return EXIT_USAGE
    baseline, results = ran
    done = {run.script for run, _ in results}
    found = rows(template, results, profile, [script for script in scripts if script not in done])
    if args.junit_xml is not None:  # each failure in the XML names a reproducer file
        ci.save_reproducers(found, template, profile, ci.reproducers_beside(args.junit_xml), {})
    if args.json:
        document: dict[str, object] = {"command": template, "profile": profile.value, "side": "client", "rules": found}
        if stopping.received() is not None:
            document["interrupted"] = stopping.name()
        print(json.dumps(document, indent=2))
    else:
        shown = [(str(row["id"]), str(row["level"]), str(row["status"]), causes.note(row)) for row in found]
        print(table(["ID", "LEVEL", "STATUS", "NOTE"], shown))
        print(statuses.summary(found))
    if stopping.received() is not None:
        print(f"interrupted by {stopping.name()}: a partial report")
    label = shlex.join(template)
    if args.html is not None:
        write_atomic(args.html, html.page(combine([template], [label], [found], profile), f"mcpref check-client: {label}", {}))
    return ci.conclude(args, profile, "mcpref check-client", {label: found}, baseline, {label: label}, time.monotonic() - started)
