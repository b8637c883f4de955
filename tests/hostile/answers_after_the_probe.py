"""Target: a correct server that answers out of order, a tools/call long after the pings that follow it.

The call is computed in a thread, 300 ms of CPU time, while the main thread answers
the probe at once. Nothing is missing; the answer just comes late.
"""

import os
import sys
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from mcpref.reference.dispatcher import ServerSession
from mcpref.reference.session_types import Send

session, lock = ServerSession(), threading.Lock()


def out(data: bytes) -> None:
    with lock:
        os.write(1, data)


def slow(line: bytes) -> None:
    ends = time.thread_time() + 0.3
    while time.thread_time() < ends:
        pass
    for effect in session.receive_data(line):
        if isinstance(effect, Send):
            out(effect.data)


buffer = b""
while chunk := os.read(0, 65536):
    *lines, buffer = (buffer + chunk).split(b"\n")
    for line in lines:
        if b'"tools/call"' in line:
            threading.Thread(target=slow, args=(line + b"\n",)).start()
            continue
        for effect in session.receive_data(line + b"\n"):
            if isinstance(effect, Send):
                out(effect.data)
