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
    """The matrix of ``check_rows`` results, one per command (each with a row for the same rules)."""
    rules: list[dict[str, object]] = []
    for index, first in enumerate(per_command[0]):
        rule = BY_ID[str(first["id"])]
        statuses: dict[str, object] = {}
        findings: dict[str, object] = {}
        for label, rows in zip(labels, per_command, strict=True):
            row = rows[index]
            assert row["id"] == rule.id
            statuses[label] = row["status"]
            findings[label] = row["findings"]
        rules.append({"id": rule.id, "level": rule.level.value, "statuses": statuses, "findings": findings})
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
            }
            for rule in rules
        ]
        for command in commands
    }
