"""Who must fix it: the rules a stock server of an official SDK breaks too (``check --sdk NAME``).

A server built on an SDK inherits the SDK's stdio layer, and with it what that layer does
wrong: its author cannot fix those findings, the SDK's maintainers can. ``make peers`` runs the
``check`` corpus (``compare``) over a stock server of each pinned official SDK
(tests/peers/python_server.py on PyPI ``mcp``, tests/peers/ts_server.mjs on npm
``@modelcontextprotocol/sdk``), in both profiles and both eras, and writes their verdicts here as
``stock_sdks.json``, shipped in the package. ``check --sdk NAME`` then marks each rule the server
fails or warns on that the stock server of that SDK fails or warns on as well, in the same
profile and era: probably the SDK's, to report where the SDK takes reports. A rule the stock
server keeps is the server's own. The mark is a pointer, not a verdict: the row keeps its status.

Without ``--sdk``, ``recognise`` names the SDK whose stock server's findings the server shows, all
of them, when exactly one SDK fits and its stock findings are enough to tell it (at least
``FINGERPRINT`` rules in that era and profile): the SDK is not in ``serverInfo``, which an app names
after itself. Partial runs (``--select``) recognise nothing: they see too little.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from importlib import resources

PACKAGED = "stock_sdks.json"
_SHOWN = ("fail", "warn")  # the statuses that are findings
# Stock findings fewer than this tell no SDK apart: in the modern era both stock servers break only
# one or two rules that many a server breaks on its own; in the legacy era each breaks 17 or 18.
FINGERPRINT = 8


@dataclass(frozen=True)
class StockSdk:
    name: str  # as --sdk takes it: python-sdk, typescript-sdk
    package: str  # the package and version the verdicts are of, e.g. "mcp 2.3.0"
    report_to: str  # where the SDK takes bug reports
    statuses: Mapping[str, Mapping[str, Mapping[str, str]]]  # era -> profile -> rule -> status

    def broken(self, era: str, profile: str) -> frozenset[str]:
        """The rules the stock server shows a finding of."""
        found = self.statuses.get(era, {}).get(profile, {})
        return frozenset(rule for rule, status in found.items() if status in _SHOWN)

    def shares(self, era: str, profile: str, rule: str) -> bool:
        """Whether the stock server shows a finding of ``rule`` too."""
        return self.statuses.get(era, {}).get(profile, {}).get(rule) in _SHOWN


@functools.cache
def sdks() -> dict[str, StockSdk]:
    """The packaged stock SDKs, by name."""
    data = json.loads(resources.files(__package__).joinpath(PACKAGED).read_text(encoding="utf-8"))
    return {name: StockSdk(name, entry["package"], entry["report_to"], entry["statuses"]) for name, entry in data.items()}


def recognise(rows: Sequence[Mapping[str, object]], era: str, profile: str) -> StockSdk | None:
    """The one SDK whose stock findings (at least ``FINGERPRINT``) the rows show every one of, if any."""
    shown = {str(row["id"]) for row in rows if row["status"] in _SHOWN}
    fitting = [
        sdk
        for sdk in sdks().values()
        if len(stock := sdk.broken(era, profile)) >= FINGERPRINT and stock <= shown
    ]
    return fitting[0] if len(fitting) == 1 else None


def mark(rows: Sequence[dict[str, object]], sdk: StockSdk, era: str, profile: str) -> list[str]:
    """Mark each row found broken that the stock server shows too (``row["stock"]``); their IDs."""
    shared = []
    for row in rows:
        if row["status"] in _SHOWN and sdk.shares(era, profile, str(row["id"])):
            row["stock"] = f"{sdk.name} ({sdk.package})"
            shared.append(str(row["id"]))
    return shared


def summary(shared: Sequence[str], sdk: StockSdk, recognised: bool = False) -> str:
    """The line ``check`` prints after its table; ``recognised``, the SDK was told by its findings."""
    if recognised:
        return (
            f"this server shows every finding of a stock {sdk.name} server ({sdk.package}): probably built on it "
            f"(--sdk {sdk.name} to say so); {', '.join(shared)} are probably the SDK's: report them at {sdk.report_to}"
        )
    if not shared:
        return f"a stock {sdk.name} server ({sdk.package}) keeps every rule found broken here: each finding is this server's own"
    return (
        f"{len(shared)} of the rules found broken are broken by a stock {sdk.name} server ({sdk.package}) too, "
        f"probably in the SDK ({', '.join(shared)}): report them at {sdk.report_to}"
    )


def dump(entries: Mapping[str, tuple[str, str, Mapping[str, Mapping[str, Mapping[str, str]]]]]) -> str:
    """The packaged form: name -> (package, where to report, era -> profile -> rule -> status)."""
    data = {
        name: {"package": package, "report_to": report_to, "statuses": statuses}
        for name, (package, report_to, statuses) in entries.items()
    }
    return json.dumps(data, indent=1, sort_keys=True) + "\n"
