"""Lawful: a legacy tool call that asks for progress gets two progress notifications before its answer.

Rule: PROGRESS-TOKEN (MAY report progress). The reference reports none; this server writes
``notifications/progress`` for the call's token at 0.5 and then 1 of 1, then the reference's
answer: the token is a request's still in progress, and its progress grows.
Permitted: SPEC_NOTES PROGRESS-TOKEN, PROGRESS-INCREASING; MCP 2025-11-25, Utilities,
Progress ("The receiver MAY then send progress notifications").
Expected under ``spec``: no failure, no warning.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # examples/, for the shared _harness

from _harness import progress_first, run

if __name__ == "__main__":
    raise SystemExit(run(on_line=progress_first((0.5, 1))))
