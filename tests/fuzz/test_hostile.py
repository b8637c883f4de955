"""mcpref against hostile targets: each is a finding, nothing hangs, nothing is left running.

The targets are the small scripts in ``tests/hostile``. Every campaign runs through the
real command line with a short budget and must end within that budget plus the grace
for shrinking and one probe's wait.
"""

from __future__ import annotations

import json
import os
import resource
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from fuzz import report

ROOT = Path(__file__).resolve().parents[2]
HOSTILE = ROOT / "tests" / "hostile"
BUDGET = 2.0
# Grace for shrinking (5 s), then one last case whose probes may wait 0.5 + 3 s, and start-up.
ALLOWED_SECONDS = BUDGET + 12.0

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


def fuzz(tmp: Path, name: str) -> tuple[int, float, dict[str, object]]:
    env = {key: value for key, value in os.environ.items() if not key.startswith("COVERAGE_")}
    target = [sys.executable, str(HOSTILE / f"{name}.py")]
    command = [
        sys.executable, "-m", "fuzz.cli", "fuzz", "--seed", "1", "--budget", str(BUDGET),
        "--report", str(tmp / f"{name}.json"), "--campaign-dir", str(tmp / name), "--", *target,
    ]
    started = time.monotonic()
    done = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, timeout=120, check=False)
    elapsed = time.monotonic() - started
    assert b"Traceback" not in done.stderr, done.stderr.decode()[-2000:]
    return done.returncode, elapsed, json.loads((tmp / f"{name}.json").read_text())


def running(marker: str) -> list[str]:
    found = subprocess.run(["pgrep", "-f", marker], capture_output=True, text=True, check=False)
    return found.stdout.split()


@pytest.mark.spec("STDIO-SURVIVE", "STDIO-STDOUT-MESSAGES-ONLY")
def test_each_hostile_target_is_a_finding_within_the_budget_and_leaves_nothing_behind(tmp_path: Path) -> None:
    with ThreadPoolExecutor(max_workers=3) as pool:
        results = dict(zip(sorted(EXPECTED), pool.map(lambda n: fuzz(tmp_path, n), sorted(EXPECTED)), strict=True))
    for name, (status, elapsed, found) in results.items():
        failures = found["failures"]
        assert isinstance(failures, list)
        assert status == 1, name
        assert EXPECTED[name] in {f["id"] for f in failures}, (name, failures)
        assert elapsed < ALLOWED_SECONDS, (name, elapsed)
        assert running(str(HOSTILE / f"{name}.py")) == [], name
    assert running("mcpref-hostile-child") == []
    # The flood was cut at the stdout cap: no process of the run grew anywhere near it twice over.
    assert resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss < 400 * 1024


@pytest.mark.spec("RPC-CLIENT-RESPONSE")
def test_requests_from_the_server_are_answered_as_a_client_without_capabilities(tmp_path: Path) -> None:
    status, _, found = fuzz(tmp_path, "asks_the_client")
    assert (status, found["failures"]) == (0, [])


@pytest.mark.spec("RPC-PARSE-ERROR")
def test_a_rerun_with_the_same_seed_starts_from_what_was_found(tmp_path: Path) -> None:
    env = {key: value for key, value in os.environ.items() if not key.startswith("COVERAGE_")}
    target = [sys.executable, str(ROOT / "examples" / "buggy" / "silent_on_parse_error.py")]

    def cases() -> int:
        out = tmp_path / "report.json"
        command = [
            sys.executable, "-m", "fuzz.cli", "fuzz", "--seed", "1", "--budget", "30",
            "--report", str(out), "--campaign-dir", str(tmp_path / "campaign"), "--", *target,
        ]
        subprocess.run(command, cwd=ROOT, env=env, capture_output=True, timeout=120, check=False)
        found = json.loads(out.read_text())
        assert [f["id"] for f in found["failures"]] == ["RPC-PARSE-ERROR"]
        count = found["cases"]
        assert isinstance(count, int)
        return count

    first = cases()
    assert any((tmp_path / "campaign" / "examples").iterdir())
    assert cases() < first


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
