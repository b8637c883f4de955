"""What ``check`` says of a server that dies or never answers: a sentence that states what was seen,
with the figures seen (its exit status, the idle bound it was given), never a template's seams."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PY = sys.executable
# A server that ... : (its command, what the report says it did).
DEAD = {
    "exits at once": ([PY, "-c", "import sys; sys.exit(3)"], "exited with status 3"),
    "exits after reading": ([PY, "-c", "import sys; sys.stdin.readline(); sys.exit(4)"], "exited with status 4"),
    "closes stdout": ([PY, "-c", "import os, time; os.close(1); time.sleep(60)"], "closed its stdout"),
    "never answers": (
        [PY, "-c", "import sys, time; sys.stdin.readline(); time.sleep(60)"],
        "did not answer the liveness ping and was idle for 1 s (under 1 ms of CPU time, no output, nothing read)",
    ),
    "never reads": (
        [PY, "-c", "import time; time.sleep(60)"],
        "read nothing of its stdin, answered nothing, and was idle for 1 s (under 1 ms of CPU time, no output, nothing read)",
    ),
}
# Seams of templates filled with the wrong kind of phrase.
SEAMS = re.compile(r"the server (no|stdout|idle)\b|(did not answer|answered nothing).* before answering|stopped answering before answering")


def check(command: list[str]) -> dict[str, object]:
    done = subprocess.run(
        [PY, "-m", "mcpref", "check", "--json", "--idle-limit", "1", "--select", "LIFE-PING", "--", *command],
        cwd=ROOT, capture_output=True, text=True, timeout=600,
    )  # fmt: skip
    assert done.returncode != 0, done.stdout
    document: dict[str, object] = json.loads(done.stdout)
    return document


@pytest.mark.spec("STDIO-SURVIVE")
@pytest.mark.parametrize("name", DEAD)
def test_a_dead_server_is_described_in_a_sentence_with_the_figures_seen(name: str) -> None:
    command, did = DEAD[name]
    document = check(command)
    rows = {str(row["id"]): row for row in document["rules"]}  # type: ignore[attr-defined]
    (died,) = rows["STDIO-SURVIVE"]["findings"]
    assert (died["message"], died["actual"]) == (f"the server {did}", did)
    assert rows["LIFE-PING"]["status"] == "untested"
    assert re.fullmatch(rf'the scenario "[^"]+" could not be judged: the server {re.escape(did)}', rows["LIFE-PING"]["reason"])
    cause = str(document["cause"])
    said = did.startswith("did not answer") or "answered nothing" in did
    assert cause == (f"the server {did}" if said else f"the server {did} before answering")
    for text in (cause, died["message"], rows["LIFE-PING"]["reason"]):
        assert not SEAMS.search(text), text


@pytest.mark.spec("FRAME-EOF-PARTIAL")
def test_a_server_that_exits_at_eof_without_a_word_is_said_to_have_answered_nothing() -> None:
    done = subprocess.run(
        [PY, "-m", "mcpref", "check", "--select", "FRAME-EOF-PARTIAL", "--", "true"],
        cwd=ROOT, capture_output=True, text=True, timeout=600,
    )  # fmt: skip
    last = done.stdout.strip().splitlines()[-1]
    assert last.startswith('the scenario "unterminated last line at EOF" could not be judged: ')
    assert "the server answered nothing and exited with status 0: " in last and not SEAMS.search(last)
