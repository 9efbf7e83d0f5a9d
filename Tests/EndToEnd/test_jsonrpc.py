"""JSON-RPC 2.0 and framing (contract sections 1-2, jsonrpc-and-libuv.md), on every transport."""
from __future__ import annotations

import json
import socket
import struct
import time

import pytest

from e2e_support import (
    LSP_TRANSPORTS,
    NATIVE_UNIT,
    NDJSON_TRANSPORTS,
    assert_error,
    dumps,
    frame_body,
    is_int,
    raw_id_pattern,
    request_bytes,
)

UNKNOWN = "e2e.noSuchMethod"


def reply_to(conn, body: bytes):
    conn.send_body(body)
    return conn.next_reply()


def assert_still_serving(conn, id=424242):
    resp = conn.request(UNKNOWN, id=id)
    assert_error(resp["error"], -32601, "Method not found")


# ------------------------------------------------------------------------------------------
# Ids round-trip exactly

INTEGER_IDS = [
    b"0",
    b"1",
    b"-1",
    b"42",
    b"9007199254740993",  # 2^53 + 1: not representable as a double
    b"18446744073709551615",  # 2^64 - 1
    b"18446744073709551617",  # 2^64 + 1
    b"-18446744073709551617",
    b"123456789012345678901234567890123456789",
]


@pytest.mark.parametrize("token", INTEGER_IDS, ids=lambda t: t.decode())
def test_integer_ids_are_echoed_byte_for_byte(conn, token):
    f = reply_to(conn, request_bytes(token))
    assert raw_id_pattern(token).search(f.raw), f"id {token!r} not echoed as written: {f.raw[:200]!r}"
    assert is_int(f.msg["id"]) and f.msg["id"] == int(token)
    assert_error(f.msg["error"], -32601, "Method not found")


def test_a_2_to_the_64_plus_1_id_is_echoed_exactly_on_a_successful_load(conn):
    token = b"18446744073709551617"
    f = reply_to(conn, request_bytes(token, "loadAd", {"adUnitID": NATIVE_UNIT}))
    assert b'"id":18446744073709551617' in f.raw.replace(b" ", b""), f.raw[:300]
    assert "result" in f.msg and f.msg["id"] == 2**64 + 1


@pytest.mark.parametrize("token", [b"1.5", b"2.25", b"-0.5"], ids=lambda t: t.decode())
def test_a_fractional_number_id_is_echoed_as_written(conn, token):
    f = reply_to(conn, request_bytes(token))
    assert raw_id_pattern(token).search(f.raw), f"id {token!r} not echoed as written: {f.raw[:200]!r}"


@pytest.mark.parametrize("token,value", [(b"1e3", 1000), (b"1.0", 1), (b"25E-1", 2.5)], ids=["1e3", "1.0", "25E-1"])
def test_a_number_id_in_exponent_or_decimal_form_comes_back_as_the_same_number(conn, token, value):
    f = reply_to(conn, request_bytes(token))
    assert not isinstance(f.msg["id"], (str, bool)) and f.msg["id"] == value, f.raw[:200]


def test_an_integer_id_never_comes_back_as_a_float(conn):
    f = reply_to(conn, request_bytes(b"1"))
    assert raw_id_pattern(b"1").search(f.raw), f.raw[:200]
    assert b'"id":1.0' not in f.raw.replace(b" ", b"")


STRING_IDS = [
    "",
    "abc",
    "1",
    "null",
    "é😀",
    "日本語のID",
    'quote " backslash \\ slash / tab \t newline \n return \r',
    "\u0000\u0001\u001f control",
    "\u2028\u2029 separators",
    "😀" * 50,
]


@pytest.mark.parametrize("value", STRING_IDS, ids=range(len(STRING_IDS)))
def test_string_ids_round_trip_exactly(conn, value):
    f = reply_to(conn, request_bytes(dumps(value)))
    assert isinstance(f.msg["id"], str) and f.msg["id"] == value


