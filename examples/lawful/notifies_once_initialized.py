"""Lawful: it notifies a tool-list change once it receives ``notifications/initialized``, and
answers ``initialize`` only after the lines that came in the same read.

Rule: LIFE-SERVER-EARLY (SHOULD NOT). The reference answers each line as it reads it and never
notifies. This server announces ``"listChanged": true``, holds its initialize answer until it has
handled the rest of the read, and writes ``notifications/tools/list_changed`` when it receives
``notifications/initialized`` after an initialize it accepted. A client that writes
``initialized`` right behind ``initialize`` gets the notification before the initialize answer;
one that awaits the answer first gets them the other way round.
Permitted: SPEC_NOTES LIFE-SERVER-EARLY (the SHOULD NOT concerns what is sent "before receiving
the initialized notification"); MCP 2025-11-25, Lifecycle, Initialization.
Imitates: servers whose initialize answer is written asynchronously (the TypeScript SDK's
``server-everything``, docs/field/triage.md T30).
Expected under ``spec`` and ``strict``: no LIFE-SERVER-EARLY finding.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # examples/, for the shared _harness

from _harness import Answer, Handle, edit_answers, message_of, notification, run, served_at_once

from mcpref.reference.dispatcher import ServerSession
from mcpref.reference.framer import FrameEvent, LineFramer
from mcpref.reference.messages import Notification, Request
from mcpref.reference.session_types import Effect

LIST_CHANGED = notification("notifications/tools/list_changed")


class ReadCounter(LineFramer):
    """The reference framer, counting the lines of the current read not yet handled."""

    left = 0

    def receive_data(self, data: bytes) -> list[FrameEvent]:
        events = super().receive_data(data)
        self.left = sum(isinstance(event, bytes) for event in events)
        return events


session = ServerSession()
framer = ReadCounter(session.framer.max_line_bytes)
held: list[Effect] = []  # the initialize answer, until this read is handled
opened = False  # an initialize was accepted


def on_line(line: bytes, handle: Handle) -> list[Effect]:
    global opened
    framer.left -= 1
    message = message_of(line)
    effects: list[Effect] = []
    if opened and isinstance(message, Notification) and message.method == "notifications/initialized":
        effects.append(LIST_CHANGED)
    effects += held
    held.clear()
    answer = handle(line)
    if isinstance(message, Request) and message.method == "initialize":
        opened |= served_at_once(answer)
        if framer.left > 0:
            held.extend(answer)
            return effects
    return effects + answer


def announce(answer: Answer) -> None:
    result = answer.get("result")
    if isinstance(result, dict) and "protocolVersion" in result and isinstance(result.get("capabilities"), dict):
        result["capabilities"]["tools"] = {"listChanged": True}


if __name__ == "__main__":
    raise SystemExit(
        run(framer=framer, session=session, on_line=on_line, rewrite=lambda data: edit_answers(data, announce))
    )
