"""The conformance matrix: one row per rule, one column per command, from the rows of ``check`` or ``check-client``.

It is what ``compare --json`` prints and what ``report.html`` draws; ``check`` and ``check-client``
are a matrix of one column.
"""

from __future__ import annotations

from collections.abc import Sequence

from mcpref.fuzz.judge.findings import Profile
from mcpref.reference.rules import BY_ID


def combine(
    commands: Sequence[list[str]], labels: Sequence[str], per_command: Sequence[list[dict[str, object]]], profile: Profile
) -> dict[str, object]:
    """The matrix of ``check_rows`` results, one per command (each with a row for the same rules). A
    cell whose row gives a reason (why untested, or n/a for a server that serves no legacy version)
    has it under the rule's ``reasons``, which lists only such cells."""
    rules: list[dict[str, object]] = []
    for index, first in enumerate(per_command[0]):
        rule = BY_ID[str(first["id"])]
        statuses: dict[str, object] = {}
        findings: dict[str, object] = {}
        reasons: dict[str, object] = {}
        for label, rows in zip(labels, per_command, strict=True):
            row = rows[index]
            assert row["id"] == rule.id
            statuses[label] = row["status"]
            findings[label] = row["findings"]
            if "reason" in row:
                reasons[label] = row["reason"]
        entry: dict[str, object] = {"id": rule.id, "level": rule.level.value, "statuses": statuses, "findings": findings}
        if reasons:
            entry["reasons"] = reasons
        rules.append(entry)
    return {
        "profile": profile.value,
        "commands": [{"label": label, "command": command} for label, command in zip(labels, commands, strict=True)],
        "rules": rules,
    }


def by_label(result: dict[str, object]) -> dict[str, list[dict[str, object]]]:
    """The matrix as one ``check`` result per column."""
    rules = result["rules"]
    commands = result["commands"]
    assert isinstance(rules, list) and isinstance(commands, list)
    return {
        str(command["label"]): [
            {
                "id": rule["id"],
                "level": rule["level"],
                "status": rule["statuses"][command["label"]],
                "findings": rule["findings"][command["label"]],
                **({"reason": rule["reasons"][command["label"]]} if command["label"] in rule.get("reasons", {}) else {}),
            }
            for rule in rules
        ]
        for command in commands
    }
