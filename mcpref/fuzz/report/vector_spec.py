"""The spec level of a vector (``vectors``): for each input line, the answers a conforming server may
give, derived from the oracle by substitution. Every candidate answer for one line (absent, a
result, each error code, a null-id error) is put in place of the reference's, every other line
keeping the reference's, and it is acceptable when ``judge`` then finds no divergence from a MUST
rule."""

from __future__ import annotations

import json
from dataclasses import dataclass

from mcpref.fuzz.drive.observation import Observation

# The oracle's own readers of a refused line, so that vectors and verdicts see the same ids.
from mcpref.fuzz.judge.lines import leading_request, lenient_request
from mcpref.fuzz.judge.modern import MISSING_REQUIRED_CLIENT_CAPABILITY, UNSUPPORTED_PROTOCOL_VERSION
from mcpref.fuzz.judge.oracle import judge
from mcpref.reference.dispatcher import id_key
from mcpref.reference.framer import DEFAULT_MAX_LINE_BYTES
from mcpref.reference.messages import (
    INTERNAL_ERROR,
    INVALID_PARAMS,
    INVALID_REQUEST,
    METHOD_NOT_FOUND,
    PARSE_ERROR,
    Invalid,
    JsonObject,
    JsonValue,
    ParseFailure,
    Request,
    RequestId,
    classify,
    parse_line,
)
from mcpref.reference.versions import LATEST, SUPPORTED_NAMES

# Error codes tried for each answer: JSON-RPC's own, MCP's resource error, the modern era's
# version and capability errors, a server error.
CANDIDATE_CODES: tuple[int, ...] = (
    PARSE_ERROR,
    INVALID_REQUEST,
    METHOD_NOT_FOUND,
    INVALID_PARAMS,
    INTERNAL_ERROR,
    -32002,
    UNSUPPORTED_PROTOCOL_VERSION,
    MISSING_REQUIRED_CLIENT_CAPABILITY,
    -32000,
)
# An application-defined code: when it is acceptable too, any error code is ("any").
OTHER_CODE = -31999

Outputs = list[list[JsonValue]]  # per input line, the values (objects or arrays) written for it


@dataclass(frozen=True)
class LineId:
    id: RequestId
    method: str | None  # None for an invalid message that still carries a readable id
    params: JsonObject | None
    in_batch: bool


def _id_json(request_id: RequestId) -> str:
    return json.dumps(request_id, ensure_ascii=True)


def encode(value: JsonValue) -> bytes:
    return json.dumps(value, ensure_ascii=True, separators=(",", ":")).encode("ascii")


def _same_id(value: JsonValue, request_id: RequestId) -> bool:
    if not isinstance(value, dict) or "method" in value:
        return False
    other = value.get("id")
    return (type(other) is int or type(other) is str) and id_key(other) == id_key(request_id)


def _is_null_answer(value: JsonValue) -> bool:
    return isinstance(value, dict) and "method" not in value and value.get("id") is None


def _null_error(code: int) -> JsonObject:
    return {"jsonrpc": "2.0", "id": None, "error": {"code": code, "message": "substitute"}}


def _error(request_id: RequestId, code: int, reference: JsonObject | None = None) -> JsonObject:
    """An error with ``code``: the reference's own when it gave that code, for the data some codes carry."""
    own = reference.get("error") if reference is not None else None
    if isinstance(own, dict) and own.get("code") == code:
        return {"jsonrpc": "2.0", "id": request_id, "error": own}
    return {"jsonrpc": "2.0", "id": request_id, "error": {"code": code, "message": "substitute"}}


def _replace(
    outputs: Outputs, line: int, request_id: RequestId, answer: JsonObject | None, *, drop_nulls: bool = False
) -> Outputs:
    """``outputs`` with the answer to ``request_id`` on ``line`` replaced by ``answer`` (None: removed)."""
    placed = False

    def place(value: JsonValue, into: list[JsonValue]) -> None:
        """Keep ``value`` in ``into``, or ``answer`` in its stead when it answers ``request_id``."""
        nonlocal placed
        if _same_id(value, request_id):
            placed = True
            if answer is not None:
                into.append(answer)
        elif not (drop_nulls and _is_null_answer(value)):
            into.append(value)

    produced: list[JsonValue] = []
    for value in outputs[line]:
        if isinstance(value, list):
            members: list[JsonValue] = []
            for member in value:
                place(member, members)
            if members:
                produced.append(members)
        else:
            place(value, produced)
    if not placed and answer is not None:
        produced.append(answer)
    return [produced if index == line else values for index, values in enumerate(outputs)]


def _recode_nulls(outputs: Outputs, line: int, code: int | None) -> Outputs:
    """``outputs`` with the id-null answers of ``line`` given ``code``, or removed (None)."""

    def recode(value: JsonValue) -> JsonValue | None:
        if not _is_null_answer(value):
            return value
        return None if code is None else _null_error(code)

    produced: list[JsonValue] = []
    for value in outputs[line]:
        if isinstance(value, list):
            members: list[JsonValue] = [m for m in (recode(member) for member in value) if m is not None]
            if members:
                produced.append(members)
        else:
            kept = recode(value)
            if kept is not None:
                produced.append(kept)
    return [produced if index == line else values for index, values in enumerate(outputs)]


def null_count(values: list[JsonValue]) -> int:
    count = 0
    for value in values:
        members = value if isinstance(value, list) else [value]
        count += sum(1 for member in members if _is_null_answer(member))
    return count


def _find_answer(values: list[JsonValue], request_id: RequestId) -> tuple[JsonObject | None, bool]:
    for value in values:
        members = value if isinstance(value, list) else [value]
        for member in members:
            if _same_id(member, request_id):
                assert isinstance(member, dict)
                return member, isinstance(value, list)
    return None, False


