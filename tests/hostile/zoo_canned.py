"""Zoo target: answers every line it reads with the same canned result, whatever the line asked."""

import sys

for _ in sys.stdin.buffer:
    sys.stdout.buffer.write(b'{"jsonrpc":"2.0","id":1,"result":{}}\n')
    sys.stdout.buffer.flush()
