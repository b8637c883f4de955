"""The oracle of the client side: what a client wrote to the scripted server, and what it did.

``judge_client(run, plain)`` reads a ``ClientRun`` (the scripted server's record, the client's
exit and output) and returns a ``ClientVerdict``: the findings, and the rules whose situation
arose in the run (``seen``), which is what a ``pass`` stands on. Timing is read only as order:
a line the server read before it wrote its initialize answer was written before the client
could see that answer; a line read after is never judged early (it may have crossed it).
The differential rules (``DIFFERENTIAL``: how the client reads, and ignores what it does not
know, how it matches answers to requests) compare a scenario with the plain tool call of its
server's era, played to the same client (``judge.client_compare``).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field

from mcpref.fuzz.drive.client_run import ClientRun
from mcpref.fuzz.drive.scripted_server import DIED
from mcpref.fuzz.generate.client_scripts import ASK_WAIT, MARKER, NEEDS
from mcpref.fuzz.judge.client_cancel import CANCELLED, judge_cancel, judge_timeout
from mcpref.fuzz.judge.client_compare import differential, shown
from mcpref.fuzz.judge.client_modern import Line, judge_modern, version_of
from mcpref.fuzz.judge.findings import NOTHING, Finding, counted
from mcpref.reference.eras import DISCOVER, INITIALIZE
from mcpref.reference.rules import BY_ID
from mcpref.reference.versions import LATEST, SUPPORTED_NAMES

GONE_WITHIN = 10.0  # seconds a client gets to end once its server exited (CLIENT-SERVER-GONE)
_CAPABILITY_OF = {"tools/": "tools", "resources/": "resources", "prompts/": "prompts", "completion/": "completions"}
_MANDATORY_FROM = "2025-06-18"  # CLIENT-CAP-ANNOUNCED: a SHOULD before (Lifecycle, Operation)


@dataclass(frozen=True)
class ClientVerdict:
    findings: tuple[Finding, ...]
    seen: frozenset[str]
    untested: tuple[tuple[str, str], ...] = ()  # (rule, why its situation was not seen), where the judge knows


@dataclass
class _Reading:
    run: ClientRun
    lines: list[Line] = field(default_factory=list)
    opened_at: int | None = None  # index of the event that wrote the initialize answer
    asks: list[tuple[object, str, float]] = field(default_factory=list)  # (id, method, when) of the server's requests
    notices: int = 0
    ending: str = ""  # how the scripted server's record ends: eof, signal, exit, or ""
    signal_before_eof: str = ""
    died_at: float | None = None  # when the scripted server died by its script
    offered: object = None
    findings: list[Finding] = field(default_factory=list)
    seen: set[str] = field(default_factory=set)

    def find(self, rule: str, line: int | None, message: str, expected: str, actual: str, mandatory: bool | None = None,
             decision: bool = False) -> None:  # fmt: skip
        must = BY_ID[rule].level.mandatory if mandatory is None else mandatory
        self.findings.append(Finding(rule, must and not decision, line, message, expected, actual, decision))

    def requests(self) -> list[Line]:
        return [line for line in self.lines if line.value is not None and "method" in line.value and "id" in line.value]

    def methods(self) -> list[str]:
        return [str(line.value["method"]) for line in self.lines if line.value is not None and "method" in line.value]

    def unanswered(self) -> list[str]:
        """The methods of the server's requests the client sent no response to."""
        ids = {json.dumps(line.value.get("id")) for line in self.lines if line.value is not None and "method" not in line.value}
        return [method for ask_id, method, _ in self.asks if json.dumps(ask_id) not in ids]


def _sent(run: ClientRun) -> tuple[list[str], list[str]]:
    """The methods ``run``'s client sent, and those of the server's requests it left unanswered."""
    reading = _read(run)
    return reading.methods(), reading.unanswered()


def _message(value: object) -> dict[str, object] | None:
    if not isinstance(value, dict) or value.get("jsonrpc") != "2.0":
        return None
    if isinstance(value.get("method"), str):
        return value
    return value if "id" in value and ("result" in value) != ("error" in value) else None


