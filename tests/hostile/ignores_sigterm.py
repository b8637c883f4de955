"""Hostile target: ignores SIGTERM, starts a child of its own, and never answers."""

import signal
import subprocess
import sys
import time

signal.signal(signal.SIGTERM, signal.SIG_IGN)
# The child is named by the arguments given, if any (the test's own folder), else by a marker.
subprocess.Popen([sys.executable, "-c", "import time; time.sleep(3600)", *(sys.argv[1:] or ["mcpref-hostile-child"])])
time.sleep(3600)