class Oracle:
    def __init__(self, stream: bytes, eof: bool) -> None:
        self.stream = stream
        self.eof = eof
        self.cache: dict[bytes, bool] = {}

    def accepts(self, outputs: Outputs) -> bool:
        encoded = tuple(encode(value) for values in outputs for value in values)
        key = b"\n".join(encoded)
        if key not in self.cache:
            findings = judge(self.stream, Observation(encoded, b"", True, (), self.eof))
            self.cache[key] = not any(finding.mandatory for finding in findings)
        return self.cache[key]


# What a line carries.


def _lenient(line: bytes) -> Request | None:
    """The request a lenient peer may read in a line the reference refuses, found as the oracle finds it."""
    request = lenient_request(line) or leading_request(line)
    return None if request is None else Request(request.id, request.method or "", request.params)


def line_ids(line: bytes) -> list[LineId]:
    if len(line) > DEFAULT_MAX_LINE_BYTES:
        request = _lenient(line)
        return [] if request is None else [LineId(request.id, request.method or None, request.params, False)]
    value = parse_line(line)
    if isinstance(value, ParseFailure):
        request = _lenient(line)
        return [] if request is None else [LineId(request.id, request.method or None, request.params, False)]
    members: list[tuple[JsonValue, bool]] = []
    if isinstance(value, dict):
        members = [(value, False)]
    elif isinstance(value, list):
        members = [(member, True) for member in value]
    ids: list[LineId] = []
    for member, in_batch in members:
        message = classify(member)
        if isinstance(message, Request):
            ids.append(LineId(message.id, message.method, message.params, in_batch))
        elif isinstance(message, Invalid) and message.id is not None:
            ids.append(LineId(message.id, None, None, in_batch))
    return ids


def _plausible_result(entry: LineId, reference: JsonObject | None) -> JsonObject:
    """A result a server could well give for the request, to try in place of the reference's answer."""
    if reference is not None and isinstance(reference.get("result"), dict):
        result = reference["result"]
        assert isinstance(result, dict)
        return result
    if entry.method == "initialize":
        requested = (entry.params or {}).get("protocolVersion")
        version = requested if isinstance(requested, str) and requested in SUPPORTED_NAMES else LATEST.name
        return {
            "protocolVersion": version,
            "capabilities": {"tools": {"listChanged": False}},
            "serverInfo": {"name": "substitute", "version": "0"},
        }
    if entry.method == "tools/list":
        return {"tools": []}
    if entry.method == "tools/call":
        return {"content": [{"type": "text", "text": "substitute"}]}
    return {}


def _codes(accepted: list[int]) -> JsonValue:
    """The acceptable codes as a JSON list, or "any" when an application-defined code passes too."""
    return "any" if OTHER_CODE in accepted else [code for code in accepted if code != OTHER_CODE]


def expect_id(oracle: Oracle, outputs: Outputs, line: int, entry: LineId, nulls: int) -> tuple[JsonObject, bool]:
    """The spec-level expectation for one request id, and whether answering it waives the line's nulls."""
    reference, in_array = _find_answer(outputs[line], entry.id)
    answered = reference is not None
    waives = False

    def acceptable(answer: JsonObject) -> bool:
        nonlocal waives
        if oracle.accepts(_replace(outputs, line, entry.id, answer)):
            return True
        if not answered and nulls and oracle.accepts(_replace(outputs, line, entry.id, answer, drop_nulls=True)):
            waives = True
            return True
        return False

    base = _plausible_result(entry, reference)
    expectation: JsonObject = {
        "line": line,
        "id": entry.id,
        "idJson": _id_json(entry.id),
        "method": entry.method,
        "required": answered and not oracle.accepts(_replace(outputs, line, entry.id, None)),
        "inArray": in_array,
    }
    if entry.method == "tools/call":
        flags: list[JsonValue] = [
            flag
            for flag in (True, False)
            if acceptable({"jsonrpc": "2.0", "id": entry.id, "result": {**base, "isError": flag}})
        ]
        expectation["result"] = bool(flags)
        expectation["isError"] = flags
    else:
        expectation["result"] = acceptable({"jsonrpc": "2.0", "id": entry.id, "result": base})
    accepted = [code for code in (*CANDIDATE_CODES, OTHER_CODE) if acceptable(_error(entry.id, code, reference))]
    expectation["errorCodes"] = _codes(accepted)
    # A null-id error in place of the answer (a long line refused under a peer's own limit).
    expectation["insteadNullCodes"] = [
        code
        for code in CANDIDATE_CODES
        if answered and oracle.accepts(_replace(outputs, line, entry.id, _null_error(code)))
    ]
    return expectation, waives


def expect_nulls(oracle: Oracle, outputs: Outputs, line: int, waived_by: list[RequestId]) -> JsonObject | None:
    count = null_count(outputs[line])
    if count:
        required = not oracle.accepts(_recode_nulls(outputs, line, None))
        accepted = [
            code for code in (*CANDIDATE_CODES, OTHER_CODE) if oracle.accepts(_recode_nulls(outputs, line, code))
        ]
    else:
        required = False
        accepted = [
            code
            for code in (*CANDIDATE_CODES, OTHER_CODE)
            if oracle.accepts(
                [[*values, _null_error(code)] if index == line else values for index, values in enumerate(outputs)]
            )
        ]
        if not accepted:
            return None
        count = 1
    return {
        "line": line,
        "count": count,
        "required": required,
        "codes": _codes(accepted),
        "waivedIfAnswered": list(waived_by) if required else [],
    }


# Writing the files.
