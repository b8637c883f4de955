"""Zoo target: writes back each line it reads, 50 ms later, rewritten as JSON with other spacing
where it is JSON: an echo, never an answer (a request written back is still the client's)."""

import contextlib
import json
import sys
import time

for line in sys.stdin.buffer:
    time.sleep(0.05)
    echo = line
    with contextlib.suppress(ValueError):
        echo = (json.dumps(json.loads(line), separators=(", ", ": ")) + "\n").encode()
    sys.stdout.buffer.write(echo)
    sys.stdout.buffer.flush()
