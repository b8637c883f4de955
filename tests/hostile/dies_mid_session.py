"""Hostile target: a correct server for its first two lines, then it dies."""

import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from mcpref.reference.dispatcher import ServerSession
from mcpref.reference.session_types import Send

session, seen = ServerSession(), 0
while (chunk := os.read(0, 65536)) and seen < 2:
    for line in chunk.split(b"\n")[:-1]:
        seen += 1
        for effect in session.receive_data(line + b"\n"):
            if isinstance(effect, Send):
                os.write(1, effect.data)
        if seen == 2:
            os._exit(3)
