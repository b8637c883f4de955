"""A zoo of processes that are no MCP server: nothing they do is a pass, and no run of them is green.

Each is run through ``check`` and a short seeded campaign: ``cat`` and a late echo write back the
client's own requests (an echo is no answer, and a request echoed is the client's, not the
target's: answered, its answer would come back as an answer to the client), ``true``, ``false``,
``sleep`` and a process that never reads write nothing, ``print(1)`` writes without reading, ``yes``
and a flood write lines that are not messages, one closes its stdout, one writes random bytes, one
answers every line with the same canned result. What a pass needs is what only reading the line
could produce: an answer to the liveness probe by its id after the scenario, and, at EOF, an
answer to the unterminated last line by its id (FRAME-EOF-PARTIAL). The verdicts hold whatever
the speed of the machine: none of these targets ever shows that evidence, slow or fast.
"""

from __future__ import annotations

import json
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from hypothesis import given, settings

from mcpref.fuzz.drive.echoes import Written
from mcpref.fuzz.drive.process import SENTINEL_IDS
from mcpref.fuzz.drive.target import probe, run_case
from mcpref.fuzz.drive.timing import Timing
from mcpref.fuzz.drive.waiting import Patience
from mcpref.fuzz.generate.case import Case
from mcpref.fuzz.generate.strategies import cases
from mcpref.reference.rules import BY_ID

ROOT = Path(__file__).resolve().parents[2]
HOSTILE = ROOT / "tests" / "hostile"
PYTHON = sys.executable

ZOO = {
    "cat": ["cat"],
    "true": ["true"],
    "false": ["false"],
    "sleep": ["sleep", "1000"],
    "yes": ["yes"],
    "never reads": [PYTHON, str(HOSTILE / "never_reads.py")],
    "writes without reading": [PYTHON, "-c", "print(1)"],
    "closes stdout": [PYTHON, str(HOSTILE / "closes_stdout.py")],
    "echoes late": [PYTHON, str(HOSTILE / "zoo_echoes_late.py")],
    "floods": [PYTHON, str(HOSTILE / "floods_stdout.py")],
    "random bytes": [PYTHON, str(HOSTILE / "zoo_random_bytes.py")],
    "canned result": [PYTHON, str(HOSTILE / "zoo_canned.py")],
}
# The rules an echo passed (LIFE-PING, RPC-METHOD-NOT-FOUND and others answered by the echo of
# the client's own answers to its echoed requests; FRAME-EOF-PARTIAL for any output at EOF), and
# STDIO-SURVIVE, whose failure is the one cause of the rest.
SELECTED = (
    "LIFE-PING,RPC-METHOD-NOT-FOUND,RPC-NOTIFICATION-SILENT,RPC-ID-ECHO,FRAME-EOF-PARTIAL,STDIO-EOF-DRAIN,STDIO-SURVIVE"
)
# A flood holds the driver to the time limit, and each scenario costs it a stdout cap's worth of
# lines to read: one scenario, and a short limit, keep this test short.
FLOODS = {"yes", "floods"}
# One second of idleness tells these targets: they read nothing, or answer nothing.
IDLE = ["--idle-limit", "1"]


def _check(name: str) -> tuple[int, list[dict[str, object]]]:
    selection = ["--select", "LIFE-PING", "--time-limit", "5"] if name in FLOODS else ["--select", SELECTED]
    command = [PYTHON, "-m", "mcpref", "check", "--json", *selection, *IDLE, "--", *ZOO[name]]
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=180, check=False)
    assert "Traceback" not in done.stderr, done.stderr[-2000:]
    rows = json.loads(done.stdout)["rules"]
    assert isinstance(rows, list)
    return done.returncode, rows


@pytest.mark.spec("STDIO-SURVIVE", "LIFE-PING", "RPC-METHOD-NOT-FOUND", "FRAME-EOF-PARTIAL")
def test_no_process_of_the_zoo_passes_a_rule_or_a_check() -> None:
    with ThreadPoolExecutor(max_workers=2) as pool:
        results = dict(zip(ZOO, pool.map(_check, ZOO), strict=True))
    for name, (status, rows) in results.items():
        # A MUST is never passed by a process that is no server; a permitted alternative it was seen
        # taking (exiting at EOF with work in flight) may read pass under spec, with its note.
        passed = [row["id"] for row in rows if row["status"] == "pass" and BY_ID[str(row["id"])].level.mandatory]
        assert passed == [], (name, passed)
        # Failures exit 1, a run that judged nothing 3: never 0.
        assert status in (1, 3), (name, status, rows)
    # A process that never read the unterminated last line shows nothing of how it reads one.
    for name in ("cat", "writes without reading", "canned result"):
        (partial,) = (row for row in results[name][1] if row["id"] == "FRAME-EOF-PARTIAL")
        assert partial["status"] == "untested", (name, partial)


@pytest.mark.spec("STDIO-SURVIVE")
def test_a_short_campaign_against_an_echo_or_a_canned_answer_finds_it_dead(tmp_path: Path) -> None:
    def campaign(name: str) -> tuple[int, dict[str, object]]:
        where = tmp_path / name.replace(" ", "-")
        options = ["--seed", "1", "--max-cases", "2", *IDLE, "--report", f"{where}.json", "--campaign-dir", str(where)]
        command = [PYTHON, "-m", "mcpref", "fuzz", *options, "--", *ZOO[name]]
        done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=180, check=False)
        assert "Traceback" not in done.stderr, done.stderr[-2000:]
        report = json.loads(Path(f"{where}.json").read_text())
        assert isinstance(report, dict)
        return done.returncode, report

    names = ("cat", "echoes late", "canned result")
    with ThreadPoolExecutor(max_workers=2) as pool:
        for name, (status, report) in zip(names, pool.map(campaign, names), strict=True):
            failures = report["failures"]
            assert isinstance(failures, list)
            assert status == 1 and "STDIO-SURVIVE" in {f["id"] for f in failures}, (name, failures)


# At the driver: what an echo writes back is only ever what the client wrote.

PATIENT_ENOUGH = Timing(patience=Patience(idle=0.2, retry=0.1))


@settings(max_examples=10)
@given(cases(max_lines=8))
def test_an_echo_gets_no_answer_from_the_driver_to_write_back(case: Case) -> None:
    run = run_case(["cat"], case.chunks, PATIENT_ENOUGH, eof=case.eof)
    written = case.stream + b"".join(probe(probe_id) for probe_id in SENTINEL_IDS)
    # Every line cat wrote is one the client wrote (or the last line of the stream run into a
    # probe): the driver answered none of the requests it echoed.
    assert set(run.observation.output) <= set(written.split(b"\n"))
    assert not run.observation.survived or case.eof


def test_an_echo_is_recognised_whatever_its_spacing_and_order() -> None:
    written = Written()
    written.add(b'{"jsonrpc":"2.0","id":1,')
    written.add(b'"method":"ping"}\n{"jsonrpc":"2.0","id":2,"method":"tools/list"}\nnot json "method"\n')
    written.add(b'{"jsonrpc":"2.0","id":"c","result":{}}\n')  # a response: no request to echo
    assert written.echoed({"method": "ping", "id": 1, "jsonrpc": "2.0"})
    assert written.echoed({"jsonrpc": "2.0", "id": 2, "method": "tools/list"})
    assert not written.echoed({"jsonrpc": "2.0", "id": 3, "method": "ping"})  # the target's own
    deep: dict[str, object] = {}
    for _ in range(100_000):
        deep = {"method": deep}
    assert not written.echoed(deep)  # past what the encoder follows: nothing the client wrote
