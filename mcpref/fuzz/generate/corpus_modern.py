"""The fixed corpus of ``mcpref check --protocol-version 2026-07-28``: one scenario per rule of the modern era.

Requests are written by the modern dialect (``reference.eras``); each scenario breaks one
thing of the era, or, for the dual-era scenarios, mixes the eras as the compatibility rules
describe. Every scenario ends with the modern probe, ``server/discover``.
"""

from __future__ import annotations

import argparse
import sys

from mcpref.fuzz.generate import corpus
from mcpref.fuzz.generate.corpus import Scenario, lines, scenario
from mcpref.fuzz.generate.messages import notification, request
from mcpref.reference.eras import LEGACY, META_LOG_LEVEL, META_VERSION, MODERN, meta
from mcpref.reference.messages import JsonObject, JsonValue, RequestId
from mcpref.reference.versions import BY_NAME as VERSIONS
from mcpref.reference.versions import KNOWN, V2025_11_25, V2026_07_28, Era


def modern(request_id: RequestId, method: str, params: JsonObject | None = None) -> JsonObject:
    return MODERN.request(request_id, method, params or {}, V2026_07_28)


def enveloped(request_id: int, method: str, envelope: JsonValue, params: JsonObject | None = None) -> JsonObject:
    """A request whose ``_meta`` is ``envelope``, whatever it is."""
    return {"jsonrpc": "2.0", "id": request_id, "method": method, "params": {**(params or {}), "_meta": envelope}}


def _modern(name: str, rules: tuple[str, ...], *messages: object) -> Scenario:
    return scenario(name, rules, *lines(*messages), era=Era.MODERN)


_ASK: JsonObject = {"name": "demander", "arguments": {"question": "Pain ou croissant ?"}}
_ANSWERED: JsonObject = {**_ASK, "inputResponses": {"answer": {"action": "accept", "content": {"answer": "pain"}}}}
_ELICITING = meta("2026-07-28", {"elicitation": {}})
_LEGACY_OPENING = LEGACY.opening(10, V2025_11_25)

