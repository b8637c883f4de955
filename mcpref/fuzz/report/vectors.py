"""``mcpref vectors export DIR``: the fixed corpus of ``check`` as language-neutral test vectors.

Each scenario becomes one JSON file that a test suite in any language can replay without
Python: the exact input bytes (base64, with a readable preview), how they are cut into
writes, how the session ends (the era's probe, or closing stdin), the protocol version it
runs under, the requirement IDs it exercises, and two levels of expected outcome:

- ``strict``: the exact answers of the reference, recorded by driving the in-process
  ``reference.dispatcher.ServerSession`` with the same chunks (timers fire in order of
  their delay), and its exit status at end of input;
- ``spec``: what a conforming server may answer, line by line: for each request id,
  whether an answer is required and which results and error codes are acceptable; for
  answers with id null, how many each line requires and with which codes.

The spec level is derived from the oracle itself, by substitution (``vector_spec``): every candidate answer
for one line (absent, a result, each error code, a null-id error) is put in place of the
reference's answer, every other line keeping the reference's, and the candidate is
acceptable when ``reference.oracle.judge`` then finds no divergence from a MUST rule. So
each expectation holds given that the rest of the session went as the reference's did;
where a server makes another permitted choice early (refusing a version, say), ``mcpref
check`` remains the judge of record. ``SCHEMA`` (written as ``SCHEMA.md``) is the format.
"""

from __future__ import annotations

import argparse
import base64
import itertools
import json
import re
import sys
from pathlib import Path

from mcpref.fuzz.drive.observation import Observation
from mcpref.fuzz.drive.target import probe
from mcpref.fuzz.drive.timing import Timing
from mcpref.fuzz.generate.corpus import Scenario
from mcpref.fuzz.generate.corpus_modern import BY_ERA
from mcpref.fuzz.judge.oracle import judge, split_lines
from mcpref.fuzz.report.reproducer import write_atomic
from mcpref.fuzz.report.vector_spec import Oracle, Outputs, encode, expect_id, expect_nulls, line_ids, null_count
from mcpref.reference.dispatcher import ServerSession, id_key
from mcpref.reference.messages import (
    JsonValue,
    RequestId,
)
from mcpref.reference.session_types import CancelTimer, Effect, Send, StartTimer
from mcpref.reference.versions import Era

FORMAT = "mcpref-vector/1"
INDEX_FORMAT = "mcpref-vectors/1"
PROBE_ID = "mcpref-vector-probe"
# The liveness probe of each era: ping, or server/discover.
PROBE_LINES = {era: probe(PROBE_ID, era).decode("ascii") for era in Era}
SCENARIOS = tuple(scenario for scenarios in BY_ERA.values() for scenario in scenarios)
ANSWER_TIMEOUT = 5.0
PREVIEW_CHARS = 300
def _b64(data: bytes) -> str:
    return base64.b64encode(data).decode("ascii")


def _preview(data: bytes) -> str:
    text = data.decode("utf-8", "backslashreplace")
    return text if len(text) <= PREVIEW_CHARS else f"{text[:PREVIEW_CHARS]}... ({len(data)} bytes)"


