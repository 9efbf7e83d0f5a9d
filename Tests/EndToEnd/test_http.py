"""HTTP/1.1 and WebSocket (contract section 9, docs/http.md), against the real binary over raw
sockets: `POST /rpc` (one message or batch a body, 204 for notifications only, ads that outlive
the request), keep-alive and pipelining, chunked bodies, the size limits, the WebSocket at
`GET /rpc` (frames, fragments, ping/pong, close, the protocol errors), the inspector page at
`GET /`, and the Host and Origin checks on every kind of request."""
from __future__ import annotations

import json
import re
import signal
import socket

import pytest

from e2e_support import (
    BACKFILL_UNIT,
    NATIVE_UNIT,
    assert_ad_not_found,
    assert_error,
    dumps,
    get_events,
    load_one,
    wait_until,
    ws_frame,
)
from http_support import (
    ResponseReader,
    WebSocketConn,
    connect,
    http_exchange,
    post_rpc,
    request_bytes,
    ws_key,
    ws_upgrade_bytes,
)

LOAD = {"jsonrpc": "2.0", "id": 1, "method": "loadAd",
        "params": {"adUnitID": NATIVE_UNIT, "options": {"disableImageLoading": True}}}


@pytest.fixture
def http_server(server_factory):
    return server_factory(stdio=False, tcp=True, http=True, spread=False)


def rpc(port, method, id=1, **params):
    return post_rpc(port, {"jsonrpc": "2.0", "id": id, "method": method, "params": params})


# ------------------------------------------------------------------------------------------
# POST /rpc


def test_post_rpc_answers_the_reply_as_the_body(http_server):
    r = post_rpc(http_server.http_port, LOAD)
    assert r.status == 200 and r.header("content-type") == "application/json", r
    reply = r.json()
    assert reply["id"] == 1 and reply["result"]["ads"][0]["headline"] == "Flood-It! 2", reply


def test_a_batch_is_answered_as_an_array_and_notifications_only_get_204(http_server):
    port = http_server.http_port
    r = post_rpc(port, [LOAD, {"jsonrpc": "2.0", "method": "getEvents"},
                        {"jsonrpc": "2.0", "id": "x", "method": "e2e.noSuchMethod"}])
    replies = r.json()
    assert [m["id"] for m in replies] == [1, "x"], replies
    assert_error(replies[1]["error"], -32601)
    for notifications in ({"jsonrpc": "2.0", "method": "getEvents"},
                          [{"jsonrpc": "2.0", "method": "getEvents"}, {"jsonrpc": "2.0", "method": "x"}]):
        r = post_rpc(port, notifications)
        assert r.status == 204 and r.body == b"" and r.header("content-length") is None, r


@pytest.mark.parametrize("body, code, id", [(b'{"jsonrpc":', -32700, None), (b"[]", -32600, None),
                                            (b'{"id":1}', -32600, 1), (b"", -32700, None)])
def test_json_rpc_errors_over_http_are_replies_with_status_200(http_server, body, code, id):
    r = post_rpc(http_server.http_port, body)
    assert r.status == 200, r
    reply = r.json()
    assert reply["id"] == id, reply
    assert_error(reply["error"], code)


def test_ads_loaded_over_http_live_after_the_request_until_released_and_their_events_are_logged(http_server):
    port = http_server.http_port
    ad = post_rpc(port, LOAD).json()["result"]["ads"][0]
    ad_id = ad["adId"]
    assert rpc(port, "stringForKey", adId=ad_id, key="headline").json()["result"] == ad["headline"]
    assert rpc(port, "recordImpression", adId=ad_id).json()["result"] == {"recorded": True}
    tcp = http_server.connect()
    assert [e["event"] for e in get_events(tcp, adId=ad_id)["events"]] == ["didRecordImpression"]
    assert tcp.call("stringForKey", adId=ad_id, key="headline") == ad["headline"]
    assert rpc(port, "releaseAd", adId=ad_id).json()["result"] == {"released": True}
    assert_ad_not_found(tcp.error("stringForKey", adId=ad_id, key="headline"))


