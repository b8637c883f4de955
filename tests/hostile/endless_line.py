"""Hostile target: writes one line that never ends."""

import os

while True:
    os.write(1, b"x" * 65536)
