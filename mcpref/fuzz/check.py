"""``mcpref.fuzz.check``: where the Python API's ``Report`` has been documented; the path stays.

The code is ``mcpref.fuzz.integrate.check``; ``mcpref.check(argv)`` is the way in.
"""

from mcpref.fuzz.integrate.check import Report, RuleResult

__all__ = ["Report", "RuleResult"]
