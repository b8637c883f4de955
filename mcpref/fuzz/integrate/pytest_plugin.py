"""``pytest --mcp-server "CMD ARGS"``: the ``check`` corpus inside a server's own test suite.

One test per rule of SPEC_NOTES.md and server, collected like any other: a failing rule fails
with the finding, its transcript, the pasteable reproducer and the rule's citations; a warning
passes and is reported as a pytest warning; a rule the server was not seen keeping, or that does
not apply, is skipped with the reason. With ``--mcp-baseline FILE`` a listed failure is an
expected failure (xfail), and a listed rule that passes fails, so that the list only shrinks. A
session in which a server had nothing judged (every rule of it skipped) is not green: it fails,
with a line saying so, as ``mcpref check`` exits 3 (``report.exits``).

The tests hang under the ini file (``pyproject.toml::mcpref::RPC-PARSE-ERROR``), so that a node id
pytest prints can be passed back to it; they join a run that collects directories (``pytest``,
``pytest tests``) and stay out of one that names files or tests of its own. The corpus runs once
a session, before the first test (no test is charged for it), and only the scenarios of the rules
whose tests were selected (``-k``, a node id); under pytest-xdist, once in the controller, for
every rule, whose workers receive its results. Options have ini twins (``mcp_server`` one
command a line, ``mcp_label``, ``mcp_profile``, ``mcp_version``, ``mcp_baseline``); a bad one is
one usage error. ``--mcp-select`` and ``--mcp-ignore``, and ``[tool.mcpref]`` of the root folder's
pyproject.toml, choose the rules (``fuzz.integrate.selection``). Reproducer files go to pytest's
cache folder, or without the cache, to pytest's own temporary folder (kept as pytest keeps it).
Commands are split as a shell would split them (``shlex``) and started without
a shell. Without a server the plugin does nothing; it is registered by installing mcpref, and
imports the rest of mcpref only when asked to run.
"""

from __future__ import annotations

import json
import shlex
import shutil
import warnings
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Protocol, cast

import pytest

if TYPE_CHECKING:
    from _pytest._code.code import ExceptionInfo, TerminalRepr

Rows = dict[str, dict[str, dict[str, object]]]  # server label -> rule ID -> check row
_SETUP = pytest.StashKey["Setup"]()
_ROWS = pytest.StashKey[Rows]()
_WORKER_ROWS = "mcpref_rows"  # the controller's results, in each xdist worker's input
_VERDICTS = ("pass", "warn", "fail")  # the statuses that judge (``report.statuses``)


class McpWarning(UserWarning):
    """A divergence the profile does not fail."""


class _Failed(Exception):
    """A rule the server fails; its text is the report."""


@dataclass(frozen=True)
class Server:
    label: str  # the column name, as ``mcpref compare`` gives it
    argv: list[str]
    key: str  # its entry in a baseline: ``target`` for one server, as check writes; the label for several


@dataclass(frozen=True)
class Setup:
    servers: tuple[Server, ...]
    profile: str
    version: str | None
    expected: Mapping[str, frozenset[str]]  # baseline key -> the rules expected to fail
    rules: frozenset[str] | None  # the rules selected (``fuzz.integrate.selection``); None: every rule


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("mcpref", "MCP stdio conformance (mcpref)")
    group.addoption(
        "--mcp-server", action="append", default=[], metavar="CMD", help="run mcpref's check corpus against CMD (repeatable)"
    )
    group.addoption("--mcp-label", action="append", default=[], metavar="NAME", help="name each --mcp-server, in order")
    group.addoption("--mcp-profile", default=None, metavar="spec|strict", help="mcpref profile (default spec)")
    group.addoption("--mcp-version", default=None, metavar="V", help="run the corpus of this protocol version's era")
    group.addoption("--mcp-baseline", default=None, metavar="FILE", help="expected failures (mcpref-baseline/1)")
    group.addoption("--mcp-select", default=None, metavar="IDS", help="only these rules: IDs or prefixes, comma-separated")
    group.addoption("--mcp-ignore", default=None, metavar="IDS", help="not these rules: IDs or prefixes, comma-separated")
    parser.addini("mcp_server", "server commands for mcpref, one a line", type="linelist", default=[])
    parser.addini("mcp_label", "names of the mcp_server commands, one a line", type="linelist", default=[])
    parser.addini("mcp_profile", "mcpref profile: spec or strict", default="spec")
    parser.addini("mcp_version", "protocol version whose era's corpus runs", default="")
    parser.addini("mcp_baseline", "mcpref baseline file of expected failures", default="")


