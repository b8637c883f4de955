"""Tests for ``reference.messages``: lines to JSON values to JSON-RPC messages, and answers out.

Every failure of the peer must come back as a value (``ParseFailure``, ``Invalid``); an
exception escaping from ``parse_line`` or ``classify`` is a bug, which the property
tests at the bottom look for.
"""

from __future__ import annotations

import json
import math

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from mcpref.reference.messages import (
    BLANK,
    INVALID_PARAMS,
    INVALID_REQUEST,
    MAX_DEPTH,
    PARSE_ERROR,
    ClientResponse,
    Invalid,
    JsonObject,
    JsonValue,
    Notification,
    ParseFailure,
    Request,
    answer_line,
    batch_line,
    classify,
    encode,
    error_answer,
    error_text,
    is_valid_id,
    parse_line,
    result_text,
)


def message(line: bytes) -> object:
    """What one line means: ``BLANK``, a ``ParseFailure`` or the classified message."""
    value = parse_line(line)
    if value is BLANK or isinstance(value, ParseFailure):
        return value
    return classify(value)


# --- the seeds' table ----------------------------------------------------------------


@pytest.mark.spec("RPC-PARSE-ERROR", "RPC-ERROR-ID-NULL")
def test_seed_not_json_is_a_parse_failure() -> None:
    # The dispatcher answers every ParseFailure with -32700 and id null (test_dispatcher).
    assert isinstance(parse_line(b"pas du json"), ParseFailure)
    assert PARSE_ERROR == -32700


@pytest.mark.spec("RPC-INVALID-REQUEST", "RPC-ID-ECHO")
def test_seed_method_that_is_a_number_is_invalid_with_its_id() -> None:
    result = message(b'{"jsonrpc":"2.0","id":5,"method":5}')
    assert isinstance(result, Invalid)
    assert (result.id, result.code) == (5, -32600)


@pytest.mark.spec("RPC-INVALID-REQUEST", "RPC-ERROR-ID-NULL", "RPC-BATCH-UNSUPPORTED")
def test_seed_array_of_numbers_is_invalid_with_id_null() -> None:
    # Outside 2025-03-26 the dispatcher treats the array as one message; inside a batch
    # each member is classified alone, and 1 and 2 are not objects either way.
    assert parse_line(b"[1,2]") == [1, 2]
    assert classify([1, 2]) == Invalid(None, INVALID_REQUEST, "message is not a JSON object")
    assert classify(1) == Invalid(None, INVALID_REQUEST, "message is not a JSON object")


@pytest.mark.spec("RPC-NOTIFICATION-SILENT")
def test_seed_unknown_notification_is_a_notification() -> None:
    assert message(b'{"jsonrpc":"2.0","method":"truc"}') == Notification("truc", None)


# --- parsing -------------------------------------------------------------------------


@pytest.mark.spec("RPC-PARSE-ERROR")
@pytest.mark.parametrize(
    "line",
    [b"NaN", b"Infinity", b"-Infinity", b"[NaN]", b'{"a":Infinity}', b'{"jsonrpc":"2.0","id":-Infinity,"method":"x"}'],
)
def test_nan_and_infinity_are_not_json(line: bytes) -> None:
    assert isinstance(parse_line(line), ParseFailure)


@pytest.mark.spec("RPC-PARSE-ERROR")
@pytest.mark.parametrize(
    "line",
    [b"{", b"}", b"{'a':1}", b'{"a":1,}', b"[1,]", b"tru", b'"unterminated', b"01", b"{} {}", b"\x00", b"\x0b{}", b"{}\x0c"],
)
def test_malformed_json_is_a_parse_failure(line: bytes) -> None:
    assert isinstance(parse_line(line), ParseFailure)


@pytest.mark.spec("RPC-JSON-LIMITS", "RPC-PARSE-ERROR")
@pytest.mark.parametrize("depth", [MAX_DEPTH + 1, 300, 1000, 100_000])
def test_deep_nesting_is_a_parse_failure_never_a_recursion_error(depth: int) -> None:
    assert parse_line(b"[" * depth + b"]" * depth) == ParseFailure("nesting too deep")
    assert isinstance(parse_line(b'{"a":' * depth + b"1" + b"}" * depth), ParseFailure)
    assert isinstance(parse_line(b"[" * depth), ParseFailure)  # unterminated as well


