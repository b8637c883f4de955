"""The differential rules of the client oracle (``DIFFERENTIAL``): a scenario against the plain one.

In: a run, the same client's run of the plain tool call of the same era (``plain_of``), and how
to read the methods a run's client sent. Out: findings, and the rule whose situation arose.
How the client reads (cut answers, line ends, long lines), what it ignores (unknown fields, an
answer it no longer waits for) and how it matches answers to requests change nothing it does
with a plain answer: its exit status, the methods it sent, whether it showed the tool's text.
"""

from __future__ import annotations

import json
from collections.abc import Callable

from mcpref.fuzz.drive.client_run import ClientRun
from mcpref.fuzz.generate.client_scripts import DIFFERENTIAL, FRAMING, OPEN_READING, plain_of
from mcpref.fuzz.judge.findings import Finding
from mcpref.reference.rules import BY_ID

CALL_ANSWER = "answer:tools/call"  # the tag the scripted server writes it with


def shown(stdout: bytes, text: str) -> bool:
    """Whether ``stdout`` holds ``text`` raw or as a JSON string's inside, escaped to ASCII or not."""
    forms = {text, json.dumps(text)[1:-1], json.dumps(text, ensure_ascii=False)[1:-1]}
    return any(form.encode("utf-8") in stdout for form in forms)


def answered(run: ClientRun) -> bool:
    """Whether the scripted server wrote the answer to the client's tools/call: the answer each
    scenario crafts, and the plain one."""
    return any(e.kind == "wrote" and e.data == CALL_ANSWER for e in run.events)


def unwritten(run: ClientRun, read: Callable[[ClientRun], tuple[list[str], list[str]]]) -> str:
    """Why ``run``'s client was never written the answer to its tools/call; ``read``: the methods
    of its requests, and those of the server's requests it left unanswered."""
    methods, pending = read(run)
    if "tools/call" not in methods:
        return "it sent no tools/call"
    if pending:  # the scripted server holds its answers until its own requests are answered
        return f"the server held it while its {pending[0]} request went unanswered"
    return "the client exited first"  # a client stopped at the time limit is judged as hung, or not compared


def mandatory(rule: str, changes: set[str]) -> bool:
    """Whether a difference that ``changes`` (FRAMING names) may explain breaks a MUST: not where
    one of them is an open reading of the rule (a bare CR, FRAME-LF-ONLY's decision)."""
    return BY_ID[rule].level.mandatory and not any(FRAMING[change] == rule for change in changes & OPEN_READING)


def differential(
    run: ClientRun, plain: ClientRun | None, read: Callable[[ClientRun], tuple[list[str], list[str]]]
) -> tuple[list[Finding], set[str], dict[str, str]]:
    """``read``: as ``unwritten``'s. Out: the findings, the rule seen, and why a rule was not."""
    rules = [rule for rule in run.script.rules if rule in DIFFERENTIAL]
    if not rules or plain is None:
        return [], set(), {}
    rule = rules[0]
    if plain.exit_status is None:
        return [], set(), {rule: "the client was still running at the time limit in the plain tool call: nothing to compare with"}
    if not answered(plain):  # the plain call's answer is what the scenario's is told from
        return [], set(), {rule: f"the client was never written the plain tool call's answer: {unwritten(plain, read)}"}
    base = plain_of(run.script)
    must = mandatory(rule, {name for name in FRAMING if getattr(run.script, name) != getattr(base, name)})
    if run.exit_status is None:
        return [Finding(rule, must, None, f"the client hung where, given the plain answer, it exits {plain.exit_status}",
                        f"exit status {plain.exit_status}", "still running at the time limit")], set(), {}  # fmt: skip
    expected = (plain.exit_status, read(plain)[0], shown(plain.stdout, plain.script.text))
    got = (run.exit_status, read(run)[0], shown(run.stdout, run.script.text))
    names = ("exit status", "methods sent", "tool text shown")
    differs = [(name, want, have) for name, want, have in zip(names, expected, got, strict=True) if want != have]
    if differs:
        name, want, have = differs[0]
        message = f"the client's {name} differs from the plain tool call's: {have} where it was {want}"
        return [Finding(rule, must, None, message, f"{name} {want}", f"{name} {have}")], {rule}, {}
    # Alike, but a pass only where the crafted answer was read and shown as the plain one was.
    if not answered(run):
        return [], set(), {rule: f"the client was never written the answer: {unwritten(run, read)}"}
    if not expected[2]:
        return [], set(), {rule: "the client showed no tool text in the plain tool call: nothing tells a misread answer from a plain one"}
    return [], {rule}, {}
