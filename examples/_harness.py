"""A small synchronous stdio loop around the reference ``ServerSession``, with hooks for one bug each.

Without hooks, ``run()`` behaves like ``mcpref serve``: the same framing (the reference
``LineFramer``), the same answers, concurrent ``attendre`` calls (a heap of timer
deadlines; ``select`` waits on stdin until the next one), a ready line on stderr, exit 0
at stdin EOF once the pending timers have fired, 1 when stdout was closed, 128 + signal
number on SIGINT or SIGTERM. Each example in ``buggy/`` and ``lawful/`` changes one thing:

- ``framer``: what cuts the byte stream into lines (anything with ``receive_data`` and
  ``receive_eof`` like ``LineFramer``); each line it gives is handed to the session
  followed by one LF, so the session's own framer sees exactly that line.
- ``on_line(line, handle)``: sees every complete line; ``handle(line)`` is what the
  reference would do with it (its effects), and the hook returns the effects to perform.
- ``rewrite(data)``: edits every line written to stdout (each is one answer, or the
  array of a batch's answers), including answers that timers produce later.
- ``drain``: whether answers still owed at stdin EOF are written before the exit.
"""

from __future__ import annotations

import contextlib
import heapq
import json
import os
import select
import signal
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, NoReturn, Protocol, TypeAlias

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the repository root, for ``reference``

from mcpref.reference.dispatcher import ServerSession
from mcpref.reference.eras import META_VERSION
from mcpref.reference.framer import FrameEvent, LineFramer, TooLong
from mcpref.reference.messages import (
    PARSE_ERROR,
    Blank,
    Message,
    ParseFailure,
    Request,
    classify,
    encode,
    error_answer,
    parse_line,
)
from mcpref.reference.session_types import CancelTimer, Effect, Log, Send, StartTimer
from mcpref.reference.versions import BY_NAME, SUPPORTED_NAMES, ProtocolVersion, Versions

READ_SIZE = 64 * 1024
EXIT_OK, EXIT_STDOUT_CLOSED = 0, 1

Handle: TypeAlias = Callable[[bytes], list[Effect]]
LineHook: TypeAlias = Callable[[bytes, Handle], list[Effect]]
Answer: TypeAlias = dict[str, Any]


class Framer(Protocol):
    def receive_data(self, data: bytes) -> Sequence[FrameEvent]: ...

    def receive_eof(self) -> Sequence[FrameEvent]: ...


def log(text: str) -> None:
    with contextlib.suppress(OSError, ValueError):  # stderr gone too: nothing left to tell, as mcpref serve
        sys.stderr.write(f"{Path(sys.argv[0]).stem}: {text}\n")
        sys.stderr.flush()


def message_of(line: bytes) -> Message | None:
    """The message a line carries, as the reference reads it; None for blank, non-JSON and batch lines."""
    value = parse_line(line)
    if isinstance(value, Blank | ParseFailure | list):
        return None
    return classify(value)


def edit_answers(data: bytes, edit: Callable[[Answer], None]) -> bytes:
    """Apply ``edit`` to each answer of an output line and encode it again as the reference does."""
    answer = json.loads(data)
    for item in answer if isinstance(answer, list) else [answer]:
        edit(item)
    return encode(answer)


def without_result_member(name: str) -> Callable[[bytes], bytes]:
    """A ``rewrite`` that drops ``name`` from every result."""

    def drop(answer: Answer) -> None:
        result = answer.get("result")
        if isinstance(result, dict):
            result.pop(name, None)

    return lambda data: edit_answers(data, drop)


def enveloped_request(line: bytes) -> tuple[Request, dict[str, Any]] | None:
    """A request other than initialize in ``line``, with its ``_meta`` (``{}`` when it has none)."""
    message = message_of(line)
    if not isinstance(message, Request) or message.method == "initialize":
        return None
    envelope = (message.params or {}).get("_meta")
    return message, dict(envelope) if isinstance(envelope, dict) else {}


