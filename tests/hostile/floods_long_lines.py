"""Hostile target: writes lines of 1 MiB that are not messages to stdout, as fast as it can, forever."""

import os

line = b"y" * (1024 * 1024 - 1) + b"\n"
while True:
    os.write(1, line)
