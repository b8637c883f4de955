"""Hostile target: ignores SIGTERM, starts a child of its own, and never answers."""

import signal
import subprocess
import sys
import time

signal.signal(signal.SIGTERM, signal.SIG_IGN)
subprocess.Popen([sys.executable, "-c", "import time; time.sleep(3600)", "mcpref-hostile-child"])
time.sleep(3600)
