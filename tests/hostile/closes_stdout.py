"""Hostile target: closes its stdout at once but stays alive, reading stdin."""

import os

os.close(1)
while os.read(0, 65536):
    pass
