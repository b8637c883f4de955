"""``check`` asked for no protocol version judges the era the server serves: the legacy corpus, or
the modern one for a server seen serving the modern era alone; asked for a legacy version, a server
that serves none gets n/a, not the legacy era's verdicts on its refusals."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from mcpref.fuzz.drive.timing import Timing
from mcpref.fuzz.integrate.check import check_rows, checked
from mcpref.fuzz.judge.oracle import Profile
from mcpref.reference.versions import Era

ROOT = Path(__file__).resolve().parents[2]
MODERN_ONLY = {
    "reference": [sys.executable, "-m", "mcpref.reference", "--eras", "modern"],  # -32022
    "refuses with -32602": [sys.executable, str(ROOT / "examples" / "lawful" / "modern_only_init_32602.py")],
}


@pytest.mark.spec("MOD-LEGACY-INIT", "LIFE-PING", "LIFE-INIT-RESULT")
@pytest.mark.parametrize("name", MODERN_ONLY)
def test_a_server_of_the_modern_era_alone_is_judged_by_that_era(name: str) -> None:
    # Judged by the legacy corpus, the server refusing every initialize drew LIFE-PING and
    # RPC-INVALID-PARAMS failures and passed TOOLS-* rules no tool call had shown.
    target = MODERN_ONLY[name]
    found = checked(target, Profile.SPEC, Timing())
    era, rows = found.era, found.rows
    statuses = {str(row["id"]): row["status"] for row in rows}
    assert era is Era.MODERN
    assert "fail" not in statuses.values(), statuses
    assert statuses["MOD-DISCOVER"] == "pass"
    # Legacy rules only the modern corpus's "discover, then the legacy handshake" exercises: no
    # initialize was accepted, so nothing of them was seen.
    assert statuses["LIFE-INIT-RESULT"] == statuses["LIFE-PING"] == "n/a"
    legacy = check_rows(target, Profile.SPEC, Timing(), Era.LEGACY)
    assert {row["status"] for row in legacy} == {"n/a"}
    assert all("serves no legacy version" in str(row["reason"]) for row in legacy)


@pytest.mark.spec("MOD-LEGACY-INIT", "LIFE-PING")
def test_a_modern_only_server_that_names_its_versions_in_the_message_alone_is_judged_by_that_era(tmp_path: Path) -> None:
    # MOD-LEGACY-INIT lets the refusal name the versions in its message only: without data.supported,
    # the legacy corpus judged this server and failed LIFE-PING for the bare ping it refused.
    source = (ROOT / "examples" / "lawful" / "modern_only_init_32602.py").read_text()
    patched = source.replace('error["code"] = INVALID_PARAMS', 'error["code"] = INVALID_PARAMS\n        error.pop("data")')
    patched = patched.replace("Path(__file__).resolve().parents[1]", repr(str(ROOT / "examples")))
    assert patched.count('error.pop("data")') == 1 and str(ROOT / "examples") in patched
    server = tmp_path / "names_versions_in_the_message.py"
    server.write_text(patched)
    found = checked([sys.executable, str(server)], Profile.SPEC, Timing())
    era, rows = found.era, found.rows
    assert era is Era.MODERN
    assert "fail" not in {row["status"] for row in rows}


@pytest.mark.spec("MOD-DUAL-ERA")
def test_a_server_of_both_eras_is_judged_by_the_legacy_corpus() -> None:
    # LIFE-INIT-RESULT's scenario writes an initialize: the choice of era has something to go on.
    chosen = frozenset({"LIFE-PING", "LIFE-INIT-RESULT"})
    found = checked([sys.executable, "-m", "mcpref.reference"], Profile.SPEC, Timing(), only=chosen)
    era, rows = found.era, found.rows
    assert era is Era.LEGACY and [row["status"] for row in rows] == ["pass", "pass"]


@pytest.mark.spec("MOD-LEGACY-INIT")
def test_the_command_line_says_which_era_judged_the_server() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "mcpref", "check", "--json", "--", *MODERN_ONLY["reference"]],
        capture_output=True, text=True, timeout=300, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["era"] == "modern"
    assert "serves the modern era alone" in done.stderr


# The TypeScript SDK's server in miniature: the legacy era alone, and requests served before initialize.
LEGACY_SERVING_EARLY = """
import sys
sys.path[:0] = [{lawful!r}, {examples!r}]
import pre_init_served
from _harness import run
from mcpref.reference.dispatcher import ServerSession
from mcpref.reference.session_types import Eras
pre_init_served.session = ServerSession(eras=Eras.LEGACY)
raise SystemExit(run(on_line=pre_init_served.on_line, session=pre_init_served.session))
"""


@pytest.mark.spec("LIFE-PRE-INIT-REFUSED", "LIFE-INIT-RESULT")
@pytest.mark.parametrize("profile", list(Profile))
def test_a_legacy_rule_is_no_verdict_on_the_modern_requests_of_a_legacy_server_under_any_profile(
    tmp_path: Path, profile: Profile
) -> None:
    # Seen on the TypeScript SDK's server: the modern corpus's enveloped requests, served with no
    # initialize before them, were read as legacy requests before initialize, and strict failed
    # LIFE-PRE-INIT-REFUSED in an era that has no initialize. A legacy session the client opened
    # ("discover, then the legacy handshake") is still judged by the legacy rules.
    server = tmp_path / "legacy_serving_early.py"
    server.write_text(LEGACY_SERVING_EARLY.format(lawful=str(ROOT / "examples" / "lawful"), examples=str(ROOT / "examples")))
    rows = {str(row["id"]): row for row in check_rows([sys.executable, str(server)], profile, Timing(), Era.MODERN)}
    early = rows["LIFE-PRE-INIT-REFUSED"]
    assert (early["status"], early["findings"]) == ("n/a", []), early
    assert rows["LIFE-INIT-RESULT"]["status"] == "pass"
    assert not [rule for rule, row in rows.items() if row["status"] in ("fail", "warn")]
