"""Servers made for the tests: bugs that no example of ``examples/buggy/`` stands for."""

from __future__ import annotations

import sys
from pathlib import Path

from mcpref.fuzz.generate.campaign_cases import corpus_cases
from mcpref.reference.versions import Era

# The example database keeps the failures Hypothesis generates; a campaign runs check's corpus first
# (explicit examples, never saved), so the tests of what is kept fuzz a server whose bug only generated
# cases reach: an id of 10^30 or more makes it exit (STDIO-SURVIVE).
GENERATED_ONLY = [sys.executable, str(Path(__file__).parent / "dies_on_ids_past_10_30.py")]
CORPUS = len(corpus_cases(Era.LEGACY))  # the cases every legacy campaign runs first
