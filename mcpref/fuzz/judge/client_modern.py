"""The client oracle's rules of the 2026-07-28 era: what a client writes to a modern server, and
how a dual-era client finds out which era its server speaks.

In: the client's lines (``Line``), the tags of what the scripted server wrote, in the order of its
record, and the script. Out: findings, and the rules whose situation arose. ``judge.client`` reads
the record and calls ``judge_modern``; this module knows nothing of processes.

- CLIENT-MOD-META: every request to a modern server, until the client opens a legacy session,
  carries ``_meta`` with the protocol version (a string) and the client's capabilities (an object).
- CLIENT-MOD-STAYS-MODERN: a client that learnt the server is modern (its ``server/discover``
  answered with a result, or any request with -32022) does not send ``initialize``.
- CLIENT-MOD-VERSION-RETRY: after -32022, the client's next requests name a version of the list,
  or none follows.
- CLIENT-MOD-INPUT-RETRY: a retry after ``input_required`` has a new id, answers every input asked
  for, and echoes ``requestState`` exactly.
- CLIENT-MOD-FALLBACK: a client that falls back to ``initialize`` when its probe is refused with
  -32601 (the plain scenario) does so for any other error that is not a modern one as well.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from mcpref.fuzz.generate.client_scripts import INPUT_KEY, INPUT_STATE, ServerScript
from mcpref.fuzz.judge.findings import Finding
from mcpref.reference.client import MODERN_ERRORS
from mcpref.reference.eras import DISCOVER, INITIALIZE, META_CAPABILITIES, META_VERSION
from mcpref.reference.rules import BY_ID

_Judge = Callable[[str, "Line | None", str, str, str], None]


@dataclass(frozen=True)
class Line:
    number: int  # the client's line, counting from 0
    at: int  # the index of the record event that completed it
    value: dict[str, object] | None  # None: not a JSON-RPC message

    @property
    def method(self) -> str | None:
        method = self.value.get("method") if self.value is not None else None
        return method if isinstance(method, str) else None

    @property
    def is_request(self) -> bool:
        return self.value is not None and self.method is not None and "id" in self.value


def version_of(line: Line) -> object:
    """The protocol version a request's ``_meta`` names; None where it names none."""
    params = line.value.get("params") if line.value is not None else None
    meta = params.get("_meta") if isinstance(params, dict) else None
    return meta.get(META_VERSION) if isinstance(meta, dict) else None


def _meta_fault(line: Line) -> str | None:
    params = line.value.get("params") if line.value is not None else None
    meta = params.get("_meta") if isinstance(params, dict) else None
    if not isinstance(meta, dict):
        return "no _meta object"
    if not isinstance(meta.get(META_VERSION), str):
        return f"no {META_VERSION} string in _meta"
    if not isinstance(meta.get(META_CAPABILITIES), dict):
        return f"no {META_CAPABILITIES} object in _meta"
    return None


