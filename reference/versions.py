"""The protocol versions the reference knows, each with the rules that differ by version.

One registry, so that no module compares version strings by hand: code asks the
negotiated ``ProtocolVersion`` what it allows. The stateless 2026-07-28 era is known
(so a result naming it is a real version) but not supported: it has no handshake.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass


class Era(enum.Enum):
    HANDSHAKE = "handshake"  # initialize / notifications/initialized open a session
    STATELESS = "stateless"  # every request carries its version in _meta


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


V2024_11_05 = ProtocolVersion("2024-11-05", Era.HANDSHAKE, False, False, False, False)
V2025_03_26 = ProtocolVersion("2025-03-26", Era.HANDSHAKE, True, False, False, False)
V2025_06_18 = ProtocolVersion("2025-06-18", Era.HANDSHAKE, False, False, False, True)
V2025_11_25 = ProtocolVersion("2025-11-25", Era.HANDSHAKE, False, True, True, True)
V2026_07_28 = ProtocolVersion("2026-07-28", Era.STATELESS, False, True, True, True)

# Every published version, oldest first (LIFE-VERSION-KNOWN).
KNOWN: tuple[ProtocolVersion, ...] = (V2024_11_05, V2025_03_26, V2025_06_18, V2025_11_25, V2026_07_28)
BY_NAME: dict[str, ProtocolVersion] = {v.name: v for v in KNOWN}

# What the reference server negotiates, newest first as a server's list usually is.
SUPPORTED: tuple[ProtocolVersion, ...] = (V2025_11_25, V2025_06_18, V2025_03_26, V2024_11_05)
SUPPORTED_NAMES: tuple[str, ...] = tuple(v.name for v in SUPPORTED)
LATEST: ProtocolVersion = SUPPORTED[0]
