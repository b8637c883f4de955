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
- the protocol version of ``--protocol-version``, or ``legacy`` without it: each draws other cases;
- the profile: Hypothesis deletes a replayed example that no longer fails, and a case that fails
  under ``strict`` may pass under ``spec``;
- the target: 16 hex digits of a SHA-256 of its argv, the program (``argv[0]``) by its name
  alone, so that ``/usr/bin/python3 server.py`` and ``.venv/bin/python3 server.py`` share,
  while ``python3 server.py`` and ``python3 /srv/server.py`` do not.

The seed is not in it: campaigns with other seeds share their findings, which is the point.
Hypothesis lets a key expire after eight days without a read or a write (its default).

Redis is an extra (``pip install 'mcpref[redis]'``), imported only for a ``redis://`` database:
``fuzz.campaign.redis_database``.

Hypothesis keeps files of its own too (a cache of Unicode tables), by default in ``.hypothesis/``
of the current folder: while a campaign runs they go to a folder of the campaign's
(``hypothesis_home``), never to the user's current one.
"""

from __future__ import annotations

import contextlib
import hashlib
import tempfile
from collections.abc import Iterator, Sequence
from pathlib import Path

import hypothesis
from hypothesis.configuration import set_hypothesis_home_dir
from hypothesis.database import DirectoryBasedExampleDatabase, ExampleDatabase

from mcpref import __version__
from mcpref.fuzz.judge.oracle import Profile


class DatabaseError(Exception):
    """A ``--database`` that cannot be used; the message says why, in one line."""


def key_prefix(command: Sequence[str], version: str | None, profile: Profile) -> bytes:
    """The prefix of the Redis keys of campaigns against ``command`` that may share their examples."""
    program, *arguments = command
    target = hashlib.sha256("\0".join([Path(program).name, *arguments]).encode()).hexdigest()[:16]
    parts = [
        f"mcpref-{__version__}",
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
    try:
        from mcpref.fuzz.campaign import redis_database  # the redis extra: few campaigns share a database
    except ImportError as exc:
        raise DatabaseError(f"--database needs the redis extra: pip install 'mcpref[redis]' ({exc})") from None
    try:
        return redis_database.open_shared(local, url, read_only=read_only, prefix=prefix)
    except redis_database.Unusable as exc:
        raise DatabaseError(str(exc)) from None


@contextlib.contextmanager
def hypothesis_home(directory: Path | None) -> Iterator[None]:
    """Hypothesis's own files in ``directory`` while the block runs; in a temporary folder, removed
    after, when None (fuzz-client, which keeps no folder). Its default home again after."""
    with contextlib.ExitStack() as stack:
        home = directory or Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="mcpref-hypothesis-")))
        set_hypothesis_home_dir(home)
        stack.callback(set_hypothesis_home_dir, None)
        yield
