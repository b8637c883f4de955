"""Plain-language explanations of findings, for the author of the server that was checked.

Reads a findings file (a reproducer, a ``fuzz --report`` file, or the ``--json`` output of
``check`` or ``compare``) and asks an OpenAI-compatible chat-completions endpoint, named by
``AI_URL``, to explain each rule found broken in two or three sentences (one request a rule,
whatever the number of its findings). A model is a convenience, not a
dependency: when none answers, the rule's recorded explanation from SPEC_NOTES.md is used and
marked as such, so the command works offline and never fails for want of a model.
"""

from __future__ import annotations

import http.client
import json
import socket
import urllib.error
import urllib.request
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

from mcpref.fuzz.judge.findings import counted
from mcpref.fuzz.report.notes import entry
from mcpref.fuzz.report.reproducer import FORMAT
from mcpref.reference.rules import BY_ID

_MAX_FILE = 64 * 1024 * 1024
_MAX_ANSWER = 1024 * 1024  # a chat answer of 120 tokens is a few kilobytes; more is not one
_MAX_FIELD = 400  # characters of expected/actual sent to the model: a server's output can be huge
_REPORTED = ("fail", "warn")
_SHOWN = 5  # findings listed under a rule's explanation

SYSTEM = (
    "You explain one finding of an MCP stdio conformance checker to the author of the server that was "
    "checked. Answer in two or three plain sentences: what the server did, why it is wrong, and what to "
    "change. No preamble, no lists, no markdown."
)


@dataclass(frozen=True)
class Item:
    """One finding to explain."""

    rule: str  # requirement ID, e.g. "RPC-PARSE-ERROR"
    message: str  # what was seen ("" when unknown)
    expected: str
    actual: str


@dataclass(frozen=True)
class Explanation:
    item: Item
    text: str
    recorded: bool  # True: the text is the recorded explanation from SPEC_NOTES.md, not a model's
    why: str  # when recorded: why no model was used; "" otherwise
    others: tuple[Item, ...] = ()  # the further findings of the same rule, which the text covers too


class ExplainError(Exception):
    """A findings file that cannot be used; the message says why."""


class _NoModel(Exception):
    """No answer from the model; ``unreachable`` means asking again would cost another wait."""

    def __init__(self, why: str, unreachable: bool) -> None:
        super().__init__(why)
        self.unreachable = unreachable


# Reading the findings file.


def load_items(path: Path) -> list[Item]:
    """The findings in ``path``, each once, in file order; raises ``ExplainError``."""
    try:
        with path.open("rb") as stream:
            data = stream.read(_MAX_FILE + 1)
    except OSError as exc:
        raise ExplainError(f"cannot read {path}: {exc.strerror or exc}") from None
    if len(data) > _MAX_FILE:
        raise ExplainError(f"{path} is larger than {_MAX_FILE // (1024 * 1024)} MiB")
    try:
        document: object = json.loads(data)
    except (ValueError, RecursionError):
        raise ExplainError(f"{path} is not JSON") from None
    items = list(dict.fromkeys(_items(document, str(path))))
    unknown = sorted({item.rule for item in items} - BY_ID.keys())
    if unknown:
        raise ExplainError(f"{path}: unknown rule ID {', '.join(unknown)}")
    return items


