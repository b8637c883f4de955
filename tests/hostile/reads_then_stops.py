"""Hostile target: reads its first line, then never reads stdin again and writes nothing."""

import sys
import time

sys.stdin.buffer.readline()
time.sleep(3600)
