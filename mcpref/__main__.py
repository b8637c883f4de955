"""``python -m mcpref``: the ``mcpref`` command."""

import sys

from mcpref.fuzz.cli import main

sys.exit(main())
