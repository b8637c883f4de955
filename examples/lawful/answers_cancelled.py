"""Lawful: ``notifications/cancelled`` is ignored: the request it names is still answered.

Rule: RPC-CANCEL (SHOULD). The reference stops a cancelled ``attendre`` call and never
answers it; this server drops every cancellation and finishes the work.
Permitted: SPEC_NOTES RPC-CANCEL, Alternatives ("a peer may still send the answer [...] the
spec profile accepts either an answer or silence after a cancellation"); MCP 2025-11-25,
Cancellation, Behavior requirements (receivers SHOULD stop; they MAY ignore a cancellation
they cannot act on) and Timing considerations (an answer may cross the cancellation).
Expected under ``spec``: an RPC-CANCEL warning at most, no failure.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # examples/, for the shared _harness

from _harness import Handle, message_of, run

from mcpref.reference.messages import Notification
from mcpref.reference.session_types import Effect, Log


def on_line(line: bytes, handle: Handle) -> list[Effect]:
    message = message_of(line)
    if isinstance(message, Notification) and message.method == "notifications/cancelled":
        return [Log("ignored a cancellation")]
    return handle(line)


if __name__ == "__main__":
    raise SystemExit(run(on_line=on_line))
