"""``docs/rules-in-code.md``: for each rule, the module and functions of the oracle that judge it.

In: ``where_judged()`` (the judge's source, read, not run) and the rule registry. Out: a Markdown
table, written by ``make notes`` beside the packaged citations; ``tests/test_spec_notes.py`` fails
while the file in the repository differs from what the code gives.
"""

from __future__ import annotations

import sys
from pathlib import Path

from mcpref.fuzz.judge.where import where_judged
from mcpref.reference.rules import EVERY_RULE

HEADER = """# Where each rule is judged

Written from the code by `make notes`; `make test` fails while this page differs from it. Each
rule links to its entry in SPEC_NOTES.md (level, versions, citation, the evidence that makes it
pass) and names the modules of `mcpref/fuzz/judge/` whose functions file findings under it. A rule
with no such function is one the oracle files nothing under by itself: it is what a scenario
exercises, or it is judged by comparing runs (the campaign's chunkings, `mcpref/fuzz/campaign/`).

| Rule | Level | Judged in |
|---|---|---|
"""


def _places(rule: str, judged: dict[str, list[tuple[str, str]]]) -> str:
    by_module: dict[str, list[str]] = {}
    for module, function in judged.get(rule, []):
        by_module.setdefault(module, []).append(f"`{function}`")
    return "; ".join(
        f"[`judge/{module}.py`](../mcpref/fuzz/judge/{module}.py): {', '.join(functions)}"
        for module, functions in by_module.items()
    ) or "—"


def markdown() -> str:
    judged = where_judged()
    rows = [f"| [{r.id}](../SPEC_NOTES.md#{r.id.lower()}) | {r.level.value} | {_places(r.id, judged)} |" for r in EVERY_RULE]
    return HEADER + "\n".join(rows) + "\n"


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print("usage: python -m mcpref.fuzz.report.rules_table docs/rules-in-code.md", file=sys.stderr)
        return 2
    Path(argv[0]).write_text(markdown(), encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