def _setting(config: pytest.Config, name: str) -> str:
    given = config.getoption(f"mcp_{name}")
    return str(given if given is not None else config.getini(f"mcp_{name}"))


def _setup(config: pytest.Config) -> Setup:
    """The options read and checked: every fault is one usage error, before anything runs."""
    from mcpref.fuzz.generate.corpus_modern import VERSION_NAMES
    from mcpref.fuzz.integrate.compare import default_labels
    from mcpref.fuzz.integrate.selection import SelectionError, chosen, patterns
    from mcpref.fuzz.judge.oracle import Profile
    from mcpref.fuzz.report.baseline import BaselineError, load

    commands = config.getoption("mcp_server") or config.getini("mcp_server")
    argvs = [shlex.split(command) for command in commands]
    for command, argv in zip(commands, argvs, strict=True):
        if not argv:
            raise pytest.UsageError(f"--mcp-server {command!r}: no command")
        if shutil.which(argv[0]) is None:
            raise pytest.UsageError(f"--mcp-server {command!r}: {argv[0]} cannot be started: not found")
    labels = config.getoption("mcp_label") or config.getini("mcp_label") or default_labels(argvs)
    if len(labels) != len(argvs) or len(set(labels)) != len(labels):
        raise pytest.UsageError(f"--mcp-label: {len(argvs)} distinct names wanted, one a server; got {labels}")
    profile, version = _setting(config, "profile"), _setting(config, "version") or None
    if profile not in {p.value for p in Profile}:
        raise pytest.UsageError(f"--mcp-profile: spec or strict, not {profile!r}")
    if version is not None and version not in VERSION_NAMES:
        raise pytest.UsageError(f"--mcp-version: one of {', '.join(VERSION_NAMES)}, not {version!r}")
    keys = ["target"] if len(argvs) == 1 else labels
    expected: Mapping[str, frozenset[str]] = {}
    if baseline := _setting(config, "baseline"):
        try:
            expected = load(Path(baseline), Profile(profile)).expected
        except BaselineError as exc:
            raise pytest.UsageError(f"--mcp-baseline: {exc}") from None
    servers = tuple(Server(label, argv, key) for label, argv, key in zip(labels, argvs, keys, strict=True))
    select, ignore = (config.getoption(f"mcp_{name}") for name in ("select", "ignore"))
    try:
        given = [None if text is None else patterns(text) for text in (select, ignore)]
        selected = chosen(config.rootpath, given[0], given[1], ("--mcp-select", "--mcp-ignore"))
    except SelectionError as exc:
        raise pytest.UsageError(str(exc)) from None
    return Setup(servers, profile, version, expected, selected.rules if selected.narrowed else None)


def pytest_configure(config: pytest.Config) -> None:
    if not (config.getoption("mcp_server") or config.getini("mcp_server")):
        return
    config.stash[_SETUP] = _setup(config)
    if config.pluginmanager.hasplugin("xdist") and not hasattr(config, "workerinput"):
        config.pluginmanager.register(_Controller(config), "mcpref-xdist-controller")


class _Worker(Protocol):
    """What the controller sees of an xdist worker (``xdist.workermanage.WorkerController``)."""

    workerinput: dict[str, object]


class _Controller:
    """Under pytest-xdist, the controller runs the corpus once and hands each worker its results."""

    def __init__(self, config: pytest.Config) -> None:
        self.config = config

    def pytest_configure_node(self, node: _Worker) -> None:
        node.workerinput[_WORKER_ROWS] = json.dumps(_rows(self.config))


def _anchor(config: pytest.Config) -> Path:
    """The file the tests hang under: the ini file, so that their node ids resolve."""
    return config.inipath or config.rootpath / "pyproject.toml"