def test_string_ids_sent_with_unicode_escapes_come_back_as_the_same_string(conn):
    f = reply_to(conn, request_bytes(b'"\\u00e9\\ud83d\\ude00\\/x"'))
    assert f.msg["id"] == "é😀/x"


def test_a_string_id_that_looks_like_a_number_stays_a_string(conn):
    f = reply_to(conn, request_bytes(b'"18446744073709551617"'))
    assert f.msg["id"] == "18446744073709551617"


def test_a_null_id_is_a_request_and_is_answered_with_a_null_id(conn):
    f = reply_to(conn, request_bytes(b"null"))
    assert "id" in f.msg and f.msg["id"] is None
    assert b'"id":null' in f.raw.replace(b" ", b"")
    assert_error(f.msg["error"], -32601, "Method not found")


def test_a_null_id_request_gets_a_successful_result_too(conn):
    f = reply_to(conn, request_bytes(b"null", "loadAd", {"adUnitID": NATIVE_UNIT}))
    assert f.msg["id"] is None and "result" in f.msg


def test_the_same_id_used_twice_in_flight_gets_two_replies_in_order(conn):
    conn.send_raw(
        conn.frame(request_bytes(b"7", "loadAd", {"adUnitID": NATIVE_UNIT}))
        + conn.frame(request_bytes(b"7", UNKNOWN))
        + conn.frame(request_bytes(b"7", "releaseAd", {"adId": "no-such-ad"}))
    )
    first, second, third = (conn.next_reply().msg for _ in range(3))
    assert all(m["id"] == 7 for m in (first, second, third))
    assert first["result"]["ads"][0]["headline"] == "Flood-It! 2"
    assert_error(second["error"], -32601)
    assert_error(third["error"], 2001)


# ------------------------------------------------------------------------------------------
# Notifications


def test_notifications_are_never_answered_even_for_unknown_methods_or_bad_params(conn):
    conn.notify(UNKNOWN)
    conn.notify("releaseAd", {"adId": "no-such-ad"})
    conn.notify("loadAd", {"adUnitID": 5})
    conn.notify("loadAd", ["positional"])
    conn.notify("stringForKey", {})
    conn.notify("loadAd", {"adUnitID": "/no/such/unit"})
    resp = conn.request(UNKNOWN, id="after-notifications")
    nxt = conn._stash  # anything else that arrived before our reply
    assert resp["id"] == "after-notifications"
    assert nxt == [], f"notifications were answered: {nxt!r}"


def test_a_notification_is_processed_even_though_it_is_not_answered(conn):
    result = conn.call("loadAd", adUnitID=NATIVE_UNIT)
    ad_id = result["ads"][0]["adId"]
    conn.notify("releaseAd", {"adId": ad_id})
    resp = conn.request("stringForKey", {"adId": ad_id, "key": "headline"})
    assert conn._stash == []
    assert_error(resp["error"], 2001)


def test_a_message_without_id_that_is_not_a_valid_request_still_gets_invalid_request(conn):
    for body in (
        b'{"jsonrpc":"2.0"}',
        b'{"jsonrpc":"2.0","method":5}',
        b'{"jsonrpc":"1.0","method":"releaseAd","params":{"adId":"x"}}',
        b'{"method":"releaseAd","params":{"adId":"x"}}',
        b'{"jsonrpc":"2.0","method":"releaseAd","params":5}',
    ):
        f = reply_to(conn, body)
        assert f.msg["id"] is None, (body, f.msg)
        assert_error(f.msg["error"], -32600, "Invalid Request")


# ------------------------------------------------------------------------------------------
# Invalid requests