def _messages(raw: bytes | None, batches: bool) -> list[dict[str, object] | None]:
    """The messages of one line, None standing for a line that is not one message. A batch of
    messages is one where ``batches`` (2025-03-26 lets a client batch on stdio); elsewhere it is a
    line that is not one, and its messages are read too, so that one cause draws one finding."""
    try:
        value = json.loads(raw.decode("utf-8")) if raw is not None else None
    except ValueError:
        return [None]
    members: list[dict[str, object] | None] = [None]
    if isinstance(value, list) and value:
        members = [_message(member) for member in value]
    if all(member is not None for member in members):
        return members if batches else [None, *members]
    return [_message(value)]


def _read(run: ClientRun) -> _Reading:
    reading = _Reading(run)
    pending = b""
    raws: list[tuple[int, bytes | None]] = []  # (event index, line); None: never ended by LF
    for index, event in enumerate(run.events):
        if event.kind == "read":
            pending += str(event.data).encode("latin-1")
            *complete, pending = pending.split(b"\n")
            raws.extend((index, raw) for raw in complete)
        elif event.kind == "wrote" and event.data == "initialize-answer":
            reading.opened_at = index
        elif event.kind == "wrote" and event.data == "notice":
            reading.notices += 1
        elif event.kind == "ask" and isinstance(event.data, dict):
            reading.asks.append((event.data["id"], str(event.data["method"]), event.t))
        elif event.kind == "signal" and not reading.ending:
            reading.signal_before_eof = str(event.data)
        if event.kind in ("eof", "signal", "exit") and not reading.ending:
            reading.ending = event.kind
        if event.kind == "exit" and event.data == DIED:
            reading.died_at = event.t
    if pending:
        raws.append((len(run.events), None))
    for _, raw in raws:
        [found] = _messages(raw, batches=False)[:1]
        params = found.get("params") if found is not None and found.get("method") == "initialize" else None
        if isinstance(params, dict):
            reading.offered = params.get("protocolVersion")
            break
    for number, (at, raw) in enumerate(raws):
        messages = _messages(raw, batches=reading.offered == "2025-03-26")
        reading.lines.extend(Line(number, at, value) for value in messages)
    return reading


def _framing(r: _Reading) -> None:
    bad = [line for line in r.lines if line.value is None]
    if bad:
        r.find("CLIENT-STDIN-MESSAGES-ONLY", bad[0].number, f"wrote {counted(len(bad), 'line')} to the server's stdin"
               " that did not hold one JSON-RPC message", "one JSON-RPC 2.0 message per line", "a line that is not one")  # fmt: skip
    if r.lines:
        r.seen.add("CLIENT-STDIN-MESSAGES-ONLY")


def _ids(r: _Reading) -> None:
    requests = r.requests()
    used: dict[str, int] = {}
    for line in requests:
        assert line.value is not None
        request_id = line.value["id"]
        if isinstance(request_id, float) and request_id.is_integer():
            # CLIENT-ID-TYPE: the schema's RequestId is "integer" in JSON Schema, where 1.0 is one and
            # the same number as 1; writing it so is the reference's decision against, a note under spec.
            request_id = int(request_id)
            r.find("CLIENT-ID-TYPE", line.number, f"the {line.value['method']} request has id {json.dumps(line.value['id'])}, "
                   "an integer written with a fraction", str(request_id), json.dumps(line.value["id"]), decision=True)  # fmt: skip
        elif type(request_id) not in (int, str):
            r.find("CLIENT-ID-TYPE", line.number, f"the {line.value['method']} request has id {json.dumps(request_id)}",
                   "a string or an integer", json.dumps(request_id))  # fmt: skip
            continue
        key = json.dumps(request_id)
        if key in used and not r.run.script.modern:  # 2026-07-28: unique among requests in flight only
            r.find("CLIENT-ID-UNIQUE", line.number, f"id {key} of line {used[key]} used again by the "
                   f"{line.value['method']} request", "an id not used before in the session", key)  # fmt: skip
        used.setdefault(key, line.number)
    if requests:
        r.seen.add("CLIENT-ID-TYPE")
    if len(requests) > 1 and not r.run.script.modern:
        r.seen.add("CLIENT-ID-UNIQUE")


