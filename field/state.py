"""What the report is written from, kept in ``.field/runs/state.json`` so that it can be written again.

In: the runs' results, the findings with their reproducers and replays, the installs, the
comparison of the runs and the campaigns' settings. Out: the same, read back, for ``make_field.py
--render-only`` (and ``--replay-again``), which rewrite the pages without running anything.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass
from pathlib import Path

from comparison import Seconds
from fieldlib import RUNS, RunResults
from install import Install
from reproducers import Finding

STATE = RUNS / "state.json"


@dataclass
class State:
    runs: list[RunResults]  # the first run's findings are the report's
    findings: list[Finding]
    installs: dict[str, Install]
    comparison: list[str] | None  # None: one run
    seconds: list[Seconds]
    seed: int
    max_cases: int

    def save(self, path: Path = STATE) -> None:
        path.write_text(json.dumps(asdict(self), indent=1))

    @classmethod
    def load(cls, path: Path = STATE) -> State:
        data = json.loads(path.read_text())
        data["findings"] = [Finding(**entry) for entry in data["findings"]]
        return cls(**data)


def kept_findings(first_run: RunResults, path: Path = STATE) -> list[Finding] | None:
    """The findings saved from the same first run, replays made: ``--reuse`` need not replay them again."""
    if not path.exists():
        return None
    data = json.loads(path.read_text())
    if data.get("runs", [data.get("results")])[0] != first_run:  # "results": one run, an older state
        return None
    return [Finding(**entry) for entry in data["findings"]]
