"""Bug: the tool's text is printed with each non-ASCII character replaced by ``?``.

The reference prints the text as the server returned it, in UTF-8.
Caught as: CLIENT-RESULT-SHOWN, profile ``strict`` (a reference decision).
"""

from __future__ import annotations

import sys

from _client_harness import run


def show(text: str) -> None:
    sys.stdout.buffer.write(text.encode("ascii", "replace") + b"\n")
    sys.stdout.flush()


if __name__ == "__main__":
    raise SystemExit(run(show=show))
