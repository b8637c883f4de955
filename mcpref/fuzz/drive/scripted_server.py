"""The scripted server: the program that stands for a server when a client is under test.

    python -m mcpref.fuzz.drive.scripted_server SCRIPT_FILE RECORD_FILE

It plays one ``ServerScript`` on stdin and stdout and appends to RECORD_FILE, as it happens, one
JSON line per event: every chunk read from the client (bytes as Latin-1 text, so any byte
survives), its start, every message it wrote (``wrote``, with its tag), the end of its input (``eof``), a
signal (``signal``) and its own exit (``exit``), each with ``time.monotonic()``. The record is
written unbuffered, so whatever kills the process, what came before is kept. Its stderr is
silenced: the client's stderr pipe is the client's alone.
"""

from __future__ import annotations

import json
import os
import select
import signal
import sys
import time
from dataclasses import dataclass, field
from types import FrameType
from typing import BinaryIO

from mcpref.fuzz.generate.client_scripts import ASK_WAIT, HOLD, INPUT_KEY, INPUT_STATE, LATE_TEXT, NEEDS, ServerScript
from mcpref.reference.eras import DISCOVER, INITIALIZE, META_CAPABILITIES, META_SERVER_INFO, META_VERSION
from mcpref.reference.framer import LineFramer
from mcpref.reference.messages import JsonObject, JsonValue
from mcpref.reference.stateless import TOOLS_CACHE_SCOPE, TOOLS_TTL_MS, discover_result, typed
from mcpref.reference.versions import LATEST, SUPPORTED_NAMES

SERVER_INFO: JsonObject = {"name": "mcpref-scripted-server", "version": "1"}
PAUSE = 0.05  # seconds between the pieces of a cut line: each piece its own read, most likely
REORDER_HOLD = 0.2  # seconds an answer waits for later ones to be written before it (``reorder``)
DIED = "died"  # the data of the exit event of a server that died by its script


