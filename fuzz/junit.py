"""Results as JUnit XML, the format CI systems read: one test case per rule and target.

A failing rule is a ``<failure>`` whose text holds each finding, its transcript and the
pasteable reproducer; a warning passes, with the finding in ``<system-out>`` and a
``status`` property; a rule untested or not applicable is ``<skipped>``, with the reason. Held to a baseline,
an expected failure is ``<skipped>`` (saying so, with the finding), and a listed rule that
no longer fails is a ``<failure>``: the baseline must lose it.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ElementTree
from collections.abc import Mapping, Sequence

from . import statuses
from .baseline import Verdict

Row = Mapping[str, object]  # a rule's result: id, level, status, findings (as ``check --json`` gives them)
# Characters XML 1.0 cannot carry at all; a server's output may hold any of them.
_NOT_XML = re.compile("[^\t\n\r\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")


def _safe(text: object) -> str:
    return _NOT_XML.sub(lambda match: f"\\x{ord(match.group()):02x}", str(text))


def describe(findings: object) -> str:
    """Each finding: its scenario, message, expected and actual answers, reproducer and transcript."""
    blocks = []
    for finding in findings if isinstance(findings, list) else []:
        lines = [f"{finding.get('message')}", f"expected: {finding.get('expected')}", f"actual: {finding.get('actual')}"]
        if finding.get("scenario"):
            lines.insert(0, f"scenario: {finding['scenario']}")
        for key in ("reproducer", "shell"):
            if finding.get(key):
                lines.append(f"{key}: {finding[key]}")
        transcript = finding.get("transcript")
        if isinstance(transcript, list) and transcript:
            lines += ["transcript:", *(f"  {line}" for line in transcript)]
        blocks.append("\n".join(lines))
    return _safe("\n\n".join(blocks))


def _case(suite: ElementTree.Element, label: str, row: Row, verdict: Verdict | None) -> str:
    """Add the test case of ``row``; returns its outcome: passed, failed or skipped."""
    rule, status = str(row["id"]), str(row["status"])
    case = ElementTree.SubElement(suite, "testcase", classname=f"mcpref.{label}", name=rule, time="0")
    text = describe(row.get("findings"))
    if verdict is not None and rule in verdict.fixed.get(label, []):
        element = ElementTree.SubElement(case, "failure", message="listed in the baseline, and no longer fails")
        element.set("type", "baseline")
        element.text = "Take this rule off the baseline: the list only shrinks."
        return "failed"
    if verdict is not None and rule in verdict.expected.get(label, []):
        ElementTree.SubElement(case, "skipped", message="expected failure (baseline)")
        ElementTree.SubElement(case, "system-out").text = text
        return "skipped"
    if status == "fail":
        findings = row.get("findings")
        first = findings[0] if isinstance(findings, list) and findings else {}
        element = ElementTree.SubElement(case, "failure", message=_safe(f"{rule}: {first.get('message', 'failed')}"))
        element.set("type", str(row.get("level", "")))
        element.text = text
        return "failed"
    if status == statuses.UNTESTED:
        ElementTree.SubElement(case, "skipped", message=_safe(f"untested: {row.get('reason', 'not seen')}"))
        return "skipped"
    if status == statuses.NOT_APPLICABLE:
        ElementTree.SubElement(case, "skipped", message="not applicable to this server or version")
        return "skipped"
    properties = ElementTree.SubElement(case, "properties")
    ElementTree.SubElement(properties, "property", name="status", value=status)
    ElementTree.SubElement(properties, "property", name="level", value=str(row.get("level", "")))
    if status == "warn":
        ElementTree.SubElement(case, "system-out").text = text
    return "passed"


def document(name: str, results: Mapping[str, Sequence[Row]], verdict: Verdict | None = None) -> str:
    """``results``: target label -> one row per rule."""
    root = ElementTree.Element("testsuites", name=name)
    totals = {"tests": 0, "failures": 0, "skipped": 0}
    for label, rows in results.items():
        suite = ElementTree.SubElement(root, "testsuite", name=f"{name}: {label}")
        outcomes = [_case(suite, label, row, verdict) for row in rows]
        counts = {"tests": len(outcomes), "failures": outcomes.count("failed"), "skipped": outcomes.count("skipped")}
        for key, value in counts.items():
            suite.set(key, str(value))
            totals[key] += value
        suite.set("errors", "0")
        suite.set("time", "0")
    for key, value in totals.items():
        root.set(key, str(value))
    root.set("errors", "0")
    ElementTree.indent(root)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ElementTree.tostring(root, encoding="unicode") + "\n"
