"""Bug: after each legacy tool result, it notifies a task as completed, then as working again.

The reference creates no task and sends no task status. Here every legacy ``tools/call`` the
reference serves at once is followed by two ``notifications/tasks/status`` for the task
``"task-0"``: ``completed``, then ``working``, a transition out of a terminal status.
Imitates: servers that reuse a task id for the next piece of work.
Caught as: TASKS-TERMINAL, profile ``spec``, in sessions that negotiated 2025-11-25 (the only
version with tasks in the core).
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # examples/, for the shared _harness

from _harness import Handle, legacy_request, notification, run, served_at_once

from mcpref.reference.session_types import Effect, Send


def status(name: str) -> Send:
    return notification("notifications/tasks/status", {"taskId": "task-0", "status": name, "createdAt": "2026-12-04T00:00:00Z", "ttl": None})


def on_line(line: bytes, handle: Handle) -> list[Effect]:
    effects = handle(line)
    if legacy_request(line, "tools/call") is None or not served_at_once(effects):
        return effects
    return [*effects, status("completed"), status("working")]


if __name__ == "__main__":
    raise SystemExit(run(on_line=on_line))
