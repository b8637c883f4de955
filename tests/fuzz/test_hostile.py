"""mcpref against hostile targets: each is a finding, nothing hangs, nothing is left running.

The targets are the small scripts in ``tests/hostile``. Every campaign runs through the
real command line with a budget in cases (never in seconds, so that what is found does not
depend on the machine); a campaign that hangs is stopped by the test's timeout.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from targets import CORPUS, GENERATED_ONLY

from mcpref.fuzz.campaign.outcome import ATTRIBUTION_LIMIT
from mcpref.fuzz.campaign.runner import GRACE_SECONDS
from mcpref.fuzz.report import reproducer as report

ROOT = Path(__file__).resolve().parents[2]
HOSTILE = ROOT / "tests" / "hostile"
# Any case shows what these targets do: one case, and one more to shrink it.
CASES = 1

EXPECTED = {
    "never_reads": "STDIO-SURVIVE",
    "deaf": "STDIO-SURVIVE",
    "exits_at_once": "STDIO-SURVIVE",
    "dies_mid_session": "STDIO-SURVIVE",
    "closes_stdout": "STDIO-SURVIVE",
    "ignores_sigterm": "STDIO-SURVIVE",
    "floods_stdout": "STDIO-STDOUT-MESSAGES-ONLY",
    "endless_line": "STDIO-STDOUT-MESSAGES-ONLY",
    "invalid_utf8_out": "STDIO-STDOUT-MESSAGES-ONLY",
}




def fuzz_command(target: list[str], budget: list[str], report_path: Path, campaign: Path) -> list[str]:
    options = ["--seed", "1", *budget, "--report", str(report_path), "--campaign-dir", str(campaign)]
    return [sys.executable, "-m", "mcpref", "fuzz", *options, "--", *target]


def fuzz(tmp: Path, name: str, cases: int = CASES) -> tuple[int, dict[str, object]]:
    status, found, _ = fuzz_measured(tmp, name, cases)
    return status, found


# Runs a command and writes the largest resident set (KiB) of it and the processes it reaped. A
# small process of its own: a child's peak counts the memory of the process it was forked from.
MEASURED = (
    "import resource, subprocess, sys\n"
    "status = subprocess.call(sys.argv[2:])\n"
    "open(sys.argv[1], 'w').write(str(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss))\n"
    "sys.exit(status)\n"
)


def fuzz_measured(tmp: Path, name: str, cases: int = CASES) -> tuple[int, dict[str, object], int]:
    """The campaign's exit status, its report, and the largest resident set (bytes) of it and
    the target processes it reaped."""
    # A second of idleness is enough to tell these targets: they read nothing, or answer nothing.
    budget = ["--max-cases", str(cases), "--idle-limit", "1"]
    # The folder as an argument the target ignores: what this test started, not another's.
    target = [sys.executable, str(HOSTILE / f"{name}.py"), str(tmp / name)]
    command = fuzz_command(target, budget, tmp / f"{name}.json", tmp / name)
    rss = tmp / f"{name}.rss"
    measured = [sys.executable, "-c", MEASURED, str(rss), *command]
    proc = subprocess.Popen(
        measured, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, start_new_session=True
    )
    try:
        _, errors = proc.communicate(timeout=180)
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)  # the campaign too, should it outlive its timeout
    assert b"Traceback" not in errors, errors.decode()[-2000:]
    return proc.returncode, json.loads((tmp / f"{name}.json").read_text()), int(rss.read_text()) * 1024


def running(marker: str) -> list[str]:
    found = subprocess.run(["pgrep", "-f", marker], capture_output=True, text=True, check=False)
    return found.stdout.split()


@pytest.mark.spec("STDIO-SURVIVE", "STDIO-STDOUT-MESSAGES-ONLY")
def test_each_hostile_target_is_a_finding_within_the_budget_and_leaves_nothing_behind(tmp_path: Path) -> None:
    with ThreadPoolExecutor(max_workers=3) as pool:
        results = dict(zip(sorted(EXPECTED), pool.map(lambda n: fuzz_measured(tmp_path, n), sorted(EXPECTED)), strict=True))
    for name, (status, found, largest) in results.items():
        failures = found["failures"]
        assert isinstance(failures, list)
        assert status == 1, name
        assert EXPECTED[name] in {f["id"] for f in failures}, (name, failures)
        assert running(str(tmp_path / name)) == [], name  # ignores_sigterm's child too
        # The flood was cut at the stdout cap: no process of the run grew anywhere near it twice over.
        assert largest < 400 * 2**20, (name, largest)


def test_what_only_a_kept_process_shows_is_not_reported(tmp_path: Path) -> None:
    """Kept processes filter; a failure counts only when a fresh process shows it too."""
    target = [sys.executable, str(HOSTILE / "wears_out.py")]
    command = fuzz_command(target, ["--max-cases", "100"], tmp_path / "r.json", tmp_path / "c")
    done = subprocess.run(command, cwd=ROOT, capture_output=True, timeout=120, check=False)
    found = json.loads((tmp_path / "r.json").read_text())
    assert (done.returncode, found["failures"]) == (0, [])
    unconfirmed = found["unconfirmed_in_kept_processes"]
    assert isinstance(unconfirmed, dict) and sum(unconfirmed.values()) >= 5, unconfirmed
    # Then the target is run fresh only.
    assert isinstance(found["fresh_only_from_case"], int)


@pytest.mark.spec("RPC-CLIENT-RESPONSE")
def test_requests_from_the_server_are_answered_as_a_client_without_capabilities(tmp_path: Path) -> None:
    status, found = fuzz(tmp_path, "asks_the_client", 30)
    assert (status, found["failures"]) == (0, [])


@pytest.mark.spec("RPC-PARSE-ERROR")
def test_a_rerun_with_the_same_seed_starts_from_what_was_found(tmp_path: Path) -> None:
    def first_failure() -> int:
        out = tmp_path / "report.json"
        command = fuzz_command(GENERATED_ONLY, ["--max-cases", "60"], out, tmp_path / "campaign")
        subprocess.run(command, cwd=ROOT, capture_output=True, timeout=300, check=False)
        found = json.loads(out.read_text())
        assert {f["id"] for f in found["failures"]} == {"STDIO-SURVIVE"}
        assert found["cases"] >= 60  # the rerun still spends its cases searching
        at = found["first_failure_at_case"]
        assert isinstance(at, int)
        return at

    assert first_failure() > CORPUS + 1  # seed 1: at case 52, the 8th generated
    assert any((tmp_path / "campaign" / "examples").iterdir())
    assert first_failure() == CORPUS + 1  # replayed first, after check's corpus


def test_an_interrupted_write_leaves_the_old_file_whole(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "report.json"
    report.write_atomic(path, "old\n")

    def crash(fd: int) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(report.os, "fsync", crash)
    with pytest.raises(KeyboardInterrupt):
        report.write_atomic(path, "new\n" * 10_000)
    assert path.read_text() == "old\n"
    assert [p.name for p in tmp_path.iterdir()] == ["report.json"]


def test_a_written_file_has_the_mode_the_umask_gives(tmp_path: Path) -> None:
    before = os.umask(0o027)
    try:
        report.write_atomic(tmp_path / "report.json", "{}\n")
    finally:
        os.umask(before)
    assert (tmp_path / "report.json").stat().st_mode & 0o777 == 0o640


@pytest.mark.spec("RPC-PARSE-ERROR")
def test_a_killed_campaign_keeps_what_it_found_for_the_rerun(tmp_path: Path) -> None:
    examples = tmp_path / "campaign" / "examples"

    def command(budget: list[str]) -> list[str]:
        return fuzz_command(GENERATED_ONLY, budget, tmp_path / "report.json", tmp_path / "campaign")

    def saved() -> bool:
        # Hypothesis files a key in its list of keys before the value under it (the failure): a
        # failure is saved once files sit in two folders. A folder alone, or the list of keys
        # alone, is no failure saved yet, and a kill then leaves none to replay.
        return len({path.parent for path in examples.rglob("*") if path.is_file()}) >= 2

    killed = subprocess.Popen(
        command(["--budget", "120"]),
        cwd=ROOT,
        start_new_session=True,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 60
        while not saved() and time.monotonic() < deadline:
            time.sleep(0.05)
    finally:
        os.killpg(killed.pid, 9)
        killed.wait()
    assert not (tmp_path / "report.json").exists()  # killed before it could write one
    subprocess.run(command(["--max-cases", "60"]), cwd=ROOT, capture_output=True, timeout=300, check=False)
    found = json.loads((tmp_path / "report.json").read_text())
    assert {f["id"] for f in found["failures"]} == {"STDIO-SURVIVE"}
    assert found["first_failure_at_case"] == CORPUS + 1  # the saved failure was replayed first, after the corpus


# Every hostile behaviour, under a budget in seconds: what it finds depends on the machine, when it
# ends must not. chatters_unread reads its first line, then never reads again and writes an answer
# to id 0 every 10 ms: before waits had a deadline, each of a case's waits saw output and lasted
# --wait-limit (60 s), and the campaign held on for minutes.
BUDGETED = sorted([*EXPECTED, "chatters_unread", "reads_then_stops"])


def test_a_time_budget_bounds_the_campaign_whatever_the_target_does(tmp_path: Path) -> None:
    budget = 2.0

    def timed(name: str) -> tuple[float, subprocess.CompletedProcess[bytes]]:
        # The folder as an argument the target ignores: what this test started, not another's.
        target = [sys.executable, str(HOSTILE / f"{name}.py"), str(tmp_path / name)]
        command = fuzz_command(target, ["--budget", str(budget)], tmp_path / f"{name}.json", tmp_path / name)
        began = time.monotonic()
        done = subprocess.run(command, cwd=ROOT, capture_output=True, timeout=300, check=False)
        return time.monotonic() - began, done

    with ThreadPoolExecutor(max_workers=3) as pool:
        results = dict(zip(BUDGETED, pool.map(timed, BUDGETED), strict=True))
    for name, (took, done) in results.items():
        # The budget, the shrinking grace, the attribution's time, and the starts of two Python
        # processes on a loaded machine.
        assert took < budget + GRACE_SECONDS + ATTRIBUTION_LIMIT + 15, (name, took)
        assert done.returncode in (0, 1, 3), (name, done.stderr.decode()[-2000:])  # 3: no case ran to its end
        assert b"Traceback" not in done.stderr, name
        assert running(str(tmp_path / name)) == [], name  # ignores_sigterm's child too


def test_check_ends_within_its_time_limit_and_leaves_the_rules_it_could_not_judge_untested(tmp_path: Path) -> None:
    target = [sys.executable, str(HOSTILE / "chatters_unread.py"), str(tmp_path)]
    command = [sys.executable, "-m", "mcpref", "check", "--json", "--time-limit", "3", "--", *target]
    began = time.monotonic()
    done = subprocess.run(command, cwd=ROOT, capture_output=True, timeout=300, check=False)
    took = time.monotonic() - began
    assert took < 3 + 15, took  # the limit, and the starts of Python processes on a loaded machine
    document = json.loads(done.stdout)
    assert done.returncode == 3 and document["cause"] == "the server outlasted the time limit before answering"
    assert {row["status"] for row in document["rules"]} <= {"untested", "n/a"}
    assert running(str(tmp_path)) == []
