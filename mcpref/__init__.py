"""mcpref: the reference, oracle and fuzzer of the Model Context Protocol's stdio layer.

Installed and imported as one package: ``mcpref.reference`` (the implementation, standard
library only) and ``mcpref.fuzz`` (the oracle, the fuzzer and the command line). Importing
this package imports neither.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from mcpref.fuzz.integrate.check import Report

# The one spelling of the version: pyproject.toml reads it, and the reference announces it.
__version__ = "0.1.0"


def check(
    argv: Sequence[str], *, profile: str = "spec", protocol_version: str | None = None, time_limit: float = 600.0
) -> Report:
    """``mcpref check`` on a server command (an argv list, started without a shell), as a
    ``mcpref.fuzz.check.Report``: ``report.failed``, ``report["RPC-PARSE-ERROR"].status``."""
    from mcpref.fuzz.integrate.check import run

    return run(argv, profile=profile, protocol_version=protocol_version, time_limit=time_limit)