def test_keep_alive_and_pipelined_requests_are_answered_in_order(http_server):
    port = http_server.http_port
    data = b"".join(request_bytes("POST", "/rpc", port, body=dumps({"jsonrpc": "2.0", "id": i, "method": "getEvents"}))
                    for i in range(5))
    responses = http_exchange(port, data + request_bytes("GET", "/nowhere", port), count=6)
    assert [r.json()["id"] for r in responses[:5]] == [0, 1, 2, 3, 4]
    assert responses[5].status == 404


def test_a_deferred_reply_holds_the_pipelined_requests_behind_it(http_server, server_factory):
    # A waterfall whose adapter answers only when told: the request behind the load waits.
    from test_mediation import ExternalAdapter, mapped, NEVER
    port = http_server.http_port
    adapter_conn = http_server.connect()
    adapter = ExternalAdapter(adapter_conn, "MyNet", NEVER)
    tcp = http_server.connect()
    tcp.call("store.putAdUnit", adUnit={"id": "/e2e/http-waterfall", "creatives": [], "waterfall": [
        {"type": "customEvent", "adapterClassName": "MyNet", "parameter": "p", "eCPM": 1.0, "timeoutMs": 60_000}]})
    with connect(port) as s:
        s.sendall(request_bytes("POST", "/rpc", port, body=dumps(
            {"jsonrpc": "2.0", "id": "slow", "method": "loadAd", "params": {"adUnitID": "/e2e/http-waterfall"}}))
            + request_bytes("POST", "/rpc", port, body=dumps({"jsonrpc": "2.0", "id": "next", "method": "getEvents"})))
        adapter.wait_loads(1)
        adapter.conn.send({"jsonrpc": "2.0", "id": adapter.requests[0]["id"], "result": {"ad": mapped("late")}})
        reader = ResponseReader(s)
        first, second = reader.read(), reader.read()
    assert first.json()["id"] == "slow" and first.json()["result"]["ads"][0]["headline"] == "late headline"
    assert second.json()["id"] == "next"


def test_connection_close_and_http_1_0_close_after_the_response(http_server):
    port = http_server.http_port
    for data in (request_bytes("POST", "/rpc", port, body=dumps(LOAD), headers={"Connection": "close"}),
                 request_bytes("POST", "/rpc", port, body=dumps(LOAD)).replace(b"HTTP/1.1", b"HTTP/1.0", 1)):
        with connect(port) as s:
            s.sendall(data)
            reader = ResponseReader(s)
            r = reader.read()
            assert r.status == 200 and r.header("connection") == "close", r
            assert reader.closed()


def test_a_chunked_body_is_put_together(http_server):
    port = http_server.http_port
    body = dumps(LOAD)
    chunks = b"".join(b"%x\r\n%s\r\n" % (len(body[i:i + 7]), body[i:i + 7]) for i in range(0, len(body), 7))
    head = (f"POST /rpc HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Type: application/json\r\n"
            "Transfer-Encoding: chunked\r\n\r\n").encode()
    (r,) = http_exchange(port, head + chunks + b"0\r\n\r\n")
    assert r.json()["result"]["ads"][0]["headline"] == "Flood-It! 2"


def test_expect_100_continue_is_answered_before_the_body(http_server):
    port = http_server.http_port
    body = dumps(LOAD)
    with connect(port) as s:
        s.sendall(request_bytes("POST", "/rpc", port, body=b"", headers={"Expect": "100-continue"})
                  .replace(b"Content-Length: 0", b"Content-Length: %d" % len(body)))
        reader = ResponseReader(s)
        assert reader.read().status == 100
        s.sendall(body)
        assert reader.read().json()["id"] == 1


