"""``mcpref fuzz-client``: a Hypothesis campaign against a client command (``campaign.client_campaign``).

It lists each rule the campaign found broken (``fail``) or warned (``warn``), with the smallest
scripted server's behaviour that shows it and the ``check-client --script`` line that plays it
again; a rule it did not find broken is not listed: that no drawn case broke it says nothing of
whether any exercised it. A seed and a case budget give the same cases on any machine.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import shlex
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from mcpref.fuzz.drive import stopping
from mcpref.fuzz.generate.corpus_modern import era_of_version
from mcpref.fuzz.integrate.check_client import add_era_arguments, limits_of, reported, reproducer
from mcpref.fuzz.judge.client import judge_client
from mcpref.fuzz.judge.findings import Profile, Status
from mcpref.fuzz.report import causes, ci, exits, html, statuses
from mcpref.fuzz.report.matrix import combine
from mcpref.fuzz.report.reproducer import finding_json, table, write_atomic
from mcpref.reference.rules import BY_ID, CLIENT_RULES

if TYPE_CHECKING:
    from mcpref.fuzz.campaign.client_campaign import ClientFailure

EXIT_USAGE = exits.USAGE
CASES = 100
USAGE = (
    "mcpref fuzz-client [--seed N] [--cases N] [--budget S] [--profile spec|strict] [--json] [--html PATH] [--database DIR] "
    "[--protocol-version V] [--limit S] "
    "[--progress] [--rule ID] [CI] -- CLIENT_CMD [ARGS...] (naming {server})"
)
HELP = (
    "Draws scripted servers' behaviours, plays each to a fresh start of the client, and shrinks each rule's "
    "failure to its smallest behaviour. A campaign that found nothing, and whose plain tool "
    "call brought the client to no rule's situation, judged nothing."
)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--seed", type=int, default=None, help="the campaign's seed (default: drawn, and printed)")
    parser.add_argument("--cases", type=int, default=CASES, metavar="N", help=f"cases drawn (default {CASES}); shrinking may run as many again, and at least 60")
    parser.add_argument(
        "--budget", type=float, default=math.inf, metavar="SECONDS",
        help="stop drawing cases after this long (the case under way, and the attribution of what was found, end first)",
    )  # fmt: skip
    parser.add_argument("--profile", choices=[p.value for p in Profile], default="spec")
    parser.add_argument("--json", action="store_true", help="machine-readable output")
    parser.add_argument("--html", type=Path, default=None, metavar="PATH", help="also write what was found as a web page")
    parser.add_argument(
        "--database", type=Path, default=None, metavar="DIR",
        help="Hypothesis's example database: earlier failures are replayed first",
    )  # fmt: skip
    parser.add_argument("--progress", action="store_true", help="a line on stderr per case")
    parser.add_argument(
        "--rule", action="append", default=None, metavar="ID", choices=[rule.id for rule in CLIENT_RULES],
        help="count only this rule (repeatable); the campaign ends once each is found",
    )  # fmt: skip
    add_era_arguments(parser)
    ci.add_arguments(parser)


def rows(template: Sequence[str], failures: Sequence[ClientFailure], profile: Profile) -> list[dict[str, object]]:
    """One row per rule, its status its finding's under ``profile`` (the rule's level decides it, as
    in every command), a failing case before a warning one; a note (a reference decision taken
    otherwise, under ``spec``) is no broken rule, as in a server campaign."""
    shown = [failure for failure in failures if failure.finding.status(profile) is not Status.NOTE]
    ranked = sorted(shown, key=lambda failure: failure.finding.status(profile) is not Status.FAIL)
    kept = {failure.rule: failure for failure in reversed(ranked)}
    return [
        {
            "id": failure.rule,
            "level": BY_ID[failure.rule].level.value,
            "status": failure.finding.status(profile).value,
            "findings": [
                {
                    "scenario": failure.run.script.name,
                    **finding_json(failure.finding, profile),
                    "script": json.loads(failure.run.script.dumps()),
                    "reproducer": reproducer(template, failure.run.script),
                    "exit_status": failure.run.exit_status,
                }
            ],
        }
        for failure in kept.values()
    ]


def _progress(cases: int, name: str, found: int) -> None:
    print(f"mcpref fuzz-client: case {cases}, {found} rule(s) broken: {name}", file=sys.stderr)


def run(args: argparse.Namespace, template: list[str]) -> int:
    if not template or args.limit <= 0 or args.endless_wait <= 0 or args.cases < 1 or args.budget <= 0:
        print(f"mcpref: a client command after --, a positive --limit, --endless-wait, --cases and --budget are needed\nusage: {USAGE}",
              file=sys.stderr)  # fmt: skip
        return EXIT_USAGE
    # Imported here: the parser and the commands that draw nothing start without Hypothesis.
    from hypothesis.database import DirectoryBasedExampleDatabase

    from mcpref.fuzz.campaign.client_campaign import ClientCampaign
    from mcpref.fuzz.campaign.database import hypothesis_home

    profile = Profile(args.profile)
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(2**32)
    print(f"mcpref fuzz-client: seed {seed}", file=sys.stderr)
    database = None if args.database is None else DirectoryBasedExampleDatabase(args.database)
    rules = None if args.rule is None else frozenset(args.rule)
    era = None if args.version is None else era_of_version(args.version)
    campaign = ClientCampaign(
        template, seed, args.cases, profile, database, limits_of(args), _progress if args.progress else None, rules, era,
        args.budget,
    )  # fmt: skip
    started = time.monotonic()
    with hypothesis_home(None):  # nothing of Hypothesis's own left in the current folder
        ran = reported(template, lambda: (ci.prepare(args, profile), campaign.run()))
    if ran is None:
        return EXIT_USAGE
    baseline, outcome = ran
    order = [rule.id for rule in CLIENT_RULES]
    found = sorted(rows(template, [*outcome.failures, *outcome.warnings], profile), key=lambda row: order.index(str(row["id"])))
    if args.junit_xml is not None:  # each failure in the XML names a reproducer file
        ci.save_reproducers(found, template, profile, ci.reproducers_beside(args.junit_xml), {})
    if args.json:
        document = {
            "command": template, "profile": profile.value, "side": "client", "seed": seed, "cases": outcome.cases,
            "first_found": outcome.first_found,
        }  # fmt: skip
        if stopping.received() is not None:
            document["interrupted"] = stopping.name()
        print(json.dumps({**document, "rules": found}, indent=2))
    else:
        shown = [(str(row["id"]), str(row["level"]), str(row["status"]), causes.note(row)) for row in found]
        if shown:
            print(table(["ID", "LEVEL", "STATUS", "NOTE"], shown))
        for row in found:
            findings = row["findings"]
            assert isinstance(findings, list)
            print(f"{row['id']}: {findings[0]['reproducer']}")
        print(f"{outcome.cases} cases, seed {seed}: " + (statuses.summary(found) or "nothing found"))
        if stopping.received() is not None:
            print(f"interrupted by {stopping.name()}: a partial report")
    label = shlex.join(template)
    if args.html is not None:
        write_atomic(args.html, html.page(combine([template], [label], [found], profile), f"mcpref fuzz-client: {label}", {}))
    # Nothing judged: nothing found, and the plain tool call never brought the client to a rule's situation.
    judged = bool(found) or bool(judge_client(outcome.plain, outcome.plain).seen)
    seconds = time.monotonic() - started
    return ci.conclude(args, profile, "mcpref fuzz-client", {label: found}, baseline, {label: label}, seconds, judged)
