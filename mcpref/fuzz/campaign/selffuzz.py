"""Fuzzing the reference itself: whatever bytes arrive, cut anywhere, the session holds.

The contract, as h11 states its own: for any input, ``ServerSession`` returns effects and
raises nothing, writes nothing but whole lines of ASCII JSON-RPC answers, leaves no
request in flight at the end, and never holds more than its line limit (STDIO-SURVIVE,
STDIO-STDOUT-MESSAGES-ONLY, FRAME-MAX-LINE). ``session_holds`` is that contract as a
Hypothesis property; the test suite runs it and replays the saved corpus, and
``make fuzz-self`` runs it for as long as asked under Atheris, whose coverage feedback
steers Hypothesis' byte-level input, adding each input that reached new code to the corpus.

    python -m mcpref.fuzz.campaign.selffuzz [--seconds N] [CORPUS_DIR]
"""

from __future__ import annotations

import argparse
import importlib
import itertools
import json
import sys
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mcpref.reference.dispatcher import ServerSession
from mcpref.reference.messages import JsonValue
from mcpref.reference.session_types import Send, StartTimer

CORPUS = Path(__file__).resolve().parents[3] / "fuzz-corpus" / "self"  # in a clone
MAX_LINE = 512  # small, so that over-long lines are common

_INIT = b'{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-03-26","capabilities":{},"clientInfo":{"name":"f","version":"1"}}}\n'
FRAGMENTS = [
    _INIT,
    b'{"jsonrpc":"2.0","method":"notifications/initialized"}\n',
    b'{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"attendre","arguments":{"ms":5}}}\n',
    b'{"jsonrpc":"2.0","id":"x","method":"tools/call","params":{"name":"lire_prix","arguments":{"produit":"kiwi"}}}\n',
    b'{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1}}\n',
    b'[{"jsonrpc":"2.0","id":2,"method":"ping"},{"jsonrpc":"2.0","method":"n"},7]\n',
    b'{"jsonrpc":"2.0","id":3,"method":"tools/list"}\n',
    b'{"jsonrpc":"2.0","id":4,"result":{}}\n',
    b'{"jsonrpc":"2.0","id":',
    b'"method":"ping"}',
    b"\n",
    b"\r",
    b"[[[[[[[[",
    b"\xff",
    b"\xe2\x80\xa8",
    b"\xef\xbb\xbf",
    b"NaN",
    b"9" * 600,
]


@st.composite
def streams(draw: st.DrawFn) -> tuple[bytes, list[int], list[int]]:
    """Bytes built from fragments and raw bytes, the cuts, and after which chunks timers fire."""
    pieces = draw(st.lists(st.sampled_from(FRAGMENTS) | st.binary(max_size=64), max_size=24))
    stream = b"".join(pieces)
    cuts = sorted(draw(st.sets(st.integers(1, max(1, len(stream) - 1)), max_size=8))) if len(stream) > 1 else []
    fires = draw(st.lists(st.integers(0, len(cuts) + 1), max_size=4))
    return stream, cuts, fires


def check_output(data: bytes) -> None:
    assert data.endswith(b"\n") and data.isascii(), data
    for line in data[:-1].split(b"\n"):
        value: JsonValue = json.loads(line)
        answers = value if isinstance(value, list) else [value]
        assert answers, line
        for answer in answers:
            assert isinstance(answer, dict) and answer["jsonrpc"] == "2.0" and "id" in answer, line
            assert ("result" in answer) != ("error" in answer), line


@settings(deadline=None, suppress_health_check=list(HealthCheck), database=None)
@given(streams())
def session_holds(drawn: tuple[bytes, list[int], list[int]]) -> None:
    stream, cuts, fires = drawn
    session = ServerSession(max_line_bytes=MAX_LINE)
    timers: list[int] = []

    def perform(effects: list[object]) -> None:
        for effect in effects:
            if isinstance(effect, Send):
                check_output(effect.data)
            elif isinstance(effect, StartTimer):
                timers.append(effect.token)
        assert session.framer.buffered <= MAX_LINE

    def fire_timers() -> None:
        while timers:
            token = timers.pop(0)
            if token in session._pending:  # a cancelled request's timer is gone
                perform(list(session.complete(token)))

    bounds = [0, *cuts, len(stream)]
    for index, (start, end) in enumerate(itertools.pairwise(bounds)):
        perform(list(session.receive_data(stream[start:end])))
        if index in fires:
            fire_timers()
    perform(list(session.receive_eof()))
    fire_timers()
    assert session.in_flight == 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m mcpref.fuzz.campaign.selffuzz", description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=int, default=600, help="how long to fuzz (default 600)")
    parser.add_argument("corpus", nargs="?", type=Path, default=CORPUS)
    args = parser.parse_args(argv)
    atheris = importlib.import_module("atheris")  # installed by `make fuzz-self` only
    args.corpus.mkdir(parents=True, exist_ok=True)
    atheris.instrument_all()
    libfuzzer_argv = [sys.argv[0], f"-max_total_time={args.seconds}", "-max_len=4096", str(args.corpus)]
    atheris.Setup(libfuzzer_argv, session_holds.hypothesis.fuzz_one_input)  # type: ignore[attr-defined]
    atheris.Fuzz()
    return 0


if __name__ == "__main__":
    sys.exit(main())
