"""Target: uses SECONDS (its argument, default forever) of CPU time before it reads anything, then serves as the reference."""

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from mcpref.reference import server

end = time.process_time() + (float(sys.argv[1]) if len(sys.argv) > 1 else float("inf"))
while time.process_time() < end:
    pass
sys.exit(server.main([]))
