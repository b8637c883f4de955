"""A plain ``pip install .`` in a fresh virtual environment: one package, ``mcpref``, and a working command.

``reference`` and ``fuzz`` are names other distributions on PyPI already use, and any
folder of the same name in a user's project would shadow them: they are installed as
``mcpref.reference`` and ``mcpref.fuzz`` only. The project is copied first, so that the
build leaves nothing in this tree. pip fetches the build backend and Hypothesis, as the
Makefile's own install does.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

from mcpref.fuzz.report import explain

ROOT = Path(__file__).resolve().parents[1]
SHIPPED = ("pyproject.toml", "README.md", "LICENSE", "MANIFEST.in", "SPEC_NOTES.md", "mcpref")


def test_a_plain_install_puts_only_mcpref_in_the_environment_and_it_works_in_any_folder(tmp_path: Path) -> None:
    source = tmp_path / "source"
    for name in SHIPPED:
        origin = ROOT / name
        if origin.is_dir():
            shutil.copytree(origin, source / name, ignore=shutil.ignore_patterns("__pycache__"))
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
    shipped = {"mcpref/reference/framer.py", "mcpref/fuzz/integrate/cli.py", "mcpref/py.typed"}
    assert shipped | {"mcpref/fuzz/report/spec_notes.json", "mcpref/fuzz/report/stock_sdks.json"} <= set(listed)

    # A user's project with folders named like ours, which must not shadow anything.
    project = tmp_path / "project"
    for name in ("reference", "fuzz"):
        (project / name).mkdir(parents=True)
        (project / name / "__init__.py").write_text("raise ImportError('a folder of the user, not mcpref')\n")
    for command in ([mcpref, "check", "--html", "page.html", "--json"], [python, "-m", "mcpref", "check"]):
        done = subprocess.run(
            [*command, "--", python, "-m", "mcpref.reference"], cwd=project, capture_output=True, text=True, timeout=300
        )
        assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
        assert "RPC-PARSE-ERROR" in done.stdout

    # The installed command serves as the reference server too.
    initialize = b'{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}\n'
    served = subprocess.run([mcpref, "serve"], cwd=project, input=initialize, capture_output=True, timeout=60)
    assert served.returncode == 0 and b'"protocolVersion":"2025-11-25"' in served.stdout, served

    # The installed copy cites as a clone does: the rules' sources on the page, their texts in explain.
    page = (project / "page.html").read_text(encoding="utf-8")
    assert 'href="https://www.jsonrpc.org/specification' in page
    assert 'href="https://modelcontextprotocol.io/specification/' in page
    dead = subprocess.run(
        [mcpref, "check", "--json", "--", python, "-c", "pass"], cwd=project, capture_output=True, timeout=300
    )
    assert dead.returncode == 1, dead.stderr[-2000:]
    (project / "rows.json").write_bytes(dead.stdout)
    environ = {key: value for key, value in os.environ.items() if key != "AI_URL"}
    told = subprocess.run(
        [mcpref, "explain", "rows.json"], cwd=project, env=environ, capture_output=True, text=True, timeout=60
    )
    recorded = explain.recorded_explanation("STDIO-SURVIVE")
    assert recorded[:60] in told.stdout and "recorded explanation from SPEC_NOTES.md" in told.stdout, told.stdout


def test_the_fuzzer_says_at_import_that_it_needs_posix() -> None:
    done = subprocess.run(
        [sys.executable, "-c", "import os; os.name = 'nt'; import mcpref.fuzz"], capture_output=True, text=True
    )
    assert done.returncode == 1 and "mcpref.fuzz needs a POSIX system" in done.stderr, done.stderr


def test_mcpref_serve_starts_without_importing_the_fuzzer() -> None:
    # A client waits for the server's first answer; importing the fuzzer (Hypothesis among it)
    # took four times the reference server's own start.
    script = (
        "import sys; from mcpref.command import main; status = main(['serve']); "
        "print(sorted(m for m in sys.modules if m.startswith(('hypothesis', 'mcpref.fuzz')))); sys.exit(status)"
    )
    ping = b'{"jsonrpc":"2.0","id":1,"method":"ping"}\n'
    done = subprocess.run([sys.executable, "-c", script], input=ping, capture_output=True, timeout=60, check=False)
    lines = done.stdout.splitlines()
    assert done.returncode == 0 and lines[-1] == b"[]", done
    assert lines[0] == b'{"jsonrpc":"2.0","id":1,"result":{}}'  # ping is answered before initialize (LIFE-PING)
