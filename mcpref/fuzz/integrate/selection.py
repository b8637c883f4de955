"""Which rules a run judges: ``--select`` and ``--ignore``, by ID or prefix, and ``[tool.mcpref]``.

A pattern is a rule ID (``RPC-BATCH``: that rule alone) or a prefix of IDs ending at a dash
(``RPC``, ``LIFE-``, ``RPC-BATCH-``: every rule it begins); one that names no rule is a usage
error, as a typo would be. With no
``select``, every rule is selected; ``ignore`` then takes rules away; a selection that leaves no
rule is a usage error too. A command line with ``--select`` or ``--ignore`` replaces the
configuration's whole selection: what it says is what is judged. The configuration is the ``[tool.mcpref]`` table of the ``pyproject.toml`` in the
folder a run starts in (the CLI and the Action) or in pytest's root folder (the plugin)::

    [tool.mcpref]
    select = ["RPC", "FRAME"]
    ignore = ["FRAME-BOM"]

A rule left out is not judged: ``check`` runs only the scenarios that exercise a selected rule
and lists only selected rules, and a campaign takes no finding of an unselected rule for a
failure (nor a warning). The table is read strictly, as pytest's strict configuration is: a key
other than ``select`` and ``ignore``, or a value of another type, is a usage error, even on a
command line whose selection replaces the table's.
"""

from __future__ import annotations

import argparse
import tomllib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from mcpref.reference.rules import RULES


class SelectionError(Exception):
    """A pattern that names no rule, a selection that leaves none, or a configuration that cannot be
    read; the message says which."""


KEYS = ("select", "ignore")  # of ``[tool.mcpref]``


_IDS = frozenset(rule.id for rule in RULES)


def _matches(pattern: str, rule: str) -> bool:
    if pattern in _IDS:  # an ID names its rule alone: RPC-BATCH, not RPC-BATCH-INITIALIZE
        return rule == pattern
    return rule.startswith(pattern if pattern.endswith("-") else pattern + "-")


@dataclass(frozen=True)
class Selection:
    select: tuple[str, ...] = ()  # empty: every rule
    ignore: tuple[str, ...] = ()

    @property
    def rules(self) -> frozenset[str]:
        """The IDs of the selected rules."""
        return frozenset(rule.id for rule in RULES if self.chosen(rule.id))

    @property
    def narrowed(self) -> bool:
        """Whether some rule is left out."""
        return bool(self.select or self.ignore)

    def chosen(self, rule: str) -> bool:
        selected = not self.select or any(_matches(p, rule) for p in self.select)
        return selected and not any(_matches(p, rule) for p in self.ignore)


def _checked(patterns: Iterable[str], where: str) -> tuple[str, ...]:
    patterns = tuple(patterns)
    for pattern in patterns:
        if not any(_matches(pattern, rule.id) for rule in RULES):
            raise SelectionError(f"{where}: {pattern!r} names no rule (an ID, or a prefix such as RPC or LIFE-)")
    return patterns


def configured(folder: Path) -> Selection:
    """The ``[tool.mcpref]`` selection of ``folder/pyproject.toml``; every rule without one."""
    path = folder / "pyproject.toml"
    try:
        tool = tomllib.loads(path.read_text(encoding="utf-8")).get("tool", {})
    except FileNotFoundError:
        return Selection()
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise SelectionError(f"{path}: {exc}") from None
    table = tool.get("mcpref", {}) if isinstance(tool, dict) else {}
    if not isinstance(table, dict):
        raise SelectionError(f"{path}: [tool.mcpref] must be a table")
    unknown = sorted(set(table) - set(KEYS))
    if unknown:
        raise SelectionError(f"{path}: [tool.mcpref] has no key {', '.join(map(repr, unknown))} (its keys: {', '.join(KEYS)})")
    lists = {key: table.get(key, []) for key in KEYS}
    for key, value in lists.items():
        if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
            raise SelectionError(f"{path}: [tool.mcpref] {key} must be a list of rule IDs or prefixes")
    where = f"{path} [tool.mcpref]"
    return _leaving_some(Selection(_checked(lists["select"], where), _checked(lists["ignore"], where)), where)


def _leaving_some(selection: Selection, where: str) -> Selection:
    if not selection.rules:
        raise SelectionError(f"{where}: the selection leaves no rule to judge")
    return selection


def chosen(
    folder: Path,
    select: Sequence[str] | None,
    ignore: Sequence[str] | None,
    names: tuple[str, str] = ("--select", "--ignore"),
) -> Selection:
    """The selection of ``folder``'s configuration, replaced whole by the command line's if it gives
    either list. ``names``: the options the command line spells them with."""
    base = configured(folder)  # read, and refused if bad, whoever wins
    if select is None and ignore is None:
        return base
    given = Selection(_checked(select or (), names[0]), _checked(ignore or (), names[1]))
    return _leaving_some(given, " and ".join(name for name, value in zip(names, (select, ignore), strict=True) if value is not None))


def patterns(text: str) -> list[str]:
    return [pattern.strip() for pattern in text.split(",") if pattern.strip()]


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--select", type=patterns, default=None, metavar="IDS", help="judge only these rules: IDs or prefixes, comma-separated"
    )
    parser.add_argument(
        "--ignore", type=patterns, default=None, metavar="IDS", help="leave these rules out: IDs or prefixes, comma-separated"
    )


def from_arguments(args: argparse.Namespace, folder: Path | None = None) -> Selection:
    """The selection of a command line; raises ``SelectionError``."""
    return chosen(folder or Path.cwd(), args.select, args.ignore)
