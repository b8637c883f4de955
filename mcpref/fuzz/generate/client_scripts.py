"""What the scripted server does in each scenario of ``mcpref check-client``: ``ServerScript`` values.

A script is data: the drive stage's scripted server (``drive.scripted_server``) plays it against
the client under test, and the judge reads it to know what the client was shown. Every script
answers ``initialize``, ``tools/list`` and ``tools/call`` as a conforming server would, except in
the one way its scenario names. The tool's text carries an ASCII marker and characters of two,
three and four UTF-8 bytes, so that a client that prints it shows whether it read it intact.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass

MARKER = "mcpref-7f3a"
TEXT = f"{MARKER} café ✓ 𝄞"
SEPARATED_TEXT = f"{MARKER} line\u2028separator\u2029paragraph café"  # raw in the JSON written
UNSUPPORTED_VERSION = "2099-01-01"
HOLD = 0.3  # seconds the initialize answer is held: what the client wrote before it surely preceded it
ASK_WAIT = 10.0  # seconds the server waits for the client's answers to its own requests
PADDING = 4 * 1024 * 1024

# The client capability each request of the server needs (CLIENT-UNDECLARED-REFUSED).
NEEDS = {"roots/list": "roots", "sampling/createMessage": "sampling", "elicitation/create": "elicitation"}


@dataclass(frozen=True)
class ServerScript:
    name: str  # the scenario's name, as verdicts cite it
    rules: tuple[str, ...]  # the rules the scenario exercises
    version: str | None = None  # the version answered; None: the client's, if a legacy one
    announce: tuple[str, ...] = ("tools",)  # server capabilities announced
    asks: tuple[str, ...] = ()  # requests written before the first answer after the handshake
    asks_undeclared: bool = False  # also ask for every client capability (NEEDS) not declared
    notices: bool = False  # an unknown notification before each answer, and unknown result members
    cuts: int = 1  # each line written in this many pieces, the first cut inside a UTF-8 character
    line_end: str = "\n"
    text: str = TEXT
    padding: int = 0  # bytes of padding in the tool result's _meta
    exits_before_answer: bool = False  # exit on the first request after the handshake

    def dumps(self) -> str:
        return json.dumps(asdict(self))

    @classmethod
    def loads(cls, text: str) -> ServerScript:
        fields = json.loads(text)
        for name in ("rules", "announce", "asks"):
            fields[name] = tuple(fields[name])
        return cls(**fields)


_EVERY_RUN = (
    "CLIENT-INIT-FIRST",
    "CLIENT-INIT-ALONE",
    "CLIENT-INITIALIZED",
    "CLIENT-STDIN-MESSAGES-ONLY",
    "CLIENT-ID-TYPE",
    "CLIENT-ID-UNIQUE",
    "CLIENT-RESULT-SHOWN",
    "CLIENT-SHUTDOWN",
)

PLAIN = ServerScript("a plain tool call", _EVERY_RUN)
SCRIPTS: tuple[ServerScript, ...] = (
    PLAIN,
    ServerScript(
        "server requests before the answer",
        (*_EVERY_RUN, "CLIENT-PING", "CLIENT-ANSWERS-REQUESTS", "CLIENT-NOTIFICATION-SILENT"),
        asks=("ping", "mcpref/unknown"),
        notices=True,
    ),
    ServerScript(
        "requests for undeclared capabilities",
        (*_EVERY_RUN, "CLIENT-ANSWERS-REQUESTS", "CLIENT-UNDECLARED-REFUSED"),
        asks_undeclared=True,
    ),
    ServerScript("an answer cut into pieces", (*_EVERY_RUN, "CLIENT-READ-CHUNKS"), cuts=6),
    ServerScript(
        "raw U+2028 and U+2029 in the answer", (*_EVERY_RUN, "CLIENT-READ-LF-ONLY"), text=SEPARATED_TEXT
    ),
    ServerScript("CRLF line ends", (*_EVERY_RUN, "CLIENT-READ-CRLF"), line_end="\r\n"),
    ServerScript("a 4 MiB answer", (*_EVERY_RUN, "CLIENT-READ-LONG-LINE"), padding=PADDING),
    ServerScript(
        "unknown notifications and fields",
        (*_EVERY_RUN, "CLIENT-IGNORES-UNKNOWN", "CLIENT-NOTIFICATION-SILENT"),
        notices=True,
    ),
    ServerScript(
        "a server that announces no capability",
        ("CLIENT-INIT-FIRST", "CLIENT-INITIALIZED", "CLIENT-CAP-ANNOUNCED", "CLIENT-SHUTDOWN"),
        announce=(),
    ),
    ServerScript(
        "an initialize answered with an unsupported version",
        ("CLIENT-INIT-FIRST", "CLIENT-VERSION-UNSUPPORTED"),
        version=UNSUPPORTED_VERSION,
    ),
    ServerScript(
        "a server that exits before answering",
        ("CLIENT-INIT-FIRST", "CLIENT-INITIALIZED", "CLIENT-SERVER-GONE"),
        exits_before_answer=True,
    ),
)

# The scenarios judged against the plain one: the same client, shown the same answer otherwise.
DIFFERENTIAL = {
    "CLIENT-READ-CHUNKS",
    "CLIENT-READ-LF-ONLY",
    "CLIENT-READ-CRLF",
    "CLIENT-READ-LONG-LINE",
    "CLIENT-IGNORES-UNKNOWN",
}
