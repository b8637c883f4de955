"""A campaign's example database, from ``mcpref fuzz``'s ``--database`` and ``--database-read-only``.

Without ``--database``, the campaign's own: Hypothesis's ``DirectoryBasedExampleDatabase`` in
``examples/`` under the campaign directory. With ``--database redis://HOST:PORT/N``, a shared
one: Hypothesis's ``RedisExampleDatabase``, which campaigns on several machines read and write,
each replaying first what any of them found. With ``--database-read-only`` as well, the shared
database is only read (Hypothesis's ``ReadOnlyDatabase``), beside the campaign directory's, which
is read and written (``MultiplexedDatabase``): a CI run replays the team's findings, keeps its
own locally, and changes nothing in Redis.

Hypothesis files a campaign's examples under keys of its own, derived from the campaign's test
function: the same for every campaign of one mcpref, whatever its target. A campaign directory
belongs to one target; a Redis database is shared by all, so its keys carry a prefix naming
which campaigns may replay each other's examples::

    mcpref-VERSION:hypothesis-VERSION:PROTOCOL_VERSION:PROFILE:TARGET:

(for example ``mcpref-0.1.0:hypothesis-6.170.17:legacy:spec:c8390fc09fae61ca:``), made of

- the versions of mcpref and Hypothesis: an example is a record of Hypothesis's choices, which
  give other cases under other strategies or another Hypothesis;
- the protocol version of ``--version``, or ``legacy`` without it: each draws other cases;
- the profile: Hypothesis deletes a replayed example that no longer fails, and a case that fails
  under ``strict`` may pass under ``spec``;
- the target: 16 hex digits of a SHA-256 of its argv, the program (``argv[0]``) by its name
  alone, so that ``/usr/bin/python3 server.py`` and ``.venv/bin/python3 server.py`` share,
  while ``python3 server.py`` and ``python3 /srv/server.py`` do not.

The seed is not in it: campaigns with other seeds share their findings, which is the point.
Hypothesis lets a key expire after eight days without a read or a write (its default).

A Redis lost midway does not end a campaign of hours: the first error is told on stderr, once,
and the campaign goes on with its directory's database alone (``SharedOrLocal``).
"""

from __future__ import annotations

import hashlib
import sys
from collections.abc import Callable, Iterable, Sequence
from importlib import metadata
from pathlib import Path
from typing import TypeVar
from urllib.parse import urlsplit

import hypothesis
from hypothesis.database import DirectoryBasedExampleDatabase, ExampleDatabase, MultiplexedDatabase, ReadOnlyDatabase
from hypothesis.extra.redis import RedisExampleDatabase
from redis import Redis
from redis.exceptions import RedisError

from mcpref.fuzz.oracle import Profile

T = TypeVar("T")
# Seconds to connect to Redis or to get an answer: an unreachable host is a usage error, not a hang.
REDIS_TIMEOUT = 10.0


class DatabaseError(Exception):
    """A ``--database`` that cannot be used; the message says why, in one line."""


class PicklableRedisDatabase(RedisExampleDatabase):
    """Hypothesis's Redis database, pickled as its URL and key prefix.

    ``--jobs`` sends each job its campaign in a pickle, and a Redis client does not pickle (it
    holds locks): each job connects anew.
    """

    def __init__(self, url: str, key_prefix: bytes) -> None:
        super().__init__(_client(url), key_prefix=key_prefix)
        self.url = url
        self.key_prefix = key_prefix

    def __reduce__(self) -> tuple[type[PicklableRedisDatabase], tuple[str, bytes]]:
        return type(self), (self.url, self.key_prefix)


class SharedOrLocal(ExampleDatabase):
    """The database that uses Redis, until Redis fails; from then on the campaign directory's.

    Only the sharing is lost: the campaign's findings and reproducers do not depend on it.
    """

    def __init__(self, shared: ExampleDatabase, local: ExampleDatabase) -> None:
        super().__init__()
        self.shared = shared
        self.local = local
        self.lost = False

    def _use(self, action: Callable[[ExampleDatabase], T]) -> T:
        if not self.lost:
            try:
                return action(self.shared)
            except RedisError as exc:
                self.lost = True
                reason = " ".join(str(exc).split())  # as open_database says it: never the URL
                sys.stderr.write(
                    f"mcpref fuzz: Redis was lost ({reason}); examples found from now on are kept in the "
                    "campaign directory only\n"
                )
        return action(self.local)

    def save(self, key: bytes, value: bytes) -> None:
        self._use(lambda database: database.save(key, value))

    def fetch(self, key: bytes) -> Iterable[bytes]:
        # Redis's fetch is a generator, which fails only as it is read: it is read here.
        return self._use(lambda database: list(database.fetch(key)))

    def delete(self, key: bytes, value: bytes) -> None:
        self._use(lambda database: database.delete(key, value))

    def move(self, src: bytes, dest: bytes, value: bytes) -> None:
        self._use(lambda database: database.move(src, dest, value))


def _client(url: str) -> Redis:
    parts = urlsplit(url)
    number = parts.path.strip("/")
    if parts.scheme in ("redis", "rediss") and number and not number.isdigit():
        # redis-py would use database 0 in silence.
        raise DatabaseError(f"--database: the database number must be a whole number, not {number!r}")
    try:
        return Redis.from_url(url, socket_connect_timeout=REDIS_TIMEOUT, socket_timeout=REDIS_TIMEOUT)
    except ValueError as exc:
        raise DatabaseError(f"--database: {exc}") from None


def key_prefix(command: Sequence[str], version: str | None, profile: Profile) -> bytes:
    """The prefix of the Redis keys of campaigns against ``command`` that may share their examples."""
    program, *arguments = command
    target = hashlib.sha256("\0".join([Path(program).name, *arguments]).encode()).hexdigest()[:16]
    parts = [
        f"mcpref-{metadata.version('mcpref')}",
        f"hypothesis-{hypothesis.__version__}",
        version or "legacy",
        profile.value,
        target,
    ]
    return (":".join(parts) + ":").encode()


def open_database(directory: Path, url: str | None, *, read_only: bool, prefix: bytes) -> ExampleDatabase:
    """The campaign directory's database; Redis's at ``url``; or Redis's, read only, beside the directory's.

    Redis must answer a PING: a database that cannot be reached is refused before the campaign starts.
    """
    local = DirectoryBasedExampleDatabase(directory / "examples")
    if url is None:
        if read_only:
            raise DatabaseError("--database-read-only needs --database")
        return local
    shared = PicklableRedisDatabase(url, prefix)
    try:
        shared.redis.ping()
    except RedisError as exc:
        # Neither the URL nor its password is repeated: the message goes to CI logs.
        raise DatabaseError(f"--database: Redis cannot be used: {' '.join(str(exc).split())}") from None
    return SharedOrLocal(MultiplexedDatabase(local, ReadOnlyDatabase(shared)) if read_only else shared, local)