@dataclass
class Player:
    script: ServerScript
    record: BinaryIO
    opened: bool = False  # the initialize answer was written
    held: list[tuple[float, JsonObject, str]] = field(default_factory=list)  # (when, message, tag)
    asked: dict[str, float] = field(default_factory=dict)  # ids of our requests not yet answered
    declared: JsonObject = field(default_factory=dict)  # the client's capabilities
    asked_once: bool = False
    input_asked: bool = False  # the input_required answer was written
    sent: int = 0  # bytes written to stdout
    previous: JsonValue = None  # the id of the client's last request, for a late answer to it (``late``)
    late_sent: bool = False

    def note(self, kind: str, data: JsonValue = "") -> None:
        self.record.write(json.dumps({"t": time.monotonic(), "kind": kind, "data": data}).encode() + b"\n")

    def write(self, message: JsonObject, tag: str) -> None:
        separators = (",\r", ":") if self.script.bare_cr else (",", ":")  # a CR between tokens is JSON whitespace
        line = json.dumps(message, ensure_ascii=False, separators=separators).encode() + self.script.line_end.encode()
        dies = self.script.dies_after is not None and self.sent + len(line) > self.script.dies_after
        if self.script.dies_after is not None and dies:
            line = line[: self.script.dies_after - self.sent]
        for index, piece in enumerate(cut_line(line, self.script.cuts, self.script.cut_at)):
            if index:
                time.sleep(PAUSE)
            os.write(1, piece)
        self.sent += len(line)
        if dies:
            self.exit()
        self.note("wrote", tag)

    def exit(self) -> None:
        self.note("exit", DIED)
        raise SystemExit(0)

    def notice(self) -> None:
        if self.script.notices:
            self.write({"jsonrpc": "2.0", "method": "notifications/mcpref/unknown", "params": {"x": 1}}, "notice")

    def request(self, request_id: JsonValue, method: str, params: JsonObject) -> None:
        """One request of the client."""
        previous, self.previous = self.previous, request_id
        if method == INITIALIZE and self.script.exits == "initialize":
            self.exit()
        if method == "tools/call" and self.script.silent:
            return  # never answered: the client's own timeout is what is judged (CLIENT-CANCEL)
        if method == DISCOVER or self.script.modern:
            refusal = self._era(request_id, method, params)
            if refusal is not None:
                self.held.append((time.monotonic(), *refusal))
                return
        if method == INITIALIZE:
            declared = params.get("capabilities")
            self.declared = declared if isinstance(declared, dict) else {}
            self.held.append((time.monotonic() + HOLD, self._initialize(request_id, params), "initialize-answer"))
            return
        if method == "ping":  # the same empty result in every scenario: reordered, it is only held
            pong: JsonObject = {"jsonrpc": "2.0", "id": request_id, "result": {}}
            if self.script.reorder and self.opened:
                self.held.append((time.monotonic() + REORDER_HOLD, pong, "answer:ping"))
            else:
                self.write(pong, "answer:ping")
            return
        if self.opened and not self.asked_once:
            self.asked_once = True
            if self.script.exits == "request":
                self.exit()
            self._ask()
        result = self._result(method)
        message: JsonObject
        if result is None or (self.script.fails and method == "tools/call"):
            error: JsonObject = {"code": -32601, "message": f"method not found: {method}"}
            if result is not None:
                error = {"code": -32603, "message": "the scripted tool failed"}
            message = {"jsonrpc": "2.0", "id": request_id, "error": error}
        else:
            if self.script.notices:
                result = {**result, "mcprefUnknown": {"member": True}}
            if self.script.modern:  # a modern result: typed, and a listing says how long it may be cached
                cache: JsonObject = {"ttlMs": TOOLS_TTL_MS, "cacheScope": TOOLS_CACHE_SCOPE} if method == "tools/list" else {}
                padding = result.get("_meta")
                result = typed({**result, **cache}, SERVER_INFO)
                if isinstance(padding, dict):  # typed() writes a _meta of its own: the padding stays in it
                    result["_meta"] = {**padding, META_SERVER_INFO: SERVER_INFO}
            message = {"jsonrpc": "2.0", "id": request_id, "result": result}
        when = time.monotonic() + (ASK_WAIT if self.asked else self.script.delay)
        if self.script.reorder and self.opened:
            when = max(when, time.monotonic() + REORDER_HOLD)
        if self.script.late and self.opened and not self.late_sent and previous is not None:
            # An answer the client no longer waits for (its previous request's, a second time, as
            # one to a request it cancelled would come), written first: CLIENT-ANSWER-BY-ID.
            self.late_sent = True
            late: JsonObject = {"content": [{"type": "text", "text": LATE_TEXT}], "isError": False}
            late = typed(late, SERVER_INFO) if self.script.modern else late
            self.held.append((when, {"jsonrpc": "2.0", "id": previous, "result": late}, "late"))
        self.held.append((when, message, f"answer:{method}"))

    def _era(self, request_id: JsonValue, method: str, params: JsonObject) -> tuple[JsonObject, str] | None:
        """What a request of the other era, or one a modern server cannot serve, draws, with its
        tag; None for one served as any other."""
        supported: list[JsonValue] = list(self.script.supported)
        if not self.script.modern:  # a legacy server: server/discover is no method of it
            error: JsonObject = {"code": self.script.discover_code, "message": f"method not found: {method}"}
            return {"jsonrpc": "2.0", "id": request_id, "error": error}, f"refused:{method}"
        meta = params.get("_meta")
        requested = meta.get(META_VERSION) if isinstance(meta, dict) else None
        if requested is not None and requested not in self.script.supported:
            error = {"code": -32022, "message": "Unsupported protocol version",
                     "data": {"supported": supported, "requested": requested}}  # fmt: skip
            return {"jsonrpc": "2.0", "id": request_id, "error": error}, "refused:-32022"
        if method == DISCOVER:  # answered whatever its _meta: it is how a client learns the versions
            listed = [str(version) for version in supported]
            result = typed(discover_result(listed, {name: {} for name in self.script.announce}), SERVER_INFO)
            self.opened = True
            return {"jsonrpc": "2.0", "id": request_id, "result": result}, f"answer:{DISCOVER}"
        if method == INITIALIZE or requested is None:
            message = f"this server speaks {', '.join(self.script.supported)}: every request carries _meta"
            error = {"code": -32602, "message": message, "data": {"supported": supported}}
            return {"jsonrpc": "2.0", "id": request_id, "error": error}, f"refused:{method}"
        self.opened = True
        if self.script.asks_input and method == "tools/call" and not self.input_asked:
            self.input_asked = True
            needed: JsonObject = {"resultType": "input_required", "requestState": INPUT_STATE}
            declared = meta.get(META_CAPABILITIES) if isinstance(meta, dict) else None
            if isinstance(declared, dict) and "roots" in declared:  # only what the client declared (MRTR)
                needed["inputRequests"] = {INPUT_KEY: {"method": "roots/list", "params": {}}}
            return {"jsonrpc": "2.0", "id": request_id, "result": needed}, "input-required"
        return None

    def _initialize(self, request_id: JsonValue, params: JsonObject) -> JsonObject:
        offered = params.get("protocolVersion")
        version = self.script.version or (offered if offered in SUPPORTED_NAMES else LATEST.name)
        capabilities: JsonObject = {name: {} for name in self.script.announce}
        result: JsonObject = {
            "protocolVersion": version,
            "capabilities": capabilities,
            "serverInfo": dict(SERVER_INFO),
        }
        if self.script.notices:
            result["mcprefUnknown"] = {"member": True}
        return {"jsonrpc": "2.0", "id": request_id, "result": result}

    def _result(self, method: str) -> JsonObject | None:
        if method == "tools/list" and "tools" in self.script.announce:
            tool: JsonObject = {"name": "echo", "description": "Returns the scripted text.", "inputSchema": {"type": "object"}}
            return {"tools": [tool]}
        if method == "tools/call" and "tools" in self.script.announce:
            result: JsonObject = {"content": [{"type": "text", "text": self.script.text}], "isError": False}
            if self.script.padding:
                result["_meta"] = {"mcpref/padding": "x" * self.script.padding}
            return result
        return None

    def _ask(self) -> None:
        if self.script.modern:  # a modern server never sends requests (2026-07-28 basic/patterns)
            self.notice()
            return
        methods = list(self.script.asks)
        if "roots" in self.declared and "roots/list" not in methods:
            methods.append("roots/list")
        if self.script.asks_undeclared:
            methods += [method for method, needed in NEEDS.items() if needed not in self.declared]
        for number, method in enumerate(methods, start=1):
            request_id: JsonValue = 7000 + number if method == "ping" else f"mcpref-ask-{number}"
            self.asked[json.dumps(request_id)] = time.monotonic()
            self.write({"jsonrpc": "2.0", "id": request_id, "method": method, "params": _ask_params(method)}, "ask")
            self.note("ask", {"id": request_id, "method": method})  # after it: a request cut short is none
        self.notice()

    def response(self, request_id: JsonValue) -> None:
        self.asked.pop(json.dumps(request_id), None)
        if not self.asked:  # every request answered: what was held for them goes now
            self.held = [(min(when, time.monotonic()), message, tag) for when, message, tag in self.held]

    def due(self) -> float | None:
        """Write what is due; the seconds until the next held message, if any."""
        while self.held:
            now = time.monotonic()
            ready = [item for item in self.held if item[0] <= now]
            if not ready:
                return min(when for when, _, _ in self.held) - now
            # Held in the order the requests came: the earliest due first, or the newest if reordered.
            item = ready[-1] if self.script.reorder else min(ready, key=lambda item: item[0])
            self.held.remove(item)
            _, message, tag = item
            if tag == "initialize-answer":
                self.opened = True
            else:
                self.notice()
            if self.script.exits == "answer" and tag != "initialize-answer":
                line = json.dumps(message).encode()
                os.write(1, line[: len(line) // 2])
                self.exit()
            self.write(message, tag)
        return None


def _ask_params(method: str) -> JsonObject:
    if method == "sampling/createMessage":
        return {"messages": [{"role": "user", "content": {"type": "text", "text": "hi"}}], "maxTokens": 10}
    if method == "elicitation/create":
        return {"message": "Your name?", "requestedSchema": {"type": "object", "properties": {}}}
    return {}


def cut_line(line: bytes, pieces: int, offsets: tuple[int, ...] = ()) -> list[bytes]:
    """``line`` in ``pieces`` parts, the first cut inside its first multi-byte character, and cut
    at ``offsets`` too."""
    cuts = {offset for offset in offsets if 0 < offset < len(line)}
    if pieces > 1:
        first = next((i + 1 for i, byte in enumerate(line) if byte >= 0xC0), len(line) // 2)
        step = max(1, (len(line) - first) // (pieces - 1))
        cuts |= set(sorted({first, *range(first + step, len(line), step)})[: pieces - 1])
    bounds = sorted(cuts)
    return [line[a:b] for a, b in zip([0, *bounds], [*bounds, len(line)], strict=True) if a < b]


def play(script: ServerScript, record: BinaryIO) -> None:
    player = Player(script, record)

    def stopped(number: int, frame: FrameType | None) -> None:
        player.note("signal", signal.Signals(number).name)
        raise SystemExit(128 + number)

    signal.signal(signal.SIGTERM, stopped)
    signal.signal(signal.SIGINT, stopped)
    framer = LineFramer()
    while True:
        wait = player.due()
        ready, _, _ = select.select([0], [], [], wait)
        if not ready:
            continue
        data = os.read(0, 64 * 1024)
        player.note("read", data.decode("latin-1"))
        if not data:
            player.note("eof")
            return
        for line in framer.receive_data(data):
            if not isinstance(line, bytes):
                continue
            try:
                value = json.loads(line)
            except ValueError:
                continue
            if not isinstance(value, dict):
                continue
            if isinstance(value.get("method"), str) and "id" in value:
                params = value.get("params")
                player.request(value["id"], value["method"], params if isinstance(params, dict) else {})
            elif "method" not in value and "id" in value:
                player.response(value["id"])


def main(argv: list[str]) -> int:
    script_path, record_path = argv
    with open(script_path, encoding="utf-8") as source:
        script = ServerScript.loads(source.read())
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, 2)
    with open(record_path, "ab", buffering=0) as record:
        Player(script, record).note("start")
        try:
            play(script, record)
        except BrokenPipeError:
            Player(script, record).note("exit", "stdout closed")
            return 1
        Player(script, record).note("exit")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