def test_bodies_over_max_message_bytes_and_headers_over_max_header_bytes_are_refused(server_factory):
    srv = server_factory(stdio=False, http=True, args=["--max-message-bytes", 1000, "--max-header-bytes", 2048])
    port = srv.http_port
    big = dumps({"jsonrpc": "2.0", "id": 1, "method": "getEvents", "params": {"pad": "x" * 2000}})
    (r,) = http_exchange(port, request_bytes("POST", "/rpc", port, body=big))
    assert r.status == 413 and r.header("connection") == "close", r
    head = (f"POST /rpc HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Type: application/json\r\n"
            "Transfer-Encoding: chunked\r\n\r\n").encode()
    (r,) = http_exchange(port, head + b"".join(b"64\r\n" + b"x" * 100 + b"\r\n" for _ in range(11)))
    assert r.status == 413, r
    (r,) = http_exchange(port, request_bytes("GET", "/", port, headers={"X-Pad": "p" * 3000}))
    assert r.status == 431, r
    # Within the limits, the same server serves.
    assert post_rpc(port, {"jsonrpc": "2.0", "id": 2, "method": "getEvents"}).json()["id"] == 2


@pytest.mark.parametrize("method, path, content_type, status", [
    ("POST", "/rpc", "text/plain", 415),
    ("PUT", "/rpc", "application/json", 405),
    ("DELETE", "/", None, 405),
    ("GET", "/rpc", None, 426),
    ("GET", "/favicon.ico", None, 404),
    ("GET", "/../etc/passwd", None, 404),
])
def test_what_is_not_served_is_refused_with_the_right_status(http_server, method, path, content_type, status):
    port = http_server.http_port
    body = dumps(LOAD) if content_type else None
    (r,) = http_exchange(port, request_bytes(method, path, port, body=body, content_type=content_type))
    assert r.status == status, r
    if status == 405:
        assert r.header("allow"), r


def test_a_malformed_request_is_answered_400_and_closed(http_server):
    port = http_server.http_port
    with connect(port) as s:
        s.sendall(b"NOT HTTP AT ALL\r\n\r\n")
        reader = ResponseReader(s)
        assert reader.read().status == 400
        assert reader.closed()
    # Others are still served.
    assert post_rpc(port, LOAD).status == 200


# ------------------------------------------------------------------------------------------
# Host and Origin (every kind of request)


def kinds_of_request(port, *, host=None, origin=None):
    headers = {"Origin": origin} if origin else {}
    return {
        "POST /rpc": request_bytes("POST", "/rpc", port, body=dumps(LOAD), host=host, headers=headers),
        "GET /": request_bytes("GET", "/", port, host=host, headers=headers, content_type=None),
        "OPTIONS /rpc": request_bytes("OPTIONS", "/rpc", port, host=host, content_type=None,
                                      headers={**headers, "Access-Control-Request-Method": "POST"}),
        "WebSocket": ws_upgrade_bytes(port, ws_key(), origin=origin, host=host),
    }


@pytest.mark.parametrize("host", ["evil.test", "evil.test:{port}", "127.0.0.1:1", "", "localhost.evil.test:{port}"])
def test_a_host_that_is_not_the_servers_own_is_refused_403(http_server, host):
    port = http_server.http_port
    for kind, data in kinds_of_request(port, host=host.format(port=port)).items():
        (r,) = http_exchange(port, data)
        assert r.status == 403, (kind, r)


@pytest.mark.parametrize("origin", ["http://evil.test", "null", "https://127.0.0.1:{port}",
                                    "http://127.0.0.1:1", "http://localhost.evil.test:{port}"])
def test_an_origin_that_is_not_the_servers_own_is_refused_403(http_server, origin):
    port = http_server.http_port
    for kind, data in kinds_of_request(port, origin=origin.format(port=port)).items():
        (r,) = http_exchange(port, data)
        assert r.status == 403, (kind, r)


def test_the_servers_own_host_and_origin_are_accepted_and_localhost_too(http_server):
    port = http_server.http_port
    for host, origin in [(None, None), (f"localhost:{port}", None), (None, f"http://127.0.0.1:{port}"),
                         (f"localhost:{port}", f"http://localhost:{port}")]:
        requests = kinds_of_request(port, host=host, origin=origin)
        (post,) = http_exchange(port, requests["POST /rpc"])
        assert post.status == 200, (host, origin, post)
        (page,) = http_exchange(port, requests["GET /"])
        assert page.status == 200, (host, origin, page)
        (upgrade,) = http_exchange(port, requests["WebSocket"])
        assert upgrade.status == 101, (host, origin, upgrade)


