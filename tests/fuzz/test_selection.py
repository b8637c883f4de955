"""Rule selection: ``--select`` and ``--ignore`` by ID or prefix, and ``[tool.mcpref]`` of pyproject.toml."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from in_process import mcpref_in_process

from mcpref.fuzz.integrate.selection import Selection, SelectionError, chosen

ROOT = Path(__file__).resolve().parents[2]
SILENT = [sys.executable, str(ROOT / "examples" / "buggy" / "silent_on_parse_error.py")]
FOUND = "RPC-PARSE-ERROR,FRAME-UTF8"  # what the silent server fails


def mcpref(cwd: Path, *argv: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "mcpref", *argv], cwd=cwd, capture_output=True, text=True, check=False)


def test_a_pattern_is_an_id_or_a_prefix_ending_at_a_dash() -> None:
    chosen_ = Selection(select=("RPC-BATCH-", "FRAME-"), ignore=("FRAME-BOM",))
    assert chosen_.chosen("RPC-BATCH-INITIALIZE") and chosen_.chosen("FRAME-UTF8")
    assert not chosen_.chosen("RPC-PARSE-ERROR") and not chosen_.chosen("FRAME-BOM")
    assert "RPC-INVALID-REQUEST" not in Selection(select=("RPC-INVALID-NO-ID",)).rules
    assert not Selection().narrowed and len(Selection().rules) > 50


def test_the_command_line_replaces_the_whole_selection_of_the_configuration(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text('[tool.mcpref]\nselect = ["RPC"]\nignore = ["RPC-BATCH"]\n')
    assert chosen(tmp_path, None, None) == Selection(("RPC",), ("RPC-BATCH",))
    assert chosen(tmp_path, ["LIFE"], None) == Selection(("LIFE",), ())
    assert chosen(tmp_path, None, ["LIFE"]) == Selection((), ("LIFE",))
    assert chosen(tmp_path, None, []) == Selection()
    assert chosen(tmp_path / "elsewhere", None, None) == Selection()
    with pytest.raises(SelectionError, match="'RPCX' names no rule"):
        chosen(tmp_path, ["RPCX"], None)
    (tmp_path / "pyproject.toml").write_text('[tool.mcpref]\nignore = "RPC-BATCH"\n')
    with pytest.raises(SelectionError, match="must be a list"):
        chosen(tmp_path, None, None)


@pytest.mark.spec("RPC-PARSE-ERROR", "FRAME-UTF8")
def test_check_and_fuzz_judge_only_the_rules_selected(tmp_path: Path) -> None:
    selected = mcpref(tmp_path, "check", "--json", "--select", FOUND, "--", *SILENT)
    rows = json.loads(selected.stdout)["rules"]
    assert selected.returncode == 1 and {(row["id"], row["status"]) for row in rows} == {
        ("RPC-PARSE-ERROR", "fail"), ("FRAME-UTF8", "fail"),
    }  # fmt: skip
    (tmp_path / "pyproject.toml").write_text(f"[tool.mcpref]\nignore = {json.dumps(FOUND.split(','))}\n")
    ignored = mcpref(tmp_path, "check", "--json", "--", *SILENT)
    assert ignored.returncode == 0, ignored.stdout[-2000:]
    assert "RPC-PARSE-ERROR" not in {row["id"] for row in json.loads(ignored.stdout)["rules"]}
    campaign = ["fuzz", "--seed", "1", "--max-cases", "20", "--report", "report.json", "--campaign-dir", "c"]
    assert mcpref(tmp_path, *campaign, "--", *SILENT).returncode == 0  # the configuration ignores both
    assert json.loads((tmp_path / "report.json").read_text())["failures"] == []
    refused = mcpref_in_process("check", "--select", "NOPE", "--", *SILENT, cwd=tmp_path)
    assert refused.returncode == 2 and "'NOPE' names no rule" in refused.stderr


def test_an_id_names_its_rule_alone_and_a_trailing_dash_its_family() -> None:
    assert Selection(select=("RPC-BATCH",)).rules == {"RPC-BATCH"}
    assert Selection(select=("RPC-BATCH-",)).rules == {"RPC-BATCH-INITIALIZE", "RPC-BATCH-UNSUPPORTED"}
