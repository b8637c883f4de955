"""The command-line contract: exit statuses, check rows, replay, and refusals of bad input."""

from __future__ import annotations

import gzip
import json
import subprocess
import sys
from pathlib import Path

import pytest
from in_process import mcpref_in_process
from targets import CORPUS
from test_oracle_initiative import UNASKED

from mcpref.fuzz.generate.corpus import SCENARIOS
from mcpref.fuzz.generate.messages import encode, request
from mcpref.fuzz.judge.oracle import Profile
from mcpref.fuzz.report.notes import citation
from mcpref.fuzz.report.reproducer import (
    SHELL_LINE_MAX,
    STDERR_INLINE,
    paced_shell_line,
    printf_argument,
    reproducer_json,
    shell_line,
)
from mcpref.reference.rules import RULES
from mcpref.reference.versions import Era

ROOT = Path(__file__).resolve().parents[2]
MCPREF = [sys.executable, "-m", "mcpref"]
SILENT = [sys.executable, str(ROOT / "examples" / "buggy" / "silent_on_parse_error.py")]


def mcpref(*args: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*MCPREF, *args], cwd=ROOT, capture_output=True, text=True, timeout=timeout, check=False)


@pytest.mark.spec("RPC-PARSE-ERROR", "FRAME-UTF8", "STDIO-EOF-DRAIN", "FRAME-EOF-PARTIAL")
def test_check_passes_the_reference_and_fails_a_silent_server_with_the_right_id() -> None:
    clean = mcpref("check", "--json")
    assert clean.returncode == 0, clean.stdout
    rows = json.loads(clean.stdout)["rules"]
    assert [row["id"] for row in rows] == [rule.id for rule in RULES]
    # The reference announces neither resources nor prompts and writes nothing unasked: no scenario
    # shows their shapes, nor the rules of what it would write (test_untested.py).
    unshown = {"RESOURCES-SHAPE", "PROMPTS-SHAPE", "SERVER-MESSAGE-SHAPE", *UNASKED}
    assert {row["id"] for row in rows if row["status"] not in ("pass", "n/a")} == unshown
    silent = mcpref("check", "--profile", "strict", "--json", "--", *SILENT)
    assert silent.returncode == 1
    by_id = {row["id"]: row for row in json.loads(silent.stdout)["rules"]}
    assert by_id["RPC-PARSE-ERROR"]["status"] == "fail"
    assert by_id["RPC-ID-ECHO"]["status"] == "pass"


def test_usage_errors_and_unstartable_targets_exit_2(tmp_path: Path) -> None:
    assert mcpref("fuzz", "--budget", "1", "--", str(tmp_path / "no-such-server")).returncode == 2
    assert mcpref_in_process("check", "--").returncode == 2
    assert mcpref_in_process("fuzz", "--jobs", "0").returncode == 2
    assert mcpref_in_process("frobnicate").returncode == 2


def test_version_is_the_tools_and_the_protocol_option_has_a_name_of_its_own() -> None:
    from mcpref import __version__

    shown = mcpref_in_process("--version")
    assert (shown.returncode, shown.stdout) == (0, f"mcpref {__version__}\n")
    modern = mcpref("check", "--protocol-version", "2026-07-28", "--json")
    former = mcpref("check", "--version", "2026-07-28", "--json")
    assert modern.returncode == former.returncode == 0 and modern.stderr == ""
    assert "--version V is deprecated: use --protocol-version V" in former.stderr
    rows = [json.loads(done.stdout)["rules"] for done in (modern, former)]
    assert rows[0] == rows[1] and any(row["id"].startswith("MOD-") and row["status"] == "pass" for row in rows[0])


@pytest.mark.parametrize("command", ["check", "fuzz", "replay", "compare"])
def test_each_commands_help_shows_the_target_the_profiles_and_the_exit_statuses(command: str) -> None:
    shown = mcpref_in_process(command, "--help")
    text = " ".join(shown.stdout.split())
    assert shown.returncode == 0
    assert ("--- CMD2" if command == "compare" else "-- CMD [ARGS...]") in text
    assert "without a shell" in text and "Exit status: 0 something was judged" in text
    if command != "replay":
        assert "strict also fails SHOULDs" in text
    if command in ("check", "fuzz"):
        assert "without --, the bundled reference server" in text


