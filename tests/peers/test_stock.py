"""Who must fix it: ``check --sdk`` marks what a stock server of the SDK breaks too (mcpref/fuzz/report/stock.py)."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from peerlib import PYTHON_SERVER, ROOT

from mcpref.fuzz.report.stock import FINGERPRINT, StockSdk, mark, recognise, sdks, summary
from mcpref.reference.rules import RULES

STATUSES = {"pass", "warn", "fail", "untested", "n/a"}


def test_the_packaged_verdicts_cover_each_sdk_in_both_eras_and_profiles() -> None:
    assert set(sdks()) == {"python-sdk", "typescript-sdk"}
    known = {rule.id for rule in RULES}
    for sdk in sdks().values():
        assert sdk.package.split()[-1][0].isdigit() and sdk.report_to.startswith("https://github.com/")
        assert set(sdk.statuses) == {"legacy", "modern"}
        for profiles in sdk.statuses.values():
            assert set(profiles) == {"spec", "strict"}
            for statuses in profiles.values():
                assert set(statuses) == known and set(statuses.values()) <= STATUSES
    # What test_peer_findings holds the SDKs to: the Python SDK drops a line that is not JSON.
    assert sdks()["python-sdk"].shares("legacy", "strict", "RPC-PARSE-ERROR")


@pytest.mark.spec("RPC-PARSE-ERROR", "RPC-ID-ECHO")
def test_a_finding_the_stock_server_shows_too_is_marked_and_the_others_are_not() -> None:
    sdk = StockSdk("some-sdk", "some 1.0", "https://github.com/o/r/issues", {"legacy": {"spec": {"RPC-PARSE-ERROR": "fail"}}})
    rows: list[dict[str, object]] = [{"id": "RPC-PARSE-ERROR", "status": "fail"}, {"id": "RPC-ID-ECHO", "status": "fail"}]
    assert mark(rows, sdk, "legacy", "spec") == ["RPC-PARSE-ERROR"]
    assert rows[0]["stock"] == "some-sdk (some 1.0)" and "stock" not in rows[1]
    assert mark([dict(row) for row in rows], sdk, "modern", "spec") == []  # another era: its own verdicts
    assert "report them at https://github.com/o/r/issues" in summary(["RPC-PARSE-ERROR"], sdk)
    assert "each finding is this server's own" in summary([], sdk)


@pytest.mark.peers
@pytest.mark.slow  # make test: the test below, against a bundled example instead of the SDK's own server
@pytest.mark.spec("RPC-PARSE-ERROR")
def test_check_sdk_marks_the_python_sdks_own_findings_on_a_server_built_on_it() -> None:
    pytest.importorskip("mcp", reason="the official Python SDK (PyPI mcp) is not installed: pip install -e '.[dev]'")
    _check_sdk_marks_its_parse_error(PYTHON_SERVER)


def _check_sdk_marks_its_parse_error(server: list[str]) -> None:
    """``check --sdk python-sdk`` against ``server``, which fails RPC-PARSE-ERROR as that SDK does, and passes RPC-ID-ECHO."""
    argv = [sys.executable, "-m", "mcpref", "check", "--sdk", "python-sdk", "--select", "RPC-PARSE-ERROR,RPC-ID-ECHO"]
    done = subprocess.run([*argv, "--json", "--", *server], cwd=ROOT, capture_output=True, text=True, timeout=300)
    document = json.loads(done.stdout)
    rows = {row["id"]: row for row in document["rules"]}
    assert rows["RPC-PARSE-ERROR"]["status"] == "fail" and rows["RPC-PARSE-ERROR"]["stock"].startswith("python-sdk (mcp ")
    assert "stock" not in rows["RPC-ID-ECHO"] and document["stock"]["rules"] == ["RPC-PARSE-ERROR"]
    text = subprocess.run([*argv, "--", *server], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert "[stock python-sdk (mcp " in text.stdout and "report them at https://github.com/modelcontextprotocol/python-sdk/issues" in text.stdout


@pytest.mark.spec("RPC-PARSE-ERROR")
def test_check_sdk_marks_what_the_sdk_breaks_too_whatever_the_server() -> None:
    _check_sdk_marks_its_parse_error([sys.executable, str(ROOT / "examples" / "buggy" / "silent_on_parse_error.py")])


def test_a_server_showing_every_stock_finding_of_one_sdk_is_recognised_as_built_on_it() -> None:
    def rows(broken: set[str]) -> list[dict[str, object]]:
        return [{"id": rule, "status": "fail" if rule in broken else "pass"} for rule in {*broken, "RPC-ID-ECHO"}]

    python, typescript = sdks()["python-sdk"], sdks()["typescript-sdk"]
    own = python.broken("legacy", "spec")
    assert len(own) >= FINGERPRINT and own != typescript.broken("legacy", "spec")
    found = recognise(rows(own | {"TOOLS-CALL-RESULT"}), "legacy", "spec")  # plus a finding of its own
    assert found is python
    assert "probably built on it (--sdk python-sdk" in summary(sorted(own), python, recognised=True)
    assert recognise(rows(own - {next(iter(own))}), "legacy", "spec") is None  # one stock finding missing
    assert recognise(rows(own | typescript.broken("legacy", "spec")), "legacy", "spec") is None  # both fit
    # The modern era's stock findings are one or two rules: too few to tell an SDK by.
    assert recognise(rows(set(python.broken("modern", "spec"))), "modern", "spec") is None
