"""How long driving a target may take: the ``Timing`` of a run, and the run's deadline.

In: a ``Patience`` (``fuzz.drive.waiting``) and, for ``within``, the seconds a run has left. Out: the
``Timing`` that ``Process`` and ``run_case`` wait by; ``OutOfTime`` is raised when a wait passes
the deadline that ``within`` set.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field, replace

from mcpref.fuzz.drive.waiting import Patience


class OutOfTime(BaseException):
    """The run's deadline (``Patience.deadline``) passed during a wait: what the case showed so
    far is no verdict. Not an ``Exception``, so that Hypothesis does not take it for a failure."""


@dataclass(frozen=True)
class Timing:
    pause: float = 0.003  # after each chunk of a fresh run
    settle: float = 0.01  # after the probe's answer, for late or repeated answers
    max_output: int = 16 * 1024 * 1024  # stdout bytes kept per case
    patience: Patience = field(default_factory=Patience)  # how long a target is waited for


def within(timing: Timing, seconds: float) -> Timing:
    """``timing`` with every wait ending ``seconds`` from now at the latest (``OutOfTime``)."""
    if not math.isfinite(seconds):
        return timing
    return replace(timing, patience=replace(timing.patience, deadline=time.monotonic() + seconds))
