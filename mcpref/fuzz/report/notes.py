"""The entries of SPEC_NOTES.md that reports show: each rule's citations and its recorded text.

SPEC_NOTES.md is the human document and the one source. The package carries what reports
need of it as ``spec_notes.json``, so that an installed copy cites as a clone does; it is
written from the document by ``python -m mcpref.fuzz.report.notes SPEC_NOTES.md`` (``make notes``),
and tests/test_spec_notes.py holds the two equal.

An entry is a ``### RULE-ID`` heading, then ``- Level:``, ``- Versions:`` and ``- Source:``
lines (the sources separated by `` ; ``), a blank line, and prose.
"""

from __future__ import annotations

import functools
import json
import sys
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

PACKAGED = "spec_notes.json"


@dataclass(frozen=True)
class Entry:
    sources: tuple[str, ...]  # the citations, as URLs
    text: str  # the first paragraph of prose, on one line


def parse(document: str) -> dict[str, Entry]:
    """The entries of a SPEC_NOTES.md text, by rule ID."""
    lines = document.splitlines()
    found: dict[str, Entry] = {}
    for index, line in enumerate(lines):
        if not line.startswith("### "):
            continue
        sources: tuple[str, ...] = ()
        body = index + 1
        while body < len(lines) and lines[body].startswith("- "):
            if lines[body].startswith("- Source: "):
                sources = tuple(s.strip() for s in lines[body].removeprefix("- Source: ").split(" ; "))
            body += 1
        paragraph = []
        for text in lines[body + 1 :]:
            if not text.strip() or text.startswith("#"):
                break
            paragraph.append(text.strip().removeprefix("> "))  # a quoted normative sentence stays quoted
        found[line[4:].strip()] = Entry(sources, " ".join(paragraph))
    return found


def dump(found: dict[str, Entry]) -> str:
    """The packaged form of ``found``: JSON, one rule a key, in ID order."""
    data = {rule: {"sources": list(entry.sources), "text": entry.text} for rule, entry in found.items()}
    return json.dumps(data, indent=1, ensure_ascii=False, sort_keys=True) + "\n"


@functools.cache
def entries() -> dict[str, Entry]:
    """The packaged entries."""
    data = json.loads(resources.files(__package__).joinpath(PACKAGED).read_text(encoding="utf-8"))
    return {rule: Entry(tuple(value["sources"]), value["text"]) for rule, value in data.items()}


def entry(rule: str) -> Entry:
    """The entry of ``rule``; every rule of the registry has one (tests/test_spec_notes.py)."""
    return entries()[rule]


def citation(rule: str) -> str:
    """The rule's first citation: the text a failure of it breaks, for a line that names the failure."""
    return entry(rule).sources[0]


def main(argv: list[str]) -> int:
    """Write the packaged entries from the SPEC_NOTES.md named by ``argv``."""
    if len(argv) != 1:
        print("usage: python -m mcpref.fuzz.report.notes SPEC_NOTES.md", file=sys.stderr)
        return 2
    found = parse(Path(argv[0]).read_text(encoding="utf-8"))
    Path(__file__).with_name(PACKAGED).write_text(dump(found), encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
