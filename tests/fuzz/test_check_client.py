"""``mcpref check-client``: its command line, its template, its output.

Which client is failed under which rule is ``test_check_client_finds``; here, what every use
of the command relies on.
"""

from __future__ import annotations

import json
import sys

import pytest
from in_process import mcpref_in_process

from mcpref.fuzz.drive.client_run import ClientRun, Limits, TemplateError, expand, run_client
from mcpref.fuzz.drive.scripted_server import cut_line
from mcpref.fuzz.generate.client_scripts import PLAIN, SCRIPTS, ServerScript, era_of, scenario
from mcpref.fuzz.integrate.check_client import rows
from mcpref.fuzz.integrate.cli import main
from mcpref.fuzz.judge.client import ClientVerdict, judge_client
from mcpref.fuzz.judge.findings import Finding, Profile
from mcpref.fuzz.report import statuses
from mcpref.reference.rules import CLIENT_RULES

# The reference client waits 4 s for an answer, not its 10: the silent scenario costs that.
REFERENCE_CLIENT = [sys.executable, "-m", "mcpref", "client", "--timeout", "4", "--tool", "echo", "--", "{server}"]


def test_the_template_takes_the_server_as_words_or_as_one_shell_line() -> None:
    server = ["python3", "-m", "a b"]
    assert expand(["client", "{server}", "-v"], server) == ["client", "python3", "-m", "a b", "-v"]
    assert expand(["client", "--server={server}"], server) == ["client", "--server=python3 -m 'a b'"]
    with pytest.raises(TemplateError, match="names no"):
        expand(["client"], server)


