"""A server that exits on a request whose id is an integer of 10^30 or more, which only a campaign's
generated cases send (``check``'s corpus has no such id): what the example database keeps and
replays is a failure Hypothesis generated and shrank, never one of the explicit scenarios."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "examples"))  # for the shared _harness

from _harness import Handle, run

from mcpref.reference.messages import parse_line
from mcpref.reference.session_types import Effect


def on_line(line: bytes, handle: Handle) -> list[Effect]:
    value = parse_line(line)
    request_id = value.get("id") if isinstance(value, dict) else None
    if isinstance(request_id, int) and request_id >= 10**30:
        raise SystemExit(1)
    return handle(line)


if __name__ == "__main__":
    raise SystemExit(run(on_line=on_line))