def test_allow_origin_admits_another_origin_with_cors_headers(server_factory):
    srv = server_factory(stdio=False, http=True, args=["--allow-origin", "http://localhost:3000"])
    port = srv.http_port
    requests = kinds_of_request(port, origin="http://localhost:3000")
    (post,) = http_exchange(port, requests["POST /rpc"])
    assert post.status == 200 and post.header("access-control-allow-origin") == "http://localhost:3000", post
    (preflight,) = http_exchange(port, requests["OPTIONS /rpc"])
    assert preflight.status == 204, preflight
    assert "POST" in preflight.header("access-control-allow-methods"), preflight
    assert "content-type" in preflight.header("access-control-allow-headers").lower(), preflight
    (upgrade,) = http_exchange(port, requests["WebSocket"])
    assert upgrade.status == 101, upgrade
    (other,) = http_exchange(port, kinds_of_request(port, origin="http://localhost:3001")["POST /rpc"])
    assert other.status == 403, other


# ------------------------------------------------------------------------------------------
# The WebSocket at GET /rpc


def test_a_websocket_is_a_json_rpc_connection_with_notifications(http_server):
    ws = WebSocketConn(http_server.http_port)
    ad = load_one(ws, NATIVE_UNIT)
    assert ws.call("recordImpression", adId=ad["adId"]) == {"recorded": True}
    assert ws.wait_notification("adEvent")["event"] == "didRecordImpression"
    # A batch in one frame, answered in one frame.
    ws.send([{"jsonrpc": "2.0", "id": "a", "method": "getEvents"}, {"jsonrpc": "2.0", "id": "b", "method": "x"}])
    replies = ws.next_reply().msg
    assert [r["id"] for r in replies] == ["a", "b"], replies
    ws.close()


def test_the_ads_of_a_websocket_are_released_when_it_closes(http_server):
    ws = WebSocketConn(http_server.http_port)
    ad_id = load_one(ws, NATIVE_UNIT)["adId"]
    tcp = http_server.connect()
    assert tcp.call("stringForKey", adId=ad_id, key="headline")
    ws.close()
    wait_until(lambda: "error" in tcp.request("stringForKey", {"adId": ad_id, "key": "headline"}),
               what="the WebSocket's ad to be released")


def test_a_fragmented_message_with_a_ping_between_its_fragments_is_one_message(http_server):
    ws = WebSocketConn(http_server.http_port)
    body = dumps({"jsonrpc": "2.0", "id": 7, "method": "getEvents"})
    ws.send_raw(ws_frame(0x1, body[:5], fin=False) + ws_frame(0x0, body[5:12], fin=False)
                + ws_frame(0x9, b"hello") + ws_frame(0x0, body[12:]))
    assert ws.wait_reply(7)["result"]["events"] == []
    assert ws.wait_control(0xA) == b"hello"
    ws.close()


def test_a_close_frame_is_answered_and_the_connection_closes(http_server):
    ws = WebSocketConn(http_server.http_port)
    ws.send_close(1000)
    assert ws.close_code() == 1000
    assert ws.read_until_closed() == []
    ws.close()


@pytest.mark.parametrize("frame, code", [
    (ws_frame(0x1, b'{"jsonrpc":"2.0","id":1,"method":"getEvents"}', mask=False), 1002),
    (ws_frame(0x2, b"binary"), 1003),
    (ws_frame(0x1, b'"\xff\xfe"'), 1007),
    (ws_frame(0x0, b"continuation without a start"), 1002),
    (ws_frame(0x9, b"x" * 126), 1002),
    (ws_frame(0x9, b"fragmented ping", fin=False), 1002),
    (ws_frame(0x1, b"{}", rsv=4), 1002),
    (ws_frame(0x3, b""), 1002),
    (ws_frame(0x1, b"[", fin=False) + ws_frame(0x1, b"]"), 1002),
])
def test_a_client_that_breaks_the_websocket_protocol_is_closed_with_its_code(http_server, frame, code):
    ws = WebSocketConn(http_server.http_port)
    ws.send_raw(frame)
    assert ws.close_code() == code
    assert ws.read_until_closed() == []
    ws.close()
    # The server goes on.
    assert post_rpc(http_server.http_port, LOAD).status == 200


