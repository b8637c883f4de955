"""Hostile target: reads its first line, then never reads stdin again and writes an answer
to id 0 every 10 ms, forever. Output alone must not keep a campaign waiting past its budget.
"""

import os
import sys
import time

sys.stdin.buffer.readline()
while True:
    os.write(1, '{"jsonrpc":"2.0","id":0,"result":{"x":"\xff\xfe"}}\n'.encode())
    time.sleep(0.01)
