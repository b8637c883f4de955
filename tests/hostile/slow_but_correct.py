"""Target: the reference server made slow: 0.7 s to start, then 4 s of CPU time per MiB read.

A correct server on a slow machine, or a Python server with a slow reader (the Python
SDK's takes seconds over a 1 MiB line). Its start-up waits 0.5 s (for a disk, a network, a
lock: no CPU time) and then works 0.2 s. Slow is not dead: it must get the reference's
verdicts, its slowness measured (STDIO-LATENCY) and never failed.
"""

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from mcpref.reference import dispatcher, server, session_types


def burn(seconds: float) -> None:
    end = time.process_time() + seconds
    while time.process_time() < end:
        pass


time.sleep(0.5)
burn(0.2)
receive = dispatcher.ServerSession.receive_data


def slow_receive(self: dispatcher.ServerSession, data: bytes) -> list[session_types.Effect]:
    burn(len(data) * 4.0 / 2**20)
    return receive(self, data)


dispatcher.ServerSession.receive_data = slow_receive  # type: ignore[method-assign]
sys.exit(server.main())
