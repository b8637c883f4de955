"""Findings known today against the official SDK servers, so that a regression in detection shows.

One ``mcpref compare --profile strict`` run over the Python SDK's and the TypeScript SDK's
servers (``python_server.py``, ``ts_server.mjs``), checked against what ``docs/peers.md``
reports for them, then one with ``--protocol-version 2026-07-28`` for the modern era's section. A
finding that goes away because an SDK was fixed shows up here too: then pin the new version,
rerun ``make peers`` and update this list.
"""

from __future__ import annotations

import base64
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from peerlib import PYTHON_SERVER, ROOT, TS_SERVER, node_missing

from mcpref.fuzz.campaign.attribution import relabel_invalid_utf8
from mcpref.fuzz.drive.target import run_case
from mcpref.fuzz.drive.timing import Timing
from mcpref.fuzz.generate.case import Case
from mcpref.fuzz.generate.corpus import KEPT_HEAD_OF
from mcpref.fuzz.judge.oracle import Finding, Profile, judge
from mcpref.fuzz.report.reproducer import FORMAT

pytest.importorskip("mcp", reason="the official Python SDK (PyPI mcp) is not installed: pip install -e '.[dev]'")
pytestmark = pytest.mark.peers

# column -> requirement -> status under the strict profile, as of mcp 2.3.0 and @modelcontextprotocol/sdk 1.32.2
KNOWN: dict[str, dict[str, str]] = {
    "python-sdk": {
        "RPC-PARSE-ERROR": "fail",  # a line that is not JSON draws nothing
        "FRAME-LF-ONLY": "fail",  # universal newlines: a raw CR between tokens cuts the request
        "RPC-INVALID-REQUEST": "fail",
        "RPC-BATCH": "fail",
        "LIFE-SECOND-INIT": "fail",
        "LIFE-PRE-INIT-REFUSED": "fail",
        "RPC-ID-ECHO": "pass",
        "LIFE-PING": "pass",
        "TOOLS-CALL-RESULT": "pass",
        "STDIO-SURVIVE": "pass",
    },
    "typescript-sdk": {
        "RPC-PARSE-ERROR": "fail",
        "RPC-INVALID-PARAMS": "fail",  # zod errors surface as -32603
        "RPC-ONE-ANSWER": "fail",  # an id past 2^53 is dropped
        "LIFE-PRE-INIT-REFUSED": "fail",  # served before the handshake
        "FRAME-LF-ONLY": "pass",
        "RPC-ID-ECHO": "pass",
        "LIFE-PING": "pass",
        "STDIO-SURVIVE": "pass",
    },
}


def compare_strict(columns: list[str], *options: str) -> dict[str, Any]:
    """``mcpref compare --profile strict --json`` over ``columns`` (the SDK servers), with ``options``."""
    command = [sys.executable, "-m", "mcpref", "compare", *options, "--profile", "strict", "--json"]
    for label in columns:
        command += ["--label", label]
    command += ["--", *PYTHON_SERVER] + ([] if node_missing() else ["---", *TS_SERVER])
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=240, check=False)
    assert done.returncode == 1, done.stderr
    result: dict[str, Any] = json.loads(done.stdout)
    return result


def statuses_of(result: dict[str, Any]) -> dict[str, dict[str, str]]:
    return {rule["id"]: rule["statuses"] for rule in result["rules"]}


@pytest.mark.slow  # make test holds the SDK servers to their modern-era findings below
@pytest.mark.spec("RPC-PARSE-ERROR", "FRAME-LF-ONLY", "RPC-INVALID-PARAMS", "RPC-ONE-ANSWER", "LIFE-SECOND-INIT")
def test_the_known_findings_against_the_official_sdk_servers_are_still_reported() -> None:
    columns = ["python-sdk"] if node_missing() else ["python-sdk", "typescript-sdk"]
    # Only the scenarios that exercise the rules listed (19 of 41): each SDK server starts fresh for
    # most of them, which is most of the time this test takes.
    result = compare_strict(columns, "--select", ",".join(sorted({rule for known in KNOWN.values() for rule in known})))
    statuses = statuses_of(result)
    seen = {label: {rule: statuses[rule][label] for rule in KNOWN[label]} for label in columns}
    assert seen == {label: KNOWN[label] for label in columns}
    parse_errors = next(rule for rule in result["rules"] if rule["id"] == "RPC-PARSE-ERROR")
    scenarios = {name for finding in parse_errors["findings"]["python-sdk"] for name in [finding["scenario"], *finding["also_in"]]}
    assert "not JSON" in scenarios
    if node_missing():
        pytest.skip(f"checked the Python SDK only: {node_missing()}")