def _items(document: object, where: str) -> list[Item]:
    if not isinstance(document, dict):
        raise ExplainError(f"{where} is not a findings file: expected a JSON object")
    if document.get("format") == FORMAT:
        rule = document.get("rule")
        if not isinstance(rule, str):
            raise ExplainError(f"{where}: the reproducer has no rule")
        if "finding" in document:  # what was seen when it was saved
            return [_item({**_dict(document["finding"], f"{where}: finding"), "id": rule}, f"{where}: finding")]
        return [Item(rule, "", "", "")]
    if "failures" in document:  # a fuzz report
        return [
            _item(finding, f"{where}: {key}")
            for key in ("failures", "warnings")
            for finding in _list(document.get(key, []), f"{where}: {key}")
        ]
    if "rules" in document and "commands" in document:  # compare --json
        return [
            _item(finding, f"{where}: rules")
            for row in _rows(document, where)
            for label, status in _dict(row.get("statuses"), f"{where}: statuses").items()
            if status in _REPORTED
            for finding in _list(_dict(row.get("findings"), f"{where}: findings").get(label), f"{where}: findings")
        ]
    if "rules" in document:  # check --json
        return [
            _item(finding, f"{where}: rules")
            for row in _rows(document, where)
            if row.get("status") in _REPORTED
            for finding in _list(row.get("findings"), f"{where}: findings")
        ]
    raise ExplainError(f"{where} is not a reproducer, a fuzz report, or check or compare JSON output")


def _rows(document: dict[str, object], where: str) -> list[dict[str, object]]:
    return [_dict(row, f"{where}: rules") for row in _list(document["rules"], f"{where}: rules")]


def _item(finding: object, where: str) -> Item:
    fields = _dict(finding, where)
    values = [fields.get(key) for key in ("id", "message", "expected", "actual")]
    strings = [value for value in values if isinstance(value, str)]
    if len(strings) != len(values):
        raise ExplainError(f"{where}: a finding needs string id, message, expected and actual")
    rule, message, expected, actual = strings
    return Item(rule, message, expected, actual)


def _list(value: object, where: str) -> list[object]:
    if not isinstance(value, list):
        raise ExplainError(f"{where}: expected a list")
    return value


def _dict(value: object, where: str) -> dict[str, object]:
    if not isinstance(value, dict):
        raise ExplainError(f"{where}: expected an object")
    return value


# The recorded explanation.


def recorded_explanation(rule: str) -> str:
    """The first paragraph of the rule's entry in SPEC_NOTES.md, as one line; ``KeyError`` for an
    ID that is not in the registry."""
    return _one_line(entry(rule).text)


def _one_line(text: str) -> str:
    """``text`` on one printable line: the output is read in a terminal and searched with grep."""
    return "".join(char for char in " ".join(text.split()) if char.isprintable())


# Asking the model.


def explain(
    items: Sequence[Item], environ: Mapping[str, str], timeout: float = 30.0
) -> list[Explanation]:
    """One explanation per rule, of its first item, from the model at ``AI_URL`` or else the
    recorded one; never raises for the endpoint."""
    url = environ.get("AI_URL", "")
    down = "" if url else "AI_URL is not set"
    by_rule: dict[str, list[Item]] = {}
    for item in items:
        by_rule.setdefault(item.rule, []).append(item)
    explanations: list[Explanation] = []
    for rule, (item, *others) in by_rule.items():
        recorded = recorded_explanation(rule)
        why = down
        if not down:
            try:
                text = _ask(url, environ, _messages(item, recorded, len(others)), timeout)
            except _NoModel as exc:
                why = str(exc)
                if exc.unreachable:  # N findings must not cost N timeouts
                    down = why
            else:
                explanations.append(Explanation(item, text, False, "", tuple(others)))
                continue
        explanations.append(Explanation(item, recorded, True, why, tuple(others)))
    return explanations


def _messages(item: Item, recorded: str, others: int) -> list[dict[str, str]]:
    rule = BY_ID[item.rule]
    lines = [
        f"Rule: {rule.id} ({rule.level.value})",
        f"Summary: {rule.summary}",
        f"Recorded explanation: {recorded}",
    ]
    for label, value in (("Finding", item.message), ("Expected", item.expected), ("Actual", item.actual)):
        if value:
            lines.append(f"{label}: {value[:_MAX_FIELD]}")
    if others:
        lines.append(f"The same rule has {counted(others, 'further finding')} in this report, of the same cause or not.")
    return [{"role": "system", "content": SYSTEM}, {"role": "user", "content": "\n".join(lines)}]


