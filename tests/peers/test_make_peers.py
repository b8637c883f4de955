"""make_peers saves a replayable reproducer for a compare finding in a follow-up scenario.

examples/buggy/malformed_resource_read.py lists a resource and answers its read without
``contents``: RESOURCES-SHAPE fails in "read the first resource listed", a scenario built from the
server's own resources/list answer, not one of the fixed corpus.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import make_peers
import pytest
from peerlib import ROOT

SERVER = [sys.executable, str(ROOT / "examples" / "buggy" / "malformed_resource_read.py")]


def test_a_follow_up_finding_gets_a_reproducer_that_replay_confirms(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    peer = make_peers.Peer("buggy", "malformed resource read", SERVER, SERVER, "-")
    monkeypatch.setattr(make_peers, "PEER_LIST", [peer])
    monkeypatch.setattr(make_peers, "DOCS", tmp_path)
    monkeypatch.setattr(make_peers, "REPRO", tmp_path / "repro")
    monkeypatch.setattr(make_peers, "BUILD", tmp_path / "build")
    (tmp_path / "build").mkdir()
    compared = make_peers.compare("spec", [peer])
    rule = next(rule for rule in compared.result["rules"] if rule["id"] == "RESOURCES-SHAPE")
    assert rule["statuses"]["buggy"] == "fail"
    failing = [f["scenario"] for f in rule["findings"]["buggy"] if f["status"] == "fail"]
    assert failing[0] == "read the first resource listed"
    links = make_peers.check_reproducers([compared], [peer])
    link = links[("buggy", "RESOURCES-SHAPE")]
    document = json.loads((tmp_path / link).read_text())
    assert document["scenario"] == "read the first resource listed" and "directory" not in document
    assert any("resources/read" in line for line in document["preview"])
    assert make_peers.replays(link, peer)  # mcpref replay exits 1: the saved case fails RESOURCES-SHAPE again
    assert (tmp_path / "build" / "peers-spec.html").exists()
