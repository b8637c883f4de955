"""Lawful: integers of any length are parsed exactly, beyond the reference's 4300 digits.

Rule: RPC-JSON-LIMITS (reference decision). The reference refuses an integer longer than
4300 digits (Python's default limit) with -32700 and id null; this server lifts the limit,
so such an integer is read and, as an id, echoed digit for digit.
Permitted: SPEC_NOTES RPC-JSON-LIMITS, Alternatives ("a peer may use other limits, parse
large numbers exactly"); RFC 8259 section 9 (the range of numbers is the implementation's
to limit, or not).
Expected under ``spec``: an RPC-JSON-LIMITS warning at most, no failure.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # examples/, for the shared _harness

from _harness import run

if __name__ == "__main__":
    sys.set_int_max_str_digits(0)  # no limit, for parsing and for echoing
    raise SystemExit(run())
