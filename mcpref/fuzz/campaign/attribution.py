"""What a divergence is filed under, and what a run in a kept process stands for.

A finding names the rule the oracle saw broken; some are symptoms of another cause, which only
running the case again tells: cut otherwise (FRAME-CHUNK-INVARIANT), with its false line ends
made harmless (FRAME-LF-ONLY), or a request alone (MOD-STATELESS). A run in a kept process is
judged only as far as the process's state is known (``initialized_again``) and after what a busy
target still owes (``read_on_for_missing``). Campaigns (``campaign.runner``), ``check`` and
``replay`` share these; none of it draws cases.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import replace

from mcpref.fuzz.drive.kept import Session
from mcpref.fuzz.drive.target import Run
from mcpref.fuzz.drive.timing import Timing
from mcpref.fuzz.generate.case import Case
from mcpref.fuzz.judge.modern import own_rule
from mcpref.fuzz.judge.oracle import Finding, Profile, Status, has_false_line_end, id_key, only_cr_line_ends
from mcpref.fuzz.judge.reading import Request, classify, is_valid_id, parse_line
from mcpref.reference.messages import RequestId

# What a relabelling runs a variant of the case with: the variant's findings, and its output.
Execute = Callable[[Case], tuple[list[Finding], tuple[bytes, ...]]]
# A relabelling: the findings of a case, each under its cause once variants of the case are run.
Relabel = Callable[[list[Finding], Case, Execute, Profile], list[Finding]]
# What ``chunking_finding`` runs a recut of the case with: the rules that run fails.
Recut = Callable[[Case, Timing], frozenset[str]]


def failing_findings(findings: list[Finding], profile: Profile) -> list[Finding]:
    return [f for f in findings if f.status(profile) is Status.FAIL]


def failing_rules(findings: list[Finding], profile: Profile) -> frozenset[str]:
    return frozenset(f.rule for f in failing_findings(findings, profile))


def read_on_for_missing(session: Session, run: Run, suspects: Iterable[Finding]) -> Run | None:
    """A kept run ends at the probe's answer: when one of ``suspects`` is an answer missing, the
    run again after reading on while the target works (``Session.read_on``), as a fresh run
    waits for what a busy server still owes. None when there was nothing to read on for, or
    reading on changed nothing (the judge, a function of the observation, finds the same)."""
    if not (session.alive and any(finding.answer_missing for finding in suspects)):
        return None
    before, run = run.observation, session.read_on()
    return run if run.observation != before else None


def initialized_again(body: Sequence[bytes], output: Sequence[bytes]) -> bool:
    """Whether the target may have taken an ``initialize`` in ``body`` (after its handshake).

    Only an error answer to each of them shows the state unchanged (LIFE-SECOND-INIT); a
    line that mentions initialize but cannot be read counts as taken.
    """
    ids: list[object] = []
    for line in body:
        if not _mentions_initialize(line):
            continue
        try:
            message = json.loads(line)
        except (ValueError, RecursionError):
            return True
        for member in _messages(message):
            if isinstance(message, list) and not (isinstance(member, dict) and member.get("method") == "initialize"):
                continue  # a batch's other members
            if not isinstance(member, dict) or "id" not in member:
                return True
            if member.get("method") == "initialize":
                ids.append(member["id"])
    if not ids:
        return False
    refused = 0
    for line in output:
        try:
            value = json.loads(line)
        except ValueError:
            continue
        for answer in _messages(value):
            if isinstance(answer, dict) and answer.get("id") in ids:
                if "error" not in answer:
                    return True
                refused += 1
    return refused < len(ids)


def _messages(value: object) -> list[object]:
    """The messages of a line: a batch's members (or its answers), or the line's one value."""
    return list(value) if isinstance(value, list) else [value]


def _mentions_initialize(line: bytes) -> bool:
    """Whether ``line`` holds the string "initialize", spelt out or through \\u escapes."""
    if b'"initialize"' in line:
        return True
    if b"\\u" not in line:
        return False
    try:
        return '"initialize"' in json.dumps(json.loads(line), ensure_ascii=False)
    except (ValueError, RecursionError):
        return False  # unreadable, and not spelt out: no reader takes an initialize from it


_FALSE_LINE_ENDS_IN_STRINGS = {"\u2028": "\\u2028", "\u2029": "\\u2029", "\u0085": "\\u0085"}
# The pause after each line when a case is run again one line a write (``chunking_finding``): long
# enough that a loaded machine still gives the target one line a read.
LINE_A_WRITE_PAUSE = 0.2
# The runs of a failing case that attribution may make, besides that one: two other cuttings, its
# false line ends made harmless, its CRs alone, its bytes made UTF-8.
RERUNS = 5
# What a line cut at a false line end shows: the oracle's own finding, or an answer lost.
_SPLIT = ("FRAME-LF-ONLY", "RPC-ONE-ANSWER", "RPC-PARSE-ERROR", "RPC-INVALID-REQUEST")
# Rules whose evidence is what had been sent when a line was read: a cut lets the finding be seen,
# it does not cause it, and in one piece it cannot be seen at all.
_SEEN_THROUGH_CUTS = frozenset({"LIFE-SERVER-EARLY"})
_CANCELLATION = b'"notifications/cancelled"'  # a line that names it (``chunking_finding``)


def defanged(case: Case, crs_only: bool = False) -> Case:
    """The case with every false line end made harmless: a raw CR between tokens becomes a space,
    a raw U+2028, U+2029 or U+0085 its escape (with ``crs_only``, the CRs alone). The messages mean
    the same; only a reader that splits lines on those characters sees a difference. One chunk,
    so cut positions need not move."""
    lines = []
    for line in case.lines:
        text = line.decode("utf-8", "surrogateescape").replace("\r", " ")
        for raw, escaped in () if crs_only else _FALSE_LINE_ENDS_IN_STRINGS.items():
            text = text.replace(raw, escaped)
        lines.append(text.encode("utf-8", "surrogateescape"))
    return replace(case, lines=tuple(lines), cuts=())


def chunking_finding(finding: Finding, case: Case, recut: Recut, timing: Timing) -> Finding | None:
    """FRAME-CHUNK-INVARIANT for a failing ``finding`` that goes away when the same bytes are written
    in one piece, or one line a write, with the server seen through, and comes back when they are cut
    as at first: the cutting alone caused it. None when it stays, or when it does not come back."""
    if (len(case.chunks) < 2 and len(case.lines) < 2) or finding.rule in _SEEN_THROUGH_CUTS:
        return None
    # After each LF: a piece of a case (a scenario of check's corpus) may hold several lines.
    offsets = tuple(found.end() for found in re.finditer(b"\n", case.stream[:-1]))
    # A long pause keeps one line per read even on a loaded machine. Not before stdin closes: a
    # pause there lets work in flight end before EOF, which is no matter of cutting; nor before a
    # cancellation: whether the request it names is done by then is a race the specification
    # leaves open, and a server that cancels the wrong request shows it only without the pause.
    paced = not case.eof and not any(_CANCELLATION in line for line in case.lines)
    one_line_a_write = ((offsets, max(timing.pause, LINE_A_WRITE_PAUSE)),) if paced else ()
    for cuts, pause in (((), timing.pause), *one_line_a_write):
        if cuts == case.cuts:
            continue
        failing = recut(replace(case, cuts=cuts), replace(timing, pause=pause))
        if finding.rule != "STDIO-SURVIVE" and "STDIO-SURVIVE" in failing:
            continue  # a recut that lost the server may have lost it before the finding's line
        if finding.rule not in failing:
            if finding.rule not in recut(case, timing):
                # Not even as first cut: a server whose answers vary from run to run, no cutting's doing.
                return None
            return Finding(
                "FRAME-CHUNK-INVARIANT",
                True,
                finding.line,
                f"{finding.message} ({finding.rule}), only when the bytes are cut as in this case",
                finding.expected,
                finding.actual,
            )
    return None


def relabel_cutting(
    findings: list[Finding],
    case: Case,
    execute: Callable[[Case, Timing], list[Finding]],
    timing: Timing,
    profile: Profile,
) -> list[Finding]:
    """Each failing finding that ``chunking_finding`` puts down to the cutting alone, filed in its
    place under FRAME-CHUNK-INVARIANT: one cause, under the rule that names it, as a campaign files
    it. Each other cutting runs once, and its failing rules are read once, whatever the findings
    weighed against them (a flood's are many). Returns ``findings`` itself when nothing is relabelled."""
    runs: dict[tuple[tuple[int, ...], float], frozenset[str]] = {}

    def once(recut: Case, recut_timing: Timing) -> frozenset[str]:
        key = (recut.cuts, recut_timing.pause)
        if key not in runs:
            runs[key] = failing_rules(execute(recut, recut_timing), profile)
        return runs[key]

    # A death is no matter of cutting (``outcome.attribute``), and its re-runs would wait on a dead target.
    failing = [f for f in failing_findings(findings, profile) if f.rule not in ("STDIO-SURVIVE", "FRAME-CHUNK-INVARIANT")]
    causes = {id(f): chunking_finding(f, case, once, timing) for f in failing}
    relabelled = [cause if (cause := causes.get(id(f))) is not None else f for f in findings]
    return findings if relabelled == findings else relabelled


def relabel_false_line_ends(
    findings: list[Finding],
    case: Case,
    output: tuple[bytes, ...],
    execute: Execute,
    profile: Profile,
) -> list[Finding]:
    """FRAME-LF-ONLY for answers lost only because of false line ends: the defanged case passes, and
    the server wrote something else for it than for ``case`` (its ``output``).

    A reader that splits lines at a raw CR or U+2028 and drops what it cannot parse leaves
    nothing behind but silence; the oracle alone cannot tell that silence from any other. A server
    that writes the same bytes either way did not read the false line ends at all. Reading a bare
    CR as a line end is an open reading of the transport's "newline": a warning under ``spec``.
    A failing FRAME-LF-ONLY the oracle found itself (pieces that drew -32700s, in a line with a bare
    CR and another separator) is tried the same way, and warns where the CRs alone cut the line.
    Returns ``findings`` itself when nothing is relabelled.
    """
    lost = [f for f in failing_findings(findings, profile) if f.rule in _SPLIT]
    if not lost or defanged(case) == replace(case, cuts=()):
        return findings
    defanged_findings, defanged_output = execute(defanged(case))
    # Line by line (defanging keeps each line where it was): a failure of another line, with a cause
    # of its own, does not keep this one's answer lost to its false line ends under a symptom's rule.
    split_anyway = _split_lines(defanged_findings, profile)
    lost = [f for f in lost if f.line not in split_anyway]
    if defanged_output == output or not lost:
        return findings
    false_ends = [line for line in case.lines if has_false_line_end(line)]
    cr_only = all(only_cr_line_ends(line) for line in false_ends)
    if not cr_only and any(b"\r" in line.removesuffix(b"\n").removesuffix(b"\r") for line in false_ends):
        # Bare CRs and other separators: the others are the cause only if answers are still lost
        # once the CRs alone are made harmless; else the CRs may be, and that reading is open.
        cr_findings, _ = execute(defanged(case, crs_only=True))
        cr_only = not {f.line for f in lost} & _split_lines(cr_findings, profile)

    def relabelled(finding: Finding) -> Finding:
        if finding not in lost:
            return finding
        if finding.rule == "FRAME-LF-ONLY":  # the oracle's own: a warning where the CRs alone cut the line
            message = f"{finding.message} (its CRs alone cut it)"
            return replace(finding, mandatory=False, message=message) if cr_only and finding.mandatory else finding
        message = f"{finding.message} ({finding.rule}), only with a raw line separator in the line"
        return Finding("FRAME-LF-ONLY", not cr_only, finding.line, message, finding.expected, finding.actual)

    result = [relabelled(finding) for finding in findings]
    return findings if result == findings else result


def _split_lines(findings: list[Finding], profile: Profile) -> set[int | None]:
    """The lines whose failures are among those a line cut at a false line end shows."""
    return {f.line for f in failing_findings(findings, profile) if f.rule in _SPLIT}


def utf8_repaired(case: Case) -> Case:
    """The case with each byte that is not part of a UTF-8 sequence made a "?": the same length, so
    the same cuts, and the same message wherever a lenient decoder would have read one."""
    lines = tuple(
        "".join("?" if "\udc80" <= char <= "\udcff" else char for char in line.decode("utf-8", "surrogateescape"))
        .encode()
        for line in case.lines
    )
    return replace(case, lines=lines)


def relabel_invalid_utf8(
    findings: list[Finding],
    case: Case,
    execute: Execute,
    profile: Profile,
) -> list[Finding]:
    """For a line not UTF-8 that drew no answer at all (FRAME-UTF8), the failure the same line shows
    once its bytes are made UTF-8 (``utf8_repaired``, cut as it was), when it still fails: the server
    dropped the line for something else in it, such as an id it cannot hold, with or without them.
    Returns ``findings`` itself when nothing is relabelled."""
    silent = [f for f in failing_findings(findings, profile) if f.rule == "FRAME-UTF8" and f.answer_missing]
    repaired_case = utf8_repaired(case)
    if not silent or repaired_case == case:
        return findings
    repaired, _ = execute(repaired_case)
    at_line: dict[int | None, Finding] = {}
    for finding in failing_findings(repaired, profile):
        at_line.setdefault(finding.line, finding)
    relabelled = [
        replace(at_line[f.line], message=f"{at_line[f.line].message}, with or without the bytes that are not UTF-8")
        if f in silent and f.line in at_line
        else f
        for f in findings
    ]
    return findings if relabelled == findings else relabelled


def relabel_carried_state(
    findings: list[Finding],
    case: Case,
    execute: Execute,
    profile: Profile,
) -> list[Finding]:
    """MOD-STATELESS (a request served with what earlier ones carried) only when the request alone, in
    a fresh process, is not served; when it is, nothing was carried over, and the finding is that
    request's own rule. Returns ``findings`` itself when nothing is relabelled."""
    relabelled = list(findings)
    for position, finding in enumerate(findings):
        if finding.rule != "MOD-STATELESS" or finding.line is None or finding.status(profile) is not Status.FAIL:
            continue
        line = case.lines[finding.line]
        value = parse_line(line)
        request = classify(value) if isinstance(value, dict) else None
        if not isinstance(request, Request):
            continue
        _, output = execute(Case((line,), (), case.settle))
        if _served(output, request.id):
            message = f"{finding.message}, alone in a fresh process too: nothing was carried over"
            relabelled[position] = replace(finding, rule=own_rule(request), message=message)
    return findings if relabelled == findings else relabelled


def _served(output: tuple[bytes, ...], request_id: RequestId) -> bool:
    """Whether a line of ``output`` is a result for ``request_id``, the same in type and value."""
    answers = (parse_line(line) for line in output)
    return any(
        isinstance(answer, dict)
        and "result" in answer
        and is_valid_id(answer_id := answer.get("id"))
        and id_key(answer_id) == id_key(request_id)
        for answer in answers
    )
