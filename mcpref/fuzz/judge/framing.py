"""Framing and the stdio process (FRAME-*, STDIO-*): what the server wrote as lines, whether it lived,
and where a line end or the end of input explains an answer missing or unasked for.

In: a ``Session`` (its observation, its lines, the answers left over). Out: findings under
FRAME-OUTPUT-ASCII, STDIO-STDOUT-MESSAGES-ONLY, STDIO-SURVIVE, STDIO-LATENCY, STDIO-EOF-DRAIN,
FRAME-EOF-PARTIAL and FRAME-LF-ONLY, and each output line's messages, for ``jsonrpc`` to record.
Lines a reader may refuse (over-long, not UTF-8, a BOM, blank) are judged in ``refusable``.
"""

from __future__ import annotations

from dataclasses import replace

from mcpref.fuzz.drive.observation import UNANSWERED, Observation
from mcpref.fuzz.judge.findings import NOTHING, Finding
from mcpref.fuzz.judge.lines import false_line_ends, only_cr_line_ends
from mcpref.fuzz.judge.modern import error_code, show
from mcpref.fuzz.judge.reading import BLANK, Message, Request, is_valid_id, parse_line
from mcpref.fuzz.judge.session import Session, id_key
from mcpref.reference.messages import PARSE_ERROR, JsonObject, JsonValue

# A wait for the server longer than this, once it has started, is reported (STDIO-LATENCY).
LATE_SECONDS = 2.0


def liveness(session: Session) -> None:
    observation = session.observation
    if not observation.survived:
        seen = observation.ending or UNANSWERED
        session.find("STDIO-SURVIVE", None, f"the server {seen}", "a live server", seen)
    if observation.latency > LATE_SECONDS:
        session.find(
            "STDIO-LATENCY",
            None,
            f"the server took {observation.latency:.1f} s to read or answer",
            f"at most {LATE_SECONDS:g} s",
            f"{observation.latency:.1f} s",
        )


def output_messages(session: Session, raw: bytes) -> list[tuple[JsonValue, bool]]:
    """The messages of a line the server wrote, each with whether it came in an array."""
    value = parse_line(raw)
    if not raw.isascii():
        session.find(
            "FRAME-OUTPUT-ASCII",
            None,
            "output with raw non-ASCII bytes",
            "ASCII-escaped JSON",
            show(raw.decode("utf-8", "replace")),
        )
    if isinstance(value, list):
        return [(member, True) for member in value]
    if isinstance(value, dict):
        return [(value, False)]
    if value is not BLANK or raw:
        session.find(
            "STDIO-STDOUT-MESSAGES-ONLY",
            None,
            "stdout carried a line that is not a message",
            "JSON-RPC messages only",
            show(raw.decode("utf-8", "replace")),
        )
    return []


def trailing_output(session: Session) -> None:
    trailing = session.observation.trailing
    if trailing:
        session.find(
            "STDIO-STDOUT-MESSAGES-ONLY",
            None,
            "stdout ended inside a line",
            "LF after every message",
            # What ``show`` keeps of it, and no more: a line without end may be 16 MiB long.
            show(trailing[:1200].decode("utf-8", "replace")),
        )


def missing(session: Session, index: int, rule: str, expected: str) -> None:
    """No answer to line ``index``: a finding under ``rule``, unless EOF explains it."""
    if session.observation.eof:
        # STDIO-EOF-DRAIN, FRAME-EOF-PARTIAL: after EOF a peer may exit without finishing.
        partial = index == len(session.input) - 1 and session.unterminated
        rule = "FRAME-EOF-PARTIAL" if partial else "STDIO-EOF-DRAIN"  # see partial_line_judged
        session.find(rule, index, "no answer before the exit that followed EOF", expected, NOTHING, False)
    else:
        session.find(rule, index, "no answer", expected, NOTHING)


def partial_line_read(session: Session, index: int) -> None:
    """Line ``index`` drew an answer by its id. FRAME-EOF-PARTIAL is witnessed by that alone for
    the unterminated last line at EOF: only such an answer shows the line read (its silence is
    judged where terminated lines' answers show the server answering at EOF)."""
    if session.observation.eof and session.unterminated and index == len(session.input) - 1:
        session.witnessed.add("FRAME-EOF-PARTIAL")


