"""Hostile target: a correct server for its first 40 lines; after them, ping is a method it does not know.

No case is that long, so a fresh process for each case never sees it fail; a process
kept across cases does. The campaign must not report what only the kept process showed.
"""

import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from mcpref.reference.dispatcher import ServerSession
from mcpref.reference.session_types import Effect, Send, StartTimer

session, seen, buffer = ServerSession(), 0, b""


def perform(effects: list[Effect]) -> None:
    for effect in effects:
        if isinstance(effect, Send):
            os.write(1, effect.data)
        elif isinstance(effect, StartTimer):  # a slow call (attendre), served in turn
            time.sleep(effect.seconds)
            perform(session.complete(effect.token))


while chunk := os.read(0, 65536):
    *lines, buffer = (buffer + chunk).split(b"\n")
    for line in lines:
        seen += 1
        if seen > 40:
            line = line.replace(b'"method":"ping"', b'"method":"pong"')
        perform(session.receive_data(line + b"\n"))
