"""Bug: every notification of the server gets an error response with id null (-32601).

The reference ignores notifications, known or not: a notification is never answered.
Caught as: CLIENT-NOTIFICATION-SILENT, profile ``spec``.
"""

from __future__ import annotations

from _client_harness import HookedClient, message_in, run

from mcpref.reference.client import Event
from mcpref.reference.framer import FrameEvent
from mcpref.reference.messages import METHOD_NOT_FOUND, error_answer


class AnswersNotifications(HookedClient):
    def on_line(self, line: FrameEvent) -> list[Event]:
        message = message_in(line)
        if message is not None and isinstance(message.get("method"), str) and "id" not in message:
            self.send(error_answer(None, METHOD_NOT_FOUND, f"method not found: {message['method']}"))
        return self.handle(line)


if __name__ == "__main__":
    raise SystemExit(run(AnswersNotifications))
