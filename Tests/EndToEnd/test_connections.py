"""Several connections at once, routing of replies and events, pipelining and backpressure."""
from __future__ import annotations

import json
import math
import socket
import threading
import time

import os

import pytest

from e2e_support import (
    ADMOB_UNIT,
    BACKFILL_UNIT,
    FLEET_REDIS,
    NATIVE_UNIT,
    WAIT,
    assert_ad_not_found,
    assert_error,
    dumps,
    frame_body,
    load_custom,
    load_one,
    tcp_queues,
    wait_until,
)


def test_two_tcp_clients_and_stdio_each_receive_only_their_own_replies_and_events(server_factory):
    srv = server_factory(stdio=True, tcp=True, framing="ndjson")
    a = srv.connect("ndjson", name="A")
    b = srv.connect("lsp", name="B")
    s = srv.stdio
    s.sync()
    plan = [(a, NATIVE_UNIT, "Flood-It! 2"), (b, BACKFILL_UNIT, "Backfill Puzzle Quest"),
            (s, ADMOB_UNIT, "Test Ad: Google Mobile Ads Video")]
    # The same ids on every connection, all written before any reply is read.
    for c, unit, _ in plan:
        c.send({"jsonrpc": "2.0", "id": 1, "method": "loadAd", "params": {"adUnitID": unit}})
    ad_ids = {}
    for c, _, headline in plan:
        resp = c.wait_reply(1)
        assert resp["result"]["ads"][0]["headline"] == headline, (c.name, resp)
        ad_ids[c.name] = resp["result"]["ads"][0]["adId"]
    for c, _, _ in plan:
        c.send({"jsonrpc": "2.0", "id": 2, "method": "recordImpression", "params": {"adId": ad_ids[c.name]}})
        c.send({"jsonrpc": "2.0", "id": 3, "method": "performClickOnAsset",
                "params": {"adId": ad_ids[c.name], "key": "headline"}})
    for c, _, _ in plan:
        assert c.wait_reply(2)["result"] == {"recorded": True}
        assert c.wait_reply(3)["result"]["recorded"] is True
        c.wait_notification("adEvent", lambda p, c=c: p["adId"] == ad_ids[c.name] and p["event"] == "didRecordClick")
    for c, _, _ in plan:
        c.barrier()
        foreign = [e for e in c.ad_events() if e["adId"] != ad_ids[c.name]]
        assert foreign == [], f"{c.name} received another connection's events: {foreign!r}"
        own = [e["event"] for e in c.ad_events(ad_ids[c.name])]
        assert own == ["didRecordImpression", "didRecordClick", "willPresentScreen"], (c.name, own)
        assert c._stash == [], f"{c.name} received replies that were not its own: {c._stash!r}"


def test_an_ad_loaded_on_one_connection_reports_its_events_to_that_connection(server_factory):
    srv = server_factory(stdio=False, tcp=True)
    a = srv.connect("ndjson", name="A")
    b = srv.connect("ndjson", name="B")
    ad = load_one(a, NATIVE_UNIT)
    own = load_one(b, BACKFILL_UNIT)
    assert b.call("stringForKey", adId=ad["adId"], key="headline") == "Flood-It! 2"
    assert b.call("performClickOnAsset", adId=ad["adId"], key="headline")["recorded"] is True
    assert b.call("recordImpression", adId=ad["adId"]) == {"recorded": True}
    event = a.wait_notification("adEvent", lambda p: p["adId"] == ad["adId"] and p["event"] == "didRecordClick")
    assert event["assetKey"] == "headline"
    a.wait_notification("adEvent", lambda p: p["adId"] == ad["adId"] and p["event"] == "didRecordImpression")
    # B's own event comes after anything misrouted to B for A's ad.
    b.call("recordImpression", adId=own["adId"])
    b.wait_notification("adEvent", lambda p: p["adId"] == own["adId"])
    assert b.ad_events(ad["adId"]) == [], "events went to the clicking connection, not the loading one"
    # And A's impression was recorded once, whoever asked.
    assert a.call("recordImpression", adId=ad["adId"]) == {"recorded": False, "reason": "alreadyRecorded"}


