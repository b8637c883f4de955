"""Isolation from the network: every command of ``make field`` that starts a target runs through here.

In: a command line and a timeout. Out: the finished process and its wall time, the command having
run inside a fresh network namespace (``unshare --net --``), or, where that is not permitted,
with every proxy pointed at a port that does not answer; and a sentence saying which, for the report.
"""

from __future__ import annotations

import os
import subprocess
import time
from functools import cache

from fieldlib import ROOT


@cache  # asked once: ``--help`` and the report-only modes never start unshare
def isolation() -> tuple[tuple[str, ...], dict[str, str], str]:
    """The prefix every command runs under, the extra environment, and a sentence for the report."""
    try:
        works = (
            subprocess.run(["unshare", "--net", "true"], capture_output=True, check=False, timeout=30).returncode == 0
        )
    except (OSError, subprocess.TimeoutExpired):
        works = False
    if works:
        return (
            ("unshare", "--net", "--"),
            {},
            "a fresh network namespace (`unshare --net --`), with only a loopback that is down",
        )
    dead = "http://127.0.0.1:9"
    env = {name: dead for name in ("http_proxy", "https_proxy", "HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "all_proxy")}
    env.update({"NO_PROXY": "", "no_proxy": "", "npm_config_offline": "true"})
    return (), env, "proxies pointed at 127.0.0.1:9 (`unshare --net` is not permitted here): weaker isolation"


def environment() -> dict[str, str]:
    # Untraced: coverage's subprocess hook, inherited from a traced caller, would slow every target.
    env = {key: value for key, value in os.environ.items() if not key.startswith("COVERAGE_")}
    env.update(isolation()[1])
    return env


def prefixed(argv: list[str]) -> list[str]:
    """``argv`` as it runs isolated (with ``environment()``)."""
    return [*isolation()[0], *argv]


def isolated(argv: list[str], timeout: float) -> tuple[subprocess.CompletedProcess[str], float]:
    started = time.monotonic()
    done = subprocess.run(
        prefixed(argv), cwd=ROOT, env=environment(), capture_output=True, text=True, timeout=timeout, check=False
    )
    return done, time.monotonic() - started
