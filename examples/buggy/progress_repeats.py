"""Bug: a tool call that asked for progress gets the same progress value twice, in either era.

The reference reports no progress, which the specification allows. Here a ``tools/call``
carrying ``_meta.progressToken`` (legacy or modern) first gets two ``notifications/progress`` for
its token, both at 0 of 1, then the reference's answer.
Imitates: servers that report a step's start and its end with the same counter.
Caught as: PROGRESS-INCREASING, profile ``spec``, in both eras.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # examples/, for the shared _harness

from _harness import progress_first, run

if __name__ == "__main__":
    raise SystemExit(run(on_line=progress_first((0, 0), either_era=True)))