def pytest_collect_file(file_path: Path, parent: pytest.Collector) -> pytest.Collector | None:
    if _SETUP in parent.config.stash and file_path == _anchor(parent.config):
        return Conformance.from_parent(parent, path=file_path)
    return None


@pytest.hookimpl(tryfirst=True)  # before -k and -m deselect: the rules are tests like the others
def pytest_collection_modifyitems(session: pytest.Session, config: pytest.Config, items: list[pytest.Item]) -> None:
    if _SETUP not in config.stash or any(isinstance(item, RuleItem) for item in items) or not _broad(config):
        return
    items.extend(item for item in session.genitems(Conformance.from_parent(session, path=_anchor(config))))


def _broad(config: pytest.Config) -> bool:
    """Whether the run collects directories only: one that names files or tests wants those alone."""
    here = config.invocation_params.dir
    return all("::" not in arg and (here / arg).is_dir() for arg in config.args)


@pytest.hookimpl(wrapper=True)
def pytest_runtestloop(session: pytest.Session) -> Iterator[None]:
    wanted = frozenset(item.rule for item in session.items if isinstance(item, RuleItem))
    if not session.config.option.collectonly and wanted:
        _rows(session.config, wanted)  # here, so that no test is charged the corpus's time
    return (yield)


def _rows(config: pytest.Config, wanted: frozenset[str] | None = None) -> Rows:
    """The corpus's rows for each server: run once (the scenarios of the ``wanted`` rules, the
    tests a run selected, or of every rule selected), or received from the xdist controller."""
    if _ROWS not in config.stash:
        workerinput = cast(dict[str, object], getattr(config, "workerinput", {}))
        received = workerinput.get(_WORKER_ROWS)
        config.stash[_ROWS] = json.loads(str(received)) if received is not None else _run(config, wanted)
    return config.stash[_ROWS]


def _run(config: pytest.Config, wanted: frozenset[str] | None) -> Rows:
    from mcpref.fuzz.drive.process import TargetError
    from mcpref.fuzz.drive.timing import Timing
    from mcpref.fuzz.generate.corpus_modern import era_of_version
    from mcpref.fuzz.integrate.check import checked
    from mcpref.fuzz.judge.oracle import Profile
    from mcpref.fuzz.report.ci import save_reproducers

    setup = config.stash[_SETUP]
    profile = Profile(setup.profile)
    folder = _folder(config)
    rows: Rows = {}
    for server in setup.servers:
        try:
            only = wanted if wanted is not None else setup.rules
            # Without --mcp-version, the era the server serves, as mcpref check judges it.
            asked = None if setup.version is None else era_of_version(setup.version)
            found = checked(server.argv, profile, Timing(), asked, only)
        except TargetError as exc:
            raise pytest.UsageError(f"--mcp-server {shlex.join(server.argv)}: {exc}") from None
        if folder is not None:
            where = folder / server.label if len(setup.servers) > 1 else folder
            save_reproducers(found.rows, server.argv, profile, where, found.scenarios)
        rows[server.label] = {str(row["id"]): row for row in found.rows}
    return rows


def _folder(config: pytest.Config) -> Path | None:
    """Where reproducer files go: pytest's cache, or without it (-p no:cacheprovider) pytest's own
    temporary folder, which pytest prunes; none under -p no:tmpdir too (the failures still carry
    their transcripts and shell lines). Never a folder of mcpref's own that nothing removes."""
    cache = getattr(config, "cache", None)
    if cache is not None:
        return Path(cache.mkdir("mcpref"))
    factory = getattr(config, "_tmp_path_factory", None)  # the tmp_path plugin's, set at its configure
    return Path(factory.mktemp("mcpref")) if factory is not None else None


def _nothing_judged(config: pytest.Config) -> list[str]:
    """The servers none of whose selected rules was judged, in a session whose corpus ran."""
    if _SETUP not in config.stash or _ROWS not in config.stash or hasattr(config, "workerinput"):
        return []  # an xdist worker's session is the controller's to judge
    rows = config.stash[_ROWS]
    return [label for label, by_rule in rows.items() if not any(row["status"] in _VERDICTS for row in by_rule.values())]