def _handshake(r: _Reading) -> None:
    if r.run.script.modern:
        return  # a modern server opens no legacy session: client_modern judges what the client sent
    messages = [line for line in r.lines if line.value is not None]
    start = next((i for i, line in enumerate(messages) if not _probe(line) and line.method != CANCELLED), None)
    probed = any(line.method == DISCOVER for line in messages)
    if start is None or (probed and not any(line.method == INITIALIZE for line in messages)):
        return  # nothing, or only what a client of the modern era sends: it never opened a legacy session
    first = messages[start].value
    assert first is not None
    r.seen.add("CLIENT-INIT-FIRST")
    if first.get("method") != "initialize" or "id" not in first:
        r.find("CLIENT-INIT-FIRST", messages[start].number, "the first message is not an initialize request",
               "an initialize request", str(first.get("method", "a response")))  # fmt: skip
        return
    opened = r.opened_at if r.opened_at is not None else len(r.run.events) + 1
    early = [line for line in messages[start + 1 :] if line.at < opened and line.value is not None
             and "id" in line.value and line.value.get("method") not in (None, "ping")]  # fmt: skip
    if early:
        assert early[0].value is not None
        r.find("CLIENT-INIT-ALONE", early[0].number, f"{early[0].value['method']} was sent before initialize was "
               "answered", "no request but ping until the answer", str(early[0].value["method"]))  # fmt: skip
    if r.opened_at is None:
        return
    r.seen.add("CLIENT-INIT-ALONE")
    initialized = [line for line in messages if line.value is not None and line.value.get("method") == "notifications/initialized"]
    if r.run.script.version is not None:
        _unsupported(r, messages, initialized)
        return
    if r.offered != _answered_version(r):
        return  # a version the client did not ask for: it may disconnect
    if initialized and initialized[0].at < r.opened_at:
        r.find("CLIENT-INITIALIZED", initialized[0].number, "notifications/initialized was sent before the "
               "initialize answer", "notifications/initialized after the answer", "sent before it")  # fmt: skip
    elif initialized:
        r.seen.add("CLIENT-INITIALIZED")
    else:
        # Only a later request shows the client read and accepted the answer; a client that
        # sent nothing more may never have read it (a framing fault, judged under its own rule).
        later = [line for line in r.requests() if line.at > r.opened_at and line.value is not None]
        if later:
            assert later[0].value is not None
            r.find("CLIENT-INITIALIZED", later[0].number, f"after an accepted initialize the client sent "
                   f"{later[0].value['method']} without it", "notifications/initialized", NOTHING)  # fmt: skip


def _probe(line: Line) -> bool:
    """A request that may precede initialize: ping (served in every phase, LIFE-PING's reading),
    server/discover, with which a client of both eras asks a server which one it speaks, or any
    request of the modern era (its ``_meta`` names a version): no opening of a legacy session."""
    return line.is_request and (line.method in ("ping", "server/discover") or version_of(line) is not None)


def _answered_version(r: _Reading) -> str:
    """The version the scripted server answers: the client's, if a legacy one, else the latest."""
    return r.offered if isinstance(r.offered, str) and r.offered in SUPPORTED_NAMES else LATEST.name


