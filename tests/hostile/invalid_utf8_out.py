"""Hostile target: answers every line with bytes that are not UTF-8."""

import os

while chunk := os.read(0, 65536):
    os.write(1, b"\xff\xfe\x80 not utf-8\n" * chunk.count(b"\n"))