@pytest.hookimpl(trylast=True)
def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    if exitstatus == pytest.ExitCode.OK and _nothing_judged(session.config):
        session.exitstatus = pytest.ExitCode.TESTS_FAILED  # nothing judged is not green


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter, exitstatus: int, config: pytest.Config) -> None:
    for label in _nothing_judged(config):
        terminalreporter.write_line(
            f"mcpref: nothing was judged of {label}: every selected rule was untested or n/a (see the skips: -rs); "
            "the session fails",
            red=True,
        )


def _cited(rule: str) -> str:
    from mcpref.fuzz.report.notes import entry

    return "cited: " + " ; ".join(entry(rule).sources)


class Conformance(pytest.File):
    """The tests of the rules, a collector per server."""

    def collect(self) -> list[pytest.Collector]:
        servers = self.config.stash[_SETUP].servers
        return [
            ServerRules.from_parent(self, name="mcpref" if len(servers) == 1 else f"mcpref[{s.label}]", server=s)
            for s in servers
        ]


class ServerRules(pytest.Collector):
    def __init__(self, *, server: Server, **kwargs: object) -> None:
        super().__init__(**kwargs)  # type: ignore[arg-type]
        self.server = server

    def collect(self) -> list[pytest.Item]:
        from mcpref.reference.rules import RULES

        chosen = self.config.stash[_SETUP].rules
        return [
            RuleItem.from_parent(self, name=rule.id, server=self.server)
            for rule in RULES
            if chosen is None or rule.id in chosen
        ]


class RuleItem(pytest.Item):
    def __init__(self, *, server: Server, **kwargs: object) -> None:
        super().__init__(**kwargs)  # type: ignore[arg-type]
        self.server = server
        self.rule = self.name

    def runtest(self) -> None:
        from mcpref.fuzz.integrate.check import check_cause
        from mcpref.fuzz.report.junit import describe

        row = _rows(self.config)[self.server.label][self.rule]
        expected = self.config.stash[_SETUP].expected.get(self.server.key, frozenset())
        status, listed = row["status"], self.rule in expected
        if status == "fail" and listed:
            pytest.xfail(f"{self.rule}: expected failure (baseline)")
        if listed:
            raise _Failed(f"{self.rule} is listed in the baseline and no longer fails: take it off the list")
        if status == "fail":
            raise _Failed(f"{self.rule} ({row['level']}) fails\n{_cited(self.rule)}\n\n{describe(row.get('findings'))}")
        if status == "warn":
            warnings.warn(McpWarning(f"{self.rule} ({row['level']}): {describe(row.get('findings'))}"), stacklevel=1)
        if status == "untested":
            rows = _rows(self.config)[self.server.label]
            chosen = self.config.stash[_SETUP].rules
            if chosen is not None and "STDIO-SURVIVE" not in chosen and rows.get("STDIO-SURVIVE", {}).get("status") == "fail":
                # The server answered nothing (check_rows): a selection without the rule that says so
                # must not turn the run into a clean one.
                cause = check_cause(list(rows.values()))
                raise _Failed(f"{self.rule}: {cause} (STDIO-SURVIVE fails)\n{_cited('STDIO-SURVIVE')}")
            _skip(f"{self.rule}: untested: {row.get('reason', 'not seen')}")
        if status == "n/a":
            _skip(f"{self.rule}: n/a: {row.get('reason', 'not applicable to this server or version')}")

    def repr_failure(self, excinfo: ExceptionInfo[BaseException], style: object = None) -> str | TerminalRepr:
        if isinstance(excinfo.value, _Failed):
            return str(excinfo.value)
        return super().repr_failure(excinfo)

    def reportinfo(self) -> tuple[Path, int | None, str]:
        return self.path, 0, f"mcpref {self.server.label} {self.rule}"


def _skip(reason: str) -> None:
    """Skip the running rule, the skip shown at the rule's file (the ini file), as a skip mark's is,
    not at this line of the plugin."""
    raise pytest.skip.Exception(reason, _use_item_location=True)
