"""The oracle: what a conforming stdio server may answer to a session, and where one did not.

``judge(stream, observation)`` reads the bytes a client sent and what the server wrote
back, and returns every ``Finding``: a divergence, the requirement ID it breaks, and
whether it breaks a MUST of the specification (``mandatory``); ``witnessed`` says which rules
judged only in a situation the server's answers create met it. The two profiles differ
only in how findings are counted: ``spec`` fails on mandatory findings and warns on the
rest; ``strict`` fails on all of them, that is on every divergence from the reference's
documented behaviour.

How the oracle reads a session:
- Input is cut into lines as the reference cuts it; each line is parsed and classified
  by the oracle's own reading (``reading``, ``lines``), never by the reference's functions:
  the oracle does not borrow the decisions it judges. A property test holds the two
  readings to the same answers.
- Answers are matched to requests by id, in type and value, never by position
  (RPC-ID-ECHO, RPC-CONCURRENT). Answers with id null are matched, in order, to the lines
  that may draw one (parse errors, invalid objects without a readable id): ``answers``.
- The server's own choices are followed where the specification allows several: the
  version it answered, the capabilities it announced, the tools it listed, whether it
  accepted an initialize. Later lines are judged against that state (``session``), so one
  permitted choice never turns into a cascade of false alarms.

Each rule family has its module: ``framing`` (FRAME-*, STDIO-*), ``refusable`` (lines readers
may read otherwise), ``jsonrpc`` (RPC-*), ``answers`` (answers matched to what asked for them),
``lifecycle`` (LIFE-*), ``capabilities`` (CAP-*), ``tools`` (TOOLS-*), ``server_shapes``
(the *-SHAPE rules of results and unasked messages beyond tools), ``modern`` (MOD-*),
``initiative`` and ``modern_initiative`` (what the server writes unasked in each era, PROGRESS-*), ``modern_session``
(what a session's modern requests show together);
``where.where_judged`` finds the module and function that judge each rule ID.
"""

from __future__ import annotations

from mcpref.fuzz.drive.observation import Observation
from mcpref.fuzz.drive.target import Run
from mcpref.fuzz.judge import answers, framing, initiative, jsonrpc, modern_initiative, modern_session, server_shapes
from mcpref.fuzz.judge.findings import Finding, Profile, Status
from mcpref.fuzz.judge.lines import has_false_line_end, only_cr_line_ends, split_lines
from mcpref.fuzz.judge.session import Session, id_key

__all__ = [
    "Finding",
    "Profile",
    "Status",
    "has_false_line_end",
    "id_key",
    "judge",
    "judge_run",
    "only_cr_line_ends",
    "split_lines",
    "witnessed",
]


def judge(stream: bytes, observation: Observation) -> list[Finding]:
    return _judged(stream, observation).findings


def witnessed(stream: bytes, observation: Observation) -> frozenset[str]:
    """The rules judged only in a situation the server's answers create (an initialize result, a tool
    it listed called) whose situation the session showed (``Session.witnessed``): a pass of one is
    claimed only where it was shown (``integrate.check.SITUATIONS``)."""
    return frozenset(_judged(stream, observation).witnessed)


def _judged(stream: bytes, observation: Observation) -> Session:
    session = Session(stream, observation)
    # Every answer is read before any line is judged: lines are judged against the whole output.
    for position, raw in enumerate(observation.output):
        for value, in_array in framing.output_messages(session, raw):
            jsonrpc.record_answer(session, position, value, in_array)
    framing.trailing_output(session)
    framing.liveness(session)
    session.survey()
    modern_initiative.judge(session)
    for index, line in enumerate(session.input):
        jsonrpc.judge_line(session, index, line)
    initiative.judge(session)
    server_shapes.judge_unasked(session)
    modern_session.needs(session)
    modern_session.gate(session)
    answers.match_nulls(session)
    answers.leftovers(session)
    framing.partial_line_judged(session)
    return session


def judge_run(stream: bytes, run: Run) -> list[Finding]:
    """``judge`` of a run, and of how it ended: after stdin closed, its exit status (STDIO-EOF-DRAIN)."""
    return [*judge(stream, run.observation), *framing.judge_exit(run.observation, run.exit_status)]
