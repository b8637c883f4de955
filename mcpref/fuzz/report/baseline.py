"""Expected failures: a baseline file lets a project with known divergences keep its CI green.

    {"format": "mcpref-baseline/1", "profile": "spec",
     "expected_failures": {"target": ["RPC-PARSE-ERROR"], ...}}

One list of rule IDs per target: ``target`` for ``check`` and ``fuzz``, each column's label
for ``compare``. A run is held to it both ways, so that the list only shrinks: a failure it
does not list is new, and a rule it lists that no longer fails must be taken off it. For
``fuzz``, a listed rule the campaign did not find counts as no longer failing (with a seed
and ``--max-cases`` the campaign is the same on every run).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from mcpref.fuzz.judge.oracle import Profile
from mcpref.fuzz.report.reproducer import load_document
from mcpref.reference.rules import BY_ID

FORMAT = "mcpref-baseline/1"
TARGET = "target"  # the one target of check and fuzz


class BaselineError(Exception):
    """A baseline file that cannot be used."""


@dataclass(frozen=True)
class Baseline:
    profile: Profile
    expected: Mapping[str, frozenset[str]]  # label -> rule IDs expected to fail


@dataclass(frozen=True)
class Verdict:
    """A run held to a baseline, by label: each list sorted."""

    expected: Mapping[str, list[str]]  # listed, and still failing
    new: Mapping[str, list[str]]  # failing, and not listed
    fixed: Mapping[str, list[str]]  # listed, and seen passing
    untested: Mapping[str, list[str]] = field(default_factory=dict)  # listed, and not seen either way

    @property
    def held(self) -> bool:
        return not any(self.new.values()) and not any(self.fixed.values())

    def lines(self) -> list[str]:
        """What the run says of the baseline, one line per label with something to say."""
        out = []
        for label in sorted({*self.expected, *self.new, *self.fixed}):
            for name, rules in (
                ("expected", self.expected),
                ("new", self.new),
                ("now passing", self.fixed),
                ("untested", self.untested),
            ):
                if rules.get(label):
                    out.append(f"baseline {label}: {name}: {', '.join(rules[label])}")
        return out

    def json(self) -> dict[str, object]:
        return {
            "held": self.held,
            "expected": self.expected,
            "new": self.new,
            "now_passing": self.fixed,
            "untested": self.untested,
        }


def load(path: Path, profile: Profile) -> Baseline:
    document = load_document(path, FORMAT, BaselineError)
    if document.get("profile") != profile.value:
        raise BaselineError(f"{path} was written for profile {document.get('profile')!r}, not {profile.value!r}")
    listed = document.get("expected_failures")
    if not isinstance(listed, dict) or not all(
        isinstance(rules, list) and all(isinstance(rule, str) for rule in rules) for rules in listed.values()
    ):
        raise BaselineError(f"{path}: expected_failures must map each target to a list of rule IDs")
    unknown = sorted({rule for rules in listed.values() for rule in rules} - BY_ID.keys())
    if unknown:
        raise BaselineError(f"{path}: unknown rule ID {', '.join(unknown)}")
    return Baseline(profile, {str(label): frozenset(rules) for label, rules in listed.items()})


def dump(profile: Profile, failing: Mapping[str, Iterable[str]]) -> str:
    """A baseline that expects exactly the failures of this run."""
    expected = {label: sorted(rules) for label, rules in failing.items()}
    return json.dumps({"format": FORMAT, "profile": profile.value, "expected_failures": expected}, indent=2) + "\n"


def hold(
    baseline: Baseline, failing: Mapping[str, Iterable[str]], untested: Mapping[str, Iterable[str]] | None = None
) -> Verdict:
    """``failing`` (label -> rules failing in this run) against the baseline. A listed rule that this
    run could not judge (``untested``) is neither still failing nor fixed: the list keeps it."""
    seen = {label: set(rules) for label, rules in failing.items()}
    unseen = {label: set(rules) for label, rules in (untested or {}).items()}
    labels = sorted({*seen, *baseline.expected})
    listed = {label: baseline.expected.get(label, frozenset()) for label in labels}
    now = {label: seen.get(label, set()) for label in labels}
    blind = {label: unseen.get(label, set()) & listed[label] for label in labels}
    return Verdict(
        {label: sorted(now[label] & listed[label]) for label in labels},
        {label: sorted(now[label] - listed[label]) for label in labels},
        {label: sorted(listed[label] - now[label] - blind[label]) for label in labels},
        {label: sorted(blind[label]) for label in labels},
    )
