"""Lawful: ``server/discover`` and -32022 list only 2026-07-28, though ``initialize`` still works.

Rule: MOD-VERSION-UNSUPPORTED (MUST) and MOD-DISCOVER (MUST). The reference lists every version
it serves, of both eras, in ``supportedVersions`` and in the -32022 ``data.supported``; this
dual-era server lists the per-request version only, as the Python SDK 2.3.0 does.
Permitted: SPEC_NOTES MOD-VERSION-UNSUPPORTED, Oracle ("which versions the list holds is not
judged") and Decision (the Python SDK lists only ``["2026-07-28"]``), MOD-DISCOVER ("The
values are not compared with the reference's"); MCP 2026-07-28, Versioning, Protocol
version negotiation.
Expected under ``spec``: no failure with ``--protocol-version 2026-07-28``.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # examples/, for the shared _harness

from _harness import Answer, edit_answers, run

MODERN_ONLY = ["2026-07-28"]


def shorten(answer: Answer) -> None:
    result, error = answer.get("result"), answer.get("error")
    if isinstance(result, dict) and "supportedVersions" in result:
        result["supportedVersions"] = MODERN_ONLY
    data = error.get("data") if isinstance(error, dict) else None
    if isinstance(data, dict) and "supported" in data and "2026-07-28" in data["supported"]:
        data["supported"] = MODERN_ONLY


if __name__ == "__main__":
    raise SystemExit(run(rewrite=lambda data: edit_answers(data, shorten)))
