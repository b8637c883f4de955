"""``mcpref replay FILE``: a saved failing case, of a server or of a client, run again.

A server's case is judged as ``check`` and ``fuzz`` judged it: a finding they filed under
FRAME-LF-ONLY, FRAME-CHUNK-INVARIANT, MOD-STATELESS or away from FRAME-UTF8 is tried again the
same way (``campaign.attribution``). Exit status (``report.exits``): 0 the case passes, 1 it fails,
3 it could not be judged: the server was not seen through it and nothing was found.
"""

from __future__ import annotations

import argparse
import itertools
import os
import re
import sys
from collections.abc import Callable

from mcpref.fuzz.campaign.attribution import (
    chunking_finding,
    failing_rules,
    relabel_carried_state,
    relabel_false_line_ends,
    relabel_invalid_utf8,
)
from mcpref.fuzz.drive.target import run_case
from mcpref.fuzz.drive.timing import Timing
from mcpref.fuzz.generate.case import Case
from mcpref.fuzz.integrate import check_client as check_client_command
from mcpref.fuzz.integrate.seen import seen_through, unjudged
from mcpref.fuzz.judge.oracle import Finding, Status, judge, judge_run
from mcpref.fuzz.report import exits
from mcpref.fuzz.report.client_reproducer import client_reproducer, is_client
from mcpref.fuzz.report.notes import citation
from mcpref.fuzz.report.reproducer import (
    FORMAT,
    Reproducer,
    ReproducerError,
    load_document,
    load_reproducer,
    session_transcript,
    transcript,
)


def _case_of(reproducer: Reproducer) -> Case:
    stream = b"".join(reproducer.chunks)
    lines = re.findall(rb"[^\n]*\n|[^\n]+\Z", stream)  # at LF only: a raw CR is what is judged
    cuts = tuple(itertools.accumulate(len(chunk) for chunk in reproducer.chunks[:-1]))
    return Case(tuple(lines), cuts, reproducer.settle, reproducer.eof)


def _judged(
    argv: list[str], timing: Timing, reproducer: Reproducer
) -> Callable[[Case], tuple[list[Finding], tuple[bytes, ...]]]:
    def execute(case: Case) -> tuple[list[Finding], tuple[bytes, ...]]:
        run = run_case(argv, case.chunks, timing, settle=case.settle, eof=case.eof, era=reproducer.era)
        return judge(case.stream, run.observation), run.observation.output

    return execute


def _chunked(
    findings: list[Finding], case: Case, argv: list[str], timing: Timing, reproducer: Reproducer
) -> list[Finding]:
    def execute(recut: Case, recut_timing: Timing) -> frozenset[str]:
        run = run_case(argv, recut.chunks, recut_timing, settle=recut.settle, eof=recut.eof, era=reproducer.era)
        return failing_rules(judge_run(recut.stream, run), reproducer.profile)

    for finding in findings:
        if finding.status(reproducer.profile) is Status.FAIL:
            chunked = chunking_finding(finding, case, execute, timing)
            if chunked is not None:
                return [chunked, *findings]
    return findings


def _enter(directory: str | None, command: list[str] | None) -> None:
    """The recorded command runs where it ran: ``python server.py`` means that folder's server.py."""
    if command is not None or directory is None:
        return
    try:
        os.chdir(directory)
    except OSError as exc:
        print(f"mcpref: the command was recorded in {directory}, which cannot be entered here "
              f"({exc.strerror}): it runs in the current folder", file=sys.stderr)  # fmt: skip


def run(args: argparse.Namespace, command: list[str] | None, timing: Timing) -> int:
    """``mcpref replay``: the saved case run again, judged and filed as check and fuzz filed it."""
    document = load_document(args.file, FORMAT, ReproducerError)
    if is_client(document):
        client = client_reproducer(args.file, document)
        _enter(client.directory, command)
        return check_client_command.replay(client, command, args.transcript)
    reproducer = load_reproducer(args.file)
    argv = command or reproducer.argv
    _enter(reproducer.directory, command)
    run = run_case(
        argv,
        reproducer.chunks,
        timing,
        settle=reproducer.settle,
        eof=reproducer.eof,
        record=args.transcript,
        era=reproducer.era,
    )
    findings = judge_run(b"".join(reproducer.chunks), run)
    case, execute = _case_of(reproducer), _judged(argv, timing, reproducer)
    if reproducer.rule == "FRAME-LF-ONLY":
        # As check and fuzz filed it: answers lost only with the raw line separators in place.
        findings = relabel_false_line_ends(findings, case, run.observation.output, execute, reproducer.profile)
    findings = relabel_carried_state(findings, case, execute, reproducer.profile)
    if reproducer.rule != "FRAME-UTF8":
        # As fuzz filed it; check files a line dropped whatever its bytes under FRAME-UTF8.
        findings = relabel_invalid_utf8(findings, case, execute, reproducer.profile)
    if reproducer.rule == "FRAME-CHUNK-INVARIANT":
        # As fuzz filed it: a failure that goes away when the same bytes are cut otherwise.
        findings = _chunked(findings, case, argv, timing, reproducer)
    shown = session_transcript(run.events, run.observation.trailing) if args.transcript else None
    for line in shown or transcript(reproducer.chunks, run):
        print(line)
    failing = [f for f in findings if f.status(reproducer.profile) is Status.FAIL]
    for finding in findings:
        print(
            f"{finding.status(reproducer.profile).value} {finding.rule}: {finding.message} (expected {finding.expected});"
            f" see {citation(finding.rule)}"
        )
    # Seen through as check sees a scenario: the liveness probe answered, or for a case ending at
    # EOF, a response that is no echo. Silence is no pass, and what it leaves unanswered only warns of it.
    seen = seen_through(case, reproducer.eof, run.observation)
    if not (seen or failing):
        print(f"the case could not be judged: {unjudged(run.observation.ending or 'exited')}")
    elif not findings:
        print("no divergence: the case passes")
    return exits.of(bool(failing), seen)