@pytest.mark.spec("RPC-JSON-LIMITS")
def test_nesting_up_to_the_limit_is_accepted() -> None:
    value = parse_line(b"[" * MAX_DEPTH + b"1" + b"]" * MAX_DEPTH)
    assert not isinstance(value, ParseFailure)
    mixed = b'{"a":[' * (MAX_DEPTH // 2) + b"null" + b"]}" * (MAX_DEPTH // 2)
    assert not isinstance(parse_line(mixed), ParseFailure)


@pytest.mark.spec("RPC-JSON-LIMITS")
def test_brackets_inside_strings_do_not_count_as_nesting() -> None:
    line = b'{"text":"' + b"[{" * MAX_DEPTH + b'"}'
    assert parse_line(line) == {"text": "[{" * MAX_DEPTH}


@pytest.mark.spec("RPC-JSON-LIMITS", "RPC-PARSE-ERROR")
@pytest.mark.parametrize("line", [b"1" * 5000, b"-" + b"9" * 4301, b'{"id":' + b"7" * 5000 + b"}"])
def test_integers_over_4300_digits_are_a_parse_failure(line: bytes) -> None:
    assert isinstance(parse_line(line), ParseFailure)


@pytest.mark.spec("RPC-JSON-LIMITS")
def test_integers_up_to_4300_digits_are_exact() -> None:
    assert parse_line(b"9" * 4300) == int("9" * 4300)
    assert parse_line(b"-" + b"9" * 4300) == -int("9" * 4300)


@pytest.mark.spec("RPC-JSON-LIMITS", "RPC-PARSE-ERROR")
@pytest.mark.parametrize("line", [b"1e400", b"-1e400", b"1.5E+999", b"[123123e100000]", b"1.8e308"])
def test_floats_overflowing_to_infinity_are_a_parse_failure(line: bytes) -> None:
    assert isinstance(parse_line(line), ParseFailure)


@pytest.mark.spec("RPC-JSON-LIMITS")
@pytest.mark.parametrize("line", [b"1e-400", b"-1e-400", b"123e-10000000"])
def test_floats_underflowing_to_zero_are_accepted(line: bytes) -> None:
    value = parse_line(line)
    assert isinstance(value, float)
    assert value == 0.0


@pytest.mark.spec("RPC-JSON-LIMITS")
def test_largest_finite_double_is_accepted() -> None:
    value = parse_line(b"1.7976931348623157e308")
    assert isinstance(value, float)
    assert math.isfinite(value)


@pytest.mark.spec("FRAME-BOM", "RPC-PARSE-ERROR")
@pytest.mark.parametrize("line", [b"\xef\xbb\xbf{}", b"\xef\xbb\xbf", b'\xef\xbb\xbf{"jsonrpc":"2.0","method":"ping","id":1}'])
def test_byte_order_mark_is_a_parse_failure(line: bytes) -> None:
    assert isinstance(parse_line(line), ParseFailure)


@pytest.mark.spec("FRAME-UTF8", "RPC-PARSE-ERROR")
@pytest.mark.parametrize(
    "line",
    [
        b'["\xff"]',  # never valid in UTF-8
        b'["\xe9"]',  # Latin-1
        b'["\xc0\xaf"]',  # overlong "/"
        b'["\xed\xa0\x80"]',  # a surrogate encoded as UTF-8 (CESU)
        b'["\xe6\x97"]',  # truncated sequence
        b'["\xf4\x90\x80\x80"]',  # beyond U+10FFFF
        '\ufeff["\u00e9"]'.encode("utf-16-le"),  # UTF-16 with its BOM
        b"\x80",
    ],
)
def test_invalid_utf8_is_a_parse_failure(line: bytes) -> None:
    assert parse_line(line) == ParseFailure("line is not valid UTF-8")


@pytest.mark.spec("FRAME-UTF8", "RPC-PARSE-ERROR")
def test_utf16_without_bom_is_a_parse_failure() -> None:
    # Valid UTF-8 byte for byte (ASCII and NULs), but NUL is not JSON.
    assert isinstance(parse_line('["a"]'.encode("utf-16-le")), ParseFailure)
    assert isinstance(parse_line('["a"]'.encode("utf-16-be")), ParseFailure)


@pytest.mark.spec("FRAME-UTF8")
def test_multibyte_utf8_is_decoded() -> None:
    assert parse_line('{"mot":"caf\u00e9 \u65e5\u672c \U0001f956"}'.encode()) == {"mot": "caf\u00e9 \u65e5\u672c \U0001f956"}


@pytest.mark.spec("FRAME-CRLF")
def test_a_trailing_cr_is_json_whitespace() -> None:
    assert message(b'{"jsonrpc":"2.0","id":1,"method":"ping"}\r') == Request(1, "ping", None)
    assert parse_line(b"[1]\r") == [1]


@pytest.mark.spec("FRAME-BLANK-LINE")
@pytest.mark.parametrize("line", [b"", b" ", b"\t", b"\r", b"  \t\r  ", b"\r\r"])
def test_blank_and_whitespace_lines_are_blank(line: bytes) -> None:
    assert parse_line(line) is BLANK


@pytest.mark.spec("FRAME-BLANK-LINE", "RPC-PARSE-ERROR")
@pytest.mark.parametrize("line", [b"\x0b", b"\x0c", b"\x00", "\u00a0".encode(), "\u2028".encode(), b"\xef\xbb\xbf"])
def test_other_whitespace_is_not_blank(line: bytes) -> None:
    assert isinstance(parse_line(line), ParseFailure)


@pytest.mark.spec("RPC-DUPLICATE-KEYS")
def test_duplicate_keys_last_value_wins() -> None:
    assert parse_line(b'{"a":1,"a":2}') == {"a": 2}
    assert message(b'{"jsonrpc":"2.0","id":1,"method":"ping","id":"deux"}') == Request("deux", "ping", None)
    assert message(b'{"jsonrpc":"2.0","method":5,"id":3,"method":"ping"}') == Request(3, "ping", None)


@pytest.mark.spec("RPC-PARSE-ERROR", "FRAME-OUTPUT-ASCII", "FRAME-NO-EMBEDDED-NEWLINE")
def test_escaped_lone_surrogates_are_accepted_and_re_encoded_as_escapes() -> None:
    value = parse_line(b'{"jsonrpc":"2.0","id":"\\ud800","method":"x\\udc00"}')
    assert classify(value) == Request("\ud800", "x\udc00", None)
    out = encode(error_answer("\ud800", -32601, "Method not found: x\udc00"))
    assert out.isascii()
    assert out.count(b"\n") == 1 and out.endswith(b"\n")
    assert b"\\ud800" in out and b"\\udc00" in out
    assert json.loads(out)["id"] == "\ud800"


# --- classification: ids -------------------------------------------------------------


@pytest.mark.spec("RPC-ID-TYPE", "RPC-INVALID-REQUEST", "RPC-ERROR-ID-NULL")
@pytest.mark.parametrize("raw_id", [b"null", b"true", b"false", b"1.0", b"1.5", b"-0.0", b"1e2", b"{}", b"[]", b'{"a":1}', b"[1]"])
def test_ids_that_are_not_strings_or_integers_are_invalid_with_id_null(raw_id: bytes) -> None:
    line = b'{"jsonrpc":"2.0","id":' + raw_id + b',"method":"ping"}'
    result = message(line)
    assert isinstance(result, Invalid)
    assert (result.id, result.code) == (None, INVALID_REQUEST)


@pytest.mark.spec("RPC-ID-TYPE", "RPC-ID-ECHO")
@pytest.mark.parametrize(
    ("raw_id", "expected"),
    [
        (b'"7"', "7"),
        (b"7", 7),
        (b"0", 0),
        (b"-1", -1),
        (b'""', ""),
        (b"9007199254740993", 9007199254740993),
        (b"123456789012345678901234567890", 123456789012345678901234567890),
        (b'"\\u00e9t\\u00e9"', "\u00e9t\u00e9"),
    ],
)
def test_valid_ids_are_kept_exactly(raw_id: bytes, expected: int | str) -> None:
    result = message(b'{"jsonrpc":"2.0","id":' + raw_id + b',"method":"ping"}')
    assert isinstance(result, Request)
    assert result.id == expected
    assert type(result.id) is type(expected)


@pytest.mark.spec("RPC-ID-ECHO")
def test_ids_1_and_string_1_are_different() -> None:
    one = message(b'{"jsonrpc":"2.0","id":1,"method":"ping"}')
    string_one = message(b'{"jsonrpc":"2.0","id":"1","method":"ping"}')
    assert isinstance(one, Request) and isinstance(string_one, Request)
    assert one != string_one
    assert type(one.id) is int and type(string_one.id) is str


@pytest.mark.spec("RPC-ID-TYPE")
@pytest.mark.parametrize(("value", "valid"), [(1, True), ("1", True), (True, False), (1.0, False), (None, False), ([], False)])
def test_is_valid_id(value: JsonValue, valid: bool) -> None:
    assert is_valid_id(value) is valid


# --- classification: shapes ----------------------------------------------------------


@pytest.mark.spec("RPC-INVALID-REQUEST", "RPC-ID-ECHO")
@pytest.mark.parametrize(
    "line",
    [
        b'{"jsonrpc":"2.0","id":4}',
        b'{"id":4}',
        b'{"jsonrpc":"1.0","id":4,"method":"ping"}',
        b'{"id":4,"method":"ping"}',
        b'{"jsonrpc":2.0,"id":4,"method":"ping"}',
        b'{"jsonrpc":"2.0","id":4,"method":null}',
        b'{"jsonrpc":"2.0","id":4,"method":["ping"]}',
    ],
)
def test_object_with_readable_id_but_not_a_request_is_invalid_with_that_id(line: bytes) -> None:
    result = message(line)
    assert isinstance(result, Invalid)
    assert (result.id, result.code) == (4, INVALID_REQUEST)


@pytest.mark.spec("RPC-INVALID-REQUEST", "RPC-INVALID-NO-ID", "RPC-ERROR-ID-NULL")
@pytest.mark.parametrize(
    "line",
    [b"{}", b'{"jsonrpc":"2.0"}', b'{"method":"ping"}', b'{"jsonrpc":"2.0","method":5}', b"[]", b"3", b'"ping"', b"null"],
)
def test_invalid_without_id_is_answered_with_id_null_not_taken_for_a_notification(line: bytes) -> None:
    result = message(line)
    assert isinstance(result, Invalid)
    assert (result.id, result.code) == (None, INVALID_REQUEST)


@pytest.mark.spec("RPC-PARAMS-OBJECT", "RPC-INVALID-PARAMS", "RPC-ID-ECHO")
def test_params_array_in_a_request_is_invalid_params_with_its_id() -> None:
    result = message(b'{"jsonrpc":"2.0","id":"a","method":"tools/list","params":[1,2]}')
    assert isinstance(result, Invalid)
    assert (result.id, result.code) == ("a", INVALID_PARAMS)


@pytest.mark.spec("RPC-PARAMS-OBJECT", "RPC-NOTIFICATION-SILENT")
def test_params_array_in_a_notification_is_a_silent_notification() -> None:
    assert message(b'{"jsonrpc":"2.0","method":"notifications/x","params":[1]}') == Notification("notifications/x", None)


@pytest.mark.spec("RPC-PARAMS-OBJECT", "RPC-INVALID-REQUEST")
@pytest.mark.parametrize("params", [b"null", b'"x"', b"3", b"true", b"1.5"])
def test_params_that_are_not_structured_are_invalid_request(params: bytes) -> None:
    request = message(b'{"jsonrpc":"2.0","id":9,"method":"ping","params":' + params + b"}")
    assert isinstance(request, Invalid)
    assert (request.id, request.code) == (9, INVALID_REQUEST)
    # Without an id the object is not a valid notification either (RPC-INVALID-NO-ID).
    no_id = message(b'{"jsonrpc":"2.0","method":"ping","params":' + params + b"}")
    assert isinstance(no_id, Invalid)
    assert (no_id.id, no_id.code) == (None, INVALID_REQUEST)


@pytest.mark.spec("RPC-PARAMS-OBJECT")
def test_params_object_is_kept() -> None:
    assert message(b'{"jsonrpc":"2.0","id":1,"method":"m","params":{"a":[1]}}') == Request(1, "m", {"a": [1]})
    assert message(b'{"jsonrpc":"2.0","method":"m","params":{}}') == Notification("m", {})


@pytest.mark.spec("RPC-CLIENT-RESPONSE")
@pytest.mark.parametrize(
    ("line", "raw_id", "well_formed"),
    [
        (b'{"jsonrpc":"2.0","id":2,"result":{"tools":[]}}', 2, True),
        (b'{"jsonrpc":"2.0","id":"x","error":{"code":-32601,"message":"nope"}}', "x", True),
        (b'{"jsonrpc":"2.0","id":"x","error":{"code":-1,"message":"m","data":[1]}}', "x", True),
        (b'{"jsonrpc":"2.0","id":2,"result":[]}', 2, False),
        (b'{"jsonrpc":"2.0","id":2,"result":{},"error":{"code":1,"message":"m"}}', 2, False),
        (b'{"jsonrpc":"2.0","id":2,"error":{"code":"1","message":"m"}}', 2, False),
        (b'{"jsonrpc":"2.0","id":2,"error":{"code":true,"message":"m"}}', 2, False),
        (b'{"jsonrpc":"2.0","id":2,"error":{"code":1}}', 2, False),
        (b'{"jsonrpc":"2.0","id":2,"error":"bad"}', 2, False),
        (b'{"id":2,"result":{}}', 2, False),
        (b'{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"m"}}', None, False),
        (b'{"jsonrpc":"2.0","id":1.5,"result":{}}', 1.5, False),
        (b'{"jsonrpc":"2.0","result":{}}', None, False),
    ],
)
def test_client_responses_are_recognised_well_formed_or_not(line: bytes, raw_id: JsonValue, well_formed: bool) -> None:
    assert message(line) == ClientResponse(raw_id, well_formed)


@pytest.mark.spec("RPC-INVALID-REQUEST")
def test_method_wins_over_result() -> None:
    # An object with both a method and a result is neither a clean request nor a response.
    assert message(b'{"jsonrpc":"2.0","id":1,"method":"ping","result":{}}') == Request(1, "ping", None)
    assert message(b'{"jsonrpc":"2.0","id":1,"method":3,"result":{}}') == Invalid(1, INVALID_REQUEST, "method must be a string")


# --- answers -------------------------------------------------------------------------


@pytest.mark.spec("RPC-RESPONSE-SHAPE", "RPC-ERROR-ID-NULL")
def test_answer_shapes() -> None:
    assert result_text(3, {}) == '{"jsonrpc":"2.0","id":3,"result":{}}'
    refusal = '{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}'
    assert error_text(None, -32700, "Parse error") == refusal
    assert error_answer(None, -32700, "Parse error") == {
        "jsonrpc": "2.0",
        "id": None,
        "error": {"code": -32700, "message": "Parse error"},
    }
    assert error_answer("a", -32602, "bad", {"requested": "x"}) == {
        "jsonrpc": "2.0",
        "id": "a",
        "error": {"code": -32602, "message": "bad", "data": {"requested": "x"}},
    }


@pytest.mark.spec("FRAME-NO-EMBEDDED-NEWLINE", "FRAME-OUTPUT-ASCII")
def test_encode_is_compact_ascii_on_one_line() -> None:
    answer: JsonObject = {"jsonrpc": "2.0", "id": 1, "result": {"t": "a\nb\r\u2028\u2029\u0085\u00e9"}}
    out = encode(answer)
    assert out == b'{"jsonrpc":"2.0","id":1,"result":{"t":"a\\nb\\r\\u2028\\u2029\\u0085\\u00e9"}}\n'
    assert encode([answer, answer]).count(b"\n") == 1


def test_answer_and_batch_lines_are_what_encode_writes_for_the_objects() -> None:
    answers = [result_text(1, {"a": [1, "\u00e9"]}), error_text("x", -32601, "Method not found: y")]
    objects: list[JsonObject] = [json.loads(answer) for answer in answers]
    assert answer_line(answers[0]) == encode(objects[0])
    assert batch_line(answers) == encode(objects)


# --- properties ----------------------------------------------------------------------

text = st.text() | st.text(st.characters(categories=["Cs"]))  # lone surrogates too
json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False) | text,
    lambda children: st.lists(children, max_size=4) | st.dictionaries(text, children, max_size=4),
    max_leaves=20,
)
any_id = st.one_of(
    st.integers(),
    text,
    st.none(),
    st.booleans(),
    st.floats(allow_nan=False, allow_infinity=False),
    st.just({}),
    st.just([]),
)
message_like = st.fixed_dictionaries(
    {},
    optional={
        "jsonrpc": st.sampled_from(["2.0", "2", "1.0", 2.0, None]),
        "id": any_id,
        "method": st.sampled_from(["ping", "initialize", "tools/list", "notifications/initialized"]) | text | json_values,
        "params": json_values,
        "result": json_values,
        "error": json_values
        | st.fixed_dictionaries({"code": st.integers() | json_values, "message": text | json_values}),
    },
)


