"""The initialize handshake as one literal transition table.

Everything that moves the session between phases lives here, and nothing else does.
The dispatcher classifies each relevant message into an ``Input``, asks ``Handshake``
for the ``Action`` to take, and the table says where the session goes next. A pair
missing from the table is a bug of ours and raises ``HandshakeError``; the table is
total today, and a test walks every pair.

    NEW --initialize accepted--> WAITING --notifications/initialized--> READY

- ``initialize`` is answered once; a second one is refused and changes nothing
  (LIFE-SECOND-INIT). A refused ``initialize`` (bad params, unsupported version under
  the default policy) leaves the session NEW, so the client may try again.
- Until notifications/initialized, requests other than ping and initialize are refused
  (LIFE-PRE-INIT-REFUSED); ping is served in every phase (LIFE-PING).
- notifications/initialized before an accepted initialize is ignored
  (LIFE-INITIALIZED-EARLY), and so is a repeated one.
"""

from __future__ import annotations

import enum
from typing import Final, TypeAlias


class _TableKey(enum.Enum):
    """An enum that keys the table, hashed by identity in C.

    Members are singletons compared by identity, so the identity hash agrees with
    equality; Enum's own ``__hash__`` runs in Python, twice for every lookup.
    """

    __hash__ = object.__hash__


@enum.unique
class Phase(_TableKey):
    NEW = "new"  # no initialize accepted yet
    WAITING = "waiting"  # initialize answered; waiting for notifications/initialized
    READY = "ready"  # operating


@enum.unique
class Input(_TableKey):
    INITIALIZE_ACCEPTED = "initialize with acceptable params"
    INITIALIZE_REFUSED = "initialize with unacceptable params"
    INITIALIZED = "notifications/initialized"
    PING = "ping"
    REQUEST = "any other request"


@enum.unique  # two actions with one value would be one member, and the table could not tell them apart
class Action(enum.Enum):
    ANSWER_INITIALIZE = "answer with the negotiated result"
    REFUSE_INITIALIZE = "answer with the refusal (-32602)"
    ALREADY_INITIALIZED = "refuse a second initialize with -32600"
    NOT_INITIALIZED = "refuse a request before the handshake with -32600"
    SERVE = "serve the request"
    IGNORE = "do nothing"


class HandshakeError(Exception):
    """A (phase, input) pair the table does not cover: a bug in the reference."""


_I, _A, _P = Input, Action, Phase
Table: TypeAlias = dict[Phase, dict[Input, tuple[Action, Phase]]]

TRANSITIONS: Final[Table] = {
    _P.NEW: {
        _I.INITIALIZE_ACCEPTED: (_A.ANSWER_INITIALIZE, _P.WAITING),
        _I.INITIALIZE_REFUSED: (_A.REFUSE_INITIALIZE, _P.NEW),
        _I.INITIALIZED: (_A.IGNORE, _P.NEW),  # LIFE-INITIALIZED-EARLY
        _I.PING: (_A.SERVE, _P.NEW),  # LIFE-PING
        _I.REQUEST: (_A.NOT_INITIALIZED, _P.NEW),  # LIFE-PRE-INIT-REFUSED
    },
    _P.WAITING: {
        _I.INITIALIZE_ACCEPTED: (_A.ALREADY_INITIALIZED, _P.WAITING),  # LIFE-SECOND-INIT
        _I.INITIALIZE_REFUSED: (_A.ALREADY_INITIALIZED, _P.WAITING),
        _I.INITIALIZED: (_A.IGNORE, _P.READY),
        _I.PING: (_A.SERVE, _P.WAITING),
        _I.REQUEST: (_A.NOT_INITIALIZED, _P.WAITING),  # LIFE-PRE-INIT-REFUSED
    },
    _P.READY: {
        _I.INITIALIZE_ACCEPTED: (_A.ALREADY_INITIALIZED, _P.READY),  # LIFE-SECOND-INIT
        _I.INITIALIZE_REFUSED: (_A.ALREADY_INITIALIZED, _P.READY),
        _I.INITIALIZED: (_A.IGNORE, _P.READY),
        _I.PING: (_A.SERVE, _P.READY),
        _I.REQUEST: (_A.SERVE, _P.READY),
    },
}


class Handshake:
    def __init__(self) -> None:
        self.phase = Phase.NEW

    def handle(self, event: Input) -> Action:
        try:
            action, self.phase = TRANSITIONS[self.phase][event]
        except KeyError:
            raise HandshakeError(f"no transition for {event.name} in phase {self.phase.name}") from None
        return action