@pytest.mark.parametrize(
    "body,id",
    [
        (b'{"jsonrpc":"1.0","id":5,"method":"loadAd","params":{"adUnitID":"x"}}', 5),
        (b'{"jsonrpc":2.0,"id":6,"method":"loadAd"}', 6),
        (b'{"id":7,"method":"loadAd"}', 7),
        (b'{"jsonrpc":"2.0","id":8}', 8),
        (b'{"jsonrpc":"2.0","id":9,"method":5}', 9),
        (b'{"jsonrpc":"2.0","id":"ten","method":null}', "ten"),
        (b'{"jsonrpc":"2.0","id":11,"method":["loadAd"]}', 11),
    ],
    ids=["jsonrpc-1.0", "jsonrpc-number", "no-jsonrpc", "no-method", "method-number", "method-null", "method-array"],
)
def test_an_invalid_request_gets_invalid_request_echoing_its_id(conn, body, id):
    f = reply_to(conn, body)
    assert f.msg["id"] == id and type(f.msg["id"]) is type(id)
    assert_error(f.msg["error"], -32600, "Invalid Request")


@pytest.mark.parametrize(
    "id_token", [b'{"a":1}', b"[1]", b"true", b"false"], ids=["object", "array", "true", "false"]
)
def test_an_id_of_an_illegal_type_gets_invalid_request_with_a_null_id(conn, id_token):
    f = reply_to(conn, request_bytes(id_token, "loadAd", {"adUnitID": NATIVE_UNIT}))
    assert f.msg["id"] is None
    assert_error(f.msg["error"], -32600, "Invalid Request")


@pytest.mark.parametrize("body", [b"5", b'"hello"', b"true", b"null", b"3.5"])
def test_a_json_value_that_is_not_an_object_gets_invalid_request(conn, body):
    f = reply_to(conn, body)
    assert f.msg["id"] is None
    assert_error(f.msg["error"], -32600, "Invalid Request")


@pytest.mark.parametrize("params", [b"null", b'"adUnitID"', b"42", b"true", b"false"])
def test_params_that_are_null_a_string_a_number_or_a_boolean_get_invalid_request(conn, params):
    body = b'{"jsonrpc":"2.0","id":"p","method":"loadAd","params":' + params + b"}"
    f = reply_to(conn, body)
    assert f.msg["id"] == "p"
    assert_error(f.msg["error"], -32600, "Invalid Request")


@pytest.mark.parametrize("params", [[], [NATIVE_UNIT], [{"adUnitID": NATIVE_UNIT}]], ids=["empty", "one", "object"])
def test_params_given_by_position_get_invalid_params(conn, params):
    resp = conn.request("loadAd", params)
    err = assert_error(resp["error"], -32602)
    assert err["message"].startswith("Invalid params"), err


def test_an_unknown_method_gets_method_not_found(conn):
    for method in (UNKNOWN, "LoadAd", "loadad", "rpc.e2eNoSuchExtension", ""):
        resp = conn.request(method, {})
        assert_error(resp["error"], -32601, "Method not found")


# ------------------------------------------------------------------------------------------
# Invalid params


