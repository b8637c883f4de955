"""Hostile target: a correct server for its first 40 lines; after them, ping is a method it does not know.

No case is that long, so a fresh process for each case never sees it fail; a process
kept across cases does. The campaign must not report what only the kept process showed.
"""

import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from mcpref.reference.dispatcher import Send, ServerSession

session, seen, buffer = ServerSession(), 0, b""
while chunk := os.read(0, 65536):
    *lines, buffer = (buffer + chunk).split(b"\n")
    for line in lines:
        seen += 1
        if seen > 40:
            line = line.replace(b'"method":"ping"', b'"method":"pong"')
        for effect in session.receive_data(line + b"\n"):
            if isinstance(effect, Send):
                os.write(1, effect.data)
