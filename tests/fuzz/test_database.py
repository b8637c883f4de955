"""A shared example database: ``mcpref fuzz --database redis://…`` (``fuzz.database``).

Against a real ``redis-server`` started here on a free loopback port, with nothing saved to
disk; without ``redis-server`` those tests skip and say why (``.ci/run`` installs it). Each
campaign is a real ``mcpref fuzz`` process with a seed and a budget in cases, as in
``test_campaign.py``: what it finds does not depend on the machine's speed.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from redis import Redis
from targets import CORPUS, GENERATED_ONLY
from test_campaign import BUGGY, campaign
from test_cli import mcpref

from mcpref.fuzz.campaign.database import key_prefix, open_database
from mcpref.fuzz.campaign.runner import Campaign
from mcpref.fuzz.judge.oracle import Profile

SILENT = [sys.executable, str(BUGGY / "silent_on_parse_error.py")]
# 70 cases in two jobs: each runs its half of the corpus, then generates; seed 1 finds the bug at the
# first generated case of a job. A campaign of seed 2 and the corpus's cases and one more passes: one
# of seed 2 that fails at once after the corpus replays what seed 1 found.
FINDING_CASES = 70
OTHER_SEED = ("--seed", "2")  # argparse keeps the last --seed: this one overrides campaign()'s
Contents = dict[bytes, set[bytes]]  # every key of a Redis database, with its values


@dataclass(frozen=True)
class FirstCampaign:
    status: int
    report: dict[str, object]
    saved: Contents  # what it left in Redis


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def _start_redis(directory: Path) -> tuple[subprocess.Popen[bytes], int]:
    """A ``redis-server`` on a free loopback port, saving nothing, once it accepts connections."""
    if shutil.which("redis-server") is None:
        pytest.skip("redis-server not found (Debian's redis-server package; .ci/run installs it)")
    port = _free_port()
    server = subprocess.Popen(
        ["redis-server", "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
         "--dir", str(directory)],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
    )
    assert server.stdout is not None
    log = []
    for line in server.stdout:  # ends at EOF if the server exits (a port taken meanwhile, say)
        log.append(line)
        if b"Ready to accept connections" in line:
            break
    else:
        server.wait()
        pytest.fail("redis-server did not start:\n" + b"".join(log).decode(errors="replace"))
    # The server logs on: its pipe is drained, so that it never blocks on a full one.
    threading.Thread(target=server.stdout.read, daemon=True).start()
    return server, port


@pytest.fixture(scope="module")
def redis_port(tmp_path_factory: pytest.TempPathFactory) -> Iterator[int]:
    server, port = _start_redis(tmp_path_factory.mktemp("redis"))
    try:
        yield port
    finally:
        server.terminate()
        server.wait()


def _url(port: int) -> str:
    return f"redis://127.0.0.1:{port}/0"


def _contents(url: str) -> Contents:
    client = Redis.from_url(url)
    return {key: client.smembers(key) for key in client.keys("*")}


def _saved_failures(first: FirstCampaign) -> int:
    """How many examples the first campaign left as failing (not under Hypothesis's secondary keys)."""
    return sum(len(values) for key, values in first.saved.items() if not key.endswith(b".secondary"))


def _failures(report: dict[str, object]) -> set[str]:
    failures = report["failures"]
    assert isinstance(failures, list)
    assert all(Path(failure["reproducer"]).exists() for failure in failures)  # in the campaign's own directory
    return {failure["id"] for failure in failures}


@pytest.fixture(scope="module")
def first(redis_port: int, tmp_path_factory: pytest.TempPathFactory) -> FirstCampaign:
    """A campaign of seed 1 in two jobs, writing to Redis."""
    Redis(port=redis_port).flushall()
    tmp = tmp_path_factory.mktemp("first")
    status, report = campaign(tmp, "first", "spec", GENERATED_ONLY, FINDING_CASES, "--jobs", "2", "--database", _url(redis_port))
    return FirstCampaign(status, report, _contents(_url(redis_port)))


@pytest.fixture
def redis_url(redis_port: int, first: FirstCampaign) -> str:
    """Redis as the first campaign left it."""
    client = Redis(port=redis_port)
    client.flushall()
    for key, values in first.saved.items():
        client.sadd(key, *values)
    return _url(redis_port)


@pytest.mark.spec("STDIO-SURVIVE")
def test_a_finding_is_replayed_first_by_a_campaign_with_another_seed_and_directory(
    tmp_path: Path, redis_url: str, first: FirstCampaign
) -> None:
    assert first.status == 1 and "STDIO-SURVIVE" in _failures(first.report)
    assert first.saved and all(key.startswith(key_prefix(GENERATED_ONLY, None, Profile.SPEC)) for key in first.saved)
    status, alone = campaign(tmp_path, "alone", "spec", GENERATED_ONLY, CORPUS + 1, *OTHER_SEED)
    assert (status, _failures(alone)) == (0, set())
    # As many cases after the corpus as examples saved: the failure comes from one of them, replayed
    # before any is generated.
    saved = _saved_failures(first)
    status, second = campaign(tmp_path, "second", "spec", GENERATED_ONLY, CORPUS + saved, *OTHER_SEED, "--database", redis_url)
    assert status == 1 and CORPUS < second["first_failure_at_case"] <= CORPUS + saved  # type: ignore[operator]
    assert set() < _failures(second) <= _failures(first.report)


@pytest.mark.spec("STDIO-SURVIVE")
def test_read_only_replays_from_redis_and_keeps_its_own_examples_in_the_campaign_directory(
    tmp_path: Path, redis_url: str, first: FirstCampaign
) -> None:
    # A value that is no record of Hypothesis's choices: a campaign that writes deletes it.
    client = Redis.from_url(redis_url)
    for key in client.keys("*"):
        client.sadd(key, b"stale")
    before = _contents(redis_url)
    saved = _saved_failures(first)
    status, reader = campaign(
        tmp_path, "reader", "spec", GENERATED_ONLY, CORPUS + 2 * saved, *OTHER_SEED, "--database", redis_url,
        "--database-read-only", "--jobs", "2",
    )  # fmt: skip
    # Each job runs its half of the corpus, then replays.
    assert status == 1 and CORPUS // 2 < reader["first_failure_at_case"] <= CORPUS + 2 * saved  # type: ignore[operator]
    assert _contents(redis_url) == before
    assert any((tmp_path / "reader-spec" / "examples").rglob("*"))
    # Enough cases to replay every value saved, whichever Hypothesis replays first.
    status, _ = campaign(tmp_path, "writer", "spec", GENERATED_ONLY, FINDING_CASES, *OTHER_SEED, "--database", redis_url)
    assert status == 1
    assert _contents(redis_url) != before  # the stale values are gone: what read-only mode kept from happening


def test_campaigns_share_examples_only_with_the_same_target_protocol_version_and_profile() -> None:
    prefix = key_prefix(["/usr/bin/python3", "server.py"], None, Profile.SPEC)
    assert prefix.startswith(b"mcpref-") and prefix.endswith(b":")
    assert key_prefix([".venv/bin/python3", "server.py"], None, Profile.SPEC) == prefix
    others = {
        key_prefix(["/usr/bin/python3", "/srv/server.py"], None, Profile.SPEC),
        key_prefix(["/usr/bin/node", "server.py"], None, Profile.SPEC),
        key_prefix(["/usr/bin/python3", "server.py"], "2025-06-18", Profile.SPEC),
        key_prefix(["/usr/bin/python3", "server.py"], "2026-07-28", Profile.SPEC),
        key_prefix(["/usr/bin/python3", "server.py"], None, Profile.STRICT),
    }
    assert len(others) == 5 and prefix not in others


@pytest.mark.parametrize(
    ("options", "message"),
    [
        (["--database", "http://127.0.0.1/0"], "Redis URL must specify one of the following schemes"),
        (["--database", "redis://127.0.0.1:6379/zero"], "the database number must be a whole number"),
        (["--database-read-only"], "--database-read-only needs --database"),
    ],
)
def test_a_database_that_cannot_be_used_is_a_usage_error(options: list[str], message: str) -> None:
    refused = mcpref("fuzz", "--max-cases", "1", *options)
    assert (refused.returncode, refused.stderr.count("\n")) == (2, 1)
    assert refused.stderr.startswith("mcpref: ") and message in refused.stderr


def test_without_the_redis_extra_a_shared_database_is_a_usage_error_that_names_the_extra(tmp_path: Path) -> None:
    # As where redis is not installed: the Redis module cannot be imported.
    environ = {**os.environ, "PYTHONPATH": str(tmp_path)}
    (tmp_path / "redis").mkdir()
    (tmp_path / "redis" / "__init__.py").write_text("raise ImportError('No module named redis')\n")
    refused = subprocess.run(
        [sys.executable, "-m", "mcpref", "fuzz", "--max-cases", "1", "--database", "redis://127.0.0.1:1/0"],
        env=environ, capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip
    assert (refused.returncode, refused.stderr.count("\n")) == (2, 1), refused.stderr
    assert "--database needs the redis extra: pip install 'mcpref[redis]'" in refused.stderr


def test_an_unreachable_redis_is_a_usage_error_that_does_not_show_its_password() -> None:
    with socket.socket() as bound:  # bound, never listening: a connection to it is refused
        bound.bind(("127.0.0.1", 0))
        url = f"redis://:hunter2@127.0.0.1:{bound.getsockname()[1]}/0"
        refused = mcpref("fuzz", "--max-cases", "1", "--database", url)
    assert (refused.returncode, refused.stderr.count("\n")) == (2, 1)
    assert refused.stderr.startswith("mcpref: --database: Redis cannot be used: ")
    assert "hunter2" not in refused.stderr


@pytest.mark.parametrize("read_only", [False, True])
def test_a_redis_lost_midway_is_told_once_and_the_campaign_goes_on_with_its_directory(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], read_only: bool
) -> None:
    server, port = _start_redis(tmp_path)
    database = open_database(tmp_path / "campaign", _url(port), read_only=read_only, prefix=b"lost:")
    database.save(b"key", b"kept locally")  # read only: into the campaign directory's
    Redis(port=port).sadd(b"lost:key", b"shared")
    assert set(database.fetch(b"key")) == {b"kept locally", b"shared"}  # read only: both databases
    server.terminate()
    server.wait()
    database.save(b"key", b"after")
    database.delete(b"key", b"kept locally")
    database.move(b"key", b"other", b"after")
    assert (set(database.fetch(b"key")), set(database.fetch(b"other"))) == (set(), {b"after"})
    told = capsys.readouterr().err.splitlines()
    assert len(told) == 1 and told[0].startswith("mcpref fuzz: Redis was lost"), told
    # A whole campaign on it: the directory's database takes its findings.
    outcome = Campaign(SILENT, seed=1, max_cases=CORPUS, database=database).run()
    assert "RPC-PARSE-ERROR" in {failure.rule for failure in outcome.failures}