# The modern era (compare --protocol-version 2026-07-28), strict: the Python SDK's server is dual-era and keeps
# the era's rules the corpus can show; the TypeScript SDK's is legacy-only, so every rule of the era
# alone is n/a for it (MOD-DUAL-ERA covers every version, and is judged for both).
MODERN_ONLY = (
    "MOD-META-REQUIRED", "MOD-VERSION-UNSUPPORTED", "MOD-RESULT-TYPE", "MOD-DISCOVER", "MOD-CAP-REQUIRED",
    "MOD-STATELESS", "MOD-TOOLS-CACHE", "MOD-PING-GONE", "MOD-LEGACY-INIT", "MOD-NO-SERVER-REQUESTS", "MOD-LOG-LEVEL",
)  # fmt: skip
MODERN_KNOWN: dict[str, dict[str, str]] = {
    "python-sdk": {
        "MOD-META-REQUIRED": "pass",  # a missing or empty _meta gets -32602
        "MOD-RESULT-TYPE": "pass",
        "MOD-STATELESS": "pass",
        "MOD-PING-GONE": "pass",  # a modern ping gets -32601
        "MOD-CAP-REQUIRED": "untested",  # it has no tool that needs a capability: nothing to keep (it read pass)
        "TOOLS-UNKNOWN": "fail",  # demander, the reference's modern-only tool: an isError result
        "RPC-ID-ECHO": "pass",
        "TOOLS-CALL-RESULT": "pass",
    },
    "typescript-sdk": {
        **dict.fromkeys(MODERN_ONLY, "n/a"),
        # Enveloped requests served as legacy ones, with no handshake: a rule of the legacy era
        # alone says nothing of them, under strict too (it failed there).
        "LIFE-PRE-INIT-REFUSED": "n/a",
        "RPC-ID-ECHO": "pass",
        "TOOLS-CALL-RESULT": "untested",  # its calls, served before any handshake, open no legacy session to judge them in
    },
}


@pytest.mark.spec("MOD-META-REQUIRED", "MOD-RESULT-TYPE", "MOD-PING-GONE", "MOD-DUAL-ERA", "TOOLS-UNKNOWN", "LIFE-PRE-INIT-REFUSED")
def test_the_modern_era_findings_against_the_official_sdk_servers_are_still_reported() -> None:
    columns = ["python-sdk"] if node_missing() else ["python-sdk", "typescript-sdk"]
    statuses = statuses_of(compare_strict(columns, "--protocol-version", "2026-07-28"))
    seen = {label: {rule: statuses[rule][label] for rule in MODERN_KNOWN[label]} for label in columns}
    assert seen == {label: MODERN_KNOWN[label] for label in columns}
    # The Python SDK shows it speaks the era: no rule of the era alone is n/a for it.
    assert [rule for rule in MODERN_ONLY if statuses[rule]["python-sdk"] == "n/a"] == []
    if node_missing():
        pytest.skip(f"checked the Python SDK only: {node_missing()}")


@pytest.mark.spec("FRAME-UTF8", "RPC-ONE-ANSWER")
def test_the_typescript_sdk_dropping_an_id_it_cannot_hold_is_not_filed_under_utf8(tmp_path: Path) -> None:
    """A campaign found the TypeScript SDK silent on a tools/call whose id needs more than 64 bits and
    whose text held a byte 0xFF: it drops such an id whatever the text (RPC-ONE-ANSWER), and serves
    a line that is not UTF-8 once it has decoded it leniently (a FRAME-UTF8 warning)."""
    if node_missing():
        pytest.skip(str(node_missing()))
    head = KEPT_HEAD_OF["2025-11-25"]
    call = b'{"jsonrpc":"2.0","id":1000000000000000000000000000000,"method":"tools/call","params":{"name":"echo","arguments":{"text":"\xff"}}}\n'
    case = Case((head, call), (len(head),))

    def execute(variant: Case) -> tuple[list[Finding], tuple[bytes, ...]]:
        run = run_case(TS_SERVER, variant.chunks, Timing())
        return judge(b"".join(variant.lines), run.observation), run.observation.output

    findings, _ = execute(case)
    assert [f.rule for f in findings] == ["FRAME-UTF8"]  # as judged alone: silence on a line not UTF-8
    relabelled = relabel_invalid_utf8(findings, case, execute, Profile.SPEC)
    assert [(f.rule, f.message) for f in relabelled] == [
        ("RPC-ONE-ANSWER", "no answer, with or without the bytes that are not UTF-8")
    ]
    # mcpref replay files it so too.
    reproducer = tmp_path / "reproducer.json"
    chunks = [base64.b64encode(chunk).decode() for chunk in case.chunks]
    document = {"format": FORMAT, "rule": "RPC-ONE-ANSWER", "profile": "spec", "command": TS_SERVER, "chunks": chunks}
    reproducer.write_text(json.dumps(document))
    done = subprocess.run([sys.executable, "-m", "mcpref", "replay", str(reproducer)], capture_output=True, text=True, check=False)
    assert done.returncode == 1 and done.stdout.splitlines()[-1].startswith("fail RPC-ONE-ANSWER: no answer, with or"), done


@pytest.mark.spec("FRAME-OUTPUT-ASCII", "TOOLS-UNKNOWN")
def test_a_note_from_a_scenario_that_judges_another_rule_claims_nothing_under_spec() -> None:
    # In the modern era no scenario judges FRAME-OUTPUT-ASCII, yet the Python SDK's raw UTF-8 output
    # draws its note (a reference decision, which spec permits) in "tools in the modern era".
    command = [sys.executable, "-m", "mcpref", "check", "--protocol-version", "2026-07-28", "--json", "--", *PYTHON_SERVER]
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=240, check=False)
    assert done.returncode in (0, 1), done.stderr
    row = next(row for row in json.loads(done.stdout)["rules"] if row["id"] == "FRAME-OUTPUT-ASCII")
    assert (row["status"], [f["status"] for f in row["findings"]]) == ("n/a", ["note"])