def test_the_custom_click_handler_applies_only_to_the_connection_that_enabled_it(server_factory):
    srv = server_factory(stdio=False, tcp=True)
    a = srv.connect("ndjson", name="A")
    b = srv.connect("lsp", name="B")
    ad = load_custom(a)
    assert a.call("setCustomClickHandler", adId=ad["adId"], enabled=True) == {"enabled": True}
    result = b.call("performClickOnAsset", adId=ad["adId"], key="Headline")
    assert result["action"] == "landingPage" and result["recorded"] is True
    result = a.call("performClickOnAsset", adId=ad["adId"], key="Caption")
    assert result == {"recorded": True, "action": "customClickHandler", "url": None}
    note = a.wait_notification("customClick")
    assert note == {"adId": ad["adId"], "assetID": "Caption"}
    a.wait_notification("adEvent", lambda p: p["adId"] == ad["adId"] and p["assetKey"] == "Headline")
    a.wait_notification("adEvent", lambda p: p["adId"] == ad["adId"] and p["assetKey"] == "Caption")
    a.barrier()
    b.barrier()
    assert [n["params"] for n in a.notifications if n["method"] == "customClick"] == [note]
    assert [n for n in b.notifications if n["method"] in ("customClick", "adEvent")] == []


def test_closing_a_connection_releases_its_ads_and_others_keep_working(server_factory):
    srv = server_factory(stdio=True, tcp=True, framing="lsp")
    a = srv.connect("ndjson", name="A")
    b = srv.connect("ndjson", name="B")
    s = srv.stdio
    s.sync()
    a_ads = [load_one(a, NATIVE_UNIT)["adId"], load_custom(a)["adId"]]
    b_ad = load_one(b, BACKFILL_UNIT)["adId"]
    s_ad = load_one(s, ADMOB_UNIT)["adId"]
    assert b.call("stringForKey", adId=a_ads[0], key="headline") == "Flood-It! 2"
    a.close()

    def released():
        resp = b.request("stringForKey", {"adId": a_ads[0], "key": "headline"})
        return "error" in resp and resp["error"]["code"] == 2001

    wait_until(released, what="the closed connection's ads to be released")
    for ad_id in a_ads:
        assert_ad_not_found(b.error("recordImpression", {"adId": ad_id}))
        assert_ad_not_found(s.error("stringForKey", {"adId": ad_id, "key": "Headline"}))
    assert b.call("stringForKey", adId=b_ad, key="headline") == "Backfill Puzzle Quest"
    assert s.call("stringForKey", adId=s_ad, key="headline") == "Test Ad: Google Mobile Ads Video"
    assert s.call("stringForKey", adId=b_ad, key="headline") == "Backfill Puzzle Quest"
    load_one(b, NATIVE_UNIT)
    load_one(s, NATIVE_UNIT)


def pipelined_request(i: int) -> dict:
    if i % 10 == 0:
        return {"jsonrpc": "2.0", "id": i, "method": "loadAd",
                "params": {"adUnitID": NATIVE_UNIT, "options": {"disableImageLoading": True}}}
    if i % 2 == 0:
        return {"jsonrpc": "2.0", "id": i, "method": "stringForKey", "params": {"adId": "no-such-ad", "key": "k"}}
    return {"jsonrpc": "2.0", "id": i, "method": "e2e.noSuchMethod"}


def test_a_thousand_pipelined_requests_are_all_answered_in_order(conn):
    conn.send_raw(b"".join(conn.frame(dumps(pipelined_request(i))) for i in range(1, 1001)))
    ids = []
    for _ in range(1000):
        f = conn.next_reply()
        ids.append(f.msg["id"])
        if f.msg["id"] % 10 == 0:
            assert "result" in f.msg, f.msg
    assert ids == list(range(1, 1001))


# ------------------------------------------------------------------------------------------
# Backpressure


