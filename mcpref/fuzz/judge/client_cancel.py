"""CLIENT-TIMEOUT and CLIENT-CANCEL: what a client does with a request of its own that gets no answer.

In: the client's lines (``Line``), the tags of what the scripted server wrote, the script, and
whether the client ended by itself. Out: findings, and whether the rule's situation arose.

A client that gives up on a request it sent tells the server so with ``notifications/cancelled``
naming the request (a SHOULD, Cancellation and Lifecycle, Timeouts); a cancellation names only a
request the client sent, and never ``initialize`` (MUST and MUST NOT, Cancellation). Judged: in
every scenario, what each cancellation names; in "a server that never answers the call", a client
that ended by itself without cancelling the call. One killed at the time limit gave up on nothing;
it waited, which CLIENT-TIMEOUT judges: "forever" is the run's own limit, not a duration of the
clock, so a client still running when its limit stopped it (``client_run.Limits``: ``--limit``, and
at least ``--endless-wait`` here), having waited at least half of that limit (``ENDLESS``) since the
call reached the server, and having neither cancelled the call nor closed the server's stdin (a client slow to shut down after its timeout did both), never stopped
waiting.
"""

from __future__ import annotations

import json
from collections.abc import Sequence

from mcpref.fuzz.drive.client_run import ClientRun
from mcpref.fuzz.generate.client_scripts import ServerScript
from mcpref.fuzz.judge.client_modern import Line
from mcpref.fuzz.judge.findings import Finding
from mcpref.reference.eras import INITIALIZE
from mcpref.reference.rules import BY_ID

CANCELLED = "notifications/cancelled"
RULE = "CLIENT-CANCEL"
TIMEOUT = "CLIENT-TIMEOUT"
ENDLESS = 0.5  # of the run's limit: a wait that long, cut by the limit, is an endless one


def _named(line: Line) -> str:
    """The request a cancellation names, as JSON text (1 and "1" differ)."""
    params = line.value.get("params") if line.value is not None else None
    return json.dumps(params.get("requestId") if isinstance(params, dict) else None)


def _id(line: Line) -> str:
    return json.dumps(line.value.get("id") if line.value is not None else None)


def judge_cancel(lines: Sequence[Line], script: ServerScript, ended: bool) -> tuple[list[Finding], set[str]]:
    """``ended``: the client exited by itself (not killed at the time limit)."""
    findings: list[Finding] = []
    requests = [line for line in lines if line.is_request and line.value is not None]
    cancels = [line for line in lines if line.method == CANCELLED and line.value is not None and "id" not in line.value]
    for cancel in cancels:
        named = _named(cancel)
        before = {_id(line): line.method for line in requests if line.number < cancel.number}
        if before.get(named) == INITIALIZE or named not in before:
            what = "the initialize request" if before.get(named) == INITIALIZE else "no request it had sent"
            findings.append(Finding(RULE, True, cancel.number, f"notifications/cancelled named {what} (requestId {named})",
                                    "a request of the client's, never initialize", named))  # fmt: skip
    calls = [line for line in requests if line.method == "tools/call"]
    if not (script.silent and calls and ended):
        return findings, set()
    cancelled = {_named(cancel) for cancel in cancels}
    unanswered = [call for call in calls if _id(call) not in cancelled]
    if unanswered:
        findings.append(Finding(RULE, BY_ID[RULE].level.mandatory, unanswered[0].number,
                                "the client gave up on a tools/call that got no answer without cancelling it",
                                f"{CANCELLED} naming it", "no cancellation"))  # fmt: skip
    return findings, {RULE}


def judge_timeout(lines: Sequence[Line], run: ClientRun) -> tuple[list[Finding], set[str]]:
    """CLIENT-TIMEOUT: in a scenario whose server never answers the call, the client stops waiting."""
    call = next((line for line in lines if line.is_request and line.method == "tools/call"), None)
    if not run.script.silent or call is None:
        return [], set()
    gave_up = any(line.method == CANCELLED and _named(line) == _id(call) for line in lines)
    if run.exit_status is not None or gave_up or any(event.kind == "eof" for event in run.events):
        return [], {TIMEOUT}  # it stopped waiting, by itself: it ended, cancelled the call, or closed the pipe
    waited = run.ended - run.events[call.at].t
    if waited < ENDLESS * run.limit:
        return [], set()  # the call came too late in the run to tell a long timeout from none
    message = (f"the tools/call got no answer, and the client was still waiting for it when the time limit "
               f"stopped it, {waited:.1f} s later (the scenario's limit: {run.limit:g} s)")  # fmt: skip
    finding = Finding(TIMEOUT, BY_ID[TIMEOUT].level.mandatory, call.number, message,
                      "a timeout that ends the wait", "no end to the wait")  # fmt: skip
    return [finding], {TIMEOUT}