def _unsupported(r: _Reading, messages: list[Line], initialized: list[Line]) -> None:
    assert r.opened_at is not None
    r.seen.add("CLIENT-VERSION-UNSUPPORTED")
    went_on = [line for line in messages if line.at > r.opened_at and line.value is not None
               and (line.value.get("method") == "notifications/initialized"
                    or ("id" in line.value and line.value.get("method") not in (None, "ping")))]  # fmt: skip
    if went_on:
        assert went_on[0].value is not None
        r.find("CLIENT-VERSION-UNSUPPORTED", went_on[0].number, f"answered with version {r.run.script.version}, "
               f"the client went on with {went_on[0].value['method']}", "a disconnect", str(went_on[0].value["method"]))  # fmt: skip
    elif r.run.exit_status is None and r.ending != "eof" and r.died_at is None:
        r.find("CLIENT-VERSION-UNSUPPORTED", None, f"answered with version {r.run.script.version}, the client kept "
               "the connection open to the time limit", "a disconnect", "the connection kept open")  # fmt: skip


def _answers(r: _Reading) -> None:
    responses = [line for line in r.lines if line.value is not None and "method" not in line.value]
    claimed: set[int] = set()
    for ask_id, method, asked in r.asks:
        rule = "CLIENT-PING" if method == "ping" else "CLIENT-ANSWERS-REQUESTS"
        mine = [line for line in responses if line.value is not None and json.dumps(line.value["id"]) == json.dumps(ask_id)]
        claimed |= {line.number for line in mine}
        if not mine and r.died_at is not None and r.died_at - asked < ASK_WAIT:
            continue  # the server died before the client's time to answer was over
        r.seen.add(rule)
        if not mine:
            r.find(rule, None, f"the server's {method} request (id {json.dumps(ask_id)}) got no response "
                   f"within {ASK_WAIT:g} s", f"a response with id {json.dumps(ask_id)}", NOTHING)  # fmt: skip
            continue
        if len(mine) > 1:
            r.find("CLIENT-ANSWERS-REQUESTS", mine[1].number, f"the server's {method} request got {len(mine)} responses",
                   "exactly one response", f"{len(mine)} responses")  # fmt: skip
        answer = mine[0].value
        assert answer is not None
        if method == "ping" and answer.get("result") != {}:
            r.find("CLIENT-PING", mine[0].number, "the ping's response is not an empty result", '"result": {}',
                   json.dumps({k: v for k, v in answer.items() if k in ("result", "error")})[:200])  # fmt: skip
        if method in NEEDS and NEEDS[method] not in _declared(r) and "result" in answer:
            r.seen.add("CLIENT-UNDECLARED-REFUSED")
            r.find("CLIENT-UNDECLARED-REFUSED", mine[0].number, f"{method} got a result from a client that did not "
                   f"declare {NEEDS[method]}", "an error", "a result")  # fmt: skip
        elif method in NEEDS and NEEDS[method] not in _declared(r):
            r.seen.add("CLIENT-UNDECLARED-REFUSED")
    for line in responses:
        if line.number in claimed or line.value is None:
            continue
        if line.value["id"] is None and r.notices:
            r.find("CLIENT-NOTIFICATION-SILENT", line.number, "a response with id null followed the server's "
                   "notifications, the only messages without an id it wrote", NOTHING, "a response")  # fmt: skip
        else:
            r.find("CLIENT-ANSWERS-REQUESTS", line.number, f"a response with id {json.dumps(line.value['id'])}, which "
                   "no request of the server had", "responses only to the server's requests", "a response to nothing")  # fmt: skip
    if r.notices:
        r.seen.add("CLIENT-NOTIFICATION-SILENT")


def _declared(r: _Reading) -> dict[str, object]:
    """The capabilities the client declared: those of its initialize request (a dual-era client's
    server/discover comes first, and declares in its _meta, for the modern era only)."""
    opening = next((line.value for line in r.lines if line.method == "initialize"), None)
    params = opening.get("params") if opening is not None else None
    capabilities = params.get("capabilities") if isinstance(params, dict) else None
    return capabilities if isinstance(capabilities, dict) else {}


