"""The protocol versions the reference knows, each with the rules that differ by version.

One registry, so that no module compares version strings by hand: code asks a
``ProtocolVersion`` what it allows. Two eras share stdio: the legacy versions open a
session with the ``initialize`` handshake; the modern 2026-07-28 carries its version,
and everything else a request needs, in each request's ``_meta``.

Where a rule applies is a ``Versions`` set, never free text: ``ALL`` is every published
version of both eras, ``LEGACY`` the four handshake versions, ``MODERN`` the stateless one.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import TypeAlias


class Era(enum.Enum):
    LEGACY = "legacy"  # initialize / notifications/initialized open a session
    MODERN = "modern"  # stateless: every request carries its version in _meta


@dataclass(frozen=True)
class ProtocolVersion:
    name: str
    era: Era
    # RPC-BATCH: JSON-RPC batches must be received (2025-03-26 only).
    batches: bool
    # TOOLS-ARGS-INVALID: arguments failing inputSchema are a tool execution error.
    invalid_arguments_are_tool_errors: bool
    # RPC-ERROR-ID-NULL: the schema lets an error omit an id that could not be read.
    error_id_may_be_omitted: bool
    # TOOLS-LIST-SHAPE: Tool.title exists from 2025-06-18.
    tool_title: bool


V2024_11_05 = ProtocolVersion("2024-11-05", Era.LEGACY, False, False, False, False)
V2025_03_26 = ProtocolVersion("2025-03-26", Era.LEGACY, True, False, False, False)
V2025_06_18 = ProtocolVersion("2025-06-18", Era.LEGACY, False, False, False, True)
V2025_11_25 = ProtocolVersion("2025-11-25", Era.LEGACY, False, True, True, True)
V2026_07_28 = ProtocolVersion("2026-07-28", Era.MODERN, False, True, True, True)

# Every published version, oldest first (LIFE-VERSION-KNOWN).
KNOWN: tuple[ProtocolVersion, ...] = (V2024_11_05, V2025_03_26, V2025_06_18, V2025_11_25, V2026_07_28)
BY_NAME: dict[str, ProtocolVersion] = {v.name: v for v in KNOWN}

Versions: TypeAlias = frozenset[ProtocolVersion]
ALL: Versions = frozenset(KNOWN)
LEGACY: Versions = frozenset(v for v in KNOWN if v.era is Era.LEGACY)
MODERN: Versions = frozenset(v for v in KNOWN if v.era is Era.MODERN)


def since(name: str) -> Versions:
    """``name`` and every later version."""
    first = KNOWN.index(BY_NAME[name])
    return frozenset(KNOWN[first:])


def only(*names: str) -> Versions:
    return frozenset(BY_NAME[name] for name in names)


def describe(versions: Versions) -> str:
    """How SPEC_NOTES.md writes a set of versions: a name for the named sets, else the list."""
    named = {ALL: "all", LEGACY: "legacy", MODERN: "modern"}
    if versions in named:
        return named[versions]
    return ", ".join(v.name for v in KNOWN if v in versions)


def newest_first(versions: Versions) -> tuple[ProtocolVersion, ...]:
    return tuple(v for v in reversed(KNOWN) if v in versions)


# What the reference negotiates with initialize, newest first as a server's list usually is.
SUPPORTED: tuple[ProtocolVersion, ...] = newest_first(LEGACY)
SUPPORTED_NAMES: tuple[str, ...] = tuple(v.name for v in SUPPORTED)
LATEST: ProtocolVersion = SUPPORTED[0]
