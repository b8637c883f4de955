"""``pytest --mcp-server "CMD ARGS"``: the ``check`` corpus inside a server's own test suite.

One test per rule of SPEC_NOTES.md, named after it (``mcpref::RPC-PARSE-ERROR``): a failing
rule fails with the finding, its transcript and the pasteable reproducer; a warning passes
and is reported as a pytest warning; a rule the corpus does not exercise is skipped. With
``--mcp-baseline FILE`` a listed failure is an expected failure (xfail), and a listed rule
that passes fails, so that the list only shrinks. The command is split as a shell would
split it (``shlex``) and started without a shell. Without ``--mcp-server`` the plugin does
nothing; it is registered for pytest by installing mcpref.
"""

from __future__ import annotations

import shlex
import warnings
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    from _pytest._code.code import ExceptionInfo, TerminalRepr

_ROWS = pytest.StashKey[dict[str, dict[str, object]]]()
_EXPECTED = pytest.StashKey[frozenset[str]]()


class McpWarning(UserWarning):
    """A divergence the profile does not fail."""


class _Failed(Exception):
    """A rule the server fails; its text is the report."""


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("mcpref", "MCP stdio conformance (mcpref)")
    group.addoption("--mcp-server", default=None, metavar="CMD", help="run mcpref's check corpus against this command")
    group.addoption("--mcp-profile", default="spec", choices=["spec", "strict"], help="mcpref profile (default spec)")
    group.addoption("--mcp-baseline", default=None, metavar="FILE", help="expected failures (mcpref-baseline/1)")


def pytest_collection_modifyitems(session: pytest.Session, config: pytest.Config, items: list[pytest.Item]) -> None:
    if config.getoption("mcp_server") is not None:
        items.extend(Rules.from_parent(session, name="mcpref").collect())


class Rules(pytest.Collector):
    """The tests of the rules, as ``mcpref::RULE-ID``."""

    def collect(self) -> list[pytest.Item]:
        from mcpref.reference.rules import RULES

        return [RuleItem.from_parent(self, name=rule.id, rule=rule.id) for rule in RULES]


def _rows(config: pytest.Config) -> dict[str, dict[str, object]]:
    """The corpus run once, at the first rule's test."""
    if _ROWS not in config.stash:
        from mcpref.fuzz.oracle import Profile

        from .check import check_rows
        from .ci import save_reproducers
        from .target import Timing

        argv = shlex.split(str(config.getoption("mcp_server")))
        profile = Profile(config.getoption("mcp_profile"))
        rows = check_rows(argv, profile, Timing())
        if config.cache is not None:
            save_reproducers(rows, argv, profile, config.cache.mkdir("mcpref"))
        config.stash[_ROWS] = {str(row["id"]): row for row in rows}
    return config.stash[_ROWS]


def _expected(config: pytest.Config) -> frozenset[str]:
    """The rules the baseline expects to fail, read once."""
    if _EXPECTED not in config.stash:
        path = config.getoption("mcp_baseline")
        expected: frozenset[str] = frozenset()
        if path is not None:
            from mcpref.fuzz.oracle import Profile

            from .baseline import TARGET, load

            expected = load(Path(path), Profile(config.getoption("mcp_profile"))).expected.get(TARGET, frozenset())
        config.stash[_EXPECTED] = expected
    return config.stash[_EXPECTED]


class RuleItem(pytest.Item):
    def __init__(self, *, rule: str, **kwargs: object) -> None:
        super().__init__(**kwargs)  # type: ignore[arg-type]
        self.rule = rule

    def runtest(self) -> None:
        from .junit import describe

        row = _rows(self.config)[self.rule]
        status, listed = row["status"], self.rule in _expected(self.config)
        if status == "fail" and listed:
            pytest.xfail(f"{self.rule}: expected failure (baseline)")
        if listed:
            raise _Failed(f"{self.rule} is listed in the baseline and no longer fails: take it off the list")
        if status == "fail":
            raise _Failed(f"{self.rule} ({row['level']}) fails\n\n{describe(row.get('findings'))}")
        if status == "warn":
            warnings.warn(McpWarning(f"{self.rule} ({row['level']}): {describe(row.get('findings'))}"), stacklevel=1)
        if status == "untested":
            pytest.skip(f"{self.rule}: untested: {row.get('reason', 'not seen')}")
        if status == "n/a":
            pytest.skip(f"{self.rule}: not applicable to this server or version")

    def repr_failure(self, excinfo: ExceptionInfo[BaseException], style: object = None) -> str | TerminalRepr:
        if isinstance(excinfo.value, _Failed):
            return str(excinfo.value)
        return super().repr_failure(excinfo)

    def reportinfo(self) -> tuple[Path, int | None, str]:
        return self.path, None, f"mcpref {self.rule}"
