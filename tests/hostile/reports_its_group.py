"""Hostile target: starts a child of its own, writes its process group's id to a file named by its
pid in the folder it is given (the signal tests' readiness marker), then reads everything and
answers nothing, or, with ``pings`` after the folder, answers each ping and nothing else."""

import json
import os
import subprocess
import sys

subprocess.Popen([sys.executable, "-c", "import time; time.sleep(3600)"])
marker = os.path.join(sys.argv[1], str(os.getpid()))
with open(marker + ".tmp", "w") as file:
    file.write(str(os.getpgrp()))
os.rename(marker + ".tmp", marker)  # whole once seen
pings = sys.argv[2:] == ["pings"]
for line in sys.stdin.buffer:
    try:
        message = json.loads(line)
    except ValueError:
        continue
    if pings and isinstance(message, dict) and message.get("method") == "ping" and "id" in message:
        sys.stdout.write(json.dumps({"jsonrpc": "2.0", "id": message["id"], "result": {}}) + "\n")
        sys.stdout.flush()
