"""``check`` finds each buggy example of what a server writes on its own, or shows only across requests,
under its rule and in its profile, with the scenarios of that rule alone (campaigns: test_campaign)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from mcpref.fuzz.drive.timing import Timing
from mcpref.fuzz.integrate.check import check_rows
from mcpref.fuzz.judge.oracle import Profile
from mcpref.reference.rules import BY_ID, Level
from mcpref.reference.versions import Era

BUGGY = Path(__file__).resolve().parents[2] / "examples" / "buggy"

# (example, era, profile that fails it, rule)
FOUND = [
    (name, era, profile, rule)
    for name, (era, profile, rule) in {
    "asks_for_roots": (Era.LEGACY, Profile.SPEC, "CAP-CLIENT-DECLARED"),
    "unlisted_changes": (Era.LEGACY, Profile.STRICT, "CAP-LIST-CHANGED"),
    "updates_unsubscribed": (Era.LEGACY, Profile.STRICT, "CAP-RESOURCE-SUBSCRIBED"),
    "elicits_by_url": (Era.LEGACY, Profile.SPEC, "CAP-CLIENT-DECLARED"),
    "notifies_unsubscribed": (Era.MODERN, Profile.SPEC, "MOD-LISTEN-ONLY"),
    "progress_after_result": (Era.LEGACY, Profile.SPEC, "PROGRESS-TOKEN"),
    "progress_repeats": (Era.LEGACY, Profile.SPEC, "PROGRESS-INCREASING"),
    "cancels_back": (Era.LEGACY, Profile.SPEC, "RPC-CANCEL-OWN"),
    "completes_unknown_elicitation": (Era.LEGACY, Profile.SPEC, "CAP-ELICIT-COMPLETE"),
    "reopens_tasks": (Era.LEGACY, Profile.SPEC, "TASKS-TERMINAL"),
    "logs_errors": (Era.LEGACY, Profile.SPEC, "CAP-LOGGING-DECLARED"),
    "asks_with_a_request": (Era.MODERN, Profile.SPEC, "MOD-NO-SERVER-REQUESTS"),
    "capability_as_invalid_params": (Era.MODERN, Profile.SPEC, "MOD-CAP-REQUIRED"),
    "handshake_gate": (Era.MODERN, Profile.SPEC, "MOD-STATELESS"),
    "drops_extra_members": (Era.LEGACY, Profile.SPEC, "RPC-ONE-ANSWER"),
    }.items()
] + [
    ("progress_after_result", Era.MODERN, Profile.SPEC, "PROGRESS-TOKEN"),
    ("progress_repeats", Era.MODERN, Profile.SPEC, "PROGRESS-INCREASING"),
    ("cancels_back", Era.MODERN, Profile.SPEC, "MOD-SERVER-CANCEL"),
    ("structured_missing", Era.LEGACY, Profile.SPEC, "TOOLS-CALL-RESULT"),
    ("structured_missing", Era.MODERN, Profile.SPEC, "TOOLS-CALL-RESULT"),
    ("malformed_resource_read", Era.LEGACY, Profile.SPEC, "RESOURCES-SHAPE"),
    ("malformed_resource_read", Era.MODERN, Profile.SPEC, "RESOURCES-SHAPE"),
]


@pytest.mark.spec(*(rule for _, _, _, rule in FOUND))
@pytest.mark.parametrize(("name", "era", "profile", "rule"), FOUND, ids=[f"{name}-{era.value}" for name, era, _, _ in FOUND])
def test_check_fails_each_example_under_its_rule_in_its_profile_and_warns_in_the_other(
    name: str, era: Era, profile: Profile, rule: str
) -> None:
    target = [sys.executable, str(BUGGY / f"{name}.py")]
    for judged in (Profile.SPEC, Profile.STRICT):
        (row,) = check_rows(target, judged, Timing(), era, frozenset({rule}))
        # Under spec a reference decision taken otherwise is a note: the row passes, the note says why.
        other = "pass" if BY_ID[rule].level is Level.DECISION else "warn"
        expected = "fail" if judged is Profile.STRICT or profile is Profile.SPEC else other
        assert row["status"] == expected and row["findings"], row


@pytest.mark.spec("FRAME-UTF8")
def test_check_keeps_a_silence_on_a_line_not_utf8_under_frame_utf8_whatever_else_drops_it(tmp_path: Path) -> None:
    # A server that drops every tools/call drops the scenario's line with or without its byte 0xFF:
    # campaigns file that under RPC-ONE-ANSWER, but check would then read FRAME-UTF8 pass, though
    # the server was never seen handling a byte that is not UTF-8.
    server = tmp_path / "drops_tool_calls.py"
    examples = Path(__file__).resolve().parents[2] / "examples"
    server.write_text(
        f"import sys\nsys.path.insert(0, {str(examples)!r})\nfrom _harness import run\n"
        "run(on_line=lambda line, handle: [] if b'\"tools/call\"' in line else handle(line))\n"
    )
    rows = check_rows([sys.executable, str(server)], Profile.SPEC, Timing(), only=frozenset({"FRAME-UTF8"}))
    assert [(row["id"], row["status"]) for row in rows] == [("FRAME-UTF8", "fail")]


@pytest.mark.spec("FRAME-CHUNK-INVARIANT", "RPC-ONE-ANSWER")
@pytest.mark.parametrize("name", ["first_message_only", "utf8_per_chunk"])
def test_check_files_what_the_cutting_alone_causes_under_frame_chunk_invariant_not_its_symptoms(name: str) -> None:
    # One cause, under the rule that names it, as a campaign files it: the answers lost go away once
    # the same bytes are written in one piece or one line a write.
    target = [sys.executable, str(BUGGY / f"{name}.py")]
    rows = check_rows(target, Profile.SPEC, Timing(), Era.LEGACY, frozenset({"FRAME-CHUNK-INVARIANT", "RPC-ONE-ANSWER"}))
    assert {row["id"]: row["status"] for row in rows} == {"FRAME-CHUNK-INVARIANT": "fail", "RPC-ONE-ANSWER": "pass"}
    (chunked,) = (row for row in rows if row["id"] == "FRAME-CHUNK-INVARIANT")
    assert all("only when the bytes are cut as in this case" in str(f["message"]) for f in chunked["findings"])