@pytest.mark.spec("STDIO-EOF-DRAIN")
def test_replay_ends_a_case_that_closed_stdin_by_closing_stdin(tmp_path: Path) -> None:
    (scenario,) = [s for s in SCENARIOS if s.name == "EOF with work in flight"]
    case, drops = scenario.case, [sys.executable, str(ROOT / "examples" / "buggy" / "drops_at_eof.py")]
    saved = tmp_path / "eof.json"
    saved.write_text(reproducer_json("STDIO-EOF-DRAIN", Profile.STRICT, drops, case.chunks, case.settle, eof=case.eof))
    assert json.loads(saved.read_text())["eof"] is True
    replayed = mcpref("replay", str(saved))
    assert replayed.returncode == 1 and "fail STDIO-EOF-DRAIN:" in replayed.stdout, replayed.stdout
    assert mcpref("replay", str(saved), "--", sys.executable, "-m", "mcpref.reference").returncode == 0
    # The same bytes probed instead: the server is alive and answers, nothing is owed at an end.
    probed = tmp_path / "probed.json"
    probed.write_text(reproducer_json("STDIO-EOF-DRAIN", Profile.STRICT, drops, case.chunks, case.settle))
    assert "STDIO-EOF-DRAIN" not in mcpref("replay", str(probed)).stdout
    broken = json.loads(saved.read_text()) | {"eof": "yes"}
    (tmp_path / "broken.json").write_text(json.dumps(broken))
    refused = mcpref("replay", str(tmp_path / "broken.json"))
    assert refused.returncode == 2 and "eof must be true or false" in refused.stderr


def test_replay_reruns_a_saved_case_and_refuses_a_hostile_file(tmp_path: Path) -> None:
    stream = encode(request(1, "ping")) + b"pas du json\n"
    saved = tmp_path / "case.json"
    saved.write_text(reproducer_json("RPC-PARSE-ERROR", Profile.SPEC, SILENT, [stream], 0.0))
    assert mcpref("replay", str(saved)).returncode == 1
    assert mcpref("replay", str(saved), "--", sys.executable, "-m", "mcpref.reference").returncode == 0
    hostile = tmp_path / "hostile.json"
    hostile.write_text(json.dumps({"format": "mcpref-reproducer/1", "rule": "X", "profile": "spec", "command": "rm -rf /", "chunks": []}))
    refused = mcpref("replay", str(hostile))
    assert refused.returncode == 2
    assert "command must be a non-empty list" in refused.stderr
    assert "Traceback" not in refused.stderr
    (tmp_path / "junk.json").write_text("{")
    assert mcpref("replay", str(tmp_path / "junk.json")).returncode == 2
    # A reproducer of a line of several MiB is kept gzip-compressed, under any name.
    packed = tmp_path / "case.json.gz"
    packed.write_bytes(gzip.compress(saved.read_bytes()))
    assert mcpref("replay", str(packed)).returncode == 1
    packed.write_bytes(gzip.compress(saved.read_bytes())[:-9])
    cut = mcpref("replay", str(packed))
    assert cut.returncode == 2 and "is not JSON" in cut.stderr, cut.stderr


