"""SPEC_NOTES.md, the rule registry, the code and the tests name the same requirement IDs.

Static checks over the source text, so they hold whichever tests were selected.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from mcpref.fuzz.report import notes, rules_table
from mcpref.reference.rules import EVERY_RULE as RULES
from mcpref.reference.versions import describe

ROOT = Path(__file__).resolve().parents[1]
NOTES = ROOT / "SPEC_NOTES.md"
ID = re.compile(r"\b(?:FRAME|STDIO|RPC|LIFE|MOD|CAP|PROGRESS|TASKS|TOOLS|RESOURCES|PROMPTS|COMPLETION|SERVER|CLIENT)-[A-Z0-9]+(?:-[A-Z0-9]+)*\b")
MARK = re.compile(r"pytest\.mark\.spec\(([^)]*)\)", re.DOTALL)


def notes_fields() -> dict[str, tuple[str, str]]:
    """ID -> (level, versions), from each `### ID` heading and the `- Level:` and `- Versions:` lines after it."""
    if not NOTES.exists():
        pytest.skip(f"{NOTES} is missing")
    lines = NOTES.read_text(encoding="utf-8").splitlines()
    fields = {}
    for index, line in enumerate(lines):
        if line.startswith("### "):
            rule = line[4:].strip()
            assert lines[index + 1].startswith("- Level: "), rule
            assert lines[index + 2].startswith("- Versions: "), rule
            assert lines[index + 3].startswith("- Source: http"), rule
            assert lines[index + 4].startswith("- Passes when: "), rule  # the evidence a pass stands on
            level = lines[index + 1].removeprefix("- Level: ").strip()
            versions = lines[index + 2].removeprefix("- Versions: ").strip()
            fields[rule] = (level, versions)
    return fields


def notes_entries() -> dict[str, str]:
    """ID -> level, from each `### ID` heading and the `- Level:` line right after it."""
    return {rule: level for rule, (level, _) in notes_fields().items()}


def sources(*folders: str) -> list[Path]:
    return [path for folder in folders for path in sorted((ROOT / folder).rglob("*.py"))]


def test_every_rule_has_an_entry_with_its_level_and_nothing_else() -> None:
    entries = notes_entries()
    assert entries == {rule.id: rule.level.value for rule in RULES}


def test_the_package_carries_each_entrys_citations_and_text_as_the_document_has_them() -> None:
    document = notes.parse(NOTES.read_text(encoding="utf-8"))
    packaged = (ROOT / "mcpref" / "fuzz" / "report" / notes.PACKAGED).read_text(encoding="utf-8")
    assert packaged == notes.dump(document), "mcpref/fuzz/report/spec_notes.json differs from SPEC_NOTES.md: run make notes"
    assert all(entry.sources and entry.text for entry in notes.entries().values())
    assert notes.entries().keys() == {rule.id for rule in RULES}


def test_the_page_of_where_each_rule_is_judged_is_the_one_the_code_gives() -> None:
    page = (ROOT / "docs" / "rules-in-code.md").read_text(encoding="utf-8")
    assert page == rules_table.markdown(), "docs/rules-in-code.md differs from the code: run make notes"
    assert all(f"[{rule.id}]" in page for rule in RULES)


def test_every_entry_names_the_versions_of_its_rule() -> None:
    versions = {rule: written for rule, (_, written) in notes_fields().items()}
    assert versions == {rule.id: describe(rule.versions) for rule in RULES}


def test_every_id_cited_in_code_and_tests_exists() -> None:
    known = {rule.id for rule in RULES}
    cited = {
        (path.relative_to(ROOT).as_posix(), match)
        for path in sources("mcpref", "tests", "examples")
        for match in ID.findall(path.read_text(encoding="utf-8"))
    }
    assert {(path, rule) for path, rule in cited if rule not in known} == set()


def test_every_rule_is_named_by_a_test() -> None:
    named = {
        rule
        for path in sources("tests")
        for arguments in MARK.findall(path.read_text(encoding="utf-8"))
        for rule in ID.findall(arguments)
    }
    assert {rule.id for rule in RULES} - named == set()