SCENARIOS: tuple[Scenario, ...] = (
    _modern(
        "discover",
        ("MOD-DISCOVER", "MOD-RESULT-TYPE", "RPC-ID-ECHO"),
        modern(1, "server/discover"),
        modern("d-2", "server/discover"),
    ),
    _modern(
        "envelope missing or malformed",
        ("MOD-META-REQUIRED", "MOD-LOG-LEVEL"),
        modern(0, "server/discover"),  # first: a server serving one era per connection opens the modern one
        enveloped(1, "server/discover", {}),
        enveloped(2, "tools/list", {META_VERSION: "2026-07-28"}),
        enveloped(3, "tools/list", meta(20260728)),
        enveloped(4, "tools/list", meta("2026-07-28", [])),
        request(5, "server/discover"),
    ),
    _modern(
        "unsupported version",
        ("MOD-VERSION-UNSUPPORTED",),
        enveloped(1, "server/discover", meta("1999-01-01")),
        enveloped(2, "tools/list", meta("")),
    ),
    _modern(
        "tools in the modern era",
        (
            "CAP-ANNOUNCED-METHODS",
            "MOD-TOOLS-CACHE",
            "MOD-RESULT-TYPE",
            "TOOLS-LIST-SHAPE",
            "TOOLS-CALL-RESULT",
            "TOOLS-EXEC-ERROR",
            "MOD-NO-SERVER-REQUESTS",
            "MOD-LOG-LEVEL",
            "MOD-LISTEN-ONLY",
            "PROGRESS-TOKEN",
            "PROGRESS-INCREASING",
            "MOD-SERVER-CANCEL",
            "SERVER-MESSAGE-SHAPE",
        ),
        modern(1, "tools/list"),
        modern(2, "tools/call", {"name": "echo", "arguments": {"text": "héllo"}}),
        modern(3, "tools/call", {"name": "lire_prix", "arguments": {"produit": "kiwi"}}),
        # A call that asks for progress, as a modern request does: its token in its own _meta.
        enveloped(4, "tools/call", {**meta("2026-07-28"), "progressToken": "p-4"}, {"name": "attendre", "arguments": {"ms": 50}}),
        # A call the client then cancels: the server stops it, and cancels nothing of its own.
        modern(5, "tools/call", {"name": "attendre", "arguments": {"ms": 300}}),
        notification("notifications/cancelled", {"requestId": 5}),
    ),
    # A log message is due to a request that asks for one, until its answer, and to no other.
    _modern(
        "a log level asked for",
        ("MOD-LOG-LEVEL", "SERVER-MESSAGE-SHAPE"),
        enveloped(1, "tools/call", {**meta("2026-07-28"), META_LOG_LEVEL: "debug"}, {"name": "echo", "arguments": {"text": "x"}}),
        modern(2, "tools/list"),
    ),
    _modern(
        "unknown methods and ping",
        ("MOD-PING-GONE", "RPC-METHOD-NOT-FOUND"),
        modern(0, "server/discover"),  # the answer that shows the era, for readers of the vector alone
        modern(1, "ping"),
        modern(2, "bogus/x"),
    ),
    _modern(
        "client capabilities",
        ("MOD-CAP-REQUIRED", "MOD-RESULT-TYPE", "MOD-NO-SERVER-REQUESTS"),
        modern(1, "tools/list"),
        modern(2, "tools/call", _ASK),
        enveloped(3, "tools/call", _ELICITING, _ASK),
        enveloped(4, "tools/call", _ELICITING, _ANSWERED),
    ),
    _modern(
        "nothing carried from one request to the next",
        ("MOD-STATELESS",),
        enveloped(1, "tools/call", _ELICITING, _ASK),
        modern(2, "tools/call", _ASK),
        enveloped(3, "server/discover", meta("1999-01-01")),
        enveloped(4, "tools/list", {META_VERSION: "2026-07-28"}),
        modern(5, "server/discover"),
    ),
    _modern(
        "discover, then the legacy handshake",
        ("MOD-DUAL-ERA", "MOD-LEGACY-INIT", "LIFE-INIT-RESULT", "MOD-STATELESS"),
        modern(1, "server/discover"),
        *_LEGACY_OPENING,
        request(11, "tools/list"),
        modern(12, "tools/list"),
    ),
)

BY_ERA: dict[Era, tuple[Scenario, ...]] = {Era.LEGACY: corpus.SCENARIOS, Era.MODERN: SCENARIOS}
BY_NAME: dict[str, Scenario] = {s.name: s for scenarios in BY_ERA.values() for s in scenarios}
VERSION_NAMES = [version.name for version in KNOWN]


class _FormerSpelling(argparse.Action):
    """``--version V``, the former name of ``--protocol-version``: still taken, with a note on stderr."""

    def __call__(
        self,
        parser: argparse.ArgumentParser,
        namespace: argparse.Namespace,
        values: object,
        option_string: str | None = None,
    ) -> None:
        sys.stderr.write(f"mcpref: {option_string} V is deprecated: use --protocol-version V\n")
        setattr(namespace, self.dest, values)


def add_era_argument(
    parser: argparse.ArgumentParser,
    help: str = "run the corpus of this version's era: 2026-07-28 for the modern one (default: the legacy corpus)",
) -> None:
    """``--protocol-version`` of ``check``, ``compare`` and ``fuzz``: which era's cases to run."""
    parser.add_argument("--protocol-version", dest="version", choices=VERSION_NAMES, default=None, metavar="V", help=help)
    parser.add_argument("--version", dest="version", choices=VERSION_NAMES, action=_FormerSpelling, help=argparse.SUPPRESS)


def era_of_version(name: str | None) -> Era:
    return Era.LEGACY if name is None else VERSIONS[name].era
