"""Bug: ``initialize`` with an unsupported version is accepted, echoing that version in the result.

``"protocolVersion":"1999-01-01"`` comes back as ``"1999-01-01"`` instead of the -32602
version error. The session then runs as the reference does when it counter-offers
(``mcpref serve --version-policy counter-offer``): at the latest supported version.
Imitates: servers that answer with whatever version the client asked for.
Caught as: LIFE-VERSION-KNOWN, profile ``spec``.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # examples/, for the shared _harness

from _harness import Answer, Handle, edit_answers, message_of, run

from mcpref.reference.dispatcher import ServerSession
from mcpref.reference.messages import Request
from mcpref.reference.session_types import Effect, Send, VersionPolicy


def on_line(line: bytes, handle: Handle) -> list[Effect]:
    effects = handle(line)
    message = message_of(line)
    if not (isinstance(message, Request) and message.method == "initialize" and message.params):
        return effects
    requested = message.params.get("protocolVersion")

    def echo(answer: Answer) -> None:
        if "result" in answer:
            answer["result"]["protocolVersion"] = requested

    return [Send(edit_answers(e.data, echo)) if isinstance(e, Send) else e for e in effects]


if __name__ == "__main__":
    raise SystemExit(run(on_line=on_line, session=ServerSession(version_policy=VersionPolicy.COUNTER_OFFER)))