def _capabilities(r: _Reading) -> None:
    if r.opened_at is None or r.run.script.announce != ():
        return
    r.seen.add("CLIENT-CAP-ANNOUNCED")
    mandatory = _answered_version(r) >= _MANDATORY_FROM
    found: set[str] = set()
    for line in r.requests():
        method = str(line.value["method"]) if line.value is not None else ""
        needed = next((name for prefix, name in _CAPABILITY_OF.items() if method.startswith(prefix)), None)
        if method == "logging/setLevel":
            needed = "logging"
        if needed is not None and method not in found:
            found.add(method)
            r.find("CLIENT-CAP-ANNOUNCED", line.number, f"{method} was sent to a server that announced no {needed} "
                   "capability", f"no {needed} request", method, mandatory)  # fmt: skip


def _result_shown(r: _Reading) -> None:
    if MARKER.encode() not in r.run.stdout:
        return
    r.seen.add("CLIENT-RESULT-SHOWN")
    if not shown(r.run.stdout, r.run.script.text):
        r.find("CLIENT-RESULT-SHOWN", None, "the client printed the tool's marker but not the text the server "
               "returned", repr(r.run.script.text), _around(r.run.stdout))  # fmt: skip


def _around(stdout: bytes) -> str:
    start = stdout.find(MARKER.encode())
    return repr(stdout[start : start + 80].decode("utf-8", "backslashreplace"))


def _ending(r: _Reading) -> None:
    run = r.run
    if r.died_at is not None and r.died_at <= run.ended:  # a death after the client's end is none it saw
        waited = run.ended - r.died_at
        if run.exit_status is None and waited <= GONE_WITHIN:
            return  # stopped by the time limit before its grace was over: not seen either way
        r.seen.add("CLIENT-SERVER-GONE")
        if waited > GONE_WITHIN:
            r.find("CLIENT-SERVER-GONE", None, f"the server exited mid-session; the client was still running "
                   f"{GONE_WITHIN:g} s later", f"an end within {GONE_WITHIN:g} s", f"{waited:.1f} s")  # fmt: skip
        return
    if run.exit_status is None or not run.events:
        return  # the client never ended by itself, or never started its server: nothing to judge
    if r.signal_before_eof:
        r.find("CLIENT-SHUTDOWN", None, f"the server got {r.signal_before_eof} while its stdin was still open",
               "stdin closed first", r.signal_before_eof)  # fmt: skip
    elif run.leftover:
        r.find("CLIENT-SHUTDOWN", None, "the client exited and left its server running with its stdin open",
               "the server's stdin closed", "the server left running")  # fmt: skip
    elif not r.ending:
        r.find("CLIENT-SHUTDOWN", None, "the server was killed before its stdin was closed", "stdin closed first",
               "killed")  # fmt: skip
    elif r.ending == "eof":
        r.seen.add("CLIENT-SHUTDOWN")


def judge_client(run: ClientRun, plain: ClientRun | None = None) -> ClientVerdict:
    """The findings of one run; ``plain``, the same client's run of the plain tool call of the era
    of ``run``'s server (``plain_of``), for the differential rules."""
    r = _read(run)
    _framing(r)
    _ids(r)
    _handshake(r)
    _answers(r)
    _capabilities(r)
    _result_shown(r)
    contrasted, differs, untested = differential(run, plain, _sent)
    if contrasted:  # the text altered only in how it was written: the one cause is the framing rule's
        r.findings = [finding for finding in r.findings if finding.rule != "CLIENT-RESULT-SHOWN"]
    r.findings += contrasted
    r.seen |= differs
    _ending(r)
    written = [(index, str(event.data)) for index, event in enumerate(run.events) if event.kind == "wrote"]
    # A client whose server died can neither fall back nor cancel: those are judged only with it alive.
    compared = _read(plain).lines if plain is not None and r.died_at is None else None
    modern, seen = judge_modern(r.lines, written, run.script, compared)
    cancelled, gave_up = judge_cancel(r.lines, run.script, run.exit_status is not None and r.died_at is None)
    waited, timed = judge_timeout(r.lines, run)
    seen |= gave_up | timed
    return ClientVerdict(
        (*r.findings, *cancelled, *waited, *modern), frozenset((r.seen | seen) & set(run.script.rules)), tuple(untested.items())
    )
