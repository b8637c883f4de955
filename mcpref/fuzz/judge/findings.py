"""What the oracle reports: ``Finding`` values, and how a profile counts them (``Status``).

In: nothing but the rules' levels (``mcpref.reference.rules``). Out: the types every judge module
builds findings with, and every reader of a verdict (campaigns, reports, the CLI) reads them by.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Final

from mcpref.reference.rules import BY_ID, Level


class Profile(enum.Enum):
    SPEC = "spec"
    STRICT = "strict"


class Status(enum.Enum):
    NOTE = "note"  # under spec, what only the reference chose otherwise: no verdict, a row stays pass
    WARN = "warn"
    FAIL = "fail"


# What a finding shows as ``actual`` for an answer not seen, and as ``expected`` where none is owed.
NOTHING: Final = "nothing"


def counted(count: int, noun: str) -> str:
    """``count`` and ``noun``, plural unless one: a message's figure in a sentence."""
    return f"{count} {noun}" if count == 1 else f"{count} {noun}s"


@dataclass(frozen=True)
class Finding:
    rule: str
    mandatory: bool  # the divergence breaks a MUST or MUST NOT of the specification
    line: int | None  # index of the input line it concerns; None for the session as a whole
    message: str
    expected: str
    actual: str
    # Only the reference chose otherwise (a reference decision within a MUST rule): a note under spec.
    decision: bool = False

    @property
    def answer_missing(self) -> bool:
        """Whether what failed is an answer not seen (one that may yet come late)."""
        return self.actual == NOTHING

    def status(self, profile: Profile) -> Status:
        level = BY_ID[self.rule].level
        if level is Level.MEASUREMENT:
            return Status.WARN  # the machine's speed is in it: never a verdict
        if self.mandatory or profile is Profile.STRICT:
            return Status.FAIL
        # Under spec a warning says a SHOULD of the specification's text was not met (or a MUST read
        # one way of several); where the text permits the behaviour and only the reference chose
        # otherwise (a reference decision), the finding is a note.
        return Status.NOTE if level is Level.DECISION or self.decision else Status.WARN