class _Writer(threading.Thread):
    def __init__(self, sock: socket.socket, data: bytes):
        super().__init__(daemon=True)
        self.sock, self.data = sock, data
        self.sent = 0
        self.done = False
        self.error: Exception | None = None

    def run(self):
        view = memoryview(self.data)
        try:
            while self.sent < len(view):
                n = self.sock.send(view[self.sent : self.sent + 65536])
                self.sent += n
            self.done = True
        except OSError as e:
            self.error = e


def _load_params(pad: str, **options) -> dict:
    params = {"adUnitID": NATIVE_UNIT, "zzzPadding": pad}
    if options:
        params["options"] = options
    return params


def _probe(other, params: dict, count: int = 200) -> tuple[float, int]:
    """Seconds per loadAd and reply size, measured on another connection."""
    start = time.monotonic()
    other.send_raw(b"".join(
        frame_body("ndjson", dumps({"jsonrpc": "2.0", "id": f"probe-{i}", "method": "loadAd", "params": params}))
        for i in range(count)))
    size = 0
    for _ in range(count):
        f = other.next_reply()
        size = max(size, len(f.raw) + 1)
    return (time.monotonic() - start) / count, size


def test_a_client_that_does_not_read_is_throttled_and_later_gets_every_reply_in_order(server_factory):
    srv = server_factory(stdio=False, tcp=True)
    other = srv.connect("ndjson", name="other")
    base_rss = srv.vmrss_kb()
    # Replies without image bytes (~2 KB each): ~20,000 requests give ~40 MB of replies.
    per_request, reply_size = _probe(other, _load_params("x" * 1000, disableImageLoading=True))
    # Size the run: 20,000 requests, fewer if the server is slow (a debug build) or the replies
    # big, with enough request bytes (padding) that kernel buffers cannot absorb them all.
    n = int(min(20000, 5.0 / max(per_request, 1e-6), 60_000_000 // reply_size))
    n = max(n, 1000)
    pad = "x" * max(100, 24_000_000 // n - 150)
    data = b"".join(
        frame_body("ndjson", dumps({"jsonrpc": "2.0", "id": i, "method": "loadAd",
                                    "params": _load_params(pad, disableImageLoading=True)}))
        for i in range(1, n + 1))

    slow = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    slow.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 65536)
    slow.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 65536)
    slow.connect((srv.host, srv.port))
    client_port = slow.getsockname()[1]
    writer = _Writer(slow, data)
    writer.start()
    try:
        # Wait until nothing moves any more (the writer blocked or done, the server idle).
        peak_rss = 0
        last, stable_since = None, time.monotonic()
        deadline = time.monotonic() + WAIT
        while time.monotonic() < deadline:
            peak_rss = max(peak_rss, srv.vmrss_kb())
            state = (writer.sent, writer.done, tcp_queues(srv.port, client_port))
            now = time.monotonic()
            if state != last:
                last, stable_since = state, now
            elif now - stable_since >= 1.0:
                break
            time.sleep(0.1)
        assert writer.error is None, writer.error
        queues = tcp_queues(srv.port, client_port)
        server_unread = queues[1] if queues else 0
        assert not writer.done or server_unread > 0, (
            f"the server read all {n} requests ({len(data)} bytes) while the client read nothing:"
            " it does not stop reading a connection whose replies are not being sent"
        )
        assert peak_rss < 200 * 1024, f"server RSS reached {peak_rss} kB (was {base_rss} kB) while the client was not reading"

        # Another connection is still served.
        assert other.call("loadAd", adUnitID=BACKFILL_UNIT)["ads"][0]["headline"] == "Backfill Puzzle Quest"

        # Now read everything: every reply arrives, in order.
        slow.settimeout(WAIT)
        buf = bytearray()
        expected = 1
        while expected <= n:
            chunk = slow.recv(1 << 20)
            assert chunk, f"connection closed after {expected - 1} of {n} replies"
            buf += chunk
            start = 0
            while True:
                i = buf.find(b"\n", start)
                if i < 0:
                    break
                msg = json.loads(buf[start:i])
                assert msg.get("id") == expected, f"reply {msg.get('id')} arrived where {expected} was due"
                assert "result" in msg, msg
                expected += 1
                start = i + 1
            del buf[:start]
        assert not buf
        writer.join(WAIT)
        assert writer.done
    finally:
        slow.close()


def test_a_connection_over_the_hard_cap_of_unsent_bytes_is_closed_and_others_keep_working(server_factory):
    srv = server_factory(stdio=False, tcp=True, args=[
        "--write-high-water", "290000", "--write-low-water", "100000", "--max-queued-bytes", "300000"])
    other = srv.connect("ndjson", name="other")
    _, reply_size = _probe(other, _load_params("", shouldRequestMultipleImages=True), 20)
    batch_len = max(10, min(1000, math.ceil(4_000_000 / reply_size)))
    batches = max(4, min(200, math.ceil(40_000_000 / (batch_len * reply_size))))
    batch = [{"jsonrpc": "2.0", "id": i, "method": "loadAd",
              "params": {"adUnitID": NATIVE_UNIT, "options": {"shouldRequestMultipleImages": True}}}
             for i in range(batch_len)]
    data = frame_body("ndjson", dumps(batch)) * batches

    slow = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    slow.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 65536)
    slow.connect((srv.host, srv.port))
    writer = _Writer(slow, data)
    writer.start()
    try:
        # Do not read until the server has given up on us (or has nothing left to do).
        last, stable_since = None, time.monotonic()
        deadline = time.monotonic() + WAIT
        while time.monotonic() < deadline:
            state = (writer.sent, writer.done, writer.error is None)
            now = time.monotonic()
            if state != last:
                last, stable_since = state, now
            elif now - stable_since >= 1.0:
                break
            time.sleep(0.1)
        slow.settimeout(WAIT)
        received = 0
        closed = False
        try:
            while True:
                chunk = slow.recv(1 << 20)
                if not chunk:
                    closed = True
                    break
                received += chunk.count(b"\n")
                if received >= batches:
                    break
        except ConnectionResetError:
            closed = True
        assert closed and received < batches, (
            f"the connection stayed open ({received} of {batches} batch replies read) although its unsent"
            " replies exceeded --max-queued-bytes"
        )
        assert other.call("loadAd", adUnitID=NATIVE_UNIT)["ads"][0]["headline"] == "Flood-It! 2"
        fresh = srv.connect("lsp", name="fresh")
        assert_error(fresh.error("e2e.noSuchMethod"), -32601)
    finally:
        slow.close()


