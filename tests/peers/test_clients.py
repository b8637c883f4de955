"""The official SDK clients under ``mcpref check-client``: each finding is one triaged below.

Two small command-line clients built on the SDKs as their documentation shows (``python_client.py``
on the Python SDK's ``Client``, in its default mode, which asks ``server/discover`` first (it passes
the 2026-07-28 rules), and in legacy mode; ``ts_client.mjs`` on the TypeScript SDK's ``Client`` and ``StdioClientTransport``)
run every scenario, profile ``strict``. The rules they do not pass are exactly the triaged ones,
so that a new finding, or one that goes away with an SDK upgrade, fails here first.
"""

from __future__ import annotations

import sys

import pytest
from peerlib import PEERS

from mcpref.fuzz.generate.client_scripts import SCRIPTS
from mcpref.fuzz.integrate.check_client import rows, run_scenarios
from mcpref.fuzz.judge.findings import Profile
from mcpref.reference.rules import CLIENT_RULES

pytestmark = pytest.mark.peers

# Both SDKs send tools/list to a server that announced no tools: neither checks the server's
# capabilities before a request by default. The TypeScript SDK does with the Client option
# enforceStrictCapabilities: true ("defaults to false, for backwards compatibility"); the Python
# SDK (2.3.0) has no such option. A MUST from 2025-06-18 (Lifecycle, Operation).
TRIAGED = {"CLIENT-CAP-ANNOUNCED": "fail"}
# A client that speaks only the legacy era never shows what the 2026-07-28 rules judge.
MODERN_RULES = ("CLIENT-MOD-META", "CLIENT-MOD-STAYS-MODERN", "CLIENT-MOD-VERSION-RETRY", "CLIENT-MOD-INPUT-RETRY",
              "CLIENT-MOD-FALLBACK")
LEGACY_ONLY = dict.fromkeys(MODERN_RULES, "untested")


def verdicts(template: list[str]) -> dict[str, str]:
    found = rows(template, run_scenarios(template, SCRIPTS), Profile.STRICT)
    return {str(row["id"]): str(row["status"]) for row in found if row["status"] != "pass"}


@pytest.mark.spec(*(rule.id for rule in CLIENT_RULES))
# make test runs the legacy mode (with the TypeScript client below); make slow-tests the auto one too.
@pytest.mark.parametrize("mode", [pytest.param("auto", marks=pytest.mark.slow), "legacy"])
def test_the_python_sdk_client_shows_only_the_triaged_findings(mode: str) -> None:
    pytest.importorskip("mcp", reason="the official Python SDK (PyPI mcp) is not installed: pip install -e '.[dev]'")
    # A call waits the driver's 10 s: the silent scenarios cost that wait, but a 4 MiB answer read by the
    # SDK on a loaded machine (two runs side by side) can take more than 4 s.
    template = [sys.executable, str(PEERS / "python_client.py"), "--mode", mode, "--", "{server}"]
    assert verdicts(template) == (TRIAGED if mode == "auto" else {**TRIAGED, **LEGACY_ONLY})


@pytest.mark.spec(*(rule.id for rule in CLIENT_RULES))
def test_the_typescript_sdk_client_shows_only_the_triaged_findings(node: str) -> None:
    template = [node, str(PEERS / "ts_client.mjs"), "default", "--", "{server}"]
    assert verdicts(template) == {**TRIAGED, **LEGACY_ONLY}  # 1.32.2 speaks the legacy versions only