def test_a_message_over_the_limit_is_answered_too_large_and_the_websocket_goes_on(server_factory):
    srv = server_factory(stdio=False, http=True, args=["--max-message-bytes", 1000])
    ws = WebSocketConn(srv.http_port)
    big = dumps({"jsonrpc": "2.0", "id": 1, "method": "getEvents", "params": {"pad": "x" * 1500}})
    ws.send_raw(ws_frame(0x1, big[:600], fin=False) + ws_frame(0x0, big[600:]))
    f = ws.next_reply()
    assert_error(f.msg["error"], -32001)
    assert ws.call("getEvents")["events"] == []
    ws.close()


def test_a_websocket_handshake_without_its_headers_is_refused(http_server):
    port = http_server.http_port
    bad = [
        ws_upgrade_bytes(port, "short"),
        ws_upgrade_bytes(port, ws_key(), extra={"Sec-WebSocket-Version": "8"}),
    ]
    statuses = [http_exchange(port, data)[0].status for data in bad]
    assert statuses == [400, 426], statuses


def test_shutdown_sends_websocket_clients_a_going_away_close(http_server):
    ws = WebSocketConn(http_server.http_port)
    ws.call("getEvents")
    http_server.signal(signal.SIGTERM)
    assert ws.close_code() == 1001
    assert http_server.wait() == 0
    ws.close()


def test_connections_over_max_connections_get_503(server_factory):
    srv = server_factory(stdio=False, http=True, args=["--max-connections", 1])
    with connect(srv.http_port) as first:
        first.sendall(request_bytes("GET", "/", srv.http_port))
        assert ResponseReader(first).read().status == 200
        (r,) = http_exchange(srv.http_port, request_bytes("GET", "/", srv.http_port))
        assert r.status == 503, r


# ------------------------------------------------------------------------------------------
# The inspector


def test_the_inspector_page_is_served_self_contained(http_server):
    port = http_server.http_port
    (page,) = http_exchange(port, request_bytes("GET", "/", port, content_type=None))
    assert page.status == 200 and page.header("content-type") == "text/html; charset=utf-8", page
    csp = page.header("content-security-policy")
    assert "default-src 'none'" in csp and "connect-src 'self'" in csp, csp
    assert page.body.lstrip().lower().startswith(b"<!doctype html>"), page.body[:100]
    # Nothing fetched from outside: every src and href is a data: URL or a fragment, CSS has no
    # url() but data: and no @import, and the script opens nothing but the server's WebSocket.
    text = page.body.decode()
    assert not re.findall(r"""\b(?:src|href)\s*=\s*["']?(?!data:|#)[^"'\s>]+""", text)
    assert not re.findall(r"""url\(\s*["']?(?!data:)""", text) and "@import" not in text
    assert not re.findall(r"\b(?:fetch|XMLHttpRequest|EventSource|importScripts)\s*\(", text)
    (head,) = http_exchange(port, request_bytes("HEAD", "/", port, content_type=None), head=True)
    assert head.status == 200 and int(head.header("content-length")) == len(page.body), head


def test_inspector_watch_shows_the_live_ads_then_every_load_event_and_release(http_server):
    tcp = http_server.connect()
    before = load_one(tcp, NATIVE_UNIT)
    ws = WebSocketConn(http_server.http_port)
    snapshot = ws.call("inspector.watch")
    assert [a["adId"] for a in snapshot["ads"]] == [before["adId"]], snapshot["ads"]
    assert snapshot["ads"][0]["loadedBy"].startswith("tcp 127.0.0.1:"), snapshot["ads"][0]
    assert snapshot["ads"][0]["adUnitID"] == NATIVE_UNIT, snapshot["ads"][0]
    backfill = load_one(tcp, BACKFILL_UNIT, options={"adChoicesPosition": "bottomLeft"})
    loaded = ws.wait_notification("inspector.adLoaded")["ad"]
    assert loaded["adId"] == backfill["adId"] and loaded["adUnitID"] == BACKFILL_UNIT, loaded
    assert loaded["adChoices"]["position"] == "bottomLeft" and loaded["loadedBy"].startswith("tcp "), loaded
    tcp.call("recordImpression", adId=backfill["adId"])
    event = ws.wait_notification("inspector.event")
    assert (event["adId"], event["event"]) == (backfill["adId"], "didRecordImpression"), event
    post_rpc(http_server.http_port, {"jsonrpc": "2.0", "id": 1, "method": "loadAd", "params": {"adUnitID": "/nowhere"}})
    failed = ws.wait_notification("inspector.loadFailed")
    assert failed["adUnitID"] == "/nowhere" and failed["loadedBy"].startswith("http "), failed
    assert failed["error"]["code"] >= 1000, failed
    tcp.call("releaseAd", adId=backfill["adId"])
    assert ws.wait_notification("inspector.adReleased") == {"adId": backfill["adId"]}
    tcp.call("store.putAdUnit", adUnit={"id": "/e2e/inspected", "creatives": ["native-app-install-1"]})
    assert ws.wait_notification("inspector.storeChanged") == {}
    ws.close()


