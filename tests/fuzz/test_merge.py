"""``mcpref merge``: the reports of several workers as one, each rule once with its smallest case."""

from __future__ import annotations

import json
import subprocess
import sys
import xml.etree.ElementTree as ElementTree
from pathlib import Path

import pytest

from mcpref.fuzz.judge.oracle import Profile
from mcpref.fuzz.report.baseline import dump

ROOT = Path(__file__).resolve().parents[2]


def finding(rule: str, chunks: list[str], message: str) -> dict[str, object]:
    return {"id": rule, "level": "MUST", "status": "fail", "message": message, "expected": "e", "actual": "a",
            "input": chunks, "reproducer": f"repro/{rule}.json"}  # fmt: skip


def report(path: Path, seed: int, failures: list[dict[str, object]], profile: str = "spec") -> Path:
    document = {"command": ["python", "server.py"], "profile": profile, "era": "legacy", "seed": seed, "cases": 100,
                "messages": 1000, "processes": 10, "seconds": 30.0 + seed, "failures": failures, "warnings": []}  # fmt: skip
    path.write_text(json.dumps(document))
    return path


def merge(*argv: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "mcpref", "merge", *argv], capture_output=True, text=True, check=False)


@pytest.mark.spec("RPC-PARSE-ERROR", "RPC-ID-ECHO")
def test_reports_merge_into_one_with_each_rules_smallest_case(tmp_path: Path) -> None:
    first = report(tmp_path / "1.json", 1, [finding("RPC-PARSE-ERROR", ["long line\n", "more\n"], "seen by 1")])
    second = report(tmp_path / "2.json", 2, [finding("RPC-PARSE-ERROR", ["short\n"], "seen by 2"),
                                              finding("RPC-ID-ECHO", ["x\n"], "id changed")])  # fmt: skip
    out, junit = tmp_path / "merged.json", tmp_path / "merged.xml"
    done = merge(str(first), str(second), "--report", str(out), "--junit-xml", str(junit))
    assert done.returncode == 1 and "2 reports, 200 cases, 2000 messages" in done.stdout
    merged = json.loads(out.read_text())
    assert [(f["id"], f["message"]) for f in merged["failures"]] == [("RPC-PARSE-ERROR", "seen by 2"), ("RPC-ID-ECHO", "id changed")]
    assert (merged["seeds"], merged["cases"], merged["seconds"]) == ([1, 2], 200, 32.0)
    assert ElementTree.parse(junit).getroot().get("failures") == "2"
    baseline = tmp_path / "baseline.json"
    baseline.write_text(dump(Profile.SPEC, {"target": {"RPC-PARSE-ERROR", "RPC-ID-ECHO"}}))
    assert merge(str(first), str(second), "--baseline", str(baseline)).returncode == 0


def test_reports_of_another_campaign_or_no_report_are_refused(tmp_path: Path) -> None:
    spec = report(tmp_path / "spec.json", 1, [])
    strict = report(tmp_path / "strict.json", 2, [], profile="strict")
    refused = merge(str(spec), str(strict))
    assert refused.returncode == 2 and "another profile" in refused.stderr
    (tmp_path / "junk.json").write_text("[]")
    assert merge(str(spec), str(tmp_path / "junk.json")).returncode == 2
    assert merge(str(spec)).stdout.splitlines()[-1] == "no divergence found"
