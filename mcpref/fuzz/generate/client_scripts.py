"""What the scripted server does in each scenario of ``mcpref check-client``: ``ServerScript`` values.

A script is data: the drive stage's scripted server (``drive.scripted_server``) plays it against
the client under test, and the judge reads it to know what the client was shown. Every script
answers ``initialize``, ``tools/list`` and ``tools/call`` as a conforming server would, except in
the one way its scenario names. The tool's text carries an ASCII marker and characters of two,
three and four UTF-8 bytes, so that a client that prints it shows whether it read it intact.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, replace
from typing import Any

from mcpref.reference.versions import Era

MARKER = "mcpref-7f3a"
TEXT = f"{MARKER} café ✓ 𝄞"
SEPARATED_TEXT = f"{MARKER} line\u2028separator\u2029paragraph café"  # raw in the JSON written
LATE_TEXT = "mcpref-late-answer"  # the text of an answer to a request the client no longer waits for
UNSUPPORTED_VERSION = "2099-01-01"
OTHER_MODERN_VERSION = "2099-01-01"  # a modern server's only version, one no client speaks
INPUT_STATE = "mcpref-state-7f3a=="  # the requestState of an input_required answer, to be echoed exactly
INPUT_KEY = "mcpref-roots"  # its input request: roots/list, asked of a client that declared roots
HOLD = 0.3  # seconds the initialize answer is held: what the client wrote before it surely preceded it
ASK_WAIT = 10.0  # seconds the server waits for the client's answers to its own requests
PADDING = 4 * 1024 * 1024

# The client capability each request of the server needs (CLIENT-UNDECLARED-REFUSED).
NEEDS = {"roots/list": "roots", "sampling/createMessage": "sampling", "elicitation/create": "elicitation"}


# The fields a script may change, in the order a name lists them.
FEATURES = (
    "asks", "asks_undeclared", "notices", "cuts", "cut_at", "line_end", "text", "padding",
    "announce", "version", "fails", "delay", "reorder", "exits", "dies_after", "modern", "supported",
    "discover_code", "asks_input", "silent", "bare_cr", "late",
)  # fmt: skip
# The changes that alter only how the plain answer is written, and the rule each is judged by:
# a failure that goes when one of them is undone is that rule's (``campaign.client_campaign``).
FRAMING = {
    "cuts": "CLIENT-READ-CHUNKS",
    "cut_at": "CLIENT-READ-CHUNKS",
    "text": "CLIENT-READ-LF-ONLY",
    "line_end": "CLIENT-READ-CRLF",
    "padding": "CLIENT-READ-LONG-LINE",
    "notices": "CLIENT-IGNORES-UNKNOWN",
    "bare_cr": "CLIENT-READ-LF-ONLY",
    "late": "CLIENT-ANSWER-BY-ID",
    "reorder": "CLIENT-ANSWER-BY-ID",
}
# A bare CR is a line end to some line readers: whether the transport's "newline" excludes it is
# an open reading (FRAME-LF-ONLY's decision), so a client cut there only warns under ``spec``.
OPEN_READING = frozenset({"bare_cr"})
# Where a dying server exits: on the client's initialize, on its first request after the
# handshake, or halfway through writing the answer to that request.
EXITS = ("", "initialize", "request", "answer")


@dataclass(frozen=True)
class ServerScript:
    name: str  # the scenario's name, as verdicts cite it
    rules: tuple[str, ...]  # the rules the scenario exercises (``exercised``)
    version: str | None = None  # the version answered; None: the client's, if a legacy one
    announce: tuple[str, ...] = ("tools",)  # server capabilities announced
    asks: tuple[str, ...] = ()  # requests written before the first answer after the handshake
    asks_undeclared: bool = False  # also ask for every client capability (NEEDS) not declared
    notices: bool = False  # an unknown notification before each answer, and unknown result members
    cuts: int = 1  # each line written in this many pieces, the first cut inside a UTF-8 character
    cut_at: tuple[int, ...] = ()  # and cut at these byte offsets of each line
    line_end: str = "\n"
    text: str = TEXT
    padding: int = 0  # bytes of padding in the tool result's _meta
    exits: str = ""  # one of EXITS
    dies_after: int | None = None  # exits once it has written this many bytes, cutting the line it writes
    fails: bool = False  # tools/call answered with a JSON-RPC error
    delay: float = 0.0  # seconds each answer after the handshake is held
    reorder: bool = False  # answers after the handshake held REORDER_HOLD s, those due together written newest first
    modern: bool = False  # a 2026-07-28 server: server/discover answered, requests served by their _meta
    supported: tuple[str, ...] = ("2026-07-28",)  # the versions a modern server serves; others draw -32022
    discover_code: int = -32601  # a legacy server's error for server/discover
    asks_input: bool = False  # a modern server answers the first tools/call with input_required
    silent: bool = False  # tools/call is never answered
    bare_cr: bool = False  # a raw CR after each comma between tokens: JSON whitespace (RFC 8259)
    late: bool = False  # before the first answer after the handshake, one to the client's previous request

    def dumps(self) -> str:
        """The script as one JSON object: its name and the fields that differ from the plain one's."""
        plain = asdict(ServerScript("", ()))
        changed = {key: value for key, value in asdict(self).items() if key != "rules" and value != plain[key]}
        if self.name == describe(self):
            del changed["name"]  # the name loads gives it
        return json.dumps(changed, ensure_ascii=False)

    @classmethod
    def loads(cls, text: str) -> ServerScript:
        """The script of ``dumps``; raises ``ValueError`` for anything else."""
        fields = json.loads(text)
        if not isinstance(fields, dict) or not set(fields) <= set(FEATURES) | {"name"}:
            raise ValueError(f"a JSON object of the fields {', '.join(FEATURES)}, and a name, is needed")
        plain = ServerScript("", ())
        for key, value in fields.items():
            want = type(getattr(plain, key))
            member = {"announce": str, "asks": str, "supported": str, "cut_at": int}.get(key)
            if member is not None and isinstance(value, list) and all(type(v) is member for v in value):
                fields[key] = value = tuple(value)
            elif key == "delay" and type(value) is int:
                fields[key] = value = float(value)
            optional = {"version": str, "dies_after": int}.get(key)
            typed = isinstance(value, want) or (optional is not None and isinstance(value, optional))
            if not typed or isinstance(value, bool) != (want is bool):
                raise ValueError(f"{key}: {json.dumps(value)} is not a {(optional or want).__name__}")
        least = min(fields.get("padding", 0), fields.get("delay", 0), fields.get("dies_after") or 0, *fields.get("cut_at", ()))
        if fields.get("exits", "") not in EXITS or fields.get("cuts", 1) < 1 or least < 0:
            raise ValueError(f"exits is one of {', '.join(map(json.dumps, EXITS))}; cuts is at least 1; "
                             "padding, delay, dies_after and cut_at are not negative")  # fmt: skip
        name = fields.pop("name", None)
        script = scenario("", **fields)
        return replace(script, name=str(name) if name is not None else describe(script))

    def same_as(self, other: ServerScript) -> bool:
        """Whether the two scripts play the same server, whatever their names."""
        return replace(self, name="") == replace(other, name="")


