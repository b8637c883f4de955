"""The commands that draw no case start without Hypothesis: importing it was half of every
``python -m mcpref check|replay|compare|...`` start, and a CI runs those many times."""

from __future__ import annotations

import subprocess
import sys

# Builds the parser, prints a subcommand's --help and imports every command module a
# non-generating command runs; then says which of the generating machinery got imported.
_PROBE = """
import contextlib, io, sys
from mcpref.command import main
from mcpref.fuzz.integrate import check, check_client, cli, compare, fuzz_client, merge, replay
from mcpref.fuzz.report import explain, vectors
with contextlib.redirect_stdout(io.StringIO()), contextlib.suppress(SystemExit):
    main(["check", "--help"])
print(" ".join(sorted(name for name in sys.modules if name.split(".")[0] == "hypothesis")))
"""


def test_the_commands_that_draw_nothing_do_not_import_hypothesis() -> None:
    probe = subprocess.run([sys.executable, "-c", _PROBE], capture_output=True, text=True, timeout=120, check=True)
    assert probe.stdout.strip() == ""
