"""Lawful: a lenient parser that accepts ``NaN``, ``Infinity`` and ``-Infinity`` (read as null).

Rule: RPC-JSON-EXTENSIONS (reference decision), whose reference answer to these non-JSON
literals is -32700 with id null. This server's parser takes them as an extension and reads each as null, so
``{"jsonrpc":"2.0","id":1,"method":"ping","params":{"x":NaN}}`` is served (``{}`` for id 1);
a NaN where the id belongs leaves an id null, refused with -32600 (RPC-ID-TYPE).
Permitted: RFC 8259 section 9 ("A JSON parser MAY accept non-JSON forms or extensions");
RPC-PARSE-ERROR requires -32700 only for what the server cannot parse. Everything else is parsed as strictly as the
reference parses it.
Expected under ``spec``: no failure; a warning (RPC-JSON-EXTENSIONS) for each line served.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # examples/, for the shared _harness

from _harness import Handle, run

from mcpref.reference.messages import ParseFailure, parse_line
from mcpref.reference.session_types import Effect


def on_line(line: bytes, handle: Handle) -> list[Effect]:
    if not isinstance(parse_line(line), ParseFailure) or not any(word in line for word in (b"NaN", b"Infinity")):
        return handle(line)
    try:
        value = json.loads(line.decode("utf-8"), parse_constant=lambda name: None)
        lenient = json.dumps(value, allow_nan=False).encode()
    except (UnicodeDecodeError, ValueError, RecursionError):  # not JSON even with the extension
        return handle(line)
    return handle(lenient)


if __name__ == "__main__":
    raise SystemExit(run(on_line=on_line))
