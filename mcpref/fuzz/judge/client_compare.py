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


def shown(stdout: bytes, text: str) -> bool:
    """Whether ``stdout`` holds ``text`` raw or as a JSON string's inside, escaped to ASCII or not."""
    forms = {text, json.dumps(text)[1:-1], json.dumps(text, ensure_ascii=False)[1:-1]}
    return any(form.encode("utf-8") in stdout for form in forms)


def served(run: ClientRun) -> bool:
    """Whether the scripted server answered a request of the client after the handshake."""
    return any(e.kind == "wrote" and str(e.data).startswith("answer:") for e in run.events)


def mandatory(rule: str, changes: set[str]) -> bool:
    """Whether a difference that ``changes`` (FRAMING names) may explain breaks a MUST: not where
    one of them is an open reading of the rule (a bare CR, FRAME-LF-ONLY's decision)."""
    return BY_ID[rule].level.mandatory and not any(FRAMING[change] == rule for change in changes & OPEN_READING)


def differential(
    run: ClientRun, plain: ClientRun | None, methods: Callable[[ClientRun], list[str]]
) -> tuple[list[Finding], set[str]]:
    rules = [rule for rule in run.script.rules if rule in DIFFERENTIAL]
    if not rules or plain is None or plain.exit_status is None or not served(plain):
        return [], set()  # no plain session that got past the handshake: nothing to compare with
    rule = rules[0]
    base = plain_of(run.script)
    must = mandatory(rule, {name for name in FRAMING if getattr(run.script, name) != getattr(base, name)})
    if run.exit_status is None:
        return [Finding(rule, must, None, f"the client hung where, given the plain answer, it exits {plain.exit_status}",
                        f"exit status {plain.exit_status}", "still running at the time limit")], set()  # fmt: skip
    expected = (plain.exit_status, methods(plain), shown(plain.stdout, plain.script.text))
    got = (run.exit_status, methods(run), shown(run.stdout, run.script.text))
    names = ("exit status", "methods sent", "tool text shown")
    differs = [(name, want, have) for name, want, have in zip(names, expected, got, strict=True) if want != have]
    if not differs:
        return [], {rule}
    name, want, have = differs[0]
    message = f"the client's {name} differs from the plain tool call's: {have} where it was {want}"
    return [Finding(rule, must, None, message, f"{name} {want}", f"{name} {have}")], {rule}
