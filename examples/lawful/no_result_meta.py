"""Lawful: modern results carry ``resultType`` but no ``_meta`` naming the server.

Rule: MOD-RESULT-TYPE (MUST). The reference adds ``_meta`` ``{"io.modelcontextprotocol/serverInfo":
...}`` to every modern result, which the specification asks for with a SHOULD; this server
leaves it out.
Permitted: SPEC_NOTES MOD-RESULT-TYPE ("which the specification asks for with a SHOULD";
Oracle: "The result's _meta is not judged"); MCP 2026-07-28, Basic, Result responses.
Expected under ``spec``: no failure with ``--protocol-version 2026-07-28``.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # examples/, for the shared _harness

from _harness import run, without_result_member

if __name__ == "__main__":
    raise SystemExit(run(rewrite=without_result_member("_meta")))
