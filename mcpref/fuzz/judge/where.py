"""Where each rule is judged: a rule ID to the judge modules and functions whose code names it.

In: the source of this package's modules, read with ``ast``: nothing is imported or run. Out:
``where_judged()``, for each rule ID of ``mcpref.reference.rules`` written as a string literal in
a judge module, the (module, function) pairs that write it, in source order; a function of a class
is named ``Class.function``, and code outside any function ``<module>``. A rule whose findings the
oracle never makes is absent.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

from mcpref.reference.rules import EVERY_RULE

_PACKAGE = Path(__file__).parent


def where_judged() -> dict[str, list[tuple[str, str]]]:
    """Rule ID -> [(module, function)], in the order of ``EVERY_RULE``."""
    ids = {rule.id for rule in EVERY_RULE}
    places: dict[str, list[tuple[str, str]]] = {}
    for path in sorted(_PACKAGE.glob("*.py")):
        for scope, text in _strings(ast.parse(path.read_text()), ""):
            if text in ids:
                found = places.setdefault(text, [])
                place = (path.stem, scope or "<module>")
                if place not in found:
                    found.append(place)
    return {rule.id: places[rule.id] for rule in EVERY_RULE if rule.id in places}


def _strings(node: ast.AST, scope: str) -> Iterator[tuple[str, str]]:
    """Every string literal under ``node``, with the qualified name of the function or class holding it."""
    for child in ast.iter_child_nodes(node):
        if isinstance(child, ast.FunctionDef | ast.ClassDef):
            yield from _strings(child, f"{scope}.{child.name}" if scope else child.name)
        elif isinstance(child, ast.Constant) and isinstance(child.value, str):
            yield scope, child.value
        else:
            yield from _strings(child, scope)
