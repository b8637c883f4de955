"""The stdio loop's timer paths: a cancelled call, and stdout closed while a call is pending."""

from __future__ import annotations

import subprocess
import sys
import time

import pytest

# The stdio loops run only in processes of their own: those processes are measured.
pytestmark = pytest.mark.traced

SERVE = [sys.executable, "-m", "mcpref.reference"]
INIT = (
    b'{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25",'
    b'"capabilities":{},"clientInfo":{"name":"t","version":"1"}}}\n'
    b'{"jsonrpc":"2.0","method":"notifications/initialized"}\n'
)
WAIT = b'{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"attendre","arguments":{"ms":300}}}\n'
CANCEL = b'{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1}}\n'


@pytest.mark.spec("RPC-CANCEL", "STDIO-EOF-DRAIN")
def test_a_cancelled_call_is_never_answered_and_eof_still_exits_0() -> None:
    done = subprocess.run(SERVE, input=INIT + WAIT + CANCEL, capture_output=True, timeout=10, check=False)
    assert done.returncode == 0
    assert b'"id":1' not in done.stdout


@pytest.mark.spec("STDIO-SIGNALS")
def test_stdout_closed_while_a_call_is_pending_ends_the_server_quietly() -> None:
    proc = subprocess.Popen(SERVE, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        assert proc.stdin and proc.stdout and proc.stderr
        proc.stdin.write(INIT + WAIT)
        proc.stdin.flush()
        time.sleep(0.1)
        proc.stdout.close()
        assert proc.wait(timeout=10) == 1
        assert b"Traceback" not in proc.stderr.read()
    finally:
        proc.kill()
        proc.wait()