def legacy_request(line: bytes, method: str) -> tuple[Request, dict[str, Any]] | None:
    """``enveloped_request`` for a request of ``method`` whose ``_meta`` names no modern version."""
    found = enveloped_request(line)
    return None if found is None or found[0].method != method or META_VERSION in found[1] else found


def request_version(session: ServerSession, line: bytes, method: str) -> str | None:
    """The version a request of ``method`` in ``line`` is served under: its ``_meta``'s (a modern
    request), else the one ``session`` negotiated ("" before any); None for another line."""
    found = call_request(line, method)
    if found is None:
        return None
    named = found[1].get(META_VERSION)
    if named is not None:
        return named if isinstance(named, str) else ""
    return session.version.name if session.version is not None else ""


def progress_token(envelope: dict[str, Any]) -> str | int | None:
    """The progress token a request's ``_meta`` asks progress with, if a valid one."""
    token = envelope.get("progressToken")
    return token if isinstance(token, str | int) and not isinstance(token, bool) else None


def served_at_once(effects: list[Effect]) -> bool:
    """Whether the reference's ``effects`` for a line write a result now (not refused, not later)."""
    return any(isinstance(effect, Send) and b'"result"' in effect.data for effect in effects)


def notification(method: str, params: dict[str, Any] | None = None) -> Send:
    """The effect that writes a server notification."""
    message: dict[str, Any] = {"jsonrpc": "2.0", "method": method}
    if params is not None:
        message["params"] = params
    return Send(json.dumps(message).encode() + b"\n")


def notifying_after(method: str, notice: Send) -> LineHook:
    """An ``on_line`` that writes ``notice`` after each legacy ``method`` request the reference
    serves at once; one refused (before the session is open, say) is left as it is."""

    def on_line(line: bytes, handle: Handle) -> list[Effect]:
        effects = handle(line)
        if legacy_request(line, method) is None or not served_at_once(effects):
            return effects
        return [*effects, notice]

    return on_line


def counter_offering(session: ServerSession, offer: ProtocolVersion, served: Versions) -> LineHook:
    """An ``on_line`` for a ``session`` that counter-offers (``VersionPolicy.COUNTER_OFFER``): a first
    ``initialize`` for a version outside ``served`` is answered with ``offer``, whose rules the
    session then follows."""

    def offered(answer: Answer) -> None:
        result = answer.get("result")
        if isinstance(result, dict):
            result["protocolVersion"] = offer.name

    def on_line(line: bytes, handle: Handle) -> list[Effect]:
        before = session.version
        effects = handle(line)
        message = message_of(line)
        if not (isinstance(message, Request) and message.method == "initialize" and message.params):
            return effects
        requested = message.params.get("protocolVersion")
        if before is not None or session.version is None or (isinstance(requested, str) and BY_NAME.get(requested) in served):
            return effects  # not a counter-offer
        session.version = offer
        return [Send(edit_answers(e.data, offered)) if isinstance(e, Send) else e for e in effects]

    return on_line


def call_request(line: bytes, method: str) -> tuple[Request, dict[str, Any]] | None:
    """``enveloped_request`` for a request of ``method``, of either era."""
    found = enveloped_request(line)
    return None if found is None or found[0].method != method else found


def progress_first(values: tuple[float, ...], *, either_era: bool = False) -> LineHook:
    """An ``on_line`` that writes, before the reference's effects for a legacy ``tools/call`` asking
    for progress (of either era, with ``either_era``), a progress notification for its token at
    each of ``values`` (of a total of 1)."""

    def on_line(line: bytes, handle: Handle) -> list[Effect]:
        found = (call_request if either_era else legacy_request)(line, "tools/call")
        token = None if found is None else progress_token(found[1])
        if token is None:
            return handle(line)
        params = [{"progressToken": token, "progress": value, "total": 1} for value in values]
        return [*(notification("notifications/progress", step) for step in params), *handle(line)]

    return on_line


def with_meta(request: Request, envelope: dict[str, Any]) -> bytes:
    """The line of ``request`` with ``envelope`` as its ``_meta``."""
    params = {**(request.params or {}), "_meta": envelope}
    return json.dumps({"jsonrpc": "2.0", "id": request.id, "method": request.method, "params": params}).encode()