def scenario(name: str, **changes: Any) -> ServerScript:
    """The script of ``name`` that differs from the plain one by ``changes``, with the rules it exercises."""
    script = ServerScript(name, (), **changes)
    return replace(script, rules=exercised(script))


def describe(script: ServerScript) -> str:
    """A name that says how ``script`` differs from the plain one."""
    plain = ServerScript("", ())
    parts = [
        f"asks {', '.join(script.asks)}" if script.asks else "",
        "asks for undeclared capabilities" if script.asks_undeclared else "",
        "unknown notifications and fields" if script.notices else "",
        f"lines in {script.cuts} pieces" if script.cuts > 1 else "",
        f"lines cut at bytes {', '.join(map(str, script.cut_at))}" if script.cut_at else "",
        "CRLF line ends" if script.line_end != plain.line_end else "",
        "raw U+2028 and U+2029" if script.text != plain.text else "",
        f"a {script.padding} byte answer" if script.padding else "",
        "no capability" if not script.announce else "",
        f"version {script.version}" if script.version else "",
        "the tool call fails" if script.fails else "",
        f"answers held {script.delay:g} s" if script.delay else "",
        "answers out of order" if script.reorder else "",
        f"exits on {script.exits}" if script.exits else "",
        f"dies after {script.dies_after} bytes" if script.dies_after is not None else "",
        "a modern server" if script.modern else "",
        f"versions {', '.join(script.supported)} only" if script.supported != plain.supported else "",
        f"server/discover refused with {script.discover_code}" if script.discover_code != plain.discover_code else "",
        "input required first" if script.asks_input else "",
        "the call never answered" if script.silent else "",
        "raw CR between tokens" if script.bare_cr else "",
        "a late answer first" if script.late else "",
    ]
    return "; ".join(part for part in parts if part) or "plain"


def era_of(script: ServerScript) -> Era:
    """The era whose clients ``script`` tests: a modern server's, or a legacy one refusing the probe
    of a client of both eras in an unusual way (CLIENT-MOD-FALLBACK), is the 2026-07-28 era's."""
    return Era.MODERN if script.modern or script.discover_code != ServerScript("", ()).discover_code else Era.LEGACY


def plain_of(script: ServerScript) -> ServerScript:
    """The plain tool call of the era of ``script``'s server, which the differential rules compare it with."""
    return MODERN_PLAIN if script.modern else PLAIN


def framing_only(script: ServerScript) -> bool:
    """Whether ``script`` shows the plain answers of its era's server, changed only in how they are
    written (``FRAMING``): the differential rules apply."""
    plain = ServerScript("", (), modern=script.modern)  # plain_of's, unnamed: scenario() calls this
    return replace(script, name="", rules=(), **{name: getattr(plain, name) for name in FRAMING}) == plain


