"""A plain ``pip install .`` in a fresh virtual environment: one package, ``mcpref``, and a working command.

``reference`` and ``fuzz`` are names other distributions on PyPI already use, and any
folder of the same name in a user's project would shadow them: they are installed as
``mcpref.reference`` and ``mcpref.fuzz`` only. The project is copied first, so that the
build leaves nothing in this tree. pip fetches the build backend and Hypothesis, as the
Makefile's own install does.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SHIPPED = ("pyproject.toml", "README.md", "mcpref", "reference", "fuzz")


def test_a_plain_install_puts_only_mcpref_in_the_environment_and_it_works_in_any_folder(tmp_path: Path) -> None:
    source = tmp_path / "source"
    for name in SHIPPED:
        origin = ROOT / name
        if origin.is_dir():
            shutil.copytree(origin, source / name, symlinks=True, ignore=shutil.ignore_patterns("__pycache__"))
        else:
            source.mkdir(exist_ok=True)
            shutil.copy2(origin, source / name)
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    python, mcpref = str(venv / "bin" / "python"), str(venv / "bin" / "mcpref")
    install = subprocess.run(
        [python, "-m", "pip", "install", "--quiet", "--disable-pip-version-check", str(source)],
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert install.returncode == 0, install.stderr[-3000:]

    listed = subprocess.run(
        [python, "-c", "import importlib.metadata as m; print('\\n'.join(str(f) for f in m.files('mcpref')))"],
        cwd=tmp_path,  # not this tree, whose own metadata would answer
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    packages = {name.split("/")[0] for name in listed if name.endswith(".py") and "/" in name}
    assert packages == {"mcpref"}, packages
    assert {"mcpref/reference/framer.py", "mcpref/fuzz/cli.py", "mcpref/fuzz/py.typed"} <= set(listed)

    # A user's project with folders named like ours, which must not shadow anything.
    project = tmp_path / "project"
    for name in ("reference", "fuzz"):
        (project / name).mkdir(parents=True)
        (project / name / "__init__.py").write_text("raise ImportError('a folder of the user, not mcpref')\n")
    for command in ([mcpref, "check"], [python, "-m", "mcpref", "check"]):
        done = subprocess.run(
            [*command, "--", python, "-m", "mcpref.reference"], cwd=project, capture_output=True, text=True, timeout=300
        )
        assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
        assert "RPC-PARSE-ERROR" in done.stdout
