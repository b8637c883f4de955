"""The layout shows the architecture: the stages of mcpref.fuzz import only from earlier stages,
the reference imports nothing of the fuzzer, no module imports itself back through others, every
module reads in one sitting (400 lines at most), and the repository holds no symbolic links."""

from __future__ import annotations

import ast
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "mcpref"
# The order in which the data goes; a stage may import only from those before it.
STAGES = ("generate", "drive", "judge", "campaign", "report", "integrate")


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports(path: Path) -> set[str]:
    """The mcpref modules ``path`` imports, wherever in the file (lazy imports count too)."""
    name = module_name(path)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                base = ".".join(package.split(".")[: len(package.split(".")) - node.level + 1] + ([base] if base else []))
            found.add(base)
            found.update(f"{base}.{alias.name}" for alias in node.names)
    return {module for module in found if module.startswith("mcpref")}


MODULES = {module_name(path): path for path in sorted(PACKAGE.rglob("*.py"))}


def arrow(source: str, target: str) -> bool:
    """Whether importing ``target`` is an arrow of the design: not the package ``source`` sits in
    (a name taken from it, such as the version), and not the root package, mcpref's public face
    (``mcpref.check``, ``mcpref.__version__``), which imports what it offers only when called."""
    return target in MODULES and target != "mcpref" and not source.startswith(target + ".") and target != source


GRAPH = {name: {m for m in imports(path) if arrow(name, m)} for name, path in MODULES.items() if name != "mcpref"}


def stage_of(module: str) -> int | None:
    parts = module.split(".")
    return STAGES.index(parts[2]) if len(parts) > 2 and parts[1] == "fuzz" and parts[2] in STAGES else None


def test_every_module_of_the_fuzzer_sits_in_a_stage() -> None:
    loose = {m for m in MODULES if m.startswith("mcpref.fuzz.") and stage_of(m) is None}
    # Public faces above the stages: the strategies, and two paths the README has documented.
    assert loose == {"mcpref.fuzz.public_strategies", "mcpref.fuzz.check", "mcpref.fuzz.action"}


def test_a_stage_imports_only_from_the_stages_before_it() -> None:
    back = sorted(
        f"{source} -> {target}"
        for source, targets in GRAPH.items()
        for target in targets
        if (here := stage_of(source)) is not None and (there := stage_of(target)) is not None and there > here
    )
    assert back == []


def test_the_reference_imports_nothing_of_the_fuzzer() -> None:
    assert {
        f"{source} -> {target}"
        for source, targets in GRAPH.items()
        if source.startswith("mcpref.reference")
        for target in targets
        if target.startswith("mcpref.fuzz")
    } == set()


def test_no_module_imports_itself_back_through_others() -> None:
    def reaches(start: str) -> set[str]:
        seen: set[str] = set()
        todo = list(GRAPH[start])
        while todo:
            module = todo.pop()
            if module not in seen:
                seen.add(module)
                todo.extend(GRAPH[module])
        return seen

    circles = sorted(m for m in GRAPH if m in reaches(m))
    assert circles == []


def test_the_repository_holds_no_symbolic_links() -> None:
    listed = subprocess.run(["git", "ls-files", "-s"], cwd=ROOT, capture_output=True, text=True, check=False)
    if listed.returncode != 0:
        pytest.skip("not a git checkout")
    assert [line.split("\t")[1] for line in listed.stdout.splitlines() if line.startswith("120000")] == []


def test_every_module_reads_in_one_sitting() -> None:
    # One concern a module, each small enough to read at once: about 400 lines at most.
    long = {name: lines for name, path in MODULES.items() if (lines := len(path.read_text(encoding="utf-8").splitlines())) > 400}
    assert long == {}