@pytest.mark.skipif(bool(FLEET_REDIS), reason="a fleet resolves Redis's host on libuv's thread "
                    "pool, which runs C only (docs/threading.md)")
def test_the_server_runs_on_one_thread_whatever_it_serves(server_factory):
    """docs/threading.md: every Swift object lives on the loop thread, and release builds count
    references without atomic instructions on that promise. After loads, reads, events and
    releases over stdio, TCP, a Unix socket and HTTP, the process still has one thread."""
    from http_support import post_rpc

    srv = server_factory(stdio=True, tcp=True, unix=True, http=True)
    conns = [srv.stdio, srv.connect("ndjson"), srv.connect("lsp"), srv.connect_unix("ndjson")]
    for c in conns:
        c.sync()
        ad = load_one(c)
        c.request("stringForKey", {"adId": ad["adId"], "key": "headline"})
        c.request("recordImpression", {"adId": ad["adId"]})
        c.request("releaseAd", {"adId": ad["adId"]})
    r = post_rpc(srv.http_port, {"jsonrpc": "2.0", "id": 1, "method": "loadAd",
                                 "params": {"adUnitID": NATIVE_UNIT}})
    assert r.status == 200 and r.json()["result"]["ads"], r
    threads = os.listdir(f"/proc/{srv.pid}/task")
    assert threads == [str(srv.pid)], f"{len(threads)} threads: {threads}"
