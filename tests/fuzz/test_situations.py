"""A rule judged only in a situation the server's answers create passes only where that situation was
seen: a server whose tools the corpus does not call leaves TOOLS-CALL-RESULT untested, not passed."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from test_oracle import reference_observation
from test_oracle_initiative import UNASKED  # the reference writes nothing unasked

from mcpref.fuzz.drive.timing import Timing
from mcpref.fuzz.generate.corpus_modern import BY_ERA
from mcpref.fuzz.integrate.check import SITUATIONS, check_rows
from mcpref.fuzz.judge.oracle import Profile, witnessed
from mcpref.reference.versions import Era

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
# The results of capabilities the reference does not announce: it refuses their methods, so only
# another server shows them; and the messages a server writes on its own, of which it writes none.
NOT_SERVED = {"RESOURCES-SHAPE", "PROMPTS-SHAPE", "COMPLETION-SHAPE", "TASKS-SHAPE", "SERVER-MESSAGE-SHAPE"}


@pytest.mark.spec(*SITUATIONS)
def test_the_reference_shows_every_situation_somewhere_in_the_corpus() -> None:
    corpus = [*BY_ERA[Era.LEGACY], *BY_ERA[Era.MODERN]]
    shown = set().union(*(witnessed(s.case.stream, reference_observation(s.case, era=s.era)) for s in corpus))
    assert shown == set(SITUATIONS) - NOT_SERVED - UNASKED


@pytest.mark.spec(*SITUATIONS)
def test_a_server_of_other_tools_has_the_rules_of_their_calls_untested(tmp_path: Path) -> None:
    # Seen on mcp-server-time (the Python SDK): it lists get_current_time and convert_time, the corpus
    # calls the demo tools, and three rules read pass though no call of a listed tool was answered.
    server = tmp_path / "other_tools.py"
    server.write_text(
        f"import sys\nsys.path.insert(0, {str(EXAMPLES)!r})\nfrom _harness import run\n"
        "run(rewrite=lambda data: data.replace(b'\"name\":\"', b'\"name\":\"other_'))\n"
    )
    found = check_rows([sys.executable, str(server)], Profile.SPEC, Timing(), only=frozenset(SITUATIONS))
    rows = {str(row["id"]): row for row in found}
    untested = {"TOOLS-CALL-RESULT", "TOOLS-EXEC-ERROR", "TOOLS-ARGS-INVALID", "RESOURCES-SHAPE", "PROMPTS-SHAPE",
                "SERVER-MESSAGE-SHAPE", *UNASKED}  # fmt: skip
    assert {rule for rule, row in rows.items() if row["status"] == "untested"} == untested
    assert all(str(rows[rule]["reason"]).startswith(f"no scenario showed {SITUATIONS[rule]}") for rule in untested)
    assert rows["TOOLS-LIST-SHAPE"]["status"] == rows["LIFE-INIT-RESULT"]["status"] == "pass"
    # It still serves the demo tools it no longer lists: a reference decision taken otherwise, a note.
    assert rows["TOOLS-UNKNOWN"]["status"] == "pass" and rows["TOOLS-UNKNOWN"]["findings"]


@pytest.mark.spec(*UNASKED)
def test_a_server_that_writes_nothing_unasked_has_the_rules_of_such_messages_untested() -> None:
    # They read pass for the reference, which writes no progress, cancellation, log or list change.
    found = check_rows([sys.executable, "-m", "mcpref.reference"], Profile.SPEC, Timing(), only=frozenset(UNASKED))
    rows = {str(row["id"]): row for row in found}
    assert {rule for rule, row in rows.items() if row["status"] == "untested"} == UNASKED
    assert all(str(rows[rule]["reason"]).startswith(f"no scenario showed {SITUATIONS[rule]} (") for rule in UNASKED)


@pytest.mark.spec("PROGRESS-TOKEN", "PROGRESS-INCREASING", "RPC-CANCEL-OWN", "CAP-LIST-CHANGED")
@pytest.mark.parametrize(
    ("example", "rules"),
    [
        ("reports_progress", {"PROGRESS-TOKEN", "PROGRESS-INCREASING"}),
        ("cancels_its_ping", {"RPC-CANCEL-OWN"}),
        ("announces_list_changes", {"CAP-LIST-CHANGED"}),
    ],
)
def test_a_server_that_writes_such_a_message_lawfully_passes_its_rule(example: str, rules: set[str]) -> None:
    target = [sys.executable, str(EXAMPLES / "lawful" / f"{example}.py")]
    found = check_rows(target, Profile.SPEC, Timing(), only=frozenset(rules))
    assert {str(row["id"]): row["status"] for row in found} == dict.fromkeys(rules, "pass")