# ------------------------------------------------------------------------------------------
# What a review found (each test failed before its fix)


def _waterfall_unit(http_server, unit="/e2e/http-review"):
    tcp = http_server.connect()
    tcp.call("store.putAdUnit", adUnit={"id": unit, "creatives": [], "waterfall": [
        {"type": "customEvent", "adapterClassName": "MyNet", "parameter": "p", "eCPM": 1.0, "timeoutMs": 60_000}]})
    return unit


def test_a_deferred_post_answered_inside_another_connections_batch_keeps_both_replies_where_they_belong(http_server):
    from test_mediation import ExternalAdapter, NEVER, mapped
    port = http_server.http_port
    adapter = ExternalAdapter(http_server.connect(), "MyNet", NEVER)
    unit = _waterfall_unit(http_server)
    load = lambda id: dumps({"jsonrpc": "2.0", "id": id, "method": "loadAd", "params": {"adUnitID": unit}})  # noqa: E731
    with connect(port) as s:
        s.sendall(request_bytes("POST", "/rpc", port, body=load("slow1"))
                  + request_bytes("POST", "/rpc", port, body=load("slow2")))
        adapter.wait_loads(1)
        # The adapter's answer comes inside a batch: the HTTP response and the next pipelined
        # request must not be handled in the middle of that batch.
        adapter.conn.send([{"jsonrpc": "2.0", "id": adapter.requests[0]["id"], "result": {"ad": mapped("one")}},
                           {"jsonrpc": "2.0", "id": "after", "method": "getEvents"}])
        replies = adapter.conn.next_reply().msg
        assert [r["id"] for r in replies] == ["after"], replies
        reader = ResponseReader(s)
        assert reader.read().json()["id"] == "slow1"
        adapter.wait_loads(2)
        adapter.conn.send({"jsonrpc": "2.0", "id": adapter.requests[1]["id"], "result": {"ad": mapped("two")}})
        second = reader.read().json()
        assert second["id"] == "slow2" and second["result"]["ads"][0]["headline"] == "two headline", second


def test_a_client_that_goes_away_while_its_post_waits_has_its_load_stopped(http_server):
    from test_mediation import ExternalAdapter, NEVER
    port = http_server.http_port
    adapter = ExternalAdapter(http_server.connect(), "MyNet", NEVER)
    unit = _waterfall_unit(http_server, "/e2e/http-gone")
    s = connect(port)
    s.sendall(request_bytes("POST", "/rpc", port, body=dumps(
        {"jsonrpc": "2.0", "id": 1, "method": "loadAd", "params": {"adUnitID": unit}})))
    adapter.wait_loads(1)
    s.close()
    assert adapter.conn.wait_notification("$/cancelRequest") == {"id": adapter.requests[0]["id"]}


