"""Bounds against any output: a flood is cut at the cap of a case, and ``check`` stops on a target that
floods or never reads once one scenario has shown it, in memory under 200 MiB whatever the output.

Time is the benchmarks' to measure (item 9); these tests check what the run shows and holds.
"""

from __future__ import annotations

import gc
import json
import os
import subprocess
import sys
import weakref
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from mcpref.fuzz.drive.observation import Observation
from mcpref.fuzz.drive.process import MAX_LINES, Process
from mcpref.fuzz.drive.target import Run, run_case
from mcpref.fuzz.drive.timing import Timing
from mcpref.fuzz.generate.corpus import Scenario
from mcpref.fuzz.generate.corpus_modern import BY_ERA
from mcpref.fuzz.integrate import check_runs
from mcpref.fuzz.judge.oracle import judge_run
from mcpref.fuzz.judge.session import Session
from mcpref.fuzz.report.reproducer import TRANSCRIPT_RECEIVED, transcript
from mcpref.reference.versions import Era

ROOT = Path(__file__).resolve().parents[2]
HOSTILE = ROOT / "tests" / "hostile"
FLOODS = ("floods_stdout", "floods_long_lines", "endless_line", "random_bytes")
PEAK = 200 * 2**20
HANDSHAKE = b'{"jsonrpc":"2.0","id":1,"method":"ping"}\n'


@pytest.mark.spec("STDIO-STDOUT-MESSAGES-ONLY")
@pytest.mark.parametrize("name", FLOODS)
def test_a_flood_is_read_up_to_the_cap_of_a_case_and_no_further(name: str) -> None:
    timing = Timing()
    run = run_case([sys.executable, str(HOSTILE / f"{name}.py")], [HANDSHAKE], timing)
    kept = sum(map(len, run.observation.output)) + len(run.observation.trailing)
    assert kept <= timing.max_output
    assert len(run.observation.output) <= MAX_LINES + 1  # not the rest of the read that passed the cap
    assert any("the rest was not read" in note for note in run.notes), run.notes
    assert run.hopeless and not run.observation.survived
    assert run.observation.ending.startswith("wrote more than "), run.observation.ending
    assert run.observation.ending.endswith(" to stdout")
    assert "STDIO-STDOUT-MESSAGES-ONLY" in {f.rule for f in judge_run(HANDSHAKE, run)}


@pytest.mark.spec("STDIO-STDOUT-MESSAGES-ONLY")
def test_a_judged_session_and_the_output_it_holds_are_freed_without_waiting_for_the_cycle_collector() -> None:
    # A campaign's many live objects make full collections rare: a session left in a cycle would keep
    # a flood's lines and its findings, one a line, for many cases.
    output = (b"not a message",) * 100
    session = Session(HANDSHAKE, Observation(output))
    session.modern.find("STDIO-STDOUT-MESSAGES-ONLY", 0, "a line that is not a message", "a message", "x", None)
    assert [f.rule for f in session.findings] == ["STDIO-STDOUT-MESSAGES-ONLY"]
    held = weakref.ref(session)
    gc.disable()
    try:
        del session
        assert held() is None
    finally:
        gc.enable()


def test_a_failures_transcript_shows_a_floods_first_lines_each_cut_and_counts_the_rest() -> None:
    # A fuzz report's transcript of a flood: kilobytes, not the 16 MiB the case kept.
    output = (b"x" * 2**20,) * (TRANSCRIPT_RECEIVED + 5)
    run = Run(Observation(output, trailing=b"y" * 2**20), None, b"", ())
    lines = transcript([HANDSHAKE], run)
    assert sum(map(len, lines)) < 1_000_000
    assert lines[-2] == "<- (5 more lines received, not shown)"
    assert lines[1].startswith("<- xxx") and lines[1].endswith(f"({2**20:,} bytes in all)")
    assert lines[-1].startswith("<- (unterminated) yyy")


def test_a_target_given_up_on_before_it_read_a_byte_is_sent_nothing_more() -> None:
    run = run_case(["sleep", "60"], [HANDSHAKE, HANDSHAKE], Timing())
    assert run.hopeless and not run.observation.survived
    assert run.observation.ending.startswith("read nothing of its stdin, answered nothing, and was idle for ")
    assert "STDIO-SURVIVE" in {f.rule for f in judge_run(HANDSHAKE * 2, run)}


# Starts a command and writes its peak RSS (ru_maxrss, KiB) to the file named first. A process
# started straight from this test's would report the test process's own size instead, once that is
# larger: on Linux, exec records the image it replaces in the peak of the process that execs.
_MEASURED = (
    "import os, subprocess, sys\n"
    "child = subprocess.Popen(sys.argv[2:])\n"
    "_, status, usage = os.wait4(child.pid, 0)\n"
    "open(sys.argv[1], 'w').write(str(usage.ru_maxrss))\n"
    "sys.exit(os.waitstatus_to_exitcode(status))\n"
)


def checked(target: list[str], peak_file: Path) -> tuple[int, dict[str, object], int]:
    """``mcpref check --json`` on ``target``: its status, its document, and its peak RSS in bytes."""
    command = [sys.executable, "-m", "mcpref", "check", "--json", "--", *target]
    done = subprocess.run(
        [sys.executable, "-c", _MEASURED, str(peak_file), *command],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        timeout=600,
        check=False,
    )
    return done.returncode, json.loads(done.stdout), int(peak_file.read_text()) * 1024


