"""Lawful: a request whose params are not structured (null, a string, a number) is served.

Rule: RPC-PARAMS-OBJECT (MUST, of the sender). The reference refuses a request whose
``params`` is null, a string, a number or a boolean with -32600; this server reads such a
request as one without params and serves it, as a lenient JSON-RPC library does.
Permitted: SPEC_NOTES RPC-PARAMS-OBJECT, Decision on params served that are not an object;
JSON-RPC 2.0, Parameter Structures ("params MUST be a Structured value" is what a Client
writes; no reaction of the Server is given).
Expected under ``spec``: an RPC-PARAMS-OBJECT note at most, no warning or failure.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # examples/, for the shared _harness

from _harness import Handle, run

from mcpref.reference.session_types import Effect


def on_line(line: bytes, handle: Handle) -> list[Effect]:
    try:
        value = json.loads(line)
    except (ValueError, RecursionError):  # not JSON to this reader: the reference's answer
        return handle(line)
    if isinstance(value, dict) and "method" in value and not isinstance(value.get("params", {}), dict | list):
        del value["params"]  # read as no params at all
        return handle(json.dumps(value, ensure_ascii=False).encode())
    return handle(line)


if __name__ == "__main__":
    raise SystemExit(run(on_line=on_line))
