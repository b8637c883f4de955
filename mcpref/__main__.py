"""``python -m mcpref``: the ``mcpref`` command."""

import sys

from mcpref.fuzz.integrate.cli import main

sys.exit(main())