@pytest.mark.spec("RPC-PARSE-ERROR")
def test_replay_runs_a_relative_command_in_the_folder_it_was_recorded_in(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(ROOT)  # as a campaign run from a clone records it
    relative = [sys.executable, "examples/buggy/silent_on_parse_error.py"]
    saved = tmp_path / "case.json"
    saved.write_text(reproducer_json("RPC-PARSE-ERROR", Profile.SPEC, relative, [b"pas du json\n"], 0.0))
    elsewhere = subprocess.run(
        [*MCPREF, "replay", str(saved)], cwd=tmp_path, capture_output=True, text=True, timeout=120, check=False
    )
    assert elsewhere.returncode == 1 and "fail RPC-PARSE-ERROR:" in elsewhere.stdout, elsewhere.stdout
    assert "STDIO-SURVIVE" not in elsewhere.stdout


SILENT_SPLITTER = """
import io, json, sys
INIT = {"protocolVersion": "2025-11-25", "capabilities": {}, "serverInfo": {"name": "s", "version": "1"}}
for line in io.TextIOWrapper(sys.stdin.buffer, encoding="utf-8", newline=None):
    try:
        message = json.loads(line)
    except ValueError:
        continue
    if isinstance(message, dict) and "id" in message and "method" in message:
        result = INIT if message["method"] == "initialize" else {}
        print(json.dumps({"jsonrpc": "2.0", "id": message["id"], "result": result}), flush=True)
"""


@pytest.mark.spec("FRAME-LF-ONLY")
def test_replay_files_a_lost_answer_under_frame_lf_only_as_check_and_fuzz_do(tmp_path: Path) -> None:
    # Once, replaying a FRAME-LF-ONLY reproducer reported the same failure as RPC-ONE-ANSWER.
    handshake = encode({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
        "protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}})
    stream = handshake + encode({"jsonrpc": "2.0", "method": "notifications/initialized"})
    saved = tmp_path / "cr.json"
    # Like the Python SDK's servers: universal newlines, and silence for what is not JSON.
    server = tmp_path / "silent_splitter.py"
    server.write_text(SILENT_SPLITTER)
    chunks = [stream, b'{"jsonrpc":"2.0",\r"id":1,"method":"ping"}\n']
    saved.write_text(reproducer_json("FRAME-LF-ONLY", Profile.SPEC, [sys.executable, str(server)], chunks, 0.0))
    replayed = mcpref("replay", str(saved))
    # A bare CR read as a line end is an open reading of "newline": a warning under spec.
    assert replayed.returncode == 0
    verdicts = [line.split(":")[0] for line in replayed.stdout.splitlines() if line.startswith(("fail ", "warn "))]
    assert set(verdicts) == {"warn FRAME-LF-ONLY"}
    saved.write_text(reproducer_json("FRAME-LF-ONLY", Profile.STRICT, [sys.executable, str(server)], chunks, 0.0))
    strict = mcpref("replay", str(saved))
    assert strict.returncode == 1 and "fail FRAME-LF-ONLY:" in strict.stdout
    assert mcpref("replay", str(saved), "--", sys.executable, "-m", "mcpref.reference").returncode == 0


def test_the_shell_reproduction_is_byte_exact() -> None:
    data = bytes(range(256)) + b"%'\\\n"
    result = subprocess.run(["sh", "-c", f"printf {printf_argument(data)}"], capture_output=True, check=True)
    assert result.stdout == data


def test_a_shell_line_is_given_only_when_short_enough_to_paste() -> None:
    short = shell_line(SILENT, b"pas du json\n")
    assert short is not None and len(short) <= SHELL_LINE_MAX
    # An unshrunk case of a few hundred bytes already escapes past the limit: replay it instead.
    assert shell_line(SILENT, bytes(range(256)) * 4) is None


@pytest.mark.spec("RPC-PARSE-ERROR")
def test_the_shell_line_of_a_check_scenario_writes_its_chunks_apart_and_reproduces_it() -> None:
    scenario = next(s for s in SCENARIOS if s.name == "not JSON")
    assert len(scenario.case.chunks) == 2  # the handshake, then the rest
    for server, answered in ((SILENT, False), ([sys.executable, "-m", "mcpref.reference"], True)):
        line = paced_shell_line(server, scenario.case.chunks)
        assert line is not None and line.count("sleep 1") == 1
        output = subprocess.run(["sh", "-c", line], cwd=ROOT, capture_output=True, text=True, timeout=60).stdout
        assert '"id":"mcpref-sentinel"' in output and ('"code":-32700' in output) == answered, output


@pytest.mark.spec("FRAME-CHUNK-INVARIANT", "RPC-PARSE-ERROR")
def test_replay_transcript_shows_the_session_as_it_went(tmp_path: Path) -> None:
    """-> what was sent, a ~~ line at each chunk boundary (here inside a line), <- what came back, !! stderr."""
    ping = encode(request(7, "ping"))
    chunks = [b"pas du json\n" + ping[:10], ping[10:]]
    path = tmp_path / "repro.json"
    path.write_text(reproducer_json("RPC-PARSE-ERROR", Profile.SPEC, SILENT, chunks, 0.0))
    done = mcpref("replay", "--transcript", str(path))
    lines = done.stdout.splitlines()
    # What was sent, in order; what came back and stderr fall between where they came.
    assert [line for line in lines if line[:3] in ("-> ", "~~ ")][:4] == [
        "-> pas du json",
        f"-> {ping[:10].decode()}",
        f"~~ chunk 2 ({len(ping) - 10} bytes)",
        f"-> {ping[10:-1].decode()}",
    ]
    assert '<- {"jsonrpc":"2.0","id":7,"result":{}}' in lines
    assert any(line.startswith("!! ") and "ready" in line for line in lines)
    cited = f"; see {citation('RPC-PARSE-ERROR')}"
    assert f"fail RPC-PARSE-ERROR: no answer (expected error -32700 with id null){cited}" in lines
    assert done.returncode == 1


def test_a_transcript_shows_what_a_reader_could_miss() -> None:
    from mcpref.fuzz.drive.observation import Direction, Event
    from mcpref.fuzz.report.reproducer import session_transcript, visible

    assert visible(b'{"a":"\xe2\x80\xa8\r\x00\xff"}') == '{"a":"\\u2028\\x0d\\x00\\xff"}'
    assert visible(b"x" * 2001).endswith("x… (2,001 bytes in all)")
    events = (Event(Direction.SENT, b"a\nb"), Event(Direction.STDERR, b"log 1\nlog 2\n"), Event(Direction.SENT, b"c\n"))
    assert session_transcript(events, b"half") == [
        "-> a", "-> b", "!! log 1", "!! log 2", "~~ chunk 2 (2 bytes)", "-> c", "<- (unterminated) half"
    ]


MODERN_ONLY = [sys.executable, "-m", "mcpref.reference", "--eras", "modern"]
LEGACY_ONLY = [sys.executable, "-m", "mcpref.reference", "--eras", "legacy"]


@pytest.mark.spec("MOD-RESULT-TYPE", "MOD-DISCOVER", "MOD-DUAL-ERA")
def test_check_judges_the_modern_era_and_its_rules_are_na_for_a_server_that_does_not_speak_it() -> None:
    modern_rules = {rule.id for rule in RULES if {v.era.value for v in rule.versions} == {"modern"}}
    for target in ([], ["--", *MODERN_ONLY]):
        done = mcpref("check", "--protocol-version", "2026-07-28", "--profile", "strict", "--json", *target)
        assert done.returncode == 0, done.stdout
        rows = {row["id"]: row["status"] for row in json.loads(done.stdout)["rules"]}
        assert {rows[rule] for rule in modern_rules} == {"pass"}
    legacy = mcpref("check", "--protocol-version", "2026-07-28", "--json", "--", *LEGACY_ONLY)
    rows = {row["id"]: row["status"] for row in json.loads(legacy.stdout)["rules"]}
    assert {rows[rule] for rule in modern_rules} == {"n/a"}
    # A modern-only server serves no legacy session: asked for a legacy version, check gives n/a with
    # that reason, not a LIFE-PING failure for the bare ping it refused (test_check_era: asked for none).
    no_handshake = mcpref("check", "--protocol-version", "2025-11-25", "--json", "--", *MODERN_ONLY)
    assert no_handshake.returncode == 3  # nothing judged
    document = json.loads(no_handshake.stdout)
    assert document["era"] == "legacy" and document["cause"].startswith("the server serves no legacy version")
    assert {row["status"] for row in document["rules"]} == {"n/a"}


@pytest.mark.spec("MOD-RESULT-TYPE")
def test_a_modern_reproducer_replays_with_the_modern_probe(tmp_path: Path) -> None:
    failing = [sys.executable, str(ROOT / "examples" / "buggy" / "no_result_type.py")]
    stream = encode({"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {"_meta": {
        "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {}}}})
    saved = tmp_path / "modern.json"
    saved.write_text(reproducer_json("MOD-RESULT-TYPE", Profile.SPEC, failing, [stream], 0.0, Era.MODERN))
    replayed = mcpref("replay", "--transcript", str(saved))
    assert replayed.returncode == 1
    assert "server/discover" in replayed.stdout and "fail MOD-RESULT-TYPE" in replayed.stdout
    assert mcpref("replay", str(saved), "--", *MODERN_ONLY).returncode == 0


def test_a_campaign_that_stops_before_its_case_budget_says_why(tmp_path: Path) -> None:
    done = mcpref("fuzz", "--max-cases", "100000", "--budget", "2", "--seed", "1", "--campaign-dir", str(tmp_path))
    assert done.returncode == 0 and "stopped before its 100000 cases: the time budget ran out" in done.stdout
    finished = mcpref("fuzz", "--max-cases", "3", "--budget", "60", "--seed", "1", "--campaign-dir", str(tmp_path))
    assert finished.returncode == 0 and "stopped before" not in finished.stdout


@pytest.mark.spec("RPC-PARSE-ERROR", "FRAME-UTF8")
def test_the_python_api_gives_the_verdicts_of_check() -> None:
    import mcpref
    from mcpref.fuzz.check import Report  # the documented path

    report = mcpref.check(SILENT)
    assert isinstance(report, Report) and report.failed == ["FRAME-UTF8", "RPC-PARSE-ERROR"]
    assert report["RPC-PARSE-ERROR"].level == "MUST" and report["RPC-PARSE-ERROR"].findings
    assert report["RPC-ID-ECHO"].status == "pass" and report.cause is None
    assert [result.id for result in report.rules] == [rule.id for rule in RULES]
    with pytest.raises(ValueError, match="unknown protocol version"):
        mcpref.check(SILENT, protocol_version="1999-01-01")


def test_a_long_stderr_text_is_kept_once_per_check_report() -> None:
    """A server that writes a traceback-sized text to stderr as it starts: every finding's
    transcript holds it, and the report keeps it once, the transcripts naming it."""
    traceback = "".join(f"  File \"server.py\", line {n}, in handle\n" for n in range(30))
    noisy = [
        sys.executable,
        "-c",
        f"import sys, runpy; sys.stderr.write({traceback!r}); sys.stderr.flush(); "
        f"runpy.run_path({SILENT[1]!r}, run_name='__main__')",
    ]
    document = json.loads(mcpref("check", "--json", "--", *noisy).stdout)
    findings = [finding for row in document["rules"] for finding in row["findings"]]
    assert len(findings) >= 2
    ((digest, text),) = document["stderr"].items()  # the same text in every process: once
    assert text.startswith(traceback)
    for finding in findings:
        stderr = [line for line in finding["transcript"] if line.startswith("!! ")]
        assert stderr[0].startswith(f"!! (stderr {digest}: "), stderr
        assert all(len(line) <= STDERR_INLINE + 3 for line in stderr)


@pytest.mark.spec("MOD-NO-SERVER-REQUESTS")
def test_check_finds_a_modern_server_that_asks_with_a_request_and_leaves_it_unanswered() -> None:
    asks = [sys.executable, str(ROOT / "examples" / "buggy" / "asks_with_a_request.py")]
    done = mcpref("check", "--protocol-version", "2026-07-28", "--json", "--", *asks)
    rows = {row["id"]: row for row in json.loads(done.stdout)["rules"]}
    assert done.returncode == 1 and rows["MOD-NO-SERVER-REQUESTS"]["status"] == "fail"
    assert [row["id"] for row in rows.values() if row["status"] == "fail"] == ["MOD-NO-SERVER-REQUESTS"]
    # A modern client on stdio writes no response: the transcript shows none sent back.
    transcript = rows["MOD-NO-SERVER-REQUESTS"]["findings"][0]["transcript"]
    assert not any(entry.startswith("->") and '"id": "ask-' in entry for entry in transcript)


def test_a_campaign_leaves_hypothesis_files_in_its_folder_not_in_the_current_one(tmp_path: Path) -> None:
    # Seed 1 draws a text line within 60 generated cases, after check's corpus (not within 45): Hypothesis
    # caches its Unicode tables to draw it.
    cases = str(CORPUS + 60)
    done = subprocess.run([*MCPREF, "fuzz", "--seed", "1", "--max-cases", cases], cwd=tmp_path, capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    assert [path.name for path in tmp_path.iterdir()] == ["campaigns"]
    (campaign,) = (tmp_path / "campaigns").iterdir()
    assert (campaign / "hypothesis" / "unicode_data").is_dir()