@pytest.mark.parametrize(
    "method,params,field",
    [
        ("loadAd", {}, "adUnitID"),
        ("loadAd", {"adUnitID": None}, "adUnitID"),
        ("loadAd", {"adUnitID": 5}, "adUnitID"),
        ("loadAd", {"adUnitID": NATIVE_UNIT, "adTypes": "native"}, "adTypes"),
        ("loadAd", {"adUnitID": NATIVE_UNIT, "adTypes": ["banner"]}, "adTypes"),
        ("loadAd", {"adUnitID": NATIVE_UNIT, "customNativeAdFormatIDs": "10063170"}, "customNativeAdFormatIDs"),
        ("loadAd", {"adUnitID": NATIVE_UNIT, "options": "all"}, "options"),
        ("loadAd", {"adUnitID": NATIVE_UNIT, "options": {"disableImageLoading": "yes"}}, "options.disableImageLoading"),
        ("loadAd", {"adUnitID": NATIVE_UNIT, "options": {"adChoicesPosition": "middle"}}, "options.adChoicesPosition"),
        ("loadAd", {"adUnitID": NATIVE_UNIT, "options": {"mediaAspectRatio": "wide"}}, "options.mediaAspectRatio"),
        ("loadAd", {"adUnitID": NATIVE_UNIT, "options": {"numberOfAds": 1.5}}, "options.numberOfAds"),
        ("loadAd", {"adUnitID": NATIVE_UNIT, "request": {"keywords": "a,b"}}, "request.keywords"),
        ("loadAd", {"adUnitID": NATIVE_UNIT, "request": {"isTestRequest": 1}}, "request.isTestRequest"),
        ("loadAd", {"adUnitID": NATIVE_UNIT, "request": {"customTargeting": {"k": 5}}}, "request.customTargeting"),
        ("stringForKey", {"key": "headline"}, "adId"),
        ("stringForKey", {"adId": "x"}, "key"),
        ("stringForKey", {"adId": 5, "key": "headline"}, "adId"),
        ("imageForKey", {"adId": "x", "key": ["icon"]}, "key"),
        ("performClickOnAsset", {"adId": "x"}, "key"),
        ("performClickOnAsset", {"adId": "x", "key": "headline", "openableURLSchemes": "market"}, "openableURLSchemes"),
        ("recordImpression", {}, "adId"),
        ("setCustomClickHandler", {"adId": "x"}, "enabled"),
        ("setCustomClickHandler", {"adId": "x", "enabled": "yes"}, "enabled"),
        ("releaseAd", {"adId": None}, "adId"),
    ],
)
def test_params_that_fail_to_decode_get_invalid_params_naming_the_field(conn, method, params, field):
    resp = conn.request(method, params)
    err = assert_error(resp["error"], -32602)
    assert err["message"].startswith("Invalid params"), err
    assert field in err["message"], f"the message should name {field!r}: {err!r}"
    assert isinstance(err.get("data"), dict) and str(err["data"].get("field", "")).startswith(field), err


def test_a_non_integer_number_of_ads_gets_the_exact_invalid_params_message(conn):
    resp = conn.request("loadAd", {"adUnitID": NATIVE_UNIT, "options": {"numberOfAds": "two"}})
    err = assert_error(resp["error"], -32602, "Invalid params: options.numberOfAds must be an integer")
    assert err["data"]["field"] == "options.numberOfAds", err


def test_params_are_decoded_in_full_before_anything_is_looked_up(conn):
    # An unknown ad unit with a bad option: the option is the error, not the unit.
    resp = conn.request("loadAd", {"adUnitID": "/no/such/unit", "options": {"numberOfAds": "two"}})
    assert_error(resp["error"], -32602)
    # An unknown ad with a missing key: invalid params, not adNotFound.
    resp = conn.request("stringForKey", {"adId": "no-such-ad"})
    assert_error(resp["error"], -32602)
    resp = conn.request("performClickOnAsset", {"adId": "no-such-ad", "key": "headline", "openableURLSchemes": [5]})
    assert_error(resp["error"], -32602)


def test_unknown_extra_params_are_ignored_and_null_optionals_mean_absent(conn):
    result = conn.call(
        "loadAd",
        {
            "adUnitID": NATIVE_UNIT,
            "zzzUnknown": {"nested": [1, 2]},
            "adTypes": None,
            "customNativeAdFormatIDs": None,
            "options": {"numberOfAds": None, "disableImageLoading": None, "alsoUnknown": True},
            "request": None,
        },
    )
    assert [a["headline"] for a in result["ads"]] == ["Flood-It! 2"]


def test_every_documented_option_and_request_field_is_accepted(conn):
    result = conn.call(
        "loadAd",
        {
            "adUnitID": NATIVE_UNIT,
            "adTypes": ["native"],
            "options": {
                "disableImageLoading": False,
                "shouldRequestMultipleImages": False,
                "mediaAspectRatio": "any",
                "adChoicesPosition": "bottomLeft",
                "startMuted": True,
                "customControlsRequested": False,
                "clickToExpandRequested": False,
                "numberOfAds": 1,
            },
            "request": {
                "isTestRequest": True,
                "keywords": ["puzzle", "games"],
                "contentURL": "https://example.com/article",
                "customTargeting": {"section": "games", "tags": ["a", "b"]},
            },
        },
    )
    assert result["ads"][0]["headline"] == "Flood-It! 2"


