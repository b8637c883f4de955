"""Lawful: it announces ``listChanged`` for tools, and notifies a change after each legacy tool list.

Rule: CAP-LIST-CHANGED (reference decision). The reference announces ``tools`` with
``listChanged`` false and never notifies; this server's initialize results announce
``"listChanged": true`` and every legacy ``tools/list`` it serves is followed by
``notifications/tools/list_changed`` (its list never changes: a notification is allowed
whenever, and "SHOULD" when, it does).
Permitted: SPEC_NOTES CAP-LIST-CHANGED; MCP 2025-11-25, Lifecycle, Capability Negotiation
(``listChanged``), and Server, Tools, List Changed Notification.
Expected under ``spec``: no failure, no warning.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # examples/, for the shared _harness

from _harness import Answer, edit_answers, notification, notifying_after, run

on_line = notifying_after("tools/list", notification("notifications/tools/list_changed"))


def announce(answer: Answer) -> None:
    result = answer.get("result")
    if isinstance(result, dict) and "protocolVersion" in result and isinstance(result.get("capabilities"), dict):
        result["capabilities"]["tools"] = {"listChanged": True}


if __name__ == "__main__":
    raise SystemExit(run(on_line=on_line, rewrite=lambda data: edit_answers(data, announce)))