def _ask(url: str, environ: Mapping[str, str], messages: list[dict[str, str]], timeout: float) -> str:
    """The model's answer as one line; raises ``_NoModel`` saying why there is none."""
    if urlsplit(url).scheme not in ("http", "https"):
        raise _NoModel("AI_URL is not an http or https URL", unreachable=True)
    body = {"model": environ.get("AI_MODEL", "lab"), "messages": messages, "max_tokens": 120}
    request = urllib.request.Request(
        _completions(url),
        data=json.dumps(body).encode("utf-8"),
        headers={"content-type": "application/json", "authorization": f"Bearer {environ.get('AI_KEY', 'lab')}"},
        method="POST",
    )
    # No proxy: the endpoint depends on ``environ`` alone, not on the process environment.
    opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
    try:
        with opener.open(request, timeout=timeout) as response:
            raw = response.read(_MAX_ANSWER + 1)
    except urllib.error.HTTPError as exc:
        exc.close()
        raise _NoModel(f"status {exc.code}", unreachable=False) from None
    except urllib.error.URLError as exc:
        raise _NoModel(_failure(exc.reason, timeout), unreachable=True) from None
    except (http.client.InvalidURL, ValueError) as exc:  # a URL or header that http.client refuses to send
        raise _NoModel(f"AI_URL cannot be used: {exc}", unreachable=True) from None
    except http.client.HTTPException:  # something answered, but not in HTTP
        raise _NoModel("malformed answer: not an HTTP response", unreachable=False) from None
    except OSError as exc:
        raise _NoModel(_failure(exc, timeout), unreachable=True) from None
    return _content(raw)


def _completions(url: str) -> str:
    """The chat-completions address of ``AI_URL``, given as the server's root, its ``/v1`` or the address itself."""
    base = url.rstrip("/")
    if base.endswith("/chat/completions"):
        return base
    return base + ("/chat/completions" if base.endswith("/v1") else "/v1/chat/completions")


def _failure(reason: object, timeout: float) -> str:
    if isinstance(reason, TimeoutError):
        return f"timed out after {timeout:g} s"
    if isinstance(reason, ConnectionRefusedError):
        return "connection refused"
    if isinstance(reason, socket.gaierror):
        return "the host of AI_URL cannot be resolved"
    if isinstance(reason, OSError) and reason.strerror:
        return reason.strerror
    return str(reason) or type(reason).__name__


def _content(raw: bytes) -> str:
    """``choices[0].message.content`` of a chat-completions answer."""
    if len(raw) > _MAX_ANSWER:
        raise _NoModel("malformed answer: too long", unreachable=False)
    try:
        answer: object = json.loads(raw)
    except (ValueError, RecursionError):
        raise _NoModel("malformed answer: not JSON", unreachable=False) from None
    choices = answer.get("choices") if isinstance(answer, dict) else None
    first = choices[0] if isinstance(choices, list) and choices else None
    message = first.get("message") if isinstance(first, dict) else None
    content = message.get("content") if isinstance(message, dict) else None
    text = _one_line(content) if isinstance(content, str) else ""
    if not text:
        raise _NoModel("malformed answer: no text in choices[0].message.content", unreachable=False)
    return text


# The command's output.


def render(explanations: Sequence[Explanation]) -> str:
    """One block per rule: ``RULE-ID: text``, what was seen, and a mark on recorded text."""
    if not explanations:
        return "no findings to explain"
    blocks: list[str] = []
    for explanation in explanations:
        lines = [f"{explanation.item.rule}: {explanation.text}"]
        seen = [item.message for item in (explanation.item, *explanation.others) if item.message]
        lines.extend(f"  finding: {_one_line(message)}" for message in seen[:_SHOWN])
        if len(seen) > _SHOWN:
            lines.append(f"  and {len(seen) - _SHOWN} more findings of this rule")
        if explanation.recorded:
            lines.append(f"  (recorded explanation from SPEC_NOTES.md: no model answered: {explanation.why})")
        blocks.append("\n".join(lines))
    return "\n\n".join(blocks)
