"""``mcpref ARGS`` run in the test's own process, for what is decided before any target starts:
parsing, usage errors, --help, configuration errors. Each ``python -m mcpref`` start costs a
second on a loaded machine; each command keeps a test through the real entry point too."""

from __future__ import annotations

import contextlib
import io
import os
import subprocess
from pathlib import Path
from unittest import mock

from mcpref.command import main


def mcpref_in_process(*argv: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    """As ``subprocess.run([sys.executable, "-m", "mcpref", *argv], cwd=cwd, capture_output=True, text=True)``."""
    out, err = io.StringIO(), io.StringIO()
    # argparse wraps help to the terminal's width: a child writing to a pipe sees none, so 80.
    columns = {"COLUMNS": os.environ.get("COLUMNS", "80")}
    with (
        contextlib.redirect_stdout(out),
        contextlib.redirect_stderr(err),
        contextlib.chdir(cwd or Path.cwd()),
        mock.patch.dict(os.environ, columns),
    ):
        try:
            status = main(list(argv))
        except SystemExit as exc:  # argparse's --help, --version and usage errors
            assert isinstance(exc.code, int), exc.code
            status = exc.code
    return subprocess.CompletedProcess(["mcpref", *argv], status, out.getvalue(), err.getvalue())
