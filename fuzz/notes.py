"""The entries of SPEC_NOTES.md, read for what reports show: a rule's citations and its recorded text.

Each entry is a ``### RULE-ID`` heading, then ``- Level:``, ``- Versions:`` and ``- Source:``
lines (the sources separated by `` ; ``), a blank line, and prose. The file sits at the
repository's root; where it is missing (an installed copy without it), an entry is empty
and reports fall back to the registry's one-line summary.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from pathlib import Path

NOTES = Path(__file__).resolve().parents[1] / "SPEC_NOTES.md"


@dataclass(frozen=True)
class Entry:
    sources: tuple[str, ...]  # the citations, as URLs
    text: str  # the first paragraph of prose, on one line


@functools.cache
def entries(notes: Path = NOTES) -> dict[str, Entry]:
    try:
        lines = notes.read_bytes().decode("utf-8", "replace").splitlines()
    except OSError:
        return {}
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


def entry(rule: str, notes: Path = NOTES) -> Entry:
    """The entry of ``rule``; empty when the notes or the entry are missing."""
    return entries(notes).get(rule, Entry((), ""))
