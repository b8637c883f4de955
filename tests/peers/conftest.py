"""The ``node`` fixture: tests that need the TypeScript SDK skip, and say why, where it is missing."""

from __future__ import annotations

import shutil

import pytest
from peerlib import node_missing


@pytest.fixture
def node() -> str:
    reason = node_missing()
    if reason is not None:
        pytest.skip(reason)
    path = shutil.which("node")
    assert path is not None
    return path
