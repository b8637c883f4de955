"""Bug: the tool call is written right after ``initialize``, without waiting for its answer.

Answers are matched by id: an answer to the call that comes before the handshake's is kept
until the handshake is done. The reference writes nothing but answers to the server's
requests until ``initialize`` is answered, then ``notifications/initialized``, then the call.
The scripted server holds its ``initialize`` answer 0.3 s, so the early call is seen early.
Since the call goes before the client has seen what the server announces, the scenario of a
server that announces no capability draws CLIENT-CAP-ANNOUNCED (spec) too: the same bug,
seen from there.
Caught as: CLIENT-INIT-ALONE, profile ``strict``.
"""

from __future__ import annotations

from _client_harness import HookedClient, run

from mcpref.reference.client import ClientPhase, Event
from mcpref.reference.messages import JsonObject, RequestId


class Pipelining(HookedClient):
    early: RequestId | None = None  # the id of the call written with initialize
    kept: tuple[JsonObject, ...] = ()  # its answer, when it came before the handshake's

    def open(self) -> None:
        super().open()
        self.early = self._request(*self.call())  # the bug: before the answer

    def request(self, method: str, params: JsonObject) -> RequestId | None:
        return self.early  # the loop's own call, once the handshake is done: already written

    def _response(self, value: JsonObject) -> list[Event]:
        if self.phase is ClientPhase.OPENING and value["id"] == self.early:
            self.kept += (value,)
            return []
        events = super()._response(value)
        if self.phase is ClientPhase.READY:
            kept, self.kept = self.kept, ()
            for answer in kept:
                events += super()._response(answer)
        return events


if __name__ == "__main__":
    raise SystemExit(run(Pipelining))