# ------------------------------------------------------------------------------------------
# Parse errors


def test_invalid_json_gets_parse_error_with_a_null_id_and_the_next_message_works(conn):
    for body in (b'{"jsonrpc":"2.0","id":1,"method":', b"{not json}", b'{"jsonrpc":"2.0","id":1,"method":"x"} trailing',
                 b"{'single':'quotes'}", b'{"a":1,}', b"[1,2"):
        f = reply_to(conn, body)
        assert f.msg["id"] is None, (body, f.msg)
        assert_error(f.msg["error"], -32700, "Parse error")
    assert_still_serving(conn)


@pytest.mark.parametrize(
    "bad",
    [b"\xff\xfe", b"\xc0\xaf", b"\xed\xa0\x80", b"\xe2\x82", b"\xf8\x88\x80\x80\x80", b"\x80"],
    ids=["ff-fe", "overlong", "encoded-surrogate", "truncated-sequence", "five-byte", "lone-continuation"],
)
def test_invalid_utf8_is_a_parse_error_and_the_next_message_works(conn, bad):
    message = b'{"jsonrpc":"2.0","id":"u","method":"stringForKey","params":{"adId":"' + bad + b'","key":"k"}}'
    if conn.framing == "websocket":
        # RFC 6455 (8.1) makes it a protocol error: the connection is failed with 1007.
        conn.send_body(message)
        assert conn.close_code() == 1007
        assert conn.read_until_closed() == []
        return
    f = reply_to(conn, message)
    assert f.msg["id"] is None
    assert_error(f.msg["error"], -32700, "Parse error")
    assert_still_serving(conn)


def test_a_lone_surrogate_escape_never_produces_invalid_utf8_in_the_reply(conn):
    # Either a parse error or a normal reply is fine; the frame parser rejects any reply that is
    # not valid UTF-8 (including encoded surrogates).
    for body in (
        b'{"jsonrpc":"2.0","id":"\\ud800","method":"e2e.noSuchMethod"}',
        b'{"jsonrpc":"2.0","id":"x\\udfffy","method":"e2e.noSuchMethod"}',
        b'{"jsonrpc":"2.0","id":"s","method":"stringForKey","params":{"adId":"\\ud800","key":"headline"}}',
        b'{"jsonrpc":"2.0","id":"s","method":"\\ud800"}',
    ):
        f = reply_to(conn, body)
        f.raw.decode("utf-8")
        if "error" in f.msg and f.msg["error"]["code"] == -32700:
            assert f.msg["id"] is None
    assert_still_serving(conn)


def test_a_valid_surrogate_pair_escape_is_decoded(conn):
    f = reply_to(conn, b'{"jsonrpc":"2.0","id":"\\ud83d\\ude00","method":"e2e.noSuchMethod"}')
    assert f.msg["id"] == "😀"


def test_nan_and_infinity_are_not_json(conn):
    for body in (b'{"jsonrpc":"2.0","id":NaN,"method":"x"}', b'{"jsonrpc":"2.0","id":Infinity,"method":"x"}'):
        f = reply_to(conn, body)
        assert_error(f.msg["error"], -32700, "Parse error")


def test_deep_nesting_within_the_default_limit_is_not_a_parse_error(conn):
    params = {"adUnitID": NATIVE_UNIT, "zzzNested": json.loads("[" * 50 + "]" * 50)}
    resp = conn.request("loadAd", params)
    assert "result" in resp, resp


# ------------------------------------------------------------------------------------------
# Batches


