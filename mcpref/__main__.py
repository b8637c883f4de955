"""``python -m mcpref``: the ``mcpref`` command."""

import sys

from mcpref.command import main

sys.exit(main())
