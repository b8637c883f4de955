"""The exit statuses of every command that judges a target, and the one table that documents them.

A CI job reads one thing, the exit status: 0 must mean that something was judged and nothing
failed. A run in which every selected rule stayed untested or n/a, or a campaign in which no case
ran to its end, judged nothing and has a status of its own (``NOTHING_JUDGED``), never 0.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Final

from mcpref.fuzz.report import statuses

CLEAN: Final = 0  # at least one selected rule judged (pass or warn), none failed
FOUND: Final = 1  # failures found, or a run not held to its baseline
USAGE: Final = 2  # bad usage, or a target that cannot be started at all
NOTHING_JUDGED: Final = 3  # every selected rule untested or n/a; a campaign with no case run to its end
INTERRUPTED_BASE: Final = 128  # SIGINT 130, SIGTERM 143: the shell's convention

# What a CI most needs to hear first, when several runs make one status (the Action's check and fuzz).
_SEVERITY: Final = (USAGE, FOUND, NOTHING_JUDGED, CLEAN)

NOTHING_JUDGED_LINE: Final = "nothing was judged: no selected rule was seen kept or broken (exit status 3)"

TABLE: Final = """\
Exit status:
  0    something was judged (a selected rule passed or warned) and nothing
       failed; held to --baseline, exactly the listed rules fail
  1    failures found; held to --baseline, a failure it does not list or a
       listed rule that passes now
  2    bad usage: an argument, a [tool.mcpref] key, a selection that leaves no
       rule, a report or baseline path that cannot be used (all checked before
       the run); or a target that cannot be started at all
  3    nothing judged: every selected rule untested or n/a, or a campaign with
       no case run to its end (whatever the baseline)
  130  interrupted by SIGINT; 143 by SIGTERM (128 + the signal's number)"""


def judged(rows: Iterable[Mapping[str, object]]) -> bool:
    """Whether some row carries a verdict: pass, warn or fail."""
    return any(row["status"] in (statuses.PASS, statuses.WARN, statuses.FAIL) for row in rows)


def of(failed: bool, judged: bool, held: bool = True) -> int:
    """The status of a run: ``failed`` whether a rule failed that no baseline lists, ``judged``
    whether every target had something judged, ``held`` whether the run kept to its baseline (a
    listed rule now passing breaks it). A baseline's listed rules that a run which judged nothing
    did not see are no news: nothing judged comes first."""
    if failed:
        return FOUND
    if not judged:
        return NOTHING_JUDGED
    return CLEAN if held else FOUND


def interrupted(signal_number: int) -> int:
    """The status of a run ended by a signal."""
    return INTERRUPTED_BASE + signal_number


def worst(codes: Iterable[int]) -> int:
    """One status for several runs: a usage error first, then failures, then nothing judged."""
    codes = list(codes)
    return next((code for code in (*sorted(c for c in codes if c not in _SEVERITY), *_SEVERITY) if code in codes), CLEAN)
