"""The official TypeScript SDK client (npm ``@modelcontextprotocol/sdk``, pinned) against ``mcpref serve``.

``ts_client.mjs`` runs one session with the SDK's ``Client`` and ``StdioClientTransport``:
handshake, tools/list, ``lire_prix`` for a success and for a tool error, ping; it prints
what it saw as one JSON object. The SDK always requests its latest version, so the script
rewrites the version in the initialize request on its way to the transport. Skipped, with
the reason, where node or the npm packages are missing.
"""

from __future__ import annotations

import json
import subprocess
from typing import Any

import pytest
from peerlib import PEERS, REFERENCE, ROOT, SHARED_VERSIONS

pytestmark = pytest.mark.peers


def client(node: str, version: str, *options: str) -> tuple[int, dict[str, Any]]:
    command = [node, str(PEERS / "ts_client.mjs"), version, "--", *REFERENCE, *options]
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=60, check=False)
    assert done.stdout.strip(), done.stderr
    return done.returncode, json.loads(done.stdout)


def test_the_pinned_sdk_is_the_one_installed(node: str) -> None:
    pinned = json.loads((PEERS / "package.json").read_text())["dependencies"]
    for name, version in pinned.items():
        installed = json.loads((PEERS / "node_modules" / name / "package.json").read_text())["version"]
        assert installed == version, name


@pytest.mark.spec("LIFE-VERSION-ACCEPT", "LIFE-INIT-RESULT", "TOOLS-LIST-SHAPE", "TOOLS-EXEC-ERROR", "LIFE-PING")
@pytest.mark.parametrize("version", [*SHARED_VERSIONS, "default"])
def test_the_typescript_sdk_client_completes_a_session_at_each_shared_version(node: str, version: str) -> None:
    status, seen = client(node, version)
    assert status == 0 and seen["ok"], seen.get("error")
    assert seen["protocolVersion"] == (SHARED_VERSIONS[-1] if version == "default" else version)
    assert seen["serverInfo"] == {"name": "mcpref", "version": "0.1.0"}
    assert seen["capabilities"] == {"tools": {"listChanged": False}}
    assert seen["tools"] == ["lire_prix", "echo", "fail", "attendre"]
    assert seen["croissant"] == {"content": [{"type": "text", "text": "130 centimes"}], "isError": False}
    assert seen["kiwi"] == {"content": [{"type": "text", "text": "Produit inconnu"}], "isError": True}
    assert seen["ping"] == {}


@pytest.mark.spec("LIFE-VERSION-REJECT", "LIFE-VERSION-COUNTER-OFFER")
def test_the_sdk_pre_release_version_is_refused_by_default_and_counter_offered_on_request(node: str) -> None:
    # 2024-10-07 is in the TypeScript SDK's supported list, never in a published specification.
    status, seen = client(node, "2024-10-07")
    assert status == 1 and not seen["ok"]
    assert "-32602" in seen["error"] and "Unsupported protocol version" in seen["error"]
    status, seen = client(node, "2024-10-07", "--version-policy", "counter-offer")
    assert status == 0 and seen["ok"], seen.get("error")
    assert seen["protocolVersion"] == "2025-11-25"
