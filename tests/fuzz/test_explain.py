"""``fuzz.explain``: findings files read, a chat-completions endpoint asked, and the recorded fallback."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

from mcpref.fuzz.judge.oracle import Finding, Profile
from mcpref.fuzz.report.explain import (
    ExplainError,
    Explanation,
    Item,
    explain,
    load_items,
    recorded_explanation,
    render,
)
from mcpref.fuzz.report.reproducer import finding_json, reproducer_json
from mcpref.reference.rules import BY_ID

RULE = "RPC-PARSE-ERROR"
ITEM = Item(RULE, "no answer to a line that is not JSON", "-32700 with id null", "nothing")
OTHER = Item("RPC-ID-ECHO", "the id came back as a string", '"id": 1', '"id": "1"')


@dataclass(frozen=True)
class Seen:
    method: str
    path: str
    headers: dict[str, str]
    body: bytes


@contextmanager
def endpoint(status: int, body: bytes) -> Iterator[tuple[str, list[Seen]]]:
    """An HTTP server on 127.0.0.1 that answers every POST with ``status`` and ``body``."""
    seen: list[Seen] = []

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            data = self.rfile.read(int(self.headers.get("content-length", "0")))
            seen.append(Seen(self.command, self.path, {k.lower(): v for k, v in self.headers.items()}, data))
            self.send_response(status)
            self.send_header("content-type", "application/json")
            self.send_header("content-length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, format: str, *args: object) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, args=(0.02,), daemon=True)  # quick shutdown
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}", seen
    finally:
        server.shutdown()
        server.server_close()
        thread.join()


def completion(text: str) -> bytes:
    message = {"role": "assistant", "content": text}
    return json.dumps({"object": "chat.completion", "choices": [{"index": 0, "message": message}]}).encode()


@pytest.fixture
def connections(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, int]]:
    """Every connection attempt http.client makes during the test."""
    attempts: list[tuple[str, int]] = []
    real = socket.create_connection

    def counted(address: tuple[str, int], *args: Any, **kwargs: Any) -> socket.socket:
        attempts.append(address)
        return real(address, *args, **kwargs)

    monkeypatch.setattr(socket, "create_connection", counted)
    return attempts


def assert_recorded(explanations: list[Explanation], items: list[Item], why: Callable[[str], bool]) -> None:
    assert [e.item for e in explanations] == items
    for explanation in explanations:
        assert explanation.recorded, explanation
        assert explanation.text == recorded_explanation(explanation.item.rule)
        assert why(explanation.why), explanation.why


# Asking the model.


@pytest.mark.spec("RPC-PARSE-ERROR")
def test_a_model_that_answers_gives_the_explanation() -> None:
    with endpoint(200, completion("  Your server stayed silent.\nIt must answer -32700.  ")) as (url, seen):
        environ = {"AI_URL": url + "/", "AI_KEY": "sesame", "AI_MODEL": "tiny"}
        [explanation] = explain([ITEM], environ, timeout=10)
    assert explanation == Explanation(ITEM, "Your server stayed silent. It must answer -32700.", False, "")
    [request] = seen
    assert (request.method, request.path) == ("POST", "/v1/chat/completions")
    assert request.headers["authorization"] == "Bearer sesame"
    assert request.headers["content-type"] == "application/json"
    body = json.loads(request.body)
    assert (body["model"], body["max_tokens"]) == ("tiny", 120)
    assert [m["role"] for m in body["messages"]] == ["system", "user"]
    user = body["messages"][1]["content"]
    for part in (
        RULE,
        BY_ID[RULE].level.value,
        BY_ID[RULE].summary,
        recorded_explanation(RULE),
        ITEM.message,
        ITEM.expected,
        ITEM.actual,
    ):
        assert part in user


@pytest.mark.spec("RPC-PARSE-ERROR")
def test_the_model_and_key_default_to_lab() -> None:
    with endpoint(200, completion("Answer -32700.")) as (url, seen):
        explain([Item(RULE, "", "", "")], {"AI_URL": url}, timeout=10)
    [request] = seen
    assert json.loads(request.body)["model"] == "lab"
    assert request.headers["authorization"] == "Bearer lab"
    assert "Finding:" not in json.loads(request.body)["messages"][1]["content"]


@pytest.mark.spec("RPC-PARSE-ERROR")
@pytest.mark.parametrize("suffix", ["", "/", "/v1", "/v1/", "/v1/chat/completions"])
def test_ai_url_may_name_the_servers_root_its_v1_or_the_completions_address(suffix: str) -> None:
    with endpoint(200, completion("Answer -32700.")) as (url, seen):
        explain([ITEM], {"AI_URL": url + suffix}, timeout=10)
    assert [request.path for request in seen] == ["/v1/chat/completions"]


@pytest.mark.spec("RPC-PARSE-ERROR", "RPC-ID-ECHO")
def test_one_request_a_rule_whatever_the_number_of_its_findings() -> None:
    again = Item(RULE, "silent on a second line", "-32700", "nothing")
    many = [ITEM, OTHER, again, *(Item(RULE, f"silent {n}", "-32700", "nothing") for n in range(6))]
    with endpoint(200, completion("Answer -32700.")) as (url, seen):
        explanations = explain(many, {"AI_URL": url}, timeout=10)
    assert len(seen) == 2 and [e.item for e in explanations] == [ITEM, OTHER]
    assert explanations[0].others == (again, *many[3:])
    assert "7 further findings" in json.loads(seen[0].body)["messages"][1]["content"]
    lines = render(explanations).splitlines()
    assert lines[1:6] == [f"  finding: {item.message}" for item in (ITEM, again, *many[3:6])]
    assert lines[6] == "  and 3 more findings of this rule"


@pytest.mark.spec("RPC-PARSE-ERROR")
def test_no_ai_url_means_the_recorded_explanation_and_no_network(connections: list[tuple[str, int]]) -> None:
    for environ in ({}, {"AI_URL": ""}):
        assert_recorded(explain([ITEM, OTHER], environ), [ITEM, OTHER], lambda why: why == "AI_URL is not set")
    assert_recorded(explain([ITEM], {"AI_URL": "file:///etc/passwd"}), [ITEM], lambda why: "http" in why)
    assert connections == []


@pytest.mark.spec("RPC-PARSE-ERROR")
def test_a_refused_connection_is_tried_once(connections: list[tuple[str, int]]) -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    items = [ITEM, OTHER, Item("STDIO-SURVIVE", "exited", "", "")]
    explanations = explain(items, {"AI_URL": f"http://127.0.0.1:{port}"}, timeout=10)
    assert_recorded(explanations, items, lambda why: why == "connection refused")
    assert len(connections) == 1


@pytest.mark.spec("RPC-PARSE-ERROR")
def test_a_silent_endpoint_times_out_once(connections: list[tuple[str, int]]) -> None:
    with socket.socket() as silent:  # the kernel completes the connection; nobody ever answers it
        silent.bind(("127.0.0.1", 0))
        silent.listen(8)
        url = f"http://127.0.0.1:{silent.getsockname()[1]}"
        items = [ITEM, OTHER, Item("STDIO-SURVIVE", "exited", "", "")]
        explanations = explain(items, {"AI_URL": url}, timeout=0.5)
    assert_recorded(explanations, items, lambda why: why == "timed out after 0.5 s")
    assert len(connections) == 1


@pytest.mark.spec("RPC-PARSE-ERROR")
def test_an_error_status_is_recorded_and_each_item_asks_again() -> None:
    with endpoint(500, b'{"error": "overloaded"}') as (url, seen):
        explanations = explain([ITEM, OTHER], {"AI_URL": url}, timeout=10)
    assert_recorded(explanations, [ITEM, OTHER], lambda why: why == "status 500")
    assert len(seen) == 2


@pytest.mark.spec("RPC-PARSE-ERROR")
@pytest.mark.parametrize(
    "body",
    [
        b"<html>not json</html>",
        b"[1, 2]",
        b'{"choices": []}',
        b'{"choices": [{"message": {"content": 42}}]}',
        b'{"choices": [{"message": {"content": "  \\n "}}]}',
        b'{"choices": [{"text": "legacy completions"}]}',
    ],
)
def test_a_malformed_answer_is_recorded(body: bytes) -> None:
    with endpoint(200, body) as (url, _):
        explanations = explain([ITEM], {"AI_URL": url}, timeout=10)
    assert_recorded(explanations, [ITEM], lambda why: why.startswith("malformed answer"))


@pytest.mark.spec("RPC-PARSE-ERROR")
def test_render_marks_recorded_text() -> None:
    model = Explanation(OTHER, "The id must come back unchanged.", False, "")
    fallback = Explanation(ITEM, recorded_explanation(RULE), True, "status 500")
    lines = render([model, fallback]).splitlines()
    assert lines[0] == "RPC-ID-ECHO: The id must come back unchanged."
    assert "recorded" not in "\n".join(lines[:3])
    assert f"{RULE}: {recorded_explanation(RULE)}" in lines
    assert "  (recorded explanation from SPEC_NOTES.md: no model answered: status 500)" in lines
    assert render([]) == "no findings to explain"


# The recorded explanation.


@pytest.mark.spec("RPC-PARSE-ERROR")
def test_the_recorded_explanation_is_the_first_paragraph_of_the_entry() -> None:
    text = (Path(__file__).resolve().parents[2] / "SPEC_NOTES.md").read_text(encoding="utf-8")
    entry = text.split(f"### {RULE}\n", 1)[1].split("\n### ", 1)[0]
    prose = entry.split("\n\n", 1)[1]
    recorded = recorded_explanation(RULE)
    assert recorded == " ".join(prose.split("\n\n", 1)[0].split())
    assert " ".join(prose.split()).startswith(recorded)
    assert "\n" not in recorded and "Level:" not in recorded


@pytest.mark.spec("MOD-META-REQUIRED")
def test_a_quoted_normative_sentence_is_recorded_without_its_quote_marker() -> None:
    recorded = recorded_explanation("MOD-META-REQUIRED")
    assert recorded.startswith('"A request missing any required field is malformed')
    assert ">" not in recorded


# Reading findings files.


def finding(rule: str, message: str) -> dict[str, object]:
    return finding_json(Finding(rule, True, 0, message, "expected", "actual"), Profile.SPEC)


def item(rule: str, message: str) -> Item:
    return Item(rule, message, "expected", "actual")


def write(tmp_path: Path, document: object) -> Path:
    path = tmp_path / "findings.json"
    path.write_text(json.dumps(document), encoding="utf-8")
    return path


@pytest.mark.spec("RPC-PARSE-ERROR")
def test_a_reproducer_is_one_item_with_the_finding_it_was_saved_with(tmp_path: Path) -> None:
    path = tmp_path / "repro.json"
    path.write_text(reproducer_json(RULE, Profile.SPEC, ["server"], [b"{oops\n"], 0.0), encoding="utf-8")
    assert load_items(path) == [Item(RULE, "", "", "")]
    seen = finding(RULE, "silent")
    path.write_text(reproducer_json(RULE, Profile.SPEC, ["server"], [b"{oops\n"], 0.0, finding=seen), encoding="utf-8")
    assert load_items(path) == [item(RULE, "silent")]


@pytest.mark.spec("RPC-PARSE-ERROR")
def test_a_fuzz_report_gives_failures_then_warnings(tmp_path: Path) -> None:
    failure = {**finding(RULE, "silent"), "input": ["{oops"], "reproducer": "repro/x.json", "shell": None}
    report = {"command": ["server"], "failures": [failure], "warnings": [finding("FRAME-CRLF", "CRLF refused")]}
    assert load_items(write(tmp_path, report)) == [item(RULE, "silent"), item("FRAME-CRLF", "CRLF refused")]


@pytest.mark.spec("RPC-PARSE-ERROR")
def test_check_output_gives_the_findings_of_failing_and_warning_rows_once(tmp_path: Path) -> None:
    def row(rule: str, status: str, *messages: str) -> dict[str, object]:
        findings = [{"scenario": f"s{index}", **finding(rule, m)} for index, m in enumerate(messages)]
        return {"id": rule, "level": BY_ID[rule].level.value, "status": status, "scenarios": [], "findings": findings}

    rows = [
        row(RULE, "fail", "silent", "silent", "late"),
        row("FRAME-CRLF", "warn", "CRLF"),
        row("RPC-ID-ECHO", "pass"),
    ]
    check = {"command": ["server"], "profile": "spec", "rules": rows}
    assert load_items(write(tmp_path, check)) == [item(RULE, "silent"), item(RULE, "late"), item("FRAME-CRLF", "CRLF")]


@pytest.mark.spec("RPC-PARSE-ERROR")
def test_compare_output_gives_the_findings_of_failing_and_warning_columns(tmp_path: Path) -> None:
    rule = {
        "id": RULE,
        "level": "MUST",
        "statuses": {"ref": "pass", "a": "fail", "b": "warn", "c": "n/a"},
        "findings": {"ref": [finding(RULE, "ignored")], "a": [finding(RULE, "silent")], "b": [finding(RULE, "late")]},
    }
    compare = {"profile": "spec", "commands": [{"label": "ref", "command": ["x"]}], "rules": [rule]}
    assert load_items(write(tmp_path, compare)) == [item(RULE, "silent"), item(RULE, "late")]


@pytest.mark.spec("RPC-PARSE-ERROR")
@pytest.mark.parametrize(
    ("document", "error"),
    [
        ([1, 2], "expected a JSON object"),
        ({"hello": "world"}, "is not a reproducer, a fuzz report"),
        ({"format": "mcpref-reproducer/1"}, "has no rule"),
        ({"failures": {"id": RULE}}, "expected a list"),
        ({"failures": [{"id": RULE, "message": "m"}]}, "needs string id, message, expected and actual"),
        ({"rules": [{"status": "fail", "findings": None}]}, "expected a list"),
        ({"rules": [{"status": "fail", "findings": [{**finding(RULE, "m"), "id": "NOT-A-RULE"}]}]}, "unknown rule"),
        ({"commands": [], "rules": [{"statuses": ["fail"]}]}, "expected an object"),
        ({"format": "mcpref-reproducer/1", "rule": "NOT-A-RULE"}, "unknown rule ID NOT-A-RULE"),
    ],
)
def test_malformed_files_are_refused_with_a_reason(tmp_path: Path, document: object, error: str) -> None:
    with pytest.raises(ExplainError, match=error):
        load_items(write(tmp_path, document))


@pytest.mark.spec("RPC-PARSE-ERROR")
def test_unreadable_non_json_and_huge_files_are_refused(tmp_path: Path) -> None:
    with pytest.raises(ExplainError, match="cannot read"):
        load_items(tmp_path / "missing.json")
    (tmp_path / "junk.json").write_bytes(b"{\xff")
    with pytest.raises(ExplainError, match="is not JSON"):
        load_items(tmp_path / "junk.json")
    with (tmp_path / "huge.json").open("wb") as huge:
        huge.truncate(64 * 1024 * 1024 + 1)  # sparse: no disk space, no time
    with pytest.raises(ExplainError, match="larger than 64 MiB"):
        load_items(tmp_path / "huge.json")


@pytest.mark.spec("RPC-PARSE-ERROR")
def test_the_command_explains_with_or_without_a_model_and_refuses_a_file_it_cannot_read(tmp_path: Path) -> None:
    root = Path(__file__).resolve().parents[2]
    path = tmp_path / "repro.json"
    path.write_text(reproducer_json("RPC-PARSE-ERROR", Profile.SPEC, ["server"], [b"x\n"], 0.0))
    env = {key: value for key, value in os.environ.items() if key not in ("AI_URL", "AI_MODEL", "AI_KEY")}

    def mcpref(*argv: str, **extra: str) -> subprocess.CompletedProcess[str]:
        command = [sys.executable, "-m", "mcpref", "explain", *argv]
        return subprocess.run(command, cwd=root, env={**env, **extra}, capture_output=True, text=True, check=False)

    offline = mcpref(str(path))
    assert offline.returncode == 0
    assert offline.stdout.startswith("RPC-PARSE-ERROR: ")
    assert "recorded explanation from SPEC_NOTES.md: no model answered: AI_URL is not set" in offline.stdout
    with endpoint(200, json.dumps({"choices": [{"message": {"content": "Answer -32700."}}]}).encode()) as (url, _):
        online = mcpref(str(path), AI_URL=url)
    assert (online.returncode, online.stdout.strip()) == (0, "RPC-PARSE-ERROR: Answer -32700.")
    path.write_text("not json")
    refused = mcpref(str(path))
    assert refused.returncode == 2 and "is not JSON" in refused.stderr
