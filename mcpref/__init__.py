"""mcpref: the reference, oracle and fuzzer of the Model Context Protocol's stdio layer.

Installed and imported as one package: ``mcpref.reference`` (the implementation, standard
library only) and ``mcpref.fuzz`` (the oracle, the fuzzer and the command line). Importing
this package imports neither.
"""

# The one spelling of the version: pyproject.toml reads it, and the reference announces it.
__version__ = "0.1.0"
