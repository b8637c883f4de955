"""Hostile target: reads everything and answers nothing."""

import os

while os.read(0, 65536):
    pass