def test_a_batch_is_answered_with_an_array_in_request_order(conn):
    batch = [
        {"jsonrpc": "2.0", "id": 1, "method": "loadAd", "params": {"adUnitID": NATIVE_UNIT}},
        {"jsonrpc": "2.0", "method": UNKNOWN},
        {"jsonrpc": "2.0", "id": "two", "method": UNKNOWN},
        5,
        {"jsonrpc": "1.0", "id": 4, "method": "loadAd"},
        {"jsonrpc": "2.0", "id": 5, "method": "releaseAd", "params": {"adId": "no-such-ad"}},
        {"jsonrpc": "2.0", "id": 6, "method": "loadAd", "params": []},
        {"jsonrpc": "2.0", "id": None, "method": UNKNOWN},
    ]
    conn.send(batch)
    f = conn.next_reply()
    replies = f.msg
    assert isinstance(replies, list) and len(replies) == 7, replies
    assert [r["id"] for r in replies] == [1, "two", None, 4, 5, 6, None]
    assert replies[0]["result"]["ads"][0]["headline"] == "Flood-It! 2"
    assert_error(replies[1]["error"], -32601, "Method not found")
    assert_error(replies[2]["error"], -32600, "Invalid Request")
    assert_error(replies[3]["error"], -32600, "Invalid Request")
    assert_error(replies[4]["error"], 2001)
    assert_error(replies[5]["error"], -32602)
    assert_error(replies[6]["error"], -32601)


def test_batch_replies_keep_request_order_whatever_each_request_costs(conn):
    batch = []
    for i in range(30, 0, -1):
        if i % 3 == 0:
            batch.append({"jsonrpc": "2.0", "id": i, "method": "loadAd",
                          "params": {"adUnitID": NATIVE_UNIT, "options": {"numberOfAds": 3}}})
        else:
            batch.append({"jsonrpc": "2.0", "id": i, "method": UNKNOWN})
    conn.send(batch)
    replies = conn.next_reply().msg
    assert [r["id"] for r in replies] == list(range(30, 0, -1))


def test_a_batch_of_one_request_is_answered_with_an_array_of_one(conn):
    conn.send([{"jsonrpc": "2.0", "id": 1, "method": UNKNOWN}])
    replies = conn.next_reply().msg
    assert isinstance(replies, list) and len(replies) == 1 and replies[0]["id"] == 1


def test_an_empty_batch_gets_a_single_invalid_request(conn):
    f = reply_to(conn, b"[]")
    assert isinstance(f.msg, dict), f"an empty batch gets one object, not an array: {f.msg!r}"
    assert f.msg["id"] is None
    assert_error(f.msg["error"], -32600, "Invalid Request")


@pytest.mark.parametrize("body,count", [(b"[1,2,3]", 3), (b"[[]]", 1), (b'[null,"x",{}]', 3)], ids=["numbers", "nested-empty", "mixed"])
def test_a_batch_of_non_requests_gets_one_invalid_request_per_element(conn, body, count):
    f = reply_to(conn, body)
    assert isinstance(f.msg, list) and len(f.msg) == count, f.msg
    for r in f.msg:
        assert r["id"] is None
        assert_error(r["error"], -32600, "Invalid Request")


def test_an_all_notification_batch_produces_no_output_at_all(conn):
    conn.send([
        {"jsonrpc": "2.0", "method": UNKNOWN},
        {"jsonrpc": "2.0", "method": "releaseAd", "params": {"adId": "no-such-ad"}},
        {"jsonrpc": "2.0", "method": "loadAd", "params": {"adUnitID": NATIVE_UNIT}},
    ])
    conn.send({"jsonrpc": "2.0", "id": "after", "method": UNKNOWN})
    f = conn.next_reply()
    assert isinstance(f.msg, dict) and f.msg.get("id") == "after", f"the batch produced output: {f.msg!r}"


def test_invalid_json_inside_a_batch_gets_a_single_parse_error(conn):
    f = reply_to(conn, b'[{"jsonrpc":"2.0","id":1,"method":"e2e.noSuchMethod"},{"jsonrpc":"2.0","id":2,')
    assert isinstance(f.msg, dict), f.msg
    assert f.msg["id"] is None
    assert_error(f.msg["error"], -32700, "Parse error")
    assert_still_serving(conn)


