"""Hostile target: never reads its stdin and never writes; just waits."""

import time

time.sleep(3600)
