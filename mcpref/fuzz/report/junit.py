"""Results as JUnit XML, the format CI systems read: one test case per rule and target.

A failing rule is a ``<failure>`` whose text holds each finding, its transcript and the
pasteable reproducer; a warning passes, with the finding in ``<system-out>``; a rule untested
or not applicable is ``<skipped>``, with the reason. Held to a baseline, an expected failure is
``<skipped>`` (saying so, with the finding), and a listed rule that no longer fails is a
``<failure>``: the baseline must lose it.

The document keeps to the elements and attributes of the widely read ``junit-10.xsd``
(https://github.com/jenkinsci/xunit-plugin, ``src/main/resources/.../xsd/junit-10.xsd``): no
properties under a test case, no ``skipped`` count on ``<testsuites>``. Each target's test cases
have a class name of their own (``mcpref.`` and the target's name), so that the results of two
servers merged by a CI system stay apart. A rule has no time of its own (a scenario exercises
several rules), so only the run's time is given, on the suites.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ElementTree
from collections.abc import Mapping, Sequence

from mcpref.fuzz.report import statuses
from mcpref.fuzz.report.baseline import Verdict
from mcpref.fuzz.report.notes import citation

Row = Mapping[str, object]  # a rule's result: id, level, status, findings (as ``check --json`` gives them)
# Characters XML 1.0 cannot carry at all; a server's output may hold any of them.
_NOT_XML = re.compile("[^\t\n\r\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")


def _safe(text: object) -> str:
    return _NOT_XML.sub(lambda match: f"\\x{ord(match.group()):02x}", str(text))


def more_like_it(finding: Mapping[str, object]) -> str:
    """How many more findings share the cause of ``finding``, and where (``causes.grouped``)."""
    also = finding.get("also_in")
    quoted = [f'"{name}"' for name in also] if isinstance(also, list) else []
    where = f" (also in {', '.join(quoted)})" if quoted else ""
    return f"and {finding['more']} more like it{where}"


def describe(findings: object) -> str:
    """Each cause: its smallest finding's scenario, message, expected and actual answers,
    reproducer and transcript, and how many more share it."""
    blocks = []
    for finding in findings if isinstance(findings, list) else []:
        lines = [f"{finding.get('message')}", f"expected: {finding.get('expected')}", f"actual: {finding.get('actual')}"]
        if finding.get("scenario"):
            lines.insert(0, f"scenario: {finding['scenario']}")
        if finding.get("more"):
            lines.append(more_like_it(finding))
        for key in ("reproducer", "shell"):
            if finding.get(key):
                lines.append(f"{key}: {finding[key]}")
        transcript = finding.get("transcript")
        if isinstance(transcript, list) and transcript:
            lines += ["transcript:", *(f"  {line}" for line in transcript)]
        blocks.append("\n".join(lines))
    return _safe("\n\n".join(blocks))


def classname(shown: str) -> str:
    """``mcpref.`` and the target's name, without the dots that CI systems read as packages."""
    return "mcpref." + re.sub(r"[^A-Za-z0-9_-]+", "_", shown).strip("_")


def _case(suite: ElementTree.Element, label: str, shown: str, row: Row, verdict: Verdict | None) -> str:
    """Add the test case of ``row``; returns its outcome: passed, failed or skipped."""
    rule, status = str(row["id"]), str(row["status"])
    case = ElementTree.SubElement(suite, "testcase", classname=classname(shown), name=rule)
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
        element.text = f"{text}\n\nsee {citation(rule)}"
        return "failed"
    if status == statuses.UNTESTED:
        ElementTree.SubElement(case, "skipped", message=_safe(f"untested: {row.get('reason', 'not seen')}"))
        return "skipped"
    if status == statuses.NOT_APPLICABLE:
        ElementTree.SubElement(case, "skipped", message="not applicable to this server or version")
        return "skipped"
    if status == "warn":
        ElementTree.SubElement(case, "system-out").text = f"warn ({row.get('level', '')}):\n{text}"
    return "passed"


def document(
    name: str,
    results: Mapping[str, Sequence[Row]],
    verdict: Verdict | None = None,
    shown: Mapping[str, str] | None = None,
    seconds: float | None = None,
) -> str:
    """``results``: target label -> one row per rule; ``shown``: label -> the target's name (the
    label itself by default); ``seconds``: how long the whole run took."""
    root = ElementTree.Element("testsuites", name=name)
    totals = {"tests": 0, "failures": 0}
    for label, rows in results.items():
        target = (shown or {}).get(label, label)
        suite = ElementTree.SubElement(root, "testsuite", name=f"{name}: {target}")
        outcomes = [_case(suite, label, target, row, verdict) for row in rows]
        counts = {"tests": len(outcomes), "failures": outcomes.count("failed"), "skipped": outcomes.count("skipped")}
        for key, value in counts.items():
            suite.set(key, str(value))
        for key in totals:  # junit-10.xsd has no skipped count on <testsuites>
            totals[key] += counts[key]
        suite.set("errors", "0")
        if seconds is not None and len(results) == 1:
            suite.set("time", f"{seconds:.3f}")
    for key, value in totals.items():
        root.set(key, str(value))
    root.set("errors", "0")
    if seconds is not None:
        root.set("time", f"{seconds:.3f}")
    ElementTree.indent(root)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ElementTree.tostring(root, encoding="unicode") + "\n"
