"""Shared pytest configuration: the Hypothesis settings profiles.

- ``dev`` (the default): 100 examples, the local example database.
- ``ci`` (loaded when the environment variable ``CI`` is set): deterministic
  (``derandomize``), no database, failure blobs printed.

Neither has a deadline or the too-slow health check: both measure the machine's speed, and
on a loaded one they failed tests whose claims hold whatever the speed.
- ``campaign``: 5000 examples and no deadline, for a long local run.

Pick one explicitly with ``pytest --hypothesis-profile NAME``; the option wins over the
environment because Hypothesis' pytest plugin loads it after this file.
"""

from __future__ import annotations

import os

import pytest
from hypothesis import HealthCheck, settings

UNTIMED = settings(deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("dev", UNTIMED, max_examples=100)
settings.register_profile(
    "ci",
    settings(settings.get_profile("ci"), deadline=None, suppress_health_check=[HealthCheck.too_slow]),
    derandomize=True,
    database=None,
    print_blob=True,
    max_examples=100,
)
settings.register_profile("campaign", max_examples=5000, deadline=None)
settings.load_profile("ci" if os.environ.get("CI") else "dev")

# pytester: tests/fuzz/test_pytest_plugin.py runs pytest with mcpref's plugin in a scratch folder.
pytest_plugins = ["pytester"]


@pytest.fixture(autouse=True)
def _untraced_by_default(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> None:
    """The processes a test starts run without coverage's subprocess hook, which doubles what
    each costs to start and slows what it runs; the test's own process stays measured. A test
    marked ``traced`` measures its processes: code that only a process of its own runs (the
    stdio server and client loops) is held to the coverage gate through it."""
    if request.node.get_closest_marker("traced") is None:
        for key in [key for key in os.environ if key.startswith("COVERAGE_")]:
            monkeypatch.delenv(key)
