"""Hostile client: starts the server it is given (the words after the folder and the mode) and a
child of its own, writes its process group's id to a file named by its pid in the folder it is
given (the signal tests' readiness marker), then, with ``hangs``, waits forever without writing a
byte, or, with ``quits``, ends at once (the scripted server then sees its stdin closed)."""

import os
import subprocess
import sys
import time

folder, mode, server = sys.argv[1], sys.argv[2], sys.argv[3:]
started = subprocess.Popen(server, stdin=subprocess.PIPE, stdout=subprocess.PIPE)
# Away from the client's stdout and stderr, which mcpref reads to their end.
subprocess.Popen([sys.executable, "-c", "import time; time.sleep(3600)"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
marker = os.path.join(folder, str(os.getpid()))
with open(marker + ".tmp", "w") as file:
    file.write(str(os.getpgrp()))
os.rename(marker + ".tmp", marker)  # whole once seen
if mode == "hangs":
    time.sleep(3600)
