"""Hostile target: writes lines that are not messages to stdout as fast as it can, forever."""

import os

junk = b"flood " * 1000 + b"\n"
while True:
    os.write(1, junk)
