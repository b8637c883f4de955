"""What a run of a case showed of the target: the one value the drive stage hands to the oracle."""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Final

# What a target alive but silent to the liveness probe did (``ending``): a predicate of it.
UNANSWERED: Final = "did not answer the liveness ping"


@dataclass(frozen=True)
class Observation:
    output: tuple[bytes, ...]  # complete stdout lines, without their LF
    trailing: bytes = b""  # an unterminated last stdout line
    survived: bool = True  # still alive and answering after the session
    sentinels: tuple[str, ...] = ()  # ids of the liveness probes, whose answers are not judged
    eof: bool = False  # the session ended by closing stdin: work still in flight may be dropped
    latency: float = 0.0  # seconds: the longest wait for the server after its first line (STDIO-LATENCY)
    ending: str = ""  # what was seen of a server that did not survive: "the server {ending}"
    # For each output line, how many bytes of the stream judged had been written to the server when
    # the line was read: it cannot have received more before writing it (LIFE-SERVER-EARLY).
    # () when unmeasured.
    sent_before: tuple[int, ...] = ()


class Direction(enum.Enum):
    SENT = "->"  # one write: a chunk, a probe, a reply to the target's request
    RECEIVED = "<-"  # one complete stdout line, without its LF
    STDERR = "!!"  # what one read of stderr gave


@dataclass(frozen=True)
class Event:
    direction: Direction
    data: bytes
