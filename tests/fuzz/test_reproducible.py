"""A seed and a case budget give the same cases, whatever else the process has loaded.

Hypothesis mixes the literals of every loaded module outside site-packages into its draws,
so without ``campaign._reproducible`` the cases would change with the way mcpref was
installed, with any literal added to its code, and with what else the process imported.
"""

from __future__ import annotations

import hashlib
import importlib.util
import sys
from pathlib import Path

import pytest

from mcpref.fuzz.campaign import Campaign
from mcpref.fuzz.strategies import Case

REFERENCE = [sys.executable, "-m", "mcpref.reference"]


def cases_of_a_campaign(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    seen: list[str] = []
    execute = Campaign.execute

    def recorded(self: Campaign, case: Case, timing: object = None) -> object:
        seen.append(hashlib.sha256(b"|".join(case.chunks)).hexdigest())
        return execute(self, case)

    monkeypatch.setattr(Campaign, "execute", recorded)
    Campaign(REFERENCE, max_cases=40, seed=1, budget=float("inf")).run()
    monkeypatch.setattr(Campaign, "execute", execute)
    return seen


def test_the_cases_do_not_depend_on_the_literals_of_loaded_modules(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    before = cases_of_a_campaign(monkeypatch)
    # A local module full of literals of the kinds the strategies draw, loaded between two runs.
    source = tmp_path / "mcpref_literals.py"
    numbers = ", ".join(str(n) for n in range(-300, 300))
    words = ", ".join(repr(chr(c) * n) for c in range(0x20, 0x7F) for n in (1, 2, 3))
    source.write_text(f"NUMBERS = [{numbers}]\nWORDS = [{words}]\nBYTES = [b'\\xff', b'{{']\n")
    spec = importlib.util.spec_from_file_location("mcpref_literals", source)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    monkeypatch.setitem(sys.modules, "mcpref_literals", module)
    spec.loader.exec_module(module)
    assert cases_of_a_campaign(monkeypatch) == before
    assert len(before) == 40
