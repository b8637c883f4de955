"""What a ``ServerSession`` is made with and what it gives back, for the I/O layer that runs it.

Settings: ``Eras`` (which eras a session serves) and ``VersionPolicy`` (what initialize with an
unsupported version gets). Effects, a session's only output: ``Send`` (bytes for stdout),
``StartTimer`` and ``CancelTimer`` (for tools that answer later), and ``Log`` (a line for
stderr). ``dispatcher`` returns them in order; the I/O layer performs them.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import TypeAlias

from .versions import MODERN, SUPPORTED, ProtocolVersion, newest_first


class Eras(enum.Enum):
    """Which eras a session serves (MOD-DUAL-ERA)."""

    BOTH = "both"
    MODERN = "modern"
    LEGACY = "legacy"

    @property
    def versions(self) -> tuple[ProtocolVersion, ...]:
        """The versions served, newest first: what server/discover and -32022 list."""
        modern = newest_first(MODERN) if self is not Eras.LEGACY else ()
        return modern + (SUPPORTED if self is not Eras.MODERN else ())


class VersionPolicy(enum.Enum):
    REJECT = "reject"  # LIFE-VERSION-REJECT (default, the seeds' rule)
    COUNTER_OFFER = "counter-offer"  # LIFE-VERSION-COUNTER-OFFER


@dataclass(frozen=True, slots=True)
class Send:
    data: bytes


@dataclass(frozen=True, slots=True)
class StartTimer:
    token: int
    seconds: float


@dataclass(frozen=True, slots=True)
class CancelTimer:
    token: int


@dataclass(frozen=True, slots=True)
class Log:
    text: str


Effect: TypeAlias = Send | StartTimer | CancelTimer | Log
