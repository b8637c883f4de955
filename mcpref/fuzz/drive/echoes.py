"""What the client wrote, remembered so that the driver can tell a target's own request from an echo.

A target that writes back what it reads (``cat``) writes requests: the client's own. Answered as
the target's requests are (``Process``), they would come back through the echo as answers the
target never wrote, to requests it never read: a ping echoed would answer the liveness probe,
and a non-server would pass the rules it never kept. So a request the target writes is answered
only when it is no message the client wrote, compared as JSON values: an echo that rewrites the
JSON (its spacing, its escapes, the order of its members) is an echo still.
"""

from __future__ import annotations

import json

from mcpref.reference.messages import JsonObject


class Written:
    """The messages written to a target so far that may read as requests, as hashes of their
    values (a kept process is written many cases)."""

    def __init__(self) -> None:
        self._requests: set[int] = set()
        self._unfinished = bytearray()  # a line cut across writes: its start, written so far

    def add(self, data: bytes) -> None:
        *whole, rest = data.split(b"\n")
        if whole:
            whole[0] = bytes(self._unfinished) + whole[0]
            self._unfinished.clear()
        for line in whole:
            # As ``client_side.inspect_line`` reads the target's lines: only these may spell a method.
            if b'"method"' in line or b"\\u" in line:
                try:
                    self._requests.add(_key(json.loads(line)))
                except (ValueError, RecursionError):
                    continue  # no message: its echo is no request either
        self._unfinished += rest

    def echoed(self, request: JsonObject) -> bool:
        """Whether ``request``, read from the target's output, is a message the client wrote."""
        try:
            return _key(request) in self._requests
        except RecursionError:  # nested past what the encoder follows: no message the client wrote
            return False


def _key(value: object) -> int:
    return hash(json.dumps(value, sort_keys=True))
