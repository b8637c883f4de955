"""The shared example database in Redis, for ``mcpref fuzz --database redis://HOST:PORT/N``.

Imported only for such a database: Redis is the ``redis`` extra of mcpref. Keys and sharing are
described in ``fuzz.campaign.database``. A Redis lost midway does not end a campaign of hours: the first
error is told on stderr, once, and the campaign goes on with its directory's database alone
(``SharedOrLocal``).
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterable
from typing import TypeVar
from urllib.parse import urlsplit

from hypothesis.database import ExampleDatabase, MultiplexedDatabase, ReadOnlyDatabase
from hypothesis.extra.redis import RedisExampleDatabase
from redis import Redis
from redis.exceptions import RedisError

T = TypeVar("T")
# Seconds to connect to Redis or to get an answer: an unreachable host is a usage error, not a hang.
REDIS_TIMEOUT = 10.0


class Unusable(Exception):
    """Redis cannot be used at the URL given; the message says why, never with the URL."""


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
        raise Unusable(f"--database: the database number must be a whole number, not {number!r}")
    try:
        return Redis.from_url(url, socket_connect_timeout=REDIS_TIMEOUT, socket_timeout=REDIS_TIMEOUT)
    except ValueError as exc:
        raise Unusable(f"--database: {exc}") from None


def open_shared(local: ExampleDatabase, url: str, *, read_only: bool, prefix: bytes) -> ExampleDatabase:
    """Redis's database at ``url``, or Redis's read only beside ``local``; ``local`` alone once Redis fails.

    Redis must answer a PING: a database that cannot be reached is refused before the campaign starts.
    """
    shared = PicklableRedisDatabase(url, prefix)
    try:
        shared.redis.ping()
    except RedisError as exc:
        # Neither the URL nor its password is repeated: the message goes to CI logs.
        raise Unusable(f"--database: Redis cannot be used: {' '.join(str(exc).split())}") from None
    return SharedOrLocal(MultiplexedDatabase(local, ReadOnlyDatabase(shared)) if read_only else shared, local)
