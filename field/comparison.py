"""What the runs of ``make field`` must agree on, and where they did not.

In: the runs' results (``fieldlib.RunResults``, the first run first). Out: the comparison, a line
per verdict that differs between the first run and a later one (None for a single run; the
verdicts themselves to ``.field/runs/verdicts.json``); the measurement rules' statuses per run,
shown beside the verdicts; and each check's wall time per run.
"""

from __future__ import annotations

import json

from fieldlib import MEASUREMENT, RUNS, RunResults

Verdicts = dict[str, dict[str, object]]  # label -> "check <era> <profile>" or "fuzz <era>" -> what must agree
Seconds = dict[str, dict[str, float]]  # label -> "<era> <profile>" -> a check's wall time


def verdicts(results: RunResults) -> Verdicts:
    """What two runs must agree on: every rule's status per check, and the rules each campaign found broken."""
    table: Verdicts = {}
    for label, result in results.items():
        entry: dict[str, object] = {"modern": result["modern"]}
        for key, checked in result["checks"].items():
            # Not a measurement (STDIO-LATENCY): it reports the machine's speed as much as the
            # target's, and may differ between runs by its own definition (shown beside instead).
            entry[f"check {key}"] = {
                row["id"]: row["status"] for row in checked["rules"] if row["level"] != MEASUREMENT
            }
        for era, report in result["fuzz"].items():
            # Not the case counts: a racy target's outcomes steer Hypothesis's generation and shrinking
            # (the runs' counts are shown beside the verdicts instead).
            entry[f"fuzz {era}"] = {
                "failures": sorted(failure["id"] for failure in report["failures"]),
                "warnings": sorted(warning["id"] for warning in report["warnings"]),
            }
        table[label] = entry
    return table


def measured(runs: list[RunResults]) -> list[str]:
    """The statuses of the measurement rules, per run, where any run reports one."""
    lines = []
    for label, result in runs[0].items():
        for key, checked in result["checks"].items():
            for row in checked["rules"]:
                if row["level"] != MEASUREMENT:
                    continue
                statuses = [
                    next(r["status"] for r in run[label]["checks"][key]["rules"] if r["id"] == row["id"])
                    for run in runs
                    if label in run
                ]
                if set(statuses) - {"pass", "n/a"}:
                    lines.append(f"`{label}` check {key}, {row['id']}: {' / '.join(statuses)}")
    return lines


def differences(first: object, second: object, path: str = "") -> list[str]:
    if isinstance(first, dict) and isinstance(second, dict):
        found: list[str] = []
        for key in sorted(set(first) | set(second)):
            found += differences(first.get(key), second.get(key), f"{path} / {key}" if path else key)
        return found
    return [] if first == second else [f"{path}: {first!r} then {second!r}"]


def compare(runs: list[RunResults]) -> list[str] | None:
    """Every verdict of a later run that differs from the first run's; None when there is one run."""
    if len(runs) < 2:
        return None
    comparison: list[str] = []
    first = verdicts(runs[0])
    for number, later in enumerate(runs[1:], 2):
        comparison += [f"run 1 vs run {number}: {line}" for line in differences(first, verdicts(later))]
    (RUNS / "verdicts.json").write_text(json.dumps([verdicts(r) for r in runs], indent=1))
    return comparison


def check_seconds(runs: list[RunResults]) -> list[Seconds]:
    return [
        {label: {key: checked["seconds"] for key, checked in result["checks"].items()} for label, result in r.items()}
        for r in runs
    ]
