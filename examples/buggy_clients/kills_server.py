"""Bug: the server is stopped with SIGTERM while its stdin is still open.

The reference closes the server's stdin first, and sends SIGTERM (then SIGKILL) only to a
server that has not exited 2 s later: a server that reads to the end of its input may finish
its work and exit cleanly.
Imitates: the TypeScript SDK's ``StdioClientTransport.close()`` before its fix, which only
aborted the child process (typescript-sdk issues #532 and #579).
Caught as: CLIENT-SHUTDOWN, profile ``strict``.
"""

from __future__ import annotations

import subprocess

from _client_harness import run

GRACE = 2.0


def shutdown(process: subprocess.Popen[bytes]) -> None:
    process.terminate()  # the server's stdin is still open: the bug
    try:
        process.wait(GRACE)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


if __name__ == "__main__":
    raise SystemExit(run(shutdown=shutdown))
