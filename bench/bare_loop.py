"""Item 2's reference point: a bare Python loop that reads lines and writes a canned answer.

The practical ceiling of a Python stdio server: no parsing, no dispatch, one canned
answer per line, flushed at once as a server's answer must be (a client that sends one
request and waits for it must get it without sending more).
"""

import sys

ANSWER = b'{"jsonrpc":"2.0","id":0,"result":{}}\n'


def main() -> None:
    out = sys.stdout.buffer
    for _ in sys.stdin.buffer:
        out.write(ANSWER)
        out.flush()


if __name__ == "__main__":
    main()