@pytest.mark.parametrize(
    ("argv", "complaint"),
    [
        (["check-client"], "a client command after --"),
        (["check-client", "--limit", "0", "--", "x", "{server}"], "positive --limit"),
        (["check-client", "--", "true"], "names no {server}"),
        (["check-client", "--", "/nonexistent/client", "{server}"], "cannot start /nonexistent/client"),
    ],
)
def test_bad_usage_exits_2(argv: list[str], complaint: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(argv) == 2
    assert complaint in capsys.readouterr().err


@pytest.mark.spec("CLIENT-READ-CRLF", "CLIENT-INIT-FIRST")
def test_one_scenario_with_the_plain_call_as_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check-client", "--json", "--scenario", "CRLF line ends", "--", *REFERENCE_CLIENT]) == 0
    document = json.loads(capsys.readouterr().out)
    rows = {row["id"]: row for row in document["rules"]}
    assert [row["id"] for row in document["rules"]] == [rule.id for rule in CLIENT_RULES]
    assert rows["CLIENT-READ-CRLF"]["status"] == "pass" and rows["CLIENT-INIT-FIRST"]["status"] == "pass"
    assert rows["CLIENT-READ-CHUNKS"]["status"] == "n/a"  # no scenario of this run exercises it
    assert document["side"] == "client" and document["command"] == REFERENCE_CLIENT


DUAL_ERA_CLIENT = [sys.executable, "-m", "mcpref", "client", "--timeout", "4", "--protocol-version", "2026-07-28", "--tool", "echo",
                   "--", "{server}"]  # fmt: skip


@pytest.mark.parametrize(("version", "era"), [("2025-06-18", "legacy"), ("2026-07-28", "modern")])
def test_a_protocol_version_runs_the_scenarios_of_its_era_only(version: str, era: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check-client", "--json", "--protocol-version", version, "--", *DUAL_ERA_CLIENT]) == 0
    rows = {row["id"]: row for row in json.loads(capsys.readouterr().out)["rules"]}
    ran = {name for row in rows.values() for name in row["scenarios"]}
    assert ran == {script.name for script in SCRIPTS if era_of(script).value == era}
    of_era = {e: {rule for script in SCRIPTS if era_of(script).value == e for rule in script.rules} for e in ("legacy", "modern")}
    modern = of_era["modern"] - of_era["legacy"]  # the rules only a modern era's scenario exercises
    assert len(modern) == 5
    assert {rows[rule]["status"] for rule in modern} == ({"pass"} if era == "modern" else {"n/a"})
    assert rows["CLIENT-READ-CHUNKS"]["status"] == "pass"  # the read path is shown to a client of either era
    assert all(row["status"] in ("pass", "n/a") for row in rows.values())


def test_a_client_that_never_starts_a_server_leaves_its_rules_untested(capsys: pytest.CaptureFixture[str]) -> None:
    argv = [sys.executable, "-c", "import sys; print(sys.argv)", "{server}"]
    assert main(["check-client", "--scenario", "a plain tool call", "--", *argv]) == 3  # nothing judged
    out = capsys.readouterr().out
    assert "CLIENT-INIT-FIRST           MUST                untested" in out
    assert 'never started the scripted server in "a plain tool call"' in out and "fail" not in out and "warn" not in out


def test_a_finding_carries_the_script_and_a_line_that_reproduces_it(capsys: pytest.CaptureFixture[str]) -> None:
    # A client that writes one line of its own and exits: not a JSON-RPC message.
    argv = [sys.executable, "-c", "import subprocess, sys; p = subprocess.Popen(sys.argv[1:], stdin=subprocess.PIPE); "
            "p.communicate(b'hello\\n', timeout=30)", "{server}"]  # fmt: skip
    assert main(["check-client", "--json", "--scenario", "a plain tool call", "--", *argv]) == 1
    rows = {row["id"]: row for row in json.loads(capsys.readouterr().out)["rules"]}
    [finding] = rows["CLIENT-STDIN-MESSAGES-ONLY"]["findings"]
    assert finding["status"] == "fail" and finding["script"]["name"] == "a plain tool call"
    assert finding["reproducer"].startswith("mcpref check-client --scenario 'a plain tool call' -- ")
    assert rows["CLIENT-INIT-FIRST"]["status"] == "untested"


def test_a_client_that_hangs_is_killed_at_the_limit() -> None:
    argv = [sys.executable, "-c", "import subprocess, sys, time; p = subprocess.Popen(sys.argv[1:], stdin=subprocess.PIPE); "
            "time.sleep(60)", "{server}"]  # fmt: skip
    run = run_client(argv, PLAIN, Limits(1.0))
    assert run.exit_status is None and not run.leftover


def test_the_command_is_listed_in_help() -> None:
    done = mcpref_in_process("check-client", "--help")
    assert done.returncode == 0 and "{server}" in done.stdout


@pytest.mark.spec("CLIENT-RESULT-SHOWN")
def test_a_client_that_prints_nothing_leaves_result_shown_untested(capsys: pytest.CaptureFixture[str]) -> None:
    # The reference client with its output thrown away: it does everything but show the result.
    argv = [sys.executable, "-c", "import subprocess, sys; sys.exit(subprocess.run(sys.argv[1:], "
            "stdout=subprocess.DEVNULL).returncode)", *REFERENCE_CLIENT]  # fmt: skip
    assert main(["check-client", "--json", "--scenario", "a plain tool call", "--", *argv]) == 0
    rows = {row["id"]: row for row in json.loads(capsys.readouterr().out)["rules"]}
    assert rows["CLIENT-RESULT-SHOWN"]["status"] == "untested"
    assert rows["CLIENT-RESULT-SHOWN"]["reason"] == "the client printed no tool result in any scenario: nothing shown to judge"
    assert rows["CLIENT-INIT-FIRST"]["status"] == "pass"


PIPELINING_CLIENT = """
import json, subprocess, sys

server = subprocess.Popen(sys.argv[1:], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
def send(*messages):
    server.stdin.write(b"".join(json.dumps(m).encode() + b"\\n" for m in messages))
    server.stdin.flush()
send({"jsonrpc": "2.0", "id": 1, "method": "initialize",
      "params": {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "p", "version": "1"}}})
server.stdout.readline()
send({"jsonrpc": "2.0", "method": "notifications/initialized"}, {"jsonrpc": "2.0", "id": 2, "method": "tools/list"},
     {"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {"name": "echo", "arguments": {}}})
print([json.loads(server.stdout.readline())["id"] for _ in range(2)])
server.stdin.close()
server.wait()
"""


def test_answers_out_of_order_are_written_newest_first() -> None:
    """Two requests sent at once: the plain server answers them in turn, the reordering one not."""
    client = [sys.executable, "-c", PIPELINING_CLIENT, "{server}"]
    assert run_client(client, PLAIN).stdout == b"[2, 3]\n"
    assert run_client(client, scenario("", reorder=True)).stdout == b"[3, 2]\n"


PINGING_CLIENT = """
import json, subprocess, sys

server = subprocess.Popen(sys.argv[1:], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
def ask(message):
    server.stdin.write(json.dumps(message).encode() + b"\\n")
    server.stdin.flush()
    return json.loads(server.stdout.readline())
ask({"jsonrpc": "2.0", "id": 1, "method": "initialize",
     "params": {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "p", "version": "1"}}})
print(ask({"jsonrpc": "2.0", "id": 2, "method": "ping"}))
server.stdin.close()
server.wait()
"""


@pytest.mark.spec("CLIENT-ANSWER-BY-ID")
@pytest.mark.parametrize("script", [PLAIN, scenario("", reorder=True)], ids=["plain", "reordered"])
def test_a_ping_draws_the_same_empty_result_whatever_the_order_of_answers(script: ServerScript) -> None:
    """Answers out of order differ from the plain ones only in their order: a ping is answered still."""
    run = run_client([sys.executable, "-c", PINGING_CLIENT, "{server}"], script)
    assert run.stdout == b"{'jsonrpc': '2.0', 'id': 2, 'result': {}}\n"


@pytest.mark.spec("CLIENT-SERVER-GONE")
@pytest.mark.parametrize("after", [0, 100, 200, 5000])
def test_a_server_dies_after_so_many_bytes_and_the_reference_client_ends(after: int) -> None:
    run = run_client(REFERENCE_CLIENT, scenario("", dies_after=after))
    died = [event for event in run.events if event.kind == "exit" and event.data == "died"]
    assert bool(died) is (after < 1000)  # the plain session writes less than 1000 bytes
    verdict = judge_client(run, run_client(REFERENCE_CLIENT, PLAIN))
    assert verdict.findings == () and ("CLIENT-SERVER-GONE" in verdict.seen) is bool(died)
    assert run.exit_status is not None


def test_a_line_is_cut_at_the_offsets_given_and_in_the_pieces_asked_for() -> None:
    line = "{\"é\": 1}\n".encode()
    assert cut_line(line, 1, (2, 4, 40)) == [line[:2], line[2:4], line[4:]]
    assert cut_line(line, 2) == [line[:3], line[3:]]  # inside the two bytes of é
    assert b"".join(cut_line(line, 3, (1,))) == line and len(cut_line(line, 3, (1,))) == 4


@pytest.mark.spec("CLIENT-TIMEOUT", "CLIENT-CANCEL")
def test_a_timeout_longer_than_the_limit_shows_where_the_server_never_answers(capsys: pytest.CaptureFixture[str]) -> None:
    # The client gives up after 8 s, past --limit (5 s), which would have cut its wait short and
    # called it endless: where the server never answers, the client gets --endless-wait (40 s).
    client = [sys.executable, "-m", "mcpref", "client", "--timeout", "8", "--tool", "echo", "--", "{server}"]
    options = ["--limit", "5", "--endless-wait", "40", "--scenario", "a server that never answers the call"]
    main(["check-client", "--json", "--profile", "strict", *options, "--", *client])
    rows = {row["id"]: row for row in json.loads(capsys.readouterr().out)["rules"]}
    assert (rows["CLIENT-TIMEOUT"]["status"], rows["CLIENT-CANCEL"]["status"]) == ("pass", "pass")


@pytest.mark.spec("CLIENT-READ-CRLF", "CLIENT-READ-CHUNKS")
@pytest.mark.parametrize("profile", list(Profile))
def test_a_client_rule_with_findings_only_from_scenarios_that_judge_other_rules_reads_as_a_server_rule(profile: Profile) -> None:
    # The plain call lists neither rule: a note under one claims nothing of it (n/a, as check says of
    # a server), a failure under the other is a failure, and the rows are read by one rule.
    run = ClientRun(PLAIN, (), 0, 0.0, b"", b"", leftover=False)
    found = [Finding(rule, False, None, "did otherwise", "expected", "actual") for rule in ("CLIENT-READ-CRLF", "CLIENT-READ-CHUNKS")]
    verdict = ClientVerdict((*found, Finding("CLIENT-READ-CHUNKS", True, None, "broke it", "expected", "actual")), frozenset())
    table = {str(row["id"]): row for row in rows(REFERENCE_CLIENT, [(run, verdict)], profile)}
    crlf = statuses.of([found[0].status(profile)], seen=False, exercised=False)
    assert table["CLIENT-READ-CRLF"]["status"] == crlf == ("n/a" if profile is Profile.SPEC else "fail")
    assert table["CLIENT-READ-CHUNKS"]["status"] == "fail"
    assert table["CLIENT-MOD-FALLBACK"]["status"] == "n/a"