def test_batch_elements_keep_their_ids_byte_for_byte(conn):
    f = reply_to(conn, b'[{"jsonrpc":"2.0","id":18446744073709551617,"method":"e2e.noSuchMethod"},'
                       b'{"jsonrpc":"2.0","id":2.5,"method":"e2e.noSuchMethod"}]')
    assert raw_id_pattern(b"18446744073709551617").search(f.raw), f.raw
    assert raw_id_pattern(b"2.5").search(f.raw), f.raw


# ------------------------------------------------------------------------------------------
# Framing


@pytest.mark.parametrize("conn", LSP_TRANSPORTS, indirect=True)
def test_content_length_counts_bytes_of_multibyte_text(conn):
    body = dumps({"jsonrpc": "2.0", "id": "é😀", "method": "stringForKey",
                  "params": {"adId": "広告-é😀-\u2028", "key": "headline"}})
    assert len(body) != len(body.decode("utf-8"))
    nxt = request_bytes(b"2")
    conn.send_raw(b"Content-Length: %d\r\n\r\n" % len(body) + body + b"Content-Length: %d\r\n\r\n" % len(nxt) + nxt)
    first = conn.next_reply().msg
    assert first["id"] == "é😀"
    assert_error(first["error"], 2001)
    second = conn.next_reply().msg
    assert second["id"] == 2


@pytest.mark.parametrize("conn", LSP_TRANSPORTS, indirect=True)
@pytest.mark.parametrize("name", [b"content-length", b"CONTENT-LENGTH", b"Content-length", b"cOnTeNt-LeNgTh"])
def test_the_content_length_header_name_is_case_insensitive(conn, name):
    body = request_bytes(b"5")
    conn.send_raw(name + b": %d\r\n\r\n" % len(body) + body)
    assert conn.next_reply().msg["id"] == 5


@pytest.mark.parametrize("conn", LSP_TRANSPORTS, indirect=True)
def test_unknown_headers_are_ignored_before_and_after_content_length(conn):
    body = request_bytes(b"6")
    conn.send_raw(
        b"Content-Type: application/vscode-jsonrpc; charset=utf-8\r\n"
        b"Content-Length: %d\r\n"
        b"X-Trace: abc\r\n\r\n" % len(body) + body
    )
    assert conn.next_reply().msg["id"] == 6


@pytest.mark.parametrize("conn", LSP_TRANSPORTS, indirect=True)
def test_a_content_length_message_split_across_writes_is_reassembled(conn):
    body = request_bytes(b"8", "loadAd", {"adUnitID": NATIVE_UNIT})
    data = b"Content-Length: %d\r\n\r\n" % len(body) + body
    for cut in (3, 15, 17, 19, 40):
        conn.send_raw(data[:cut])
        time.sleep(0.02)
        data = data[cut:]
    conn.send_raw(data)
    f = conn.next_reply()
    assert f.msg["id"] == 8 and "result" in f.msg


@pytest.mark.parametrize("conn", NDJSON_TRANSPORTS, indirect=True)
def test_an_ndjson_message_split_across_writes_is_reassembled(conn):
    data = request_bytes(b"9", "loadAd", {"adUnitID": NATIVE_UNIT}) + b"\n"
    for cut in (1, 10, 20):
        conn.send_raw(data[:cut])
        time.sleep(0.02)
        data = data[cut:]
    conn.send_raw(data)
    f = conn.next_reply()
    assert f.msg["id"] == 9 and "result" in f.msg


def test_several_messages_in_one_write_are_all_answered_in_order(conn):
    conn.send_raw(b"".join(conn.frame(request_bytes(str(i).encode())) for i in range(1, 6)))
    assert [conn.next_reply().msg["id"] for _ in range(5)] == [1, 2, 3, 4, 5]