def exercised(script: ServerScript) -> tuple[str, ...]:
    """The rules whose situation ``script`` sets up, in SPEC_NOTES order."""
    legacy = script.version is None and script.exits != "initialize" and not script.modern
    dies = script.exits != "" or script.dies_after is not None
    reached = not dies and "tools" in script.announce and (legacy or "2026-07-28" in script.supported)
    served = reached and not script.silent
    # Shown the plain answer of its era but for how it is written: the differential rules apply.
    plain_but_framing = served and framing_only(script)
    rules = {
        "CLIENT-INIT-FIRST": not script.modern,
        "CLIENT-INIT-ALONE": legacy,
        "CLIENT-INITIALIZED": legacy,
        "CLIENT-VERSION-UNSUPPORTED": script.version is not None and not script.modern,
        "CLIENT-STDIN-MESSAGES-ONLY": True,
        "CLIENT-ID-TYPE": True,
        "CLIENT-ID-UNIQUE": not script.modern,  # 2026-07-28 asks uniqueness among requests in flight only
        "CLIENT-PING": "ping" in script.asks and legacy and script.exits != "request",
        "CLIENT-ANSWERS-REQUESTS": bool(script.asks or script.asks_undeclared) and legacy and script.exits != "request",
        "CLIENT-UNDECLARED-REFUSED": script.asks_undeclared and legacy and script.exits != "request",
        "CLIENT-NOTIFICATION-SILENT": script.notices and legacy,
        "CLIENT-CAP-ANNOUNCED": legacy and not script.announce,
        "CLIENT-READ-CHUNKS": plain_but_framing and (script.cuts > 1 or bool(script.cut_at)),
        "CLIENT-READ-LF-ONLY": plain_but_framing and (script.text == SEPARATED_TEXT or script.bare_cr),
        "CLIENT-READ-CRLF": plain_but_framing and script.line_end == "\r\n",
        "CLIENT-READ-LONG-LINE": plain_but_framing and script.padding > 0,
        "CLIENT-IGNORES-UNKNOWN": plain_but_framing and script.notices,
        "CLIENT-ANSWER-BY-ID": plain_but_framing and (script.late or script.reorder),
        "CLIENT-RESULT-SHOWN": served and not script.fails,
        # A death after some bytes may come after the client's end: either rule's situation may arise.
        "CLIENT-SERVER-GONE": dies,
        "CLIENT-SHUTDOWN": not script.exits,
        "CLIENT-TIMEOUT": reached and script.silent,
        "CLIENT-CANCEL": reached and script.silent,
        "CLIENT-MOD-META": script.modern,
        "CLIENT-MOD-STAYS-MODERN": script.modern,
        "CLIENT-MOD-VERSION-RETRY": script.modern and "2026-07-28" not in script.supported,
        "CLIENT-MOD-FALLBACK": not script.modern and script.discover_code != ServerScript("", ()).discover_code,
        "CLIENT-MOD-INPUT-RETRY": script.modern and script.asks_input and served,
    }
    return tuple(rule for rule, applies in rules.items() if applies)


PLAIN = scenario("a plain tool call")
MODERN_PLAIN = scenario("a modern server", modern=True)
# How an answer reaches the client, and a call never answered, in both eras: each change is shown
# to a legacy server's client and, its name prefixed, to a modern server's.
_READ_PATH: tuple[tuple[str, dict[str, Any]], ...] = (
    ("an answer cut into pieces", {"cuts": 6}),
    ("raw U+2028 and U+2029 in the answer", {"text": SEPARATED_TEXT}),
    ("raw CR between tokens", {"bare_cr": True}),
    ("CRLF line ends", {"line_end": "\r\n"}),
    ("a 4 MiB answer", {"padding": PADDING}),
    ("a late answer to an earlier request first", {"late": True}),
    ("answers out of order", {"reorder": True}),  # shows a client with several requests in flight
    ("a server that never answers the call", {"silent": True}),
)
SCRIPTS: tuple[ServerScript, ...] = (
    PLAIN,
    scenario("server requests before the answer", asks=("ping", "mcpref/unknown")),
    scenario("requests for undeclared capabilities", asks_undeclared=True),
    scenario("unknown notifications and fields", notices=True),
    scenario("a server that announces no capability", announce=()),
    scenario("an initialize answered with an unsupported version", version=UNSUPPORTED_VERSION),
    scenario("a server that exits before answering", exits="request"),
    scenario("a modern server of another version only", modern=True, supported=(OTHER_MODERN_VERSION,)),
    scenario("a legacy server refusing server/discover with -32603", discover_code=-32603),
    scenario("a modern server asking for input", modern=True, asks_input=True),
    *(scenario(name, **changes) for name, changes in _READ_PATH),
    MODERN_PLAIN,
    *(scenario(f"a modern server: {name}", modern=True, **changes) for name, changes in _READ_PATH),
)

# The rules judged against the plain scenario: the same client, shown the same answer otherwise.
DIFFERENTIAL = frozenset(FRAMING.values())
