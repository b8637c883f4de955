"""Whether a run saw the server: the evidence that its silence on a rule means something.

In: the case run and what the target wrote (``Observation``). Out: whether it answered, and the
sentence for a run that judged nothing. ``check`` and ``replay`` read a run alike through these.
"""

from __future__ import annotations

import json

from mcpref.fuzz.drive.observation import UNANSWERED, Observation
from mcpref.fuzz.generate.case import Case


def seen_through(case: Case, eof: bool, observation: Observation) -> bool:
    """Whether the server was seen through a run of ``case``, so that its silence on a rule is
    evidence: it answered the liveness probe after the case or, where the case ends at EOF (no
    probe follows), it wrote a response (``answered``)."""
    return answered(case, observation) if eof else observation.survived


def unjudged(ending: str) -> str:
    """Why a run judged nothing, from how the server ended (``Process.ending``, a predicate): a
    sentence that says it answered nothing, once."""
    said = ending.startswith(UNANSWERED) or "answered nothing" in ending
    return f"the server {ending}" if said else f"the server {ending} before answering"


def answered(case: Case, observation: Observation) -> bool:
    """Whether the server wrote a response in a run of ``case``: a line holding an object with a
    result or an error and no method, that is no line of the case's own (an echo answers nothing)."""
    written = {line.rstrip(b"\r") for line in case.stream.split(b"\n")}
    return any(_is_response(line) for line in observation.output if line.rstrip(b"\r") not in written)


def _is_response(line: bytes) -> bool:
    try:
        value = json.loads(line)
    except (ValueError, RecursionError):
        return False
    return isinstance(value, dict) and "method" not in value and ("result" in value or "error" in value)