@pytest.mark.parametrize("conn", NDJSON_TRANSPORTS, indirect=True)
def test_ndjson_accepts_crlf_line_endings(conn):
    conn.send_raw(request_bytes(b"10") + b"\r\n" + request_bytes(b"11", "loadAd", {"adUnitID": NATIVE_UNIT}) + b"\r\n")
    a, b = conn.next_reply().msg, conn.next_reply().msg
    assert a["id"] == 10 and b["id"] == 11 and "result" in b


@pytest.mark.parametrize("conn", NDJSON_TRANSPORTS, indirect=True)
def test_ndjson_replies_are_single_lines_ending_in_newline(conn):
    conn.send({"jsonrpc": "2.0", "id": 12, "method": "loadAd",
               "params": {"adUnitID": NATIVE_UNIT, "options": {"numberOfAds": 3}}})
    f = conn.next_reply()
    assert b"\n" not in f.raw and f.msg["id"] == 12


def test_a_tcp_connection_may_start_with_whitespace_before_its_first_ndjson_message(tcp_server):
    c = tcp_server.connect("ndjson", sync=False)
    try:
        c.send_raw(b"\r\n \n\t" + request_bytes(b"1") + b"\n")
        f = c.next_reply()
        assert f.msg["id"] == 1
    finally:
        c.close()


def test_framing_is_detected_per_connection(tcp_server):
    a = tcp_server.connect("lsp", sync=False)
    b = tcp_server.connect("ndjson", sync=False)
    try:
        a.send_body(request_bytes(b"1"))
        b.send_body(request_bytes(b"2"))
        assert a.next_reply().msg["id"] == 1  # parsed as Content-Length frames
        assert b.next_reply().msg["id"] == 2  # parsed as lines
    finally:
        a.close()
        b.close()


@pytest.mark.parametrize(
    "header",
    [
        b"Content-Length: abc\r\n\r\n",
        b"Content-Length: 12abc\r\n\r\n",
        b"Content-Length: -5\r\n\r\n",
        b"Content-Length: \r\n\r\n",
        b"Content-Type: application/json\r\n\r\n",
    ],
    ids=["alpha", "digits-then-alpha", "negative", "empty", "missing"],
)
def test_a_broken_content_length_header_gets_a_parse_error_and_closes_only_that_connection(tcp_server, header):
    bad = tcp_server.connect("lsp", sync=False)
    good = tcp_server.connect("lsp")
    try:
        # Only the header block: unread bytes left behind at close could turn the close into a
        # reset that races the error reply.
        bad.send_raw(header)
        frames = bad.read_until_closed()
        assert frames, "the broken header got no reply before the close"
        assert frames[0].msg["id"] is None
        assert_error(frames[0].msg["error"], -32700, "Parse error")
        assert_still_serving(good)
    finally:
        bad.close()
        good.close()


def test_a_closed_connection_does_not_stop_the_server(tcp_server):
    c = tcp_server.connect("ndjson")
    c.send_raw(request_bytes(b"1", "loadAd", {"adUnitID": NATIVE_UNIT})[:20])  # half a message
    c.close()
    d = tcp_server.connect("ndjson")
    try:
        assert_still_serving(d)
    finally:
        d.close()


def test_a_peer_that_resets_mid_reply_does_not_stop_the_server(tcp_server):
    s = socket.create_connection((tcp_server.host, tcp_server.port))
    s.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))  # RST on close
    s.sendall(b"".join(frame_body("ndjson", request_bytes(str(i).encode(), "loadAd",
                                                           {"adUnitID": NATIVE_UNIT})) for i in range(200)))
    s.close()
    d = tcp_server.connect("ndjson")
    try:
        assert_still_serving(d)
    finally:
        d.close()


def test_every_reply_has_jsonrpc_2_0_and_exactly_one_of_result_and_error(conn):
    # The connection helper checks this on every reply; this test makes it explicit.
    resp = conn.request("loadAd", {"adUnitID": NATIVE_UNIT})
    assert resp["jsonrpc"] == "2.0" and "result" in resp and "error" not in resp
    resp = conn.request(UNKNOWN)
    assert resp["jsonrpc"] == "2.0" and "error" in resp and "result" not in resp
