"""One finding per cause: what ``check`` shows of a rule's findings, and the line a terminal shows.

A server with one bug breaks its rule in many scenarios, and each scenario may show it more than
once; listing each sighting buries the bug under copies of it. A rule's findings are grouped by
cause, as a campaign keeps one failure per rule and schemathesis groups failures by signature: the
same rule, status and message, its figures aside (a time, a count, an id vary from one sighting to
the next). Each cause is shown once, by its smallest case, the shortest to read and to replay;
the others are counted (``more``) and their scenarios named (``also_in``). Failures come first,
then the smallest cause.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Final

from mcpref.fuzz.report import statuses
from mcpref.fuzz.report.notes import citation

_FIGURES: Final = re.compile(r"\d+(?:\.\d+)?")
Finding = dict[str, object]  # as ``check --json`` gives it: id, status, message, scenario ...


def signature(finding: Mapping[str, object]) -> tuple[str, str, str]:
    """What makes two findings one cause: their rule, status, and message with its figures left out."""
    return str(finding["id"]), str(finding["status"]), _FIGURES.sub("#", str(finding["message"]))


def grouped(sized: Sequence[tuple[tuple[int, int], Finding]]) -> list[Finding]:
    """The smallest finding of each cause of ``sized`` (findings with their case's size: bytes,
    then writes), failures first, then the smallest; each with how many more findings share its
    cause (``more``) and the other scenarios they came from (``also_in``)."""
    causes: dict[tuple[str, str, str], list[tuple[tuple[int, int], Finding]]] = {}
    for size, finding in sized:
        causes.setdefault(signature(finding), []).append((size, finding))
    shown = []
    for members in causes.values():
        size, smallest = min(members, key=lambda member: member[0])  # the first of equals
        scenarios = [str(finding.get("scenario")) for _, finding in members if finding is not smallest]
        also = [name for name in dict.fromkeys(scenarios) if name != smallest.get("scenario")]
        shown.append((size, {**smallest, "more": len(members) - 1, "also_in": also}))
    shown.sort(key=lambda member: (member[1]["status"] != statuses.FAIL, member[0]))
    return [finding for _, finding in shown]


def note(row: Mapping[str, object]) -> str:
    """A row's note in a terminal: for a failure or warning, its first cause, how many more
    sightings share it, and the rule's citation; else why it is untested (``statuses.note``)."""
    findings = row["findings"]
    assert isinstance(findings, list)
    if not findings:
        return statuses.note(row)
    first = findings[0]
    more = first.get("more", 0)
    text = f"{first['scenario']}: {first['message']}"
    if isinstance(more, int) and more:
        text += f" (and {more} more like it)"
    if len(findings) > 1:
        text += f"; {len(findings) - 1} other cause{'s' if len(findings) > 2 else ''}"
    return f"{text}; see {citation(str(row['id']))}"