@pytest.mark.spec("RPC-INVALID-REQUEST", "STDIO-SURVIVE")
@given(json_values | message_like)
def test_classify_returns_exactly_one_message_kind_and_never_raises(value: JsonValue) -> None:
    result = classify(value)
    kinds = (Request, Notification, ClientResponse, Invalid)
    assert sum(isinstance(result, kind) for kind in kinds) == 1
    if isinstance(result, Invalid):
        assert result.code in (INVALID_REQUEST, INVALID_PARAMS)
        assert result.id is None or is_valid_id(result.id)


@pytest.mark.spec("RPC-ID-ECHO", "RPC-ID-TYPE")
@given(message_like)
@example({"jsonrpc": "2.0", "id": 9007199254740993, "method": "ping"})
@example({"jsonrpc": "2.0", "id": "1", "method": 1})
def test_a_valid_received_id_is_kept_exactly(value: JsonObject) -> None:
    result = classify(value)
    raw = value.get("id")
    if isinstance(result, (Request, Invalid)) and is_valid_id(raw):
        assert result.id == raw
        assert type(result.id) is type(raw)
    if isinstance(result, Request):
        assert is_valid_id(raw) and result.id == raw
    if isinstance(result, Notification):
        assert "id" not in value


@pytest.mark.spec("RPC-PARSE-ERROR", "STDIO-SURVIVE", "FRAME-UTF8")
@given(st.binary())
@example(b"[" * 100_000)
@example(b"1" * 5000)
@example(b"\xef\xbb\xbf{}")
@example(b'"\\ud800"')
def test_parse_line_never_raises(line: bytes) -> None:
    result = parse_line(line)
    if result is not BLANK and not isinstance(result, ParseFailure):
        classify(result)


