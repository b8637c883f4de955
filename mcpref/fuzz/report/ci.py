"""What ``check``, ``compare``, ``fuzz`` and their client twins share for CI: ``--baseline``, ``--write-baseline``, ``--junit-xml``.

The baseline is read before the run, so that a bad file costs no campaign; after it, the
run is held to the baseline, the files asked for are written, and the exit status says
whether the run is acceptable: without a baseline, any failure is not; with one, only a
new failure or a listed rule that no longer fails is not (``fuzz.report.baseline``).
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path

from mcpref.fuzz.drive import stopping
from mcpref.fuzz.generate.client_scripts import ServerScript
from mcpref.fuzz.generate.corpus import Scenario
from mcpref.fuzz.judge.oracle import Profile
from mcpref.fuzz.report import baseline as baselines
from mcpref.fuzz.report import exits, junit, statuses
from mcpref.fuzz.report.client_reproducer import client_reproducer_json
from mcpref.fuzz.report.reproducer import reproducer_json, write_atomic
from mcpref.reference.rules import RULES


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--baseline", type=Path, default=None, metavar="FILE", help="expected failures: exit 0 when only these fail"
    )
    parser.add_argument(
        "--write-baseline", type=Path, default=None, metavar="FILE", help="write this run's failures as a baseline"
    )
    parser.add_argument(
        "--junit-xml", type=Path, default=None, metavar="PATH", help="write one JUnit test case per rule here"
    )


def prepare(args: argparse.Namespace, profile: Profile) -> baselines.Baseline | None:
    """The baseline asked for, read now; raises ``BaselineError``."""
    return None if args.baseline is None else baselines.load(args.baseline, profile)


def having(results: Mapping[str, Sequence[junit.Row]], status: str) -> dict[str, set[str]]:
    """Label -> the rules whose row has ``status``."""
    return {label: {str(row["id"]) for row in rows if row["status"] == status} for label, rows in results.items()}


def conclude(
    args: argparse.Namespace,
    profile: Profile,
    name: str,
    results: Mapping[str, Sequence[junit.Row]],
    baseline: baselines.Baseline | None,
    shown: Mapping[str, str],
    seconds: float,
    judged: bool | None = None,
) -> int:
    """Hold the run to the baseline, write the files asked for; the exit status (``exits``).
    ``shown``: each result's target by name; ``seconds``: how long the run took; ``judged``:
    whether every target had something judged (by default, whether each has a row with a verdict;
    a campaign's rows are only what it found, and it says)."""
    failed = having(results, statuses.FAIL)
    if judged is None:
        judged = all(exits.judged(rows) for rows in results.values())
    verdict = None if baseline is None else baselines.hold(baseline, failed, having(results, statuses.UNTESTED))
    if args.write_baseline is not None:
        write_atomic(args.write_baseline, baselines.dump(profile, failed))
    if args.junit_xml is not None:
        write_atomic(args.junit_xml, junit.document(name, results, verdict, shown, seconds))
    if verdict is not None:
        for line in verdict.lines():
            print(line, file=sys.stderr)
    new = failed if verdict is None else verdict.new
    status = exits.of(any(new.values()), judged, verdict is None or verdict.held)
    if status == exits.NOTHING_JUDGED and stopping.received() is None:  # else the interruption is the news
        print(f"{name}: {exits.NOTHING_JUDGED_LINE}", file=sys.stderr)
    return status


def fuzz_rows(report: dict[str, object]) -> list[dict[str, object]]:
    """A row per rule the campaign found broken, failing or warned, as ``check`` gives them.

    A rule a campaign did not find broken is not listed: its cases are drawn at random, and that
    none of them broke a rule says nothing of whether any exercised it (``statuses``).
    """
    found: dict[str, tuple[str, dict[str, object]]] = {}
    for status, key in ((statuses.FAIL, "failures"), (statuses.WARN, "warnings")):
        entries = report[key]
        assert isinstance(entries, list)
        for entry in entries:
            # An entry's own status first: reports of earlier versions kept among the failures
            # some that attribution had found to be warnings.
            found.setdefault(str(entry["id"]), (str(entry.get("status", status)), entry))
    return [
        {"id": rule.id, "level": rule.level.value, "status": found[rule.id][0], "findings": [found[rule.id][1]]}
        for rule in RULES
        if rule.id in found
    ]


def reproducers_beside(junit_xml: Path, label: str | None = None) -> Path:
    """Where the reproducers of a ``--junit-xml`` file go: a folder beside it (one per column of a compare)."""
    folder = junit_xml.with_name(f"{junit_xml.stem}-reproducers")
    return folder if label is None else folder / re.sub(r"[^A-Za-z0-9_-]+", "_", label)


def save_reproducers(
    rows: Sequence[junit.Row], argv: list[str], profile: Profile, folder: Path, scenarios: Mapping[str, Scenario]
) -> None:
    """A reproducer file per finding of ``check`` or client rows, in ``folder``; each finding gets its
    replay line. ``argv``: the server command, or the client command template; ``scenarios``: those
    ``check`` ran, by name (``check.Checked``), follow-ups among them (a client's finding carries its script)."""
    for row in rows:
        findings = row["findings"]
        assert isinstance(findings, list)
        for index, finding in enumerate(findings):
            path = folder / f"{row['id']}-{index}.json"
            if "script" in finding:  # a client's: the scripted server's behaviour
                script = ServerScript.loads(json.dumps(finding["script"]))
                document = client_reproducer_json(str(row["id"]), profile, argv, script, finding)
            else:
                scenario = scenarios[str(finding["scenario"])]
                case = scenario.case
                document = reproducer_json(
                    str(row["id"]), profile, argv, case.chunks, case.settle, scenario.era, finding, eof=case.eof
                )
            write_atomic(path, document)
            finding["reproducer"] = f"mcpref replay --transcript {path}"