def partial_line_judged(session: Session) -> None:
    """FRAME-EOF-PARTIAL only when no terminated line's answer was lost at EOF too: a peer that
    loses those may have read the last line and lost its answer the same way (the Python SDK
    does, in its race to exit). Once every other finding is in, whatever order made them."""
    if not any(f.rule == "STDIO-EOF-DRAIN" for f in session.findings):
        return
    session.findings = [
        replace(f, rule="STDIO-EOF-DRAIN", message=f"{f.message}; answers of terminated lines were lost too, "
                "so its framing cannot be judged")
        if f.rule == "FRAME-EOF-PARTIAL"
        else f
        for f in session.findings
    ]  # fmt: skip


def settle_split(session: Session, leftover: list[JsonObject]) -> None:
    """FRAME-LF-ONLY for a request unanswered whose line has a false line end, when -32700s that
    no other line explains are left: its pieces drew them, one finding for the line and its pieces.
    Each such line takes one -32700 first, then as many more as it has pieces; a line left without
    any is unanswered."""
    parse_errors = [answer for answer in leftover if error_code(answer) == PARSE_ERROR]
    claims: list[list[JsonObject]] = [[] for _ in session.split]
    for first in (True, False):
        for claim, (index, _, _) in zip(claims, session.split, strict=True):
            most = 1 if first else false_line_ends(session.input[index].data) + 1
            while parse_errors and len(claim) < most:
                claim.append(parse_errors.pop(0))
    for pieces, (index, request_id, rule) in zip(claims, session.split, strict=True):
        if not pieces:
            session.unanswered.append((index, request_id, rule))
            continue
        for answer in pieces:
            leftover.remove(answer)
        _cut(session, index, request_id, pieces)


def _cut(session: Session, index: int, request_id: JsonValue, pieces: list[JsonObject]) -> None:
    """FRAME-LF-ONLY for a request's line that drew -32700s for its pieces."""
    expected = f"an answer with id {show(request_id)}"
    cr_only = only_cr_line_ends(session.input[index].data)
    message = "no answer; the line drew -32700s, as if cut at a " + ("CR" if cr_only else "false line end")
    session.find("FRAME-LF-ONLY", index, message, expected, show(list[JsonValue](pieces)), not cr_only)


def split_piece(session: Session, answer: JsonObject) -> bool:
    """Whether an answer no line asked for is a -32700 with id null while some line has a false line
    end: a reader that splits a line there refuses each piece as not JSON. One finding for all the
    pieces, and a reading of a bare CR as a line end is an open one. A line a peer may refuse whole
    (a number past some parsers' limits) whose -32700 was taken for that refusal drew this one too:
    two pieces, the split is its one cause (a refusal draws one answer)."""
    pieces = answer.get("id") is None and error_code(answer) == PARSE_ERROR
    split = [line for line in session.input if line.false_line_end]
    if not (pieces and split):
        return False
    for refusal in session.refusals:
        index, finding, first = refusal
        line = session.input[index]
        request = line.messages[0] if len(line.messages) == 1 else None  # a blank line holds none
        if line.false_line_end and isinstance(request, Request) and error_code(first) == PARSE_ERROR:
            session.refusals.remove(refusal)
            session.findings.remove(finding)
            _cut(session, index, request.id, [first, answer])
            return True
    # A line whose request was answered by its id was read whole: its separators cut nothing.
    cut = [line for line in split if not any(_answered(session, message) for message in line.messages)]
    if not any(f.rule == "FRAME-LF-ONLY" for f in session.findings):
        cr_only = all(only_cr_line_ends(line.data) for line in cut or split)
        session.find("FRAME-LF-ONLY", None, "an answer no line asked for", NOTHING, show(answer), not cr_only)
    return True


def _answered(session: Session, message: Message) -> bool:
    return isinstance(message, Request) and is_valid_id(message.id) and id_key(message.id) in session.answered_at


def judge_exit(observation: Observation, exit_status: int | None) -> list[Finding]:
    """STDIO-EOF-DRAIN beyond the output: a server whose stdin was closed ends with status 0 (a
    non-zero one is an error exit, not the clean end the transport describes)."""
    if observation.eof and exit_status != 0:
        return [Finding("STDIO-EOF-DRAIN", False, None, "did not exit 0 after stdin EOF", "exit status 0", str(exit_status))]
    return []
