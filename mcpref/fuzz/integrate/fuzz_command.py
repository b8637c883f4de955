"""``mcpref fuzz``: a Hypothesis campaign against a server command (``campaign.runner``).

Apart from ``cli`` so that only this command imports Hypothesis and the campaign machinery:
every other command starts without them.
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import json
import math
import re
import sys
import time
from dataclasses import replace
from pathlib import Path

from mcpref.fuzz.campaign.database import DatabaseError, key_prefix, open_database
from mcpref.fuzz.campaign.jobs import run_jobs
from mcpref.fuzz.campaign.outcome import stderr_progress
from mcpref.fuzz.campaign.runner import Campaign
from mcpref.fuzz.drive import stopping
from mcpref.fuzz.drive.target import run_case
from mcpref.fuzz.drive.timing import OutOfTime, Timing, within
from mcpref.fuzz.generate.corpus_modern import era_of_version
from mcpref.fuzz.integrate import compare as compare_command
from mcpref.fuzz.integrate.parser import DEFAULT_BUDGET
from mcpref.fuzz.judge.oracle import Profile
from mcpref.fuzz.report import campaign_report, ci, exits
from mcpref.fuzz.report.baseline import TARGET
from mcpref.fuzz.report.reproducer import write_atomic

EXIT_USAGE = exits.USAGE


def _campaign_dir(command: list[str]) -> Path:
    digest = hashlib.sha256("\0".join(command).encode()).hexdigest()[:10]
    name = re.sub(r"[^A-Za-z0-9_.-]+", "-", Path(command[-1]).name)[:40]
    return Path("campaigns") / f"{name}-{digest}"


def run(args: argparse.Namespace, command: list[str], timing: Timing) -> int:
    try:
        return _fuzz(args, command, timing)
    except DatabaseError as exc:
        print(f"mcpref: {exc}", file=sys.stderr)
        return EXIT_USAGE


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
        # Only attribution files FRAME-CHUNK-INVARIANT, from a failure under another rule: every rule is judged.
        rules=args.rules.rules if args.rules.narrowed and not args.rules.chosen("FRAME-CHUNK-INVARIANT") else None,
        storage=directory / "hypothesis",
    )
    outcome = run_jobs(args.jobs, campaign).claimed()
    if args.rules.narrowed:  # an attribution may file a failure under a rule left out
        chosen = [failure for failure in outcome.failures if args.rules.chosen(failure.rule)]
        warned = {rule: warning for rule, warning in outcome.warnings.items() if args.rules.chosen(rule)}
        outcome = replace(outcome, failures=chosen, warnings=warned)
    if show:
        sys.stderr.write("\n")
    setting = campaign_report.Setting(
        command, profile, args.seed, args.jobs, directory, era_of_version(args.version), args.max_cases
    )
    campaign_report.save_reproducers(outcome, setting)
    print("\n".join(campaign_report.summary(outcome, setting)))
    report = campaign_report.document(outcome, setting)
    if stopping.received() is not None:
        print(f"interrupted by {stopping.name()}: a partial report")
        report["interrupted"] = stopping.name()
    if args.report is not None:
        write_atomic(args.report, json.dumps(report, indent=2) + "\n")
    shown = {TARGET: compare_command.default_labels([command])[0]}
    seconds = time.monotonic() - began
    rows = ci.fuzz_rows(report)
    # A campaign with no case run to its end judged nothing, nor a legacy one of a server of no legacy version.
    judged = bool(outcome.stats.cases or rows) and not outcome.stats.serves_no_legacy
    return ci.conclude(args, profile, "mcpref fuzz", {TARGET: rows}, baseline, shown, seconds, judged)