def reasons(document: dict[str, object]) -> set[str]:
    rows = document["rules"]
    assert isinstance(rows, list)
    return {str(row.get("reason", "")) for row in rows if row["status"] == "untested"}


@pytest.mark.spec("STDIO-STDOUT-MESSAGES-ONLY")
def test_check_fails_a_flood_within_its_memory_bound_and_runs_no_more_scenarios_after_it(tmp_path: Path) -> None:
    def flooded(name: str) -> tuple[int, dict[str, object], int]:
        return checked([sys.executable, str(HOSTILE / f"{name}.py")], tmp_path / name)

    with ThreadPoolExecutor(max_workers=2) as pool:
        results = dict(zip(FLOODS, pool.map(flooded, FLOODS), strict=True))
    for name, (status, document, peak) in results.items():
        rows = {row["id"]: row for row in document["rules"]}  # type: ignore[attr-defined]
        assert status == 1, name
        assert rows["STDIO-STDOUT-MESSAGES-ONLY"]["status"] == "fail", name
        assert peak < PEAK, (name, peak)
        # The scenarios after the flood was seen were not run: their rules say why.
        assert any(" to stdout (in the scenario" in reason for reason in reasons(document)), name


@pytest.mark.spec("STDIO-SURVIVE")
def test_check_on_a_target_that_never_reads_stops_after_the_first_scenarios_show_it(tmp_path: Path) -> None:
    status, document, _ = checked([sys.executable, str(HOSTILE / "never_reads.py")], tmp_path / "peak")
    rows = {row["id"]: row for row in document["rules"]}  # type: ignore[attr-defined]
    assert status == 1 and rows["STDIO-SURVIVE"]["status"] == "fail"
    assert {row["status"] for row in rows.values()} <= {"fail", "untested", "n/a"}
    assert any("read nothing of its stdin, answered nothing" in reason for reason in reasons(document))


# Draws every strategy a module of the generate stage holds, then says how many codecs Hypothesis
# built a table of characters for. A fresh interpreter: a strategy is built once a process.
CODEC_TABLES = """
import importlib, pkgutil
import hypothesis.internal.charmap as charmap
import mcpref.fuzz.generate as generate
from hypothesis.strategies import SearchStrategy
for found in pkgutil.iter_modules(generate.__path__):
    module = importlib.import_module(f"mcpref.fuzz.generate.{found.name}")
    for value in vars(module).values():
        if isinstance(value, SearchStrategy):
            value.validate()
print(charmap.intervals_from_codec.cache_info().misses)
"""


def test_no_strategy_of_the_generate_stage_has_hypothesis_build_a_codecs_table_of_characters(tmp_path: Path) -> None:
    # Hypothesis builds the table over every code point, in Python, wherever its cache (.hypothesis/ in
    # the working folder) does not have it yet: 233 MiB at peak, so a campaign's first run in a new
    # folder passed its bound of 200 MiB. Characters are named by category instead, a table it keeps small.
    done = subprocess.run(
        [sys.executable, "-c", CODEC_TABLES], cwd=tmp_path, capture_output=True, text=True, check=True
    )
    assert done.stdout.split() == ["0"]


@pytest.mark.spec("STDIO-STDOUT-MESSAGES-ONLY")
@pytest.mark.parametrize("scenario", BY_ERA[Era.LEGACY], ids=lambda s: s.name)
def test_a_scenario_whose_run_floods_runs_once_and_no_other_cutting_holds_a_flood_meanwhile(
    scenario: Scenario, monkeypatch: pytest.MonkeyPatch
) -> None:
    # What check holds of floods is as many as run side by side (WORKERS), each under the cap of a
    # case, however slowly it reads: a flood's re-runs under other cuttings, each holding a flood of
    # its own while the others started new scenarios, made it as many as the re-runs took time for.
    runs: list[tuple[bytes, ...]] = []

    def flooded(argv: list[str], chunks: tuple[bytes, ...], timing: Timing, **_: object) -> Run:
        runs.append(chunks)
        lines = (b"flood " * 1000,) * 10
        return Run(Observation(lines, survived=False, ending="wrote more than 10 lines"), None, b"", (), hopeless=True)

    monkeypatch.setattr(check_runs, "run_case", flooded)
    run, findings = check_runs.run_scenario(scenario, ["target"], Timing())
    assert runs == [scenario.case.chunks] and run.hopeless
    assert "STDIO-STDOUT-MESSAGES-ONLY" in {f.rule for f in findings}


@pytest.mark.spec("STDIO-STDOUT-MESSAGES-ONLY")
@pytest.mark.parametrize("line", [b"x\n", b"flood " * 1000 + b"\n", b"y" * (2**20 - 1) + b"\n", b"z" * 2**20])
def test_what_a_process_keeps_of_a_flood_is_bounded_in_bytes_and_lines_whatever_its_reads_hold(
    line: bytes, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A reader slowed down finds more in the pipe at each read; here every read of stdout gives 8 MiB.
    timing = Timing()
    process = Process([sys.executable, "-c", "import sys; sys.stdin.read()"], timing)
    assert process.proc.stdout is not None
    stdout = process.proc.stdout.fileno()
    flood = line * (8 * 2**20 // len(line))
    real_read = os.read
    monkeypatch.setattr(os, "read", lambda fd, n: flood if fd == stdout else real_read(fd, n))
    try:
        while process.stdout_open:
            process._read(stdout, "out")
    finally:
        _, trailing = process.finish()
    assert sum(map(len, process.lines)) + len(trailing) <= timing.max_output
    assert len(process.lines) <= MAX_LINES + 1
    assert process.overflowed
