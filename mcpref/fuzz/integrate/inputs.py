"""The paths a command line names, checked before anything runs: a report that cannot be written
must cost a usage error in a second, not a traceback after the whole run.

A file a run writes (``--html``, ``--junit-xml``, ``--report``, ``--write-baseline``) and a folder
it fills (``--campaign-dir``, ``fuzz-client --database``) must be writable: the file, if it is
there, a file; its nearest folder that is there (the rest is created) a folder mcpref can create
a file in, which is tried and undone at once. A ``--baseline`` must be a file that can be read;
what it holds is checked as it is loaded, also before the run (``report.ci.prepare``).
"""

from __future__ import annotations

import argparse
import os
import tempfile
from pathlib import Path
from typing import Final

WRITTEN: Final = {
    "html": "--html",
    "junit_xml": "--junit-xml",
    "report": "--report",
    "write_baseline": "--write-baseline",
}
FILLED: Final = {"campaign_dir": "--campaign-dir", "database": "--database"}


def _nearest(path: Path) -> Path:
    """``path`` or its nearest ancestor that is there."""
    while not path.exists() and path != path.parent:
        path = path.parent
    return path


def _creatable_in(folder: Path) -> str | None:
    """Why no file can be created in ``folder``, if none can (tried, and undone: root passes
    every permission check, not a read-only file system)."""
    if not folder.is_dir():
        return f"{folder} is not a folder"
    try:
        with tempfile.TemporaryFile(dir=folder):
            pass
    except OSError as exc:
        return f"no file can be created in {folder} ({exc.strerror})"
    return None


def writable_file(path: Path) -> str | None:
    """Why ``path`` cannot be written, if it cannot."""
    if path.is_dir():
        return f"{path} is a folder"
    if path.exists():
        return None if os.access(path, os.W_OK) else f"{path} cannot be written (permission denied)"
    return _creatable_in(_nearest(path.absolute().parent))


def writable_folder(path: Path) -> str | None:
    """Why files cannot be kept in the folder ``path``, if they cannot."""
    if path.exists() and not path.is_dir():
        return f"{path} is not a folder"
    return _creatable_in(_nearest(path.absolute()))


def readable_file(path: Path) -> str | None:
    """Why ``path`` cannot be read, if it cannot."""
    if not path.is_file():
        return f"{path} is not a file" if path.exists() else f"{path} does not exist"
    return None if os.access(path, os.R_OK) else f"{path} cannot be read (permission denied)"


def _path(args: argparse.Namespace, name: str) -> Path | None:
    value = getattr(args, name, None)
    return value if isinstance(value, Path) else None  # fuzz's --database is a URL; fuzz-client's, a folder


def unusable(args: argparse.Namespace) -> list[str]:
    """One line per path of ``args`` that cannot be used, naming its option."""
    checks = [(WRITTEN, writable_file), (FILLED, writable_folder), ({"baseline": "--baseline"}, readable_file)]
    found = [
        (option, path, check(path))
        for options, check in checks
        for name, option in options.items()
        if (path := _path(args, name)) is not None
    ]
    return [f"{option} {path}: {problem}" for option, path, problem in found if problem is not None]
