"""A server whose JSON escapes characters it need not escape is read as what its JSON says: its answer
to the liveness probe with an id spelt ``"\\u006dcpref-sentinel"`` shows it alive (STDIO-SURVIVE)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from mcpref.fuzz.drive.timing import Timing
from mcpref.fuzz.integrate.check import check_rows
from mcpref.fuzz.judge.oracle import Profile

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
# Every ASCII letter inside a JSON string written as its \\u escape: the same JSON text to a parser.
ESCAPING = r"""
import re, sys
sys.path.insert(0, {examples!r})
from _harness import run

STRING = re.compile(rb'"(?:[^"\\]|\\.)*"')  # a JSON string, its escapes included
ESCAPE = re.compile(rb"(\\u[0-9a-fA-F]{{4}}|\\.)")  # an escape already there, kept as it is


def letters(match: re.Match[bytes]) -> bytes:
    parts = ESCAPE.split(match.group(0))
    return b"".join(
        part if part.startswith(b"\\") else re.sub(rb"[A-Za-z]", lambda m: b"\\u%04x" % m.group(0)[0], part)
        for part in parts
    )


run(rewrite=lambda data: STRING.sub(letters, data))
"""


@pytest.mark.spec("STDIO-SURVIVE")
def test_a_server_that_escapes_letters_is_seen_alive_and_passes(tmp_path: Path) -> None:
    server = tmp_path / "escapes_letters.py"
    server.write_text(ESCAPING.format(examples=str(EXAMPLES)))
    rows = check_rows([sys.executable, str(server)], Profile.SPEC, Timing())
    failing = {str(row["id"]): row["findings"] for row in rows if row["status"] == "fail"}
    assert failing == {}, failing
