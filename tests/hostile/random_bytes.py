"""Hostile target: writes random bytes to stdout as fast as it can, forever (a seed of its own,
so that every run writes the same bytes)."""

import os
import random

rng = random.Random(46)
while True:
    os.write(1, rng.randbytes(65536))
