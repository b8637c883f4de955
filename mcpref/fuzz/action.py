"""``python -m mcpref.fuzz.action``: the GitHub Action's script, under the path documented for
running it anywhere. The code is ``mcpref.fuzz.integrate.action``."""

import sys

from mcpref.fuzz.integrate.action import main

if __name__ == "__main__":
    sys.exit(main())