@pytest.mark.spec("RPC-PARSE-ERROR")
@given(json_values)
def test_serialized_json_values_parse_back(value: JsonValue) -> None:
    line = json.dumps(value, ensure_ascii=False).encode("utf-8", "surrogatepass")
    result = parse_line(line)
    if any(0xD800 <= ord(c) <= 0xDFFF for c in json.dumps(value, ensure_ascii=False)):
        assert isinstance(result, ParseFailure)  # raw surrogate bytes are not UTF-8
    else:
        assert result == value
    escaped = json.dumps(value)  # ASCII, lone surrogates included as escapes
    assert parse_line(escaped.encode("ascii")) == json.loads(escaped)


@pytest.mark.spec("FRAME-NO-EMBEDDED-NEWLINE", "FRAME-OUTPUT-ASCII", "RPC-ID-ECHO")
@given(json_values, st.integers() | text)
def test_encoded_answers_are_one_ascii_line_that_round_trips(value: JsonValue, request_id: int | str) -> None:
    out = answer_line(result_text(request_id, {"value": value}))
    assert out.isascii()
    assert out.index(b"\n") == len(out) - 1
    expected: JsonObject = {"jsonrpc": "2.0", "id": request_id, "result": {"value": value}}
    assert out == encode(expected)  # composed around the id and the result, the same bytes
    assert json.loads(out) == json.loads(json.dumps(expected))


@pytest.mark.spec("RPC-ERROR-ID-NULL")
@given(st.none() | st.integers() | text, st.integers(), text, json_values)
def test_error_text_is_the_encoded_error_answer(
    request_id: int | str | None, code: int, why: str, data: JsonValue
) -> None:
    assert answer_line(error_text(request_id, code, why, data)) == encode(error_answer(request_id, code, why, data))