def test_shutdown_while_a_post_waits_answers_it_and_closes(http_server):
    from test_mediation import ExternalAdapter, NEVER, mapped
    port = http_server.http_port
    adapter = ExternalAdapter(http_server.connect(), "MyNet", NEVER)
    unit = _waterfall_unit(http_server, "/e2e/http-shutdown")
    with connect(port) as s:
        s.sendall(request_bytes("POST", "/rpc", port, body=dumps(
            {"jsonrpc": "2.0", "id": 1, "method": "loadAd", "params": {"adUnitID": unit}})))
        adapter.wait_loads(1)
        http_server.signal(signal.SIGTERM)

        def refusing() -> bool:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                return False
            except OSError:
                return True

        # Once the shutdown has begun (no new connection accepted), the load ends one way or
        # the other (the adapter's answer, or its connection closed by the shutdown), and the
        # waiting POST is answered with Connection: close.
        wait_until(refusing, what="the server to stop accepting")
        try:
            adapter.conn.send({"jsonrpc": "2.0", "id": adapter.requests[0]["id"], "result": {"ad": mapped("late")}})
        except OSError:
            pass
        reader = ResponseReader(s)
        r = reader.read()
        assert r.json()["id"] == 1 and r.header("connection") == "close", r
        assert reader.closed()
    assert http_server.wait() == 0


def test_inspector_watch_over_post_is_refused(http_server):
    reply = post_rpc(http_server.http_port, {"jsonrpc": "2.0", "id": 1, "method": "inspector.watch"}).json()
    assert_error(reply["error"], -32600)


def test_head_responses_carry_no_body_whatever_the_status(http_server):
    port = http_server.http_port
    with connect(port) as s:
        s.sendall(request_bytes("HEAD", "/rpc", port, content_type=None)
                  + request_bytes("HEAD", "/nowhere", port, content_type=None)
                  + request_bytes("GET", "/nowhere", port, content_type=None))
        reader = ResponseReader(s)
        assert reader.read(head=True).status == 405
        assert reader.read(head=True).status == 404
        last = reader.read()
        assert last.status == 404 and last.body.startswith(b"no /nowhere"), last


def test_100_continue_is_sent_only_to_the_request_that_asked(http_server):
    port = http_server.http_port
    asked = request_bytes("POST", "/rpc", port, body=dumps(LOAD), headers={"Expect": "100-continue"})
    with connect(port) as s:
        s.sendall(asked)
        reader = ResponseReader(s)
        first = reader.read()
        if first.status == 100:  # the request came whole: a 100 is allowed, not required
            first = reader.read()
        assert first.status == 200
        nxt = request_bytes("GET", "/", port, content_type=None)
        s.sendall(nxt[:10])
        s.sendall(nxt[10:])
        assert reader.read().status == 200


@pytest.mark.parametrize("code", [999, 1004, 1005, 1006, 1015, 2999, 5000])
def test_a_close_with_a_code_no_peer_may_send_is_answered_1002(http_server, code):
    ws = WebSocketConn(http_server.http_port)
    ws.send_raw(ws_frame(0x8, code.to_bytes(2, "big")))
    assert ws.close_code() == 1002
    ws.close()


def test_a_control_frame_announcing_a_long_payload_is_refused_at_its_header(http_server):
    ws = WebSocketConn(http_server.http_port)
    # A ping whose header says 1 MiB: refused at once, not buffered until the bytes come.
    ws.send_raw(bytes([0x89, 0x80 | 127]) + (1 << 20).to_bytes(8, "big") + b"mask")
    assert ws.close_code() == 1002
    ws.close()


def test_http_1_0_closes_even_when_it_asks_for_keep_alive(http_server):
    port = http_server.http_port
    data = request_bytes("POST", "/rpc", port, body=dumps(LOAD), headers={"Connection": "keep-alive"})
    with connect(port) as s:
        s.sendall(data.replace(b"HTTP/1.1", b"HTTP/1.0", 1))
        reader = ResponseReader(s)
        assert reader.read().header("connection") == "close"
        assert reader.closed()


def test_a_chunked_bodys_trailers_are_not_headers(http_server):
    port = http_server.http_port
    body = dumps(LOAD)
    head = (f"POST /rpc HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Type: application/json\r\n"
            "Transfer-Encoding: chunked\r\n\r\n").encode()
    data = head + b"%x\r\n%s\r\n0\r\nOrigin: http://evil.test\r\n\r\n" % (len(body), body)
    (r,) = http_exchange(port, data)
    assert r.status == 200, r
