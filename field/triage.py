"""The triage of the findings: ``field/triage.toml``, one entry per kind of finding.

In: the findings. Out: each finding's kind, the first entry that names its target and rule (and
its scenario, when the entry names any), or None: untriaged, which makes ``make field`` exit 1.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass

from fieldlib import SOURCE
from reproducers import Finding

TRIAGE = SOURCE / "triage.md"  # the triage's prose: method, oracle errors found and fixed, observations
TRIAGE_TABLE = SOURCE / "triage.toml"  # one entry per kind of finding; every finding must match one


@dataclass(frozen=True)
class Triage:
    """One kind of finding: which targets, rules and scenarios it covers, and what it is."""

    id: str
    verdict: str  # genuine, reference decision, measurement
    title: str
    text: str
    rules: tuple[str, ...]
    targets: tuple[str, ...]
    scenarios: tuple[str, ...] = ()  # empty: any; "campaign" for a fuzz finding

    def covers(self, finding: Finding) -> bool:
        return (
            finding.rule in self.rules
            and finding.target in self.targets
            and (not self.scenarios or finding.scenario in self.scenarios)
        )


def triage_table() -> list[Triage]:
    entries = tomllib.loads(TRIAGE_TABLE.read_text())["entry"] if TRIAGE_TABLE.exists() else []
    ids = [e["id"] for e in entries]
    if twice := sorted({i for i in ids if ids.count(i) > 1}):  # the report links kinds by id
        raise ValueError(f"{TRIAGE_TABLE}: ids used twice: {', '.join(twice)}")
    return [
        Triage(
            e["id"],
            e["verdict"],
            e["title"],
            e["text"].strip(),
            tuple(e["rules"]),
            tuple(e["targets"]),
            tuple(e.get("scenarios", ())),
        )
        for e in entries
    ]


def triaged(findings: list[Finding]) -> dict[int, Triage | None]:
    """Each finding's triage entry (by its position), the first that covers it; None: untriaged."""
    table = triage_table()
    return {index: next((t for t in table if t.covers(f)), None) for index, f in enumerate(findings)}
