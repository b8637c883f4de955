"""The exported vectors replayed from the files alone, the way another language's suite would.

``mcpref vectors export`` runs as a subprocess; this module then reads nothing but the JSON
files and uses nothing but the standard library: no import of ``fuzz`` or ``reference``.
Its replayer and checkers follow the steps of the exported ``SCHEMA.md`` word for word.
"""

from __future__ import annotations

import base64
import json
import subprocess
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
REFERENCE = [sys.executable, "-m", "mcpref.reference"]
SILENT = [sys.executable, str(ROOT / "examples" / "buggy" / "silent_on_parse_error.py")]
HANG_GUARD = 60.0  # seconds: how long a replay waits for a server that shows no sign of life before giving up


@pytest.fixture(scope="module")
def exported(tmp_path_factory: pytest.TempPathFactory) -> Path:
    directory = tmp_path_factory.mktemp("vectors")
    done = subprocess.run(
        [sys.executable, "-m", "mcpref", "vectors", "export", str(directory)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return directory


def load(directory: Path) -> list[dict[str, Any]]:
    index = json.loads((directory / "index.json").read_text())
    assert index["format"] == "mcpref-vectors/1"
    return [json.loads((directory / entry["file"]).read_text()) for entry in index["vectors"]]


# The replayer.


@dataclass
class Replay:
    lines: list[bytes]
    exit_status: int | None


def replay(vector: dict[str, Any], command: list[str]) -> Replay:
    data = base64.b64decode(vector["input"]["base64"], validate=True)
    assert len(data) == vector["input"]["length"] == sum(vector["chunks"])
    process = subprocess.Popen(command, cwd=ROOT, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    assert process.stdin is not None and process.stdout is not None
    stdout = process.stdout
    lines: list[bytes] = []
    closed = threading.Event()

    def read() -> None:
        for raw in iter(stdout.readline, b""):
            lines.append(raw[:-1] if raw.endswith(b"\n") else raw)
        closed.set()

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    try:
        offset = 0
        for size in vector["chunks"]:
            process.stdin.write(data[offset : offset + size])
            process.stdin.flush()
            offset += size
            time.sleep(vector["pauseSeconds"])
        if vector["end"] == "probe":
            probe = vector["probe"]
            process.stdin.write(probe["line"].encode())
            process.stdin.flush()
            awaited = [probe["id"]] + [a["id"] for a in vector["expected"]["spec"]["answers"] if a["required"]]
            # The probe's answer shows the server alive and done with the input: it is awaited as
            # long as a start under coverage on a loaded machine may take; what is still missing
            # then gets the vector's own answerTimeoutSeconds.
            deadline = time.monotonic() + max(vector["answerTimeoutSeconds"], HANG_GUARD)
            while time.monotonic() < deadline and not answered(list(lines), probe["id"]):
                time.sleep(0.005)
            deadline = min(deadline, time.monotonic() + vector["answerTimeoutSeconds"])
            while time.monotonic() < deadline and not all(answered(list(lines), i) for i in awaited):
                time.sleep(0.005)
            time.sleep(vector["settleSeconds"])
            return Replay(list(lines), None)
        process.stdin.close()
        closed.wait(max(vector["answerTimeoutSeconds"], HANG_GUARD) + vector["settleSeconds"])
        return Replay(list(lines), process.wait(max(vector["answerTimeoutSeconds"], HANG_GUARD)))
    finally:
        process.kill()
        process.wait()
        reader.join(5)
        for stream in (process.stdin, process.stdout):
            if not stream.closed:
                stream.close()


def answered(lines: list[bytes], request_id: Any) -> bool:
    """Whether an answer with this id (same type and value) is among the lines, arrays included."""
    for line in lines:
        try:
            value = json.loads(line)
        except ValueError:
            continue
        for member in value if isinstance(value, list) else [value]:
            if isinstance(member, dict) and "method" not in member and same_id(member.get("id"), request_id):
                return True
    return False


def answers_probe(line: bytes, probe_id: str) -> bool:
    try:
        value = json.loads(line)
    except ValueError:
        return False
    return isinstance(value, dict) and value.get("id") == probe_id and "method" not in value


# The strict level.


def canonical(value: Any, messages: bool) -> str:
    if isinstance(value, list):
        return "[" + ",".join(sorted(canonical(member, messages) for member in value)) + "]"
    if not messages and isinstance(value, dict) and isinstance(value.get("error"), dict):
        value = {**value, "error": {k: v for k, v in value["error"].items() if k != "message"}}
    return json.dumps(value, sort_keys=True)


def strict_problems(vector: dict[str, Any], run: Replay, messages: bool = True) -> list[str]:
    probe_id = vector["probe"]["id"] if vector["probe"] else None
    got = sorted(canonical(json.loads(line), messages) for line in run.lines if not answers_probe(line, probe_id or ""))
    want = sorted(canonical(json.loads(line), messages) for line in vector["expected"]["strict"]["output"])
    problems = [] if got == want else [f"answers differ: got {got}, expected {want}"]
    status = vector["expected"]["strict"]["exitStatus"]
    if vector["end"] == "eof" and run.exit_status != status:
        problems.append(f"exit status {run.exit_status}, expected {status}")
    return problems


# The spec level: the five steps of SCHEMA.md.


def same_id(a: Any, b: Any) -> bool:
    return type(a) is type(b) and a == b


def code_of(answer: dict[str, Any]) -> Any:
    error = answer.get("error")
    return error.get("code") if isinstance(error, dict) else None


def accepts(codes: Any, code: Any) -> bool:
    return codes == "any" or code in codes


def spec_problems(vector: dict[str, Any], run: Replay) -> list[str]:
    spec = vector["expected"]["spec"]
    probe_id = vector["probe"]["id"] if vector["probe"] else None
    problems: list[str] = []
    # 1. Messages only; flatten arrays; leave out the server's own messages and the probe's answer.
    answers: list[tuple[dict[str, Any], bool]] = []
    probe_answered = False
    for line in run.lines:
        try:
            value = json.loads(line)
        except ValueError:
            problems.append(f"not a message: {line[:80]!r}")
            continue
        members = [(m, True) for m in value] if isinstance(value, list) else [(value, False)]
        for member, in_array in members:
            if not isinstance(member, dict):
                problems.append(f"not a message: {member!r}")
            elif "method" in member:
                continue
            elif probe_id is not None and member.get("id") == probe_id:
                probe_answered = probe_answered or "result" in member
            else:
                answers.append((member, in_array))
    by_id = [(a, arr) for a, arr in answers if a.get("id") is not None]
    nulls = [a for a, _ in answers if a.get("id") is None]
    # 2. Each expected id.
    answered: list[Any] = []
    extra_slots: list[tuple[int, Any]] = []
    for expected in spec["answers"]:
        mine = [(a, arr) for a, arr in by_id if same_id(a.get("id"), expected["id"])]
        by_id = [(a, arr) for a, arr in by_id if not same_id(a.get("id"), expected["id"])]
        where = f"line {expected['line']} id {expected['idJson']}"
        if len(mine) > 1:
            problems.append(f"{where}: answered {len(mine)} times")
        if not mine:
            if expected["insteadNullCodes"]:
                extra_slots.append((expected["line"], expected["insteadNullCodes"]))
            elif expected["required"]:
                problems.append(f"{where}: no answer")
            continue
        answered.append(expected["id"])
        answer, in_array = mine[0]
        if "result" in answer:
            ok = expected["result"]
            if ok and expected["method"] == "tools/call":
                ok = answer["result"].get("isError", False) in expected["isError"]
        else:
            ok = accepts(expected["errorCodes"], code_of(answer))
        if not ok:
            problems.append(f"{where}: unacceptable answer {answer}")
        if expected["inArray"] and not in_array:
            problems.append(f"{where}: answered outside an array")
    # 3. Answers nothing asked for.
    problems += [f"unexpected answer {answer}" for answer, _ in by_id]
    # 4. Null slots: required first, in line order, then optional ones.
    slots: list[tuple[int, bool, Any]] = [(line, True, codes) for line, codes in extra_slots]
    for entry in spec["nullAnswers"]:
        required = entry["required"] and not any(
            any(same_id(i, waived) for i in answered) for waived in entry["waivedIfAnswered"]
        )
        slots += [(entry["line"], required, entry["codes"])] * entry["count"]
    slots.sort(key=lambda slot: slot[0])
    used = [False] * len(nulls)
    for required in (True, False):
        start = 0
        for line, _, codes in (slot for slot in slots if slot[1] is required):
            hit = next(
                (i for i in range(start, len(nulls)) if not used[i] and accepts(codes, code_of(nulls[i]))), None
            )
            if hit is not None:
                used[hit] = True
                start = hit + 1
            elif required:
                problems.append(f"line {line}: no error with id null and a code in {codes}")
    problems += [f"unexpected null-id answer {a}" for a, taken in zip(nulls, used, strict=True) if not taken]
    # 5. Survival.
    if spec["probeAnswered"] and not probe_answered:
        problems.append("the probe was not answered: the server did not survive the input")
    return problems


def replay_all(vectors: list[dict[str, Any]], command: list[str]) -> list[Replay]:
    with ThreadPoolExecutor(max_workers=4) as pool:
        return list(pool.map(lambda vector: replay(vector, command), vectors))


# The tests.


def test_the_export_is_complete_and_self_describing(exported: Path) -> None:
    vectors = load(exported)
    assert len(vectors) >= 40
    assert (exported / "SCHEMA.md").read_text() == (ROOT / "docs" / "vectors.md").read_text()
    names = set()
    for vector in vectors:
        assert vector["format"] == "mcpref-vector/1"
        assert vector["rules"] and vector["name"] not in names
        names.add(vector["name"])
        data = base64.b64decode(vector["input"]["base64"])
        assert [line["length"] for line in vector["lines"]] == [len(line) for line in data.split(b"\n")[: len(vector["lines"])]]
        assert vector["protocolVersion"] in {None, "2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"}
        for line in vector["expected"]["strict"]["output"]:
            assert line.isascii() and "\n" not in line
    by_name = {vector["name"]: vector for vector in vectors}
    not_json = by_name["not JSON"]["expected"]["spec"]
    assert not_json["nullAnswers"] == [{"line": 2, "count": 1, "required": True, "codes": [-32700], "waivedIfAnswered": []}]
    big = next(a for a in by_name["ids kept exactly"]["expected"]["spec"]["answers"] if a["line"] == 3)
    # Past some parsers' limits (RFC 8259 section 6) a ping may be refused, but an error that echoes
    # the id exactly shows it read whole: refused for no limit, so no error code is acceptable.
    assert big["idJson"] == "9007199254740993" and big["required"] and big["errorCodes"] == []


@pytest.mark.spec("FRAME-CHUNK-INVARIANT", "RPC-PARSE-ERROR", "RPC-ID-ECHO", "STDIO-EOF-DRAIN", "RPC-BATCH")
def test_the_reference_passes_every_vector_replayed_from_the_files_alone(exported: Path) -> None:
    vectors = load(exported)
    runs = replay_all(vectors, REFERENCE)
    failed = {}
    for vector, run in zip(vectors, runs, strict=True):
        problems = strict_problems(vector, run) + spec_problems(vector, run)
        if problems:
            failed[vector["name"]] = problems
    assert failed == {}


@pytest.mark.spec("RPC-PARSE-ERROR")
def test_a_server_silent_on_parse_errors_fails_the_vectors_that_say_so(exported: Path) -> None:
    vectors = [v for v in load(exported) if v["name"] in {"not JSON", "NaN", "ids kept exactly", "lines cut across reads, concurrent calls, bad lines"}]
    runs = replay_all(vectors, SILENT)
    spec = {v["name"]: spec_problems(v, run) for v, run in zip(vectors, runs, strict=True)}
    strict = {v["name"]: strict_problems(v, run, messages=False) for v, run in zip(vectors, runs, strict=True)}
    assert spec["ids kept exactly"] == [] and strict["ids kept exactly"] == []
    for name in ("not JSON", "NaN", "lines cut across reads, concurrent calls, bad lines"):
        assert any("no error with id null" in problem for problem in spec[name]), spec[name]
        assert strict[name]
