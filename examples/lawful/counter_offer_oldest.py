"""Lawful: ``initialize`` for an unsupported version is answered with a result naming 2024-11-05.

Rule: LIFE-VERSION-COUNTER-OFFER (reference decision) and LIFE-VERSION-UNSUPPORTED (MUST).
When it counter-offers, the reference names its latest version, 2025-11-25; this server
names its oldest, 2024-11-05, and the session then follows 2024-11-05's rules.
Permitted: SPEC_NOTES LIFE-VERSION-COUNTER-OFFER, Alternatives ("a peer may answer with the
error instead, or counter-offer a different supported version"); MCP 2025-11-25, Lifecycle,
Version negotiation (another version the server supports; the latest is only a SHOULD).
Expected under ``spec``: no failure.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # examples/, for the shared _harness

from _harness import Answer, Handle, edit_answers, message_of, run

from mcpref.reference.dispatcher import Effect, Send, ServerSession, VersionPolicy
from mcpref.reference.messages import Request
from mcpref.reference.versions import BY_NAME, SUPPORTED, V2024_11_05

session = ServerSession(version_policy=VersionPolicy.COUNTER_OFFER)


def offered(answer: Answer) -> None:
    result = answer.get("result")
    if isinstance(result, dict):
        result["protocolVersion"] = V2024_11_05.name


def on_line(line: bytes, handle: Handle) -> list[Effect]:
    before = session.version
    effects = handle(line)
    message = message_of(line)
    if not (isinstance(message, Request) and message.method == "initialize" and message.params):
        return effects
    requested = message.params.get("protocolVersion")
    supported = isinstance(requested, str) and BY_NAME.get(requested) in SUPPORTED
    if before is not None or session.version is None or supported:
        return effects  # not a counter-offer
    session.version = V2024_11_05
    return [Send(edit_answers(e.data, offered)) if isinstance(e, Send) else e for e in effects]


if __name__ == "__main__":
    raise SystemExit(run(on_line=on_line, session=session))