def judge_modern(
    lines: Sequence[Line], written: Sequence[tuple[int, str]], script: ServerScript, plain: Sequence[Line] | None
) -> tuple[list[Finding], set[str]]:
    """``written``: (record index, tag) of each message the scripted server wrote; ``plain``: the
    client's lines in the plain scenario, for CLIENT-MOD-FALLBACK."""
    findings: list[Finding] = []
    seen: set[str] = set()

    def find(rule: str, line: Line | None, message: str, expected: str, actual: str) -> None:
        number = line.number if line is not None else None
        findings.append(Finding(rule, BY_ID[rule].level.mandatory, number, message, expected, actual))

    requests = [line for line in lines if line.is_request]
    first_init = next((line for line in requests if line.method == INITIALIZE), None)
    if script.modern:
        # Written before the client's first initialize: once it has written that, it believes itself
        # in a legacy session, and what follows, _meta or not, is that session's (CLIENT-INIT-ALONE).
        modern = [line for line in requests if first_init is None or line.number < first_init.number]
        faults = [(line, fault) for line in modern if (fault := _meta_fault(line)) is not None]
        if faults:
            line, fault = faults[0]
            find("CLIENT-MOD-META", line, f"the {line.method} request to a modern server has {fault}",
                 "_meta with the protocol version and the client's capabilities", fault)  # fmt: skip
        if any(version_of(line) is not None for line in modern):
            seen.add("CLIENT-MOD-META")  # a client speaking the era: a legacy-only one is not judged
        learnt = next((at for at, tag in written if tag in (f"answer:{DISCOVER}", "refused:-32022")), None)
        if learnt is not None:
            seen.add("CLIENT-MOD-STAYS-MODERN")
            if first_init is not None and first_init.at > learnt:
                find("CLIENT-MOD-STAYS-MODERN", first_init, "initialize was sent to a server that had shown it speaks "
                     "2026-07-28", "modern requests only", INITIALIZE)  # fmt: skip
        refused = next((at for at, tag in written if tag == "refused:-32022"), None)
        if refused is not None:
            seen.add("CLIENT-MOD-VERSION-RETRY")
            later = [line for line in modern if line.at > refused and version_of(line) not in script.supported]
            if later:
                find("CLIENT-MOD-VERSION-RETRY", later[0], f"after -32022 listing {json.dumps(list(script.supported))}, "
                     f"the {later[0].method} request named {json.dumps(version_of(later[0]))}",
                     "a listed version, or no request", json.dumps(version_of(later[0])))  # fmt: skip
        _input_retry(modern, written, find, seen)
    elif script.discover_code != -32601 and script.discover_code not in MODERN_ERRORS and plain is not None:
        _fallback(requests, plain, script.discover_code, find, seen)
    return findings, seen


def _input_retry(modern: Sequence[Line], written: Sequence[tuple[int, str]], find: _Judge, seen: set[str]) -> None:
    """CLIENT-MOD-INPUT-RETRY: a retry after input_required has a new id, the inputs asked for, the
    state as it came. Not retrying is lawful: the server must not count on it."""
    asked_at = next((at for at, tag in written if tag == "input-required"), None)
    calls = [line for line in modern if line.method == "tools/call"]
    first = next((line for line in reversed(calls) if asked_at is not None and line.at <= asked_at), None)
    retry = next((line for line in calls if asked_at is not None and line.at > asked_at), None)
    if first is None or retry is None or first.value is None or retry.value is None:
        return
    seen.add("CLIENT-MOD-INPUT-RETRY")
    params = retry.value.get("params")
    params = params if isinstance(params, dict) else {}
    first_params = first.value.get("params")
    meta = first_params.get("_meta") if isinstance(first_params, dict) else None
    declared = meta.get(META_CAPABILITIES) if isinstance(meta, dict) else None
    roots_asked = isinstance(declared, dict) and "roots" in declared
    responses = params.get("inputResponses")
    faults = [
        (retry.value.get("id") == first.value.get("id"), f"the retry has the first call's id {json.dumps(retry.value.get('id'))}"),
        (params.get("requestState") != INPUT_STATE, f"the retry's requestState is {json.dumps(params.get('requestState'))}"),
        (roots_asked and not (isinstance(responses, dict) and INPUT_KEY in responses), f"the retry answers no {INPUT_KEY}"),
    ]
    fault = next((text for broken, text in faults if broken), None)
    if fault is not None:
        find("CLIENT-MOD-INPUT-RETRY", retry, f"after input_required, {fault}",
             f"a new id, requestState {json.dumps(INPUT_STATE)} as sent, and every input asked for", fault)  # fmt: skip


def _fallback(requests: Sequence[Line], plain: Sequence[Line], code: int, find: _Judge, seen: set[str]) -> None:
    """CLIENT-MOD-FALLBACK: the same client falls back whatever the error's code."""
    def fell_back(sent: Sequence[Line]) -> bool | None:
        """None: the client sent no probe; else whether initialize followed it."""
        probe = next((line for line in sent if line.method == DISCOVER), None)
        return None if probe is None else any(line.method == INITIALIZE and line.at >= probe.at for line in sent)

    before = fell_back([line for line in plain if line.is_request])
    now = fell_back(requests)
    if before is None or now is None or not before:
        return  # no probe, or a client that does not fall back at all (a modern-only one): nothing keyed
    seen.add("CLIENT-MOD-FALLBACK")
    if not now:
        find("CLIENT-MOD-FALLBACK", None, f"the client fell back to initialize when server/discover drew -32601, "
             f"not when it drew {code}", "initialize after any non-modern error", "no initialize")  # fmt: skip