def _slug(name: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")


# Running the reference in process.


class _Clock:
    """ServerSession's timers on a simulated clock: every chunk arrives at time 0."""

    def __init__(self, session: ServerSession) -> None:
        self.session = session
        self.timers: dict[int, tuple[float, int]] = {}
        self.order = itertools.count()

    def perform(self, effects: list[Effect], now: float, sink: list[bytes], owners: dict[int, int], line: int) -> None:
        for effect in effects:
            if isinstance(effect, Send):
                sink.extend(effect.data.split(b"\n")[:-1])
            elif isinstance(effect, StartTimer):
                self.timers[effect.token] = (now + effect.seconds, next(self.order))
                owners[effect.token] = line
            elif isinstance(effect, CancelTimer):
                del self.timers[effect.token]

    def due(self) -> tuple[int, float] | None:
        if not self.timers:
            return None
        token = min(self.timers, key=lambda t: self.timers[t])
        when, _ = self.timers.pop(token)
        return token, when


def record(scenario: Scenario) -> tuple[list[bytes], str | None]:
    """The reference's output lines for the scenario's chunks, and the version it negotiated."""
    session = ServerSession()
    clock = _Clock(session)
    output: list[bytes] = []
    owners: dict[int, int] = {}
    for chunk in scenario.case.chunks:
        clock.perform(session.receive_data(chunk), 0.0, output, owners, 0)
    if scenario.eof:
        clock.perform(session.receive_eof(), 0.0, output, owners, 0)
    while (fired := clock.due()) is not None:
        token, when = fired
        clock.perform(session.complete(token), when, output, owners, 0)
    return output, None if session.version is None else session.version.name


def _per_line(lines: list[bytes], terminated: bool) -> Outputs:
    """The reference's answers attributed to the input line that caused each (one line per write)."""
    session = ServerSession()
    clock = _Clock(session)
    per_line: list[list[bytes]] = [[] for _ in lines]
    owners: dict[int, int] = {}
    for index, line in enumerate(lines):
        last = index == len(lines) - 1
        data = line if last and not terminated else line + b"\n"
        clock.perform(session.receive_data(data), 0.0, per_line[index], owners, index)
        if last and not terminated:
            clock.perform(session.receive_eof(), 0.0, per_line[index], owners, index)
    while (fired := clock.due()) is not None:
        token, when = fired
        owner = owners[token]
        clock.perform(session.complete(token), when, per_line[owner], owners, owner)
    return [[json.loads(raw) for raw in produced] for produced in per_line]


# Substitution: one line's answers replaced, the oracle asked.


def vector(scenario: Scenario) -> dict[str, object]:
    """The language-neutral vector of one scenario."""
    case = scenario.case
    stream = case.stream
    if not scenario.eof and not stream.endswith(b"\n"):
        raise AssertionError(f"{scenario.name}: a probed scenario must end with LF")
    output, version = record(scenario)
    lines = split_lines(stream)
    outputs = _per_line(lines, stream.endswith(b"\n"))
    by_line = sorted(encode(v) for values in outputs for v in values)
    if by_line != sorted(encode(json.loads(raw)) for raw in output):
        raise AssertionError(f"{scenario.name}: the reference's answers depend on the cut (FRAME-CHUNK-INVARIANT)")
    oracle = Oracle(stream, scenario.eof)
    if not oracle.accepts(outputs) or judge(stream, Observation(tuple(output), b"", True, (), scenario.eof)):
        raise AssertionError(f"{scenario.name}: the oracle finds a divergence in the reference's own answers")
    answers: list[JsonValue] = []
    nulls: list[JsonValue] = []
    seen: set[tuple[bool, RequestId]] = set()
    for index, line in enumerate(lines):
        waived_by: list[RequestId] = []
        null_answers = null_count(outputs[index])
        for entry in line_ids(line):
            if id_key(entry.id) in seen:
                raise AssertionError(f"{scenario.name}: id {entry.id!r} is used twice; vectors need unique ids")
            seen.add(id_key(entry.id))
            expectation, waives = expect_id(oracle, outputs, index, entry, null_answers)
            answers.append(expectation)
            if waives:
                waived_by.append(entry.id)
        null_expectation = expect_nulls(oracle, outputs, index, waived_by)
        if null_expectation is not None:
            nulls.append(null_expectation)
    chunks = case.chunks
    return {
        "format": FORMAT,
        "name": scenario.name,
        "era": scenario.era.value,
        "rules": list(scenario.rules),
        "protocolVersion": version,
        "input": {"base64": _b64(stream), "length": len(stream), "preview": _preview(stream)},
        "chunks": [len(chunk) for chunk in chunks],
        "pauseSeconds": Timing.pause,
        "lines": [{"index": i, "length": len(line), "preview": _preview(line)} for i, line in enumerate(lines)],
        "end": "eof" if scenario.eof else "probe",
        "probe": None if scenario.eof else {"line": PROBE_LINES[scenario.era], "id": PROBE_ID},
        "answerTimeoutSeconds": ANSWER_TIMEOUT,
        "settleSeconds": round(Timing.settle + case.settle, 3),
        "expected": {
            "strict": {
                "output": [raw.decode("ascii") for raw in output],
                "exitStatus": 0 if scenario.eof else None,
            },
            "spec": {
                "answers": answers,
                "nullAnswers": nulls,
                "probeAnswered": not scenario.eof,
                "exitStatus": "any",
            },
        },
    }


def export(directory: Path) -> list[Path]:
    """Write one file per scenario, ``index.json`` and ``SCHEMA.md``; return the vector files."""
    written: list[Path] = []
    for number, scenario in enumerate(SCENARIOS, start=1):
        path = directory / f"{number:02d}-{_slug(scenario.name)}.json"
        write_atomic(path, json.dumps(vector(scenario), indent=1, ensure_ascii=True) + "\n")
        written.append(path)
    index = {
        "format": INDEX_FORMAT,
        "vectors": [
            {"file": path.name, "name": scenario.name, "rules": list(scenario.rules)}
            for path, scenario in zip(written, SCENARIOS, strict=True)
        ],
    }
    write_atomic(directory / "index.json", json.dumps(index, indent=1) + "\n")
    write_atomic(directory / "SCHEMA.md", SCHEMA)
    for path in (*written, directory / "index.json", directory / "SCHEMA.md"):
        path.chmod(0o644)  # files to share, not the private temporaries write_atomic starts from
    return written


SCHEMA = """\
# mcpref test vectors (format `mcpref-vector/1`)

Written by `mcpref vectors export DIR`: one JSON file per scenario of `mcpref check`'s fixed
corpus, `index.json` (format `mcpref-vectors/1`: each file with its name and requirement IDs) and
this file. A vector needs no Python to replay: start the server under test with its stdin and
stdout as pipes, write the input as described, read what comes back, and check it against the
`expected` section. Requirement IDs refer to `SPEC_NOTES.md` of mcpref. JSON texts in the files
are ASCII; ids and byte strings are exact.

The scenarios call the reference's four demo tools: `lire_prix` (`{"produit": string}`:
`baguette` 110, `croissant` 130, else a tool error "Produit inconnu"), `echo` (`{"text": string}`),
`fail` (`{}`, always a tool error) and `attendre` (`{"ms": integer 0..60000}`, answers after that
many milliseconds). A server without them still runs every vector at the spec level, where a
tool call accepts any well-formed result.

## Fields

| field | meaning |
|---|---|
| `format` | `"mcpref-vector/1"` |
| `name`, `rules` | the scenario, and the requirement IDs it exercises |
| `era` | `"legacy"` (the initialize handshake) or `"modern"` (2026-07-28: every request carries its version in `_meta`); it decides the probe |
| `protocolVersion` | the version the session runs under (what the reference negotiated), or null when no initialize is accepted (as in modern sessions) |
| `input` | `base64`: the exact bytes to write; `length`; `preview`: the same bytes as text, invalid UTF-8 as `\\xNN`, truncated |
| `chunks` | the sizes of the successive writes: write the next `n` bytes of `input`, then wait `pauseSeconds` before the next write, so the server sees these boundaries |
| `lines` | for reading only: each input line (split at LF) with its `index`, `length` and `preview`; `line` fields below are these indexes |
| `end` | `"probe"`: after the input, write `probe.line`; read until the answer whose id is `probe.id` has come and so has an answer to every id that `expected.spec.answers` marks `required` (at most `answerTimeoutSeconds`), then read on for `settleSeconds`. `"eof"`: after the input, close the server's stdin, read until its stdout closes (at most `answerTimeoutSeconds` plus `settleSeconds`) and take its exit status |
| `expected.strict` | `output`: every line the reference wrote (without its LF), in the order it wrote them when nothing else disturbs the timing; `exitStatus`: the reference's exit status for `"eof"` vectors, else null |
| `expected.spec` | what a conforming server may write; see below |

## Checking the strict level

Parse each line the server wrote as JSON, leave out the probe's answer, and compare the rest
with `expected.strict.output` parsed the same way, as a multiset: the same values, each as many
times, in any order (answers are matched by id, never by position). Arrays are compared as
multisets of their members. `error.message` is free text: an implementation other than the
reference compares everything else; the reference matches it too. For `"eof"` vectors the exit
status must equal `exitStatus`.

## Checking the spec level

`expected.spec.answers` lists each request id that the input carries (requests, batch members,
invalid messages whose id is readable, and the request a lenient reader could find in a line the
reference refuses):

| field | meaning |
|---|---|
| `line`, `id`, `idJson`, `method` | where the id appears; the id as a JSON value and as its exact JSON text (compare `idJson` when your parser loses integer precision); the method, or null where it is unknown (an invalid message, or a line too deep to read beyond its id) |
| `required` | an answer with this id must come |
| `inArray` | the answer must arrive inside an array (a batch answer) |
| `result` | a result is acceptable; for `tools/call`, `isError` lists the acceptable values of `result.isError` (absent counts as false) |
| `errorCodes` | the acceptable `error.code` values, or `"any"`; -32022 and -32021 also carry the `data` the specification requires (`{supported, requested}`, `{requiredCapabilities}`), which `mcpref check` judges |
| `insteadNullCodes` | when not empty, an error with id null and one of these codes may stand in for the answer |

`expected.spec.nullAnswers` lists the lines that may or must draw an error with id null:
`count` of them, `required` or optional, `codes` (a list or `"any"`), and `waivedIfAnswered`:
ids whose answer by id replaces this line's required null answers (a lenient server that
serves the request in a line the reference refuses).

The check, in order:

1. Every line written is a JSON object or array (else the server wrote something that is not a
   message). Take the objects, and the members of arrays (noting that they came in an array).
   Objects with a `method` are the server's own requests or notifications: leave them out (answer
   requests with error -32601 if you read while writing). Leave out the probe's answer.
2. For each entry of `answers`, take every answer whose id equals `id` (same type and value: `1`
   and `"1"` differ). More than one fails. One must be acceptable: a `result` when `result` is
   true (with `isError` in the list for `tools/call`), or an `error` whose code is in
   `errorCodes`; and inside an array when `inArray` is true. None fails when `required` is true,
   unless `insteadNullCodes` is not empty: then one more required null slot with those codes is
   added (step 4).
3. Any other answer with an id that is not null fails (an answer nothing asked for).
4. Null slots: each `nullAnswers` entry gives `count` slots with its codes, required when
   `required` is true and none of its `waivedIfAnswered` ids was answered, optional otherwise.
   Go through the required slots in line order, each taking the first unused null-id answer,
   after the previous one taken, whose `error.code` it accepts; a required slot that finds none
   fails. Then the optional slots do the same from the start. A null-id answer left over fails.
5. For `"probe"` vectors the probe must have been answered with a result
   (`probeAnswered`: the server survived the input). `exitStatus` `"any"`: the exit status at
   end of input is not judged at this level.

Each spec-level expectation is what mcpref's oracle accepts for that line when every other
line is answered as the reference answers it: a server that makes another permitted choice
earlier in the session (refusing a protocol version, serving before `notifications/initialized`)
can fail a later line here and still pass `mcpref check`, which follows the server's choices.
"""


def run(args: argparse.Namespace) -> int:
    """The ``vectors export DIR`` subcommand."""
    try:
        written = export(args.directory)
    except OSError as exc:
        print(f"mcpref vectors: cannot write {args.directory}: {exc.strerror or exc}", file=sys.stderr)
        return 2
    print(f"mcpref vectors: wrote {len(written)} vectors, index.json and SCHEMA.md to {args.directory}")
    return 0