def waited_out(session: ServerSession, effects: list[Effect]) -> list[Effect]:
    """``effects`` with each timer waited out here and now, and what its end produces in its place:
    the session's work done one request at a time, in arrival order."""
    done: list[Effect] = []
    for effect in effects:
        if isinstance(effect, StartTimer):
            time.sleep(effect.seconds)
            done.extend(session.complete(effect.token))
        else:
            done.append(effect)
    return done


def _stop_on_signal(signum: int, frame: object) -> NoReturn:
    log("stopped by signal")
    raise SystemExit(128 + signum)  # 130 for SIGINT, 143 for SIGTERM, as mcpref serve


class _Loop:
    def __init__(self, session: ServerSession, on_line: LineHook | None, rewrite: Callable[[bytes], bytes] | None):
        self.session = session
        self.on_line = on_line
        self.rewrite = rewrite
        self.deadlines: list[tuple[float, int]] = []  # a heap of (deadline, timer token)
        self.live: set[int] = set()  # tokens neither fired nor cancelled

    def handle(self, line: bytes) -> list[Effect]:
        return self.session.receive_data(line + b"\n")

    def event(self, event: FrameEvent) -> None:
        if isinstance(event, TooLong):  # FRAME-MAX-LINE: the answer ServerSession gives for it
            limit = self.session.framer.max_line_bytes
            self.perform([Send(encode(error_answer(None, PARSE_ERROR, f"line longer than {limit} bytes")))])
        elif self.on_line is None:
            self.perform(self.handle(event))
        else:
            self.perform(self.on_line(event, self.handle))

    def perform(self, effects: list[Effect]) -> None:
        for effect in effects:
            if isinstance(effect, Send):
                self.write(effect.data if self.rewrite is None else self.rewrite(effect.data))
            elif isinstance(effect, StartTimer):
                heapq.heappush(self.deadlines, (time.monotonic() + effect.seconds, effect.token))
                self.live.add(effect.token)
            elif isinstance(effect, CancelTimer):
                self.live.discard(effect.token)
            else:
                assert isinstance(effect, Log)
                log(effect.text)

    @staticmethod
    def write(data: bytes) -> None:
        view = memoryview(data)
        while view:
            view = view[os.write(1, view) :]

    def fire_due(self) -> float | None:
        """Fire the timers that are due; return the seconds until the next one, None when none is left."""
        while self.deadlines:
            deadline, token = self.deadlines[0]
            wait = deadline - time.monotonic()
            if token in self.live and wait > 0:
                return wait
            heapq.heappop(self.deadlines)
            if token in self.live:
                self.live.remove(token)
                self.perform(self.session.complete(token))
        return None


def run(
    *,
    framer: Framer | None = None,
    on_line: LineHook | None = None,
    rewrite: Callable[[bytes], bytes] | None = None,
    session: ServerSession | None = None,
    drain: bool = True,
) -> int:
    """Serve stdin/stdout until EOF; return the exit status. ``drain=False`` exits at EOF at once."""
    session = session or ServerSession()
    framer = framer or LineFramer(session.framer.max_line_bytes)
    loop = _Loop(session, on_line, rewrite)
    signal.signal(signal.SIGTERM, _stop_on_signal)
    signal.signal(signal.SIGINT, _stop_on_signal)
    log(f"ready; protocol versions {', '.join(SUPPORTED_NAMES)}")
    try:
        while True:
            readable, _, _ = select.select([0], [], [], loop.fire_due())
            if readable:
                chunk = os.read(0, READ_SIZE)
                if not chunk:
                    break
                for event in framer.receive_data(chunk):
                    loop.event(event)
        for event in framer.receive_eof():
            loop.event(event)
        while drain and (wait := loop.fire_due()) is not None:  # STDIO-EOF-DRAIN
            time.sleep(wait)
    except BrokenPipeError:
        log("stdout was closed; stopping")
        return EXIT_STDOUT_CLOSED
    return EXIT_OK
