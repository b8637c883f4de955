"""The lawful variants (examples/lawful/): servers that take an alternative SPEC_NOTES permits are never failed.

Each server is the reference behind the examples' harness with one permitted alternative
taken (see examples/lawful/README.md). Under the ``spec`` profile, ``mcpref check`` must give
it no ``fail`` row and a seeded campaign must find no failure: in the legacy era, and in the
modern era (``--protocol-version 2026-07-28``) where the alternative concerns it. Warnings are allowed:
a reference decision the server departs from is one. One test per server, so that
pytest-xdist spreads them; campaigns are counted in cases, so they are the same on any machine.

In ``make test`` each server gets the check scenarios that exercise its rule, and one server of each kind
whose alternative a random session reaches (parsing, framing, batches, eras...) a 30-case campaign: the
whole corpus and a campaign for every one would take ten minutes of two cores. ``make lawful`` runs
the whole ``check`` and a 40-case campaign for every one (``MCPREF_LAWFUL=full``).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from test_campaign import campaign

from mcpref.fuzz.drive.timing import Timing
from mcpref.fuzz.integrate.check import check_rows
from mcpref.fuzz.judge.oracle import Profile
from mcpref.reference.versions import Era

ROOT = Path(__file__).resolve().parents[2]
LAWFUL = ROOT / "examples" / "lawful"
FULL = os.environ.get("MCPREF_LAWFUL") == "full"
CASES = 40 if FULL else 30
# Of the servers whose alternative random sessions reach, one of each kind (JSON values, repeated
# members, params, framing, batches, eras, server requests, progress, logging) is campaigned in make test too;
# make lawful campaigns the others (nesting, big integers, surrogates, blank lines, list changes,
# cancellation, the dual-era server...) as it does every server.
CAMPAIGNED = {
    "lenient_nan",
    "duplicate_keys_parse_error",
    "unstructured_params_served",
    "crlf_refused",
    "batches_silent",
    "legacy_meta_version_served",
    "answers_client_response",
    "reports_progress",
    "logs_when_asked",
}
LEGACY: tuple[str, ...] = ()
MODERN = ("--protocol-version", "2026-07-28")

# server -> the eras it is judged in (the options that select each)
BOTH = (LEGACY, MODERN)
ERAS: dict[str, tuple[tuple[str, ...], ...]] = {
    "first_request_chooses_era": BOTH,
    "modern_connection_refuses_initialize": BOTH,
    "legacy_only": BOTH,
    "discover_without_meta_32601": BOTH,
    "modern_ping_answered": BOTH,
    "supported_versions_modern_only": BOTH,
    "legacy_meta_version_served": BOTH,
    "cache_private_zero": BOTH,
    "no_result_meta": BOTH,
    "modern_only_init_32602": (MODERN,),  # serves no legacy version: the legacy corpus is not for it
    "logs_when_asked": (MODERN,),  # asking for a log level is the modern era's
    "tools_list_paginated": BOTH,
    "structured_output": BOTH,
}

SERVERS = [
    pytest.param("crlf_refused", marks=pytest.mark.spec("FRAME-CRLF")),
    pytest.param("blank_line_parse_error", marks=pytest.mark.spec("FRAME-BLANK-LINE")),
    pytest.param("bom_ignored", marks=pytest.mark.spec("FRAME-BOM")),
    pytest.param("eof_partial_ignored", marks=pytest.mark.spec("FRAME-EOF-PARTIAL")),
    pytest.param("max_line_64k", marks=pytest.mark.spec("FRAME-MAX-LINE")),
    pytest.param("raw_utf8_output", marks=pytest.mark.spec("FRAME-OUTPUT-ASCII")),
    pytest.param("exits_at_eof", marks=pytest.mark.spec("STDIO-EOF-DRAIN")),
    pytest.param("lenient_nan", marks=pytest.mark.spec("RPC-JSON-EXTENSIONS")),
    pytest.param("nesting_limit_64", marks=pytest.mark.spec("RPC-JSON-LIMITS")),
    pytest.param("integers_beyond_2_53_refused", marks=pytest.mark.spec("RPC-JSON-LIMITS")),
    pytest.param("lone_surrogates_refused", marks=pytest.mark.spec("RPC-JSON-LIMITS")),
    pytest.param("big_integers_exact", marks=pytest.mark.spec("RPC-JSON-LIMITS")),
    pytest.param("duplicate_keys_first_wins", marks=pytest.mark.spec("RPC-DUPLICATE-KEYS")),
    pytest.param("duplicate_keys_parse_error", marks=pytest.mark.spec("RPC-DUPLICATE-KEYS")),
    pytest.param("duplicate_keys_invalid_request", marks=pytest.mark.spec("RPC-DUPLICATE-KEYS")),
    pytest.param("silent_on_invalid_without_id", marks=pytest.mark.spec("RPC-INVALID-NO-ID")),
    pytest.param("error_id_omitted", marks=pytest.mark.spec("RPC-ERROR-ID-NULL")),
    pytest.param("answers_client_response", marks=pytest.mark.spec("RPC-CLIENT-RESPONSE")),
    pytest.param("unstructured_params_served", marks=pytest.mark.spec("RPC-PARAMS-OBJECT")),
    pytest.param("duplicate_id_served", marks=pytest.mark.spec("RPC-DUPLICATE-ID")),
    pytest.param("id_reuse_refused", marks=pytest.mark.spec("RPC-DUPLICATE-ID")),
    pytest.param("serial", marks=pytest.mark.spec("RPC-CONCURRENT")),
    pytest.param("answers_cancelled", marks=pytest.mark.spec("RPC-CANCEL")),
    pytest.param("batches_everywhere", marks=pytest.mark.spec("RPC-BATCH-UNSUPPORTED")),
    pytest.param("batches_silent", marks=pytest.mark.spec("RPC-BATCH-UNSUPPORTED")),
    pytest.param("other_error_messages", marks=pytest.mark.spec("RPC-RESPONSE-SHAPE")),
    pytest.param("extra_result_members", marks=pytest.mark.spec("LIFE-INIT-RESULT")),
    pytest.param("tool_errors_as_rpc_errors", marks=pytest.mark.spec("TOOLS-EXEC-ERROR")),
    pytest.param("unknown_tool_32601", marks=pytest.mark.spec("TOOLS-UNKNOWN")),
    pytest.param("unknown_tool_is_error", marks=pytest.mark.spec("TOOLS-UNKNOWN")),
    pytest.param("tools_list_paginated", marks=pytest.mark.spec("TOOLS-UNKNOWN")),
    pytest.param("structured_output", marks=pytest.mark.spec("TOOLS-CALL-RESULT")),
    pytest.param("args_invalid_32602_always", marks=pytest.mark.spec("TOOLS-ARGS-INVALID")),
    pytest.param("args_invalid_is_error_always", marks=pytest.mark.spec("TOOLS-ARGS-INVALID")),
    pytest.param("unannounced_capability_32600", marks=pytest.mark.spec("CAP-UNANNOUNCED-METHOD")),
    pytest.param("counter_offer_latest", marks=pytest.mark.spec("LIFE-VERSION-UNSUPPORTED")),
    pytest.param("counter_offer_oldest", marks=pytest.mark.spec("LIFE-VERSION-COUNTER-OFFER")),
    pytest.param("serves_up_to_2025_06_18", marks=pytest.mark.spec("LIFE-VERSION-UNSUPPORTED")),
    pytest.param("pre_init_32602", marks=pytest.mark.spec("LIFE-PRE-INIT-REFUSED")),
    pytest.param("pre_init_served", marks=pytest.mark.spec("LIFE-PRE-INIT-REFUSED")),
    pytest.param("initialized_early_completes", marks=pytest.mark.spec("LIFE-INITIALIZED-EARLY")),
    pytest.param("second_initialize_answered", marks=pytest.mark.spec("LIFE-SECOND-INIT")),
    pytest.param("early_ping", marks=pytest.mark.spec("LIFE-SERVER-EARLY")),
    pytest.param("notifies_once_initialized", marks=pytest.mark.spec("LIFE-SERVER-EARLY")),
    pytest.param("announces_list_changes", marks=pytest.mark.spec("CAP-LIST-CHANGED")),
    pytest.param("reports_progress", marks=pytest.mark.spec("PROGRESS-TOKEN")),
    pytest.param("cancels_its_ping", marks=pytest.mark.spec("RPC-CANCEL-OWN")),
    pytest.param("first_request_chooses_era", marks=pytest.mark.spec("MOD-DUAL-ERA")),
    pytest.param("modern_connection_refuses_initialize", marks=pytest.mark.spec("MOD-DUAL-ERA")),
    pytest.param("legacy_only", marks=pytest.mark.spec("MOD-DUAL-ERA")),
    pytest.param("modern_only_init_32602", marks=pytest.mark.spec("MOD-LEGACY-INIT")),
    pytest.param("discover_without_meta_32601", marks=pytest.mark.spec("MOD-DISCOVER")),
    pytest.param("modern_ping_answered", marks=pytest.mark.spec("MOD-PING-GONE")),
    pytest.param("supported_versions_modern_only", marks=pytest.mark.spec("MOD-VERSION-UNSUPPORTED")),
    pytest.param("legacy_meta_version_served", marks=pytest.mark.spec("MOD-VERSION-UNSUPPORTED")),
    pytest.param("cache_private_zero", marks=pytest.mark.spec("MOD-TOOLS-CACHE")),
    pytest.param("no_result_meta", marks=pytest.mark.spec("MOD-RESULT-TYPE")),
    pytest.param("logs_when_asked", marks=pytest.mark.spec("MOD-LOG-LEVEL")),
]


def check_failures(target: list[str], rule: str, *era: str) -> dict[str, list[str]]:
    """``mcpref check --profile spec``'s fail rows: rule -> the scenario and message of each finding. All
    the corpus with ``MCPREF_LAWFUL=full``; else the scenarios that exercise ``rule``, in this process."""
    if FULL:
        command = [sys.executable, "-m", "mcpref", "check", "--profile", "spec", "--json", *era, "--", *target]
        completed = subprocess.run(command, cwd=ROOT, capture_output=True, timeout=600, check=False)
        assert completed.returncode in (0, 1), completed.stderr.decode()[-2000:]
        rows = json.loads(completed.stdout)["rules"]
    else:
        rows = check_rows(target, Profile.SPEC, Timing(), Era.MODERN if era else Era.LEGACY, frozenset({rule}))
    return {
        str(row["id"]): [f"{finding['scenario']}: {finding.get('message')}" for finding in row["findings"]]  # type: ignore[attr-defined]
        for row in rows
        if row["status"] == "fail"
    }


def test_every_lawful_example_is_tested() -> None:
    assert {path.stem for path in LAWFUL.glob("*.py")} == {param.values[0] for param in SERVERS}
    assert set(ERAS) <= {param.values[0] for param in SERVERS}


@pytest.mark.parametrize("name", SERVERS)
def test_a_lawful_variant_is_never_failed_under_spec(tmp_path: Path, name: str, request: pytest.FixtureRequest) -> None:
    (rule,) = request.node.get_closest_marker("spec").args
    target = [sys.executable, str(LAWFUL / f"{name}.py")]
    for era in ERAS.get(name, (LEGACY,)):
        assert check_failures(target, rule, *era) == {}, era
        if FULL or name in CAMPAIGNED:
            status, report = campaign(tmp_path, f"{name}{'-modern' if era else ''}", "spec", target, CASES, *era)
            found = [(failure["id"], failure.get("message"), failure["input"]) for failure in report["failures"]]  # type: ignore[attr-defined]
            assert (status, found) == (0, []), era


@pytest.mark.spec("LIFE-SERVER-EARLY")
def test_a_notification_once_initialized_was_received_is_not_early_under_strict_either(tmp_path: Path) -> None:
    # A SHOULD NOT: spec never fails it, so the lawful test above cannot tell a false warning.
    target = [sys.executable, str(LAWFUL / "notifies_once_initialized.py")]
    rows = check_rows(target, Profile.STRICT, Timing(), only=frozenset({"LIFE-SERVER-EARLY"}))
    assert [(row["id"], row["status"]) for row in rows] == [("LIFE-SERVER-EARLY", "pass")]
    status, report = campaign(tmp_path, "notifies_once_initialized", "strict", target, CASES)
    found = [finding["id"] for kind in ("failures", "warnings") for finding in report[kind]]  # type: ignore[attr-defined]
    assert (status, found) == (0, [])


@pytest.mark.spec("TOOLS-UNKNOWN")
def test_a_call_to_a_tool_of_a_page_not_fetched_is_no_call_to_an_unlisted_tool() -> None:
    # A SHOULD: spec never fails it, so the lawful test above cannot tell a false warning. The
    # corpus fetches one page, and calls tools of the others.
    target = [sys.executable, str(LAWFUL / "tools_list_paginated.py")]
    rows = check_rows(target, Profile.STRICT, Timing(), only=frozenset({"TOOLS-UNKNOWN"}))
    assert [(row["id"], row["status"]) for row in rows] == [("TOOLS-UNKNOWN", "untested")]


@pytest.mark.spec("LIFE-INITIALIZED-EARLY", "LIFE-PRE-INIT-REFUSED")
@pytest.mark.parametrize(
    ("name", "expected"),
    [
        # Serves every request before initialize: the early notification changes nothing, one cause.
        ("pre_init_served", {"LIFE-PRE-INIT-REFUSED": True, "LIFE-INITIALIZED-EARLY": False}),
        # Refuses them with -32600 until an early notification opens the session.
        ("initialized_early_completes", {"LIFE-PRE-INIT-REFUSED": False, "LIFE-INITIALIZED-EARLY": True}),
    ],
)
def test_an_early_initialized_notification_is_said_to_open_the_session_only_where_it_did(
    name: str, expected: dict[str, bool]
) -> None:
    target = [sys.executable, str(LAWFUL / f"{name}.py")]
    rows = check_rows(target, Profile.SPEC, Timing(), only=frozenset(expected))
    # Both reference decisions: the one the server took otherwise passes under spec with a note.
    assert {row["id"]: row["status"] for row in rows} == dict.fromkeys(expected, "pass")
    assert {row["id"]: bool(row["findings"]) for row in rows} == expected


@pytest.mark.spec("CAP-ELICIT-COMPLETE", "TASKS-TERMINAL", "CAP-LOGGING-DECLARED", "RPC-BATCH")
def test_a_rule_of_a_version_the_server_did_not_negotiate_is_not_applicable() -> None:
    # Asked for 2025-11-25, the server answers 2025-06-18: the rules of 2025-11-25 alone were
    # not kept there, they did not apply; the same scenario's rules of 2025-06-18 were kept.
    target = [sys.executable, str(LAWFUL / "serves_up_to_2025_06_18.py")]
    rules = frozenset({"CAP-ELICIT-COMPLETE", "TASKS-TERMINAL", "CAP-LOGGING-DECLARED", "RPC-BATCH"})
    rows = check_rows(target, Profile.SPEC, Timing(), only=rules)
    assert {row["id"]: row["status"] for row in rows} == {
        "CAP-ELICIT-COMPLETE": "n/a",
        "TASKS-TERMINAL": "n/a",
        "CAP-LOGGING-DECLARED": "untested",  # it applies, but the server wrote no log message to keep it by
        "RPC-BATCH": "pass",  # its scenario asks for 2025-03-26, which the server serves
    }
