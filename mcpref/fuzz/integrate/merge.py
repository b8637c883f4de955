"""``mcpref merge REPORT...``: the ``fuzz --report`` files of several workers as one report.

Workers of a scale-out (``docs/scale-out.md``) each run a campaign against the same command,
profile and era, and write a report; merged, each rule found broken is listed once, with the
smallest case any worker kept for it (fewest bytes, then fewest chunks), as ``fuzz --jobs``
merges its jobs. Counts are added; ``seconds`` is the longest worker's (they ran side by side).
The merged report names its sources and its workers' seeds, and goes through ``--report``,
``--junit-xml``, ``--baseline`` and ``--write-baseline`` as one campaign's would. Reports of
different campaigns (another command, profile or era) are refused: their findings are not of one
target.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path

from mcpref.fuzz.integrate.compare import default_labels
from mcpref.fuzz.judge.oracle import Profile
from mcpref.fuzz.report import ci, exits
from mcpref.fuzz.report.baseline import TARGET, BaselineError
from mcpref.fuzz.report.reproducer import load_document, table, write_atomic

EXIT_USAGE = exits.USAGE
_SAME = ("command", "profile", "era")  # what makes reports those of one campaign
_ADDED = ("cases", "messages", "processes", "kept_runs", "target_seconds", "oracle_seconds")


class MergeError(Exception):
    """Reports that cannot be merged; the message says why."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("reports", type=Path, nargs="+", metavar="REPORT", help="fuzz --report files")
    parser.add_argument("--report", type=Path, default=None, metavar="PATH", help="write the merged report here")
    ci.add_arguments(parser)


def _size(entry: dict[str, object]) -> tuple[int, int]:
    chunks = entry.get("input")
    assert isinstance(chunks, list)
    return sum(len(str(chunk)) for chunk in chunks), len(chunks)


def _smallest(documents: Sequence[dict[str, object]], key: str) -> list[dict[str, object]]:
    """Each rule's entry under ``key`` with the smallest case, in the order rules were first met."""
    kept: dict[str, dict[str, object]] = {}
    for document in documents:
        entries = document.get(key)
        if not isinstance(entries, list) or not all(isinstance(e, dict) and "input" in e for e in entries):
            raise MergeError(f"a report's {key} are malformed")
        for entry in entries:
            rule = str(entry["id"])
            if rule not in kept or _size(entry) < _size(kept[rule]):
                kept[rule] = entry
    return list(kept.values())


def merge(paths: Sequence[Path]) -> dict[str, object]:
    """One report of the reports at ``paths``; raises ``MergeError``."""
    documents = [_load(path) for path in paths]
    first = documents[0]
    for path, document in zip(paths, documents, strict=True):
        differing = [field for field in _SAME if document.get(field) != first.get(field)]
        if differing:
            raise MergeError(f"{path} is not of the campaign of {paths[0]}: another {', '.join(differing)}")
    merged: dict[str, object] = {field: first.get(field) for field in _SAME}
    merged["merged_from"] = [str(path) for path in paths]
    merged["seeds"] = [document.get("seed") for document in documents]
    for field in _ADDED:
        values = [document.get(field) for document in documents]
        merged[field] = sum(v for v in values if isinstance(v, int | float) and not isinstance(v, bool))
    merged["seconds"] = max(float(str(document.get("seconds", 0))) for document in documents)
    merged["failures"] = _smallest(documents, "failures")
    merged["warnings"] = _smallest(documents, "warnings")
    return merged


def _load(path: Path) -> dict[str, object]:
    document = load_document(path, None, MergeError)
    if "failures" not in document or "command" not in document:
        raise MergeError(f"{path} is not a fuzz --report file")
    return document


def run(args: argparse.Namespace) -> int:
    try:
        merged = merge(args.reports)
        profile = Profile(str(merged["profile"]))
        baseline = ci.prepare(args, profile)
    except (MergeError, BaselineError, ValueError) as exc:
        print(f"mcpref merge: {exc}", file=sys.stderr)
        return EXIT_USAGE
    rows = ci.fuzz_rows(merged)
    print(f"{len(args.reports)} reports, {merged['cases']} cases, {merged['messages']} messages")
    if rows:
        shown = [(str(r["id"]), str(r["level"]), str(r["status"]), _message(r)) for r in rows]
        print(table(["ID", "LEVEL", "STATUS", "FINDING"], shown))
    else:
        print("no divergence found")
    if args.report is not None:
        write_atomic(args.report, json.dumps(merged, indent=2) + "\n")
    command = merged["command"]
    assert isinstance(command, list)
    shown_target = {TARGET: default_labels([[str(word) for word in command]])[0]}
    judged = bool(merged["cases"] or rows)  # workers none of which ran a case to its end judged nothing
    seconds = float(str(merged["seconds"]))
    return ci.conclude(args, profile, "mcpref merge", {TARGET: rows}, baseline, shown_target, seconds, judged)


def _message(row: dict[str, object]) -> str:
    findings = row["findings"]
    assert isinstance(findings, list)
    return str(findings[0].get("message", ""))
