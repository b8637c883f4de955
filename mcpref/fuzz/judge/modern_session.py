"""What the modern requests of a session show together (MOD-CAP-REQUIRED, MOD-STATELESS).

In: the requests of a session with a whole modern envelope (``ModernJudge.calls``) and their
answers, once every line is judged, and where a legacy session opened (``Session.legacy_from``).
Out: findings that no answer shows alone, each in place of what its line would break by itself
(one cause, one finding):
- ``needs``: which tool needs which client capability cannot be known from outside, but a server
  shows it: a call whose ``input_required`` result asked for input of a capability its request
  declared needs it, so the same call (tool and arguments, asked afresh) without it is due -32021;
  refused with another code, it fails MOD-CAP-REQUIRED. Served without it, it is not judged: the
  server may do without.
- ``gate``: a server that refuses modern requests before it accepts a legacy ``initialize`` and
  serves the same requests (method and params but the envelope; its liveness probe, a
  ``server/discover``, included) after it makes the modern era wait for a handshake, a prior
  request establishing the context each should carry: MOD-STATELESS, once for the session.
Requests answered after a legacy session opened may be refused as the other era's (MOD-DUAL-ERA).
"""

from __future__ import annotations

import json

from mcpref.fuzz.judge.modern import (
    MISSING_REQUIRED_CLIENT_CAPABILITY,
    MODERN_ERRORS,
    ModernCall,
    asked_capabilities,
    error_code,
    show,
)
from mcpref.fuzz.judge.reading import Request
from mcpref.fuzz.judge.session import Session, id_key, result_of
from mcpref.reference.messages import JsonObject


def needs(session: Session) -> None:
    """MOD-CAP-REQUIRED: a call refused with another code than -32021, without a capability the same
    call (tool and arguments) with it declared asked input for."""
    if any(_shows_a_need(call.answer) for call in session.modern.calls):
        session.witnessed.add("MOD-CAP-REQUIRED")  # a pass needs a request seen to need a capability
    # After a legacy initialize, a modern request may be refused as the other era's (MOD-DUAL-ERA).
    calls = [(call.tool, call) for call in session.modern.calls if call.tool is not None and _before_legacy(session, call)]
    asked_for: dict[str, set[str]] = {}  # tool -> the capabilities it asked input for
    for tool, call in calls:
        result = result_of(call.answer)
        if result is not None and result.get("resultType") == "input_required":
            asked = set(asked_capabilities(result).values()) & call.declared
            asked_for.setdefault(tool, set()).update(asked)
    for tool, call in calls:
        code = error_code(call.answer)
        missing = sorted(asked_for.get(tool, set()) - call.declared)
        if code is None or code == MISSING_REQUIRED_CLIENT_CAPABILITY or not missing:
            continue
        session.findings = [f for f in session.findings if f.line != call.index]  # its symptoms
        named = ", ".join(missing)
        session.find(
            "MOD-CAP-REQUIRED",
            call.index,
            f"refused with {code} a call without {named}, though the same call with it asked for its input",
            f"-32021 with data.requiredCapabilities naming {named}",
            show(call.answer),
        )


def _shows_a_need(answer: JsonObject) -> bool:
    """Whether an answer shows its request needs a client capability: a -32021 refusal, or an
    input_required result asking for input that a capability gives."""
    result = result_of(answer)
    if result is None:
        return error_code(answer) == MISSING_REQUIRED_CLIENT_CAPABILITY
    return result.get("resultType") == "input_required" and bool(asked_capabilities(result))


def _before_legacy(session: Session, call: ModernCall) -> bool:
    """Whether ``call`` was answered before a legacy session opened on the connection."""
    at = session.answered_at.get(id_key(call.request.id))
    return session.legacy_from is None or at is None or at < session.legacy_from


def gate(session: Session) -> None:
    """MOD-STATELESS: modern requests refused before a legacy initialize and served after it."""
    if session.legacy_from is None:
        return
    after = [call for call in session.modern.calls if not _before_legacy(session, call)]
    served = {_asked(call.request) for call in after if result_of(call.answer) is not None}
    if any(result_of(answer) is not None for answer in session.probe_answers):
        served.add(_asked(Request("probe", "server/discover", {})))  # the probe, written after every line
    refused = [
        call
        for call in session.modern.calls
        if _before_legacy(session, call)
        and _asked(call.request) in served
        and (code := error_code(call.answer)) is not None
        and code not in MODERN_ERRORS
    ]
    if not refused:
        return
    lines = {call.index for call in refused}
    session.findings = [f for f in session.findings if f.line not in lines]
    methods = ", ".join(sorted({call.request.method for call in refused}))  # one finding names them all
    session.find(
        "MOD-STATELESS",
        refused[0].index,
        f"refused {methods} before a legacy initialize and served the same after it: "
        "the modern era waits for a handshake",
        "each modern request served from its own _meta, with or without a handshake before it",
        show(refused[0].answer),
    )


def _asked(request: Request) -> str:
    """What a request asks, whatever its id and envelope: its method and other params, as JSON."""
    params = {key: value for key, value in (request.params or {}).items() if key != "_meta"}
    return json.dumps([request.method, params], sort_keys=True)
