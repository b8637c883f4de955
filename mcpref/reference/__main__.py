"""``python -m mcpref.reference``: the reference server, without the fuzzer's dependencies."""

import sys

from .server import main

sys.exit(main())
