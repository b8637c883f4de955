"""Lawful: modern ``tools/list`` and ``server/discover`` results carry ``ttlMs`` 0 and ``cacheScope`` "private".

Rule: MOD-TOOLS-CACHE (MUST). The reference sends ``"ttlMs": 3600000`` and ``"cacheScope":
"public"``; this server sends the Python SDK 2.3.0's values, which forbid caching.
Permitted: SPEC_NOTES MOD-TOOLS-CACHE, Decision ("The Python SDK 2.3.0 sends ttlMs 0 and
"private", which is as conforming") and Oracle ("the values are not compared with the
reference's"); MCP 2026-07-28 changelog (CacheableResult) and schema.ts.
Expected under ``spec``: no failure with ``--protocol-version 2026-07-28``.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # examples/, for the shared _harness

from _harness import Answer, edit_answers, run


def uncached(answer: Answer) -> None:
    result = answer.get("result")
    if isinstance(result, dict) and "ttlMs" in result:
        result["ttlMs"], result["cacheScope"] = 0, "private"


if __name__ == "__main__":
    raise SystemExit(run(rewrite=lambda data: edit_answers(data, uncached)))
