"""Hostile input and faults (issue 9, item 5).

Every case ends with the server still answering other clients: a well-behaved client, the
*witness*, connects before the hostile input, stays connected throughout, and afterwards runs a
full round (``witness_round``: load, asset, impression, click, the adEvents it was sent and the
event log, release) whose every answer is checked. And every case states a bound on the
server's memory growth, read from /proc/PID/status before and after (``assert_memory_growth``:
RssAnon, the heap, within the bound; VmRSS within the bound plus 8 MiB of file-backed pages).
Cases that repeat their hostile input take it once before the "before" reading, so that the
caches, allocator arenas and code pages it needs are in place and the bound limits the growth
of the repetitions. For scale: the idle debug server holds about 1 MiB of anonymous memory.

Nothing here waits on a sleep: every wait is for a condition, with a bound (WAIT).
"""
from __future__ import annotations

import collections
import os
import signal
import socket
import struct
import threading
import time

import pytest

from e2e_support import (
    LSP_TRANSPORTS,
    NATIVE_UNIT,
    TRANSPORTS,
    WAIT,
    FrameParser,
    RawProcess,
    assert_ad_not_found,
    assert_error,
    assert_memory_growth,
    dumps,
    frame_body,
    open_fd_count,
    pipe_unread_bytes,
    proc_memory_kb,
    raise_fd_limit,
    recv_frames,
    split_transport,
    tcp_queues,
    wait_until,
    witness_round,
)

MiB = 1024  # in kB, the unit of /proc/PID/status


class Arena:
    """A server on stdio (in the hostile transport's framing when that is stdio), TCP and, for
    a unix-* transport, a Unix socket; the witness is connected over TCP in the other framing."""

    def __init__(self, server_factory, transport: str, args=()):
        self.kind, self.framing = split_transport(transport)
        self.srv = server_factory(stdio=True, tcp=True, unix=self.kind == "unix", framing=self.framing, args=args,
                                  spread=False)
        self.witness = self.srv.connect("lsp" if self.framing == "ndjson" else "ndjson", name="witness")
        witness_round(self.witness)
        self.srv.stdio.sync()
        self.before: dict | None = None

    def hostile(self, name: str = "hostile"):
        """The connection the hostile input goes to: the server's stdio, or a new TCP or Unix
        socket one."""
        if self.kind == "stdio":
            return self.srv.stdio
        c = self.srv.connect_to(self.kind, self.framing, name=name, sync=False)
        c.server = self.srv
        return c

    def baseline(self) -> None:
        self.before = proc_memory_kb(self.srv.pid)

    def finish(self, bound_kb: int, why: str) -> None:
        assert self.srv.alive(), f"the server died: {self.srv.describe()}"
        witness_round(self.witness)
        assert self.before is not None, "baseline() was not called"
        assert_memory_growth(self.srv.pid, self.before, bound_kb, why)


def parse_error_without_id(msg) -> dict:
    assert isinstance(msg, dict), f"one error object, not {msg!r}"
    assert msg.get("id", "missing") is None, f"a parse error has \"id\": null: {msg!r}"
    return assert_error(msg["error"], -32700, "Parse error")


def still_answers(c) -> None:
    """The connection itself is still served (the framing resynchronised)."""
    assert_error(c.error("e2e.noSuchMethod"), -32601, "Method not found")


# ------------------------------------------------------------------------------------------
# Nesting 100,000 deep


DEPTH = 100_000


def _request(params_json: bytes, id_token: bytes = b"1", method: bytes = b'"loadAd"') -> bytes:
    return b'{"jsonrpc":"2.0","id":' + id_token + b',"method":' + method + b',"params":' + params_json + b"}"


def deep_arrays(depth: int = DEPTH) -> bytes:
    return b"[" * depth + b"]" * depth


def deep_objects(depth: int = DEPTH) -> bytes:
    return b'{"a":' * depth + b"1" + b"}" * depth


DEEP_SHAPES = {
    "arrays": lambda: deep_arrays(),
    "objects": lambda: deep_objects(),
    "mixed": lambda: b'[{"a":' * (DEPTH // 2) + b"1" + b"}]" * (DEPTH // 2),
    "unterminated": lambda: b"[" * DEPTH,
    "in params": lambda: _request(b'{"adUnitID":' + dumps(NATIVE_UNIT) + b',"zzz":' + deep_arrays() + b"}"),
    "in a batch": lambda: b"[" + _request(b'{"adUnitID":' + dumps(NATIVE_UNIT) + b',"zzz":' + deep_objects() + b"}") + b"]",
    "in the id": lambda: b'{"jsonrpc":"2.0","method":"loadAd","id":' + deep_arrays() + b"}",
}


@pytest.mark.parametrize("transport", TRANSPORTS)
def test_nesting_100000_deep_is_a_parse_error_and_costs_no_memory(server_factory, transport):
    arena = Arena(server_factory, transport)
    c = arena.hostile()
    bodies = {name: make() for name, make in DEEP_SHAPES.items()}

    def one_round():
        for name, body in bodies.items():
            c.send_body(body)
            err = parse_error_without_id(c.next_reply(timeout=WAIT).msg)
            assert "nesting deeper than 128 levels" in str(err.get("data")), (name, err)
        still_answers(c)

    one_round()
    arena.baseline()
    for _ in range(5):
        one_round()
    arena.finish(4 * MiB, "the messages are 200 to 600 kB each and the server holds one at a time (the "
                 "parse stops at depth 128); 5 rounds of 7 would retain 12 MB if each leaked")


# Under the largest depth limit the server accepts (--max-depth 4096: values are materialized
# and written recursively, so the limit is capped), values as deep as it allows are handled,
# and 100,000 levels are still a parse error.
RAISED_DEPTH = ["--max-depth", 4096]
AT_LIMIT = 4090  # value depth that fits under 4096 with the envelope around it
DEEP_ACCEPTED = {
    # name: (message, the id of its reply (None: "id": null, NO_REPLY: never answered),
    #        the error code of the reply (None: a result))
    "unknown loadAd param": (_request(b'{"adUnitID":' + dumps(NATIVE_UNIT) + b',"zzz":' + deep_arrays(AT_LIMIT) + b"}",
                                      b'"deep-1"'), "deep-1", None),
    "customTargeting value": (_request(b'{"adUnitID":' + dumps(NATIVE_UNIT) + b',"request":{"customTargeting":{"k":'
                                       + deep_objects(AT_LIMIT) + b"}}}", b'"deep-2"'), "deep-2", -32602),
    "a deep id": (b'{"jsonrpc":"2.0","method":"loadAd","id":' + deep_arrays(AT_LIMIT) + b"}", None, -32600),
    "a notification's params": (b'{"jsonrpc":"2.0","method":"loadAd","params":{"adUnitID":' + deep_arrays(AT_LIMIT)
                                + b"}}", "NO_REPLY", None),
    "the result of a response": (b'{"jsonrpc":"2.0","id":"native-ads:1","result":' + deep_arrays(AT_LIMIT) + b"}",
                                 "NO_REPLY", None),
    # Shaped like an adapter's answer to a request the server sent: its error.data is
    # materialized (no request with that id is pending here).
    "the error.data of a response": (b'{"jsonrpc":"2.0","id":"native-ads:1","error":{"code":3,"message":"no fill",'
                                     b'"data":' + deep_arrays(AT_LIMIT) + b"}}", "NO_REPLY", None),
    "100,000 deep": (_request(b'{"adUnitID":' + dumps(NATIVE_UNIT) + b',"zzz":' + deep_arrays() + b"}", b'"deep-3"'),
                     None, -32700),
}


@pytest.mark.parametrize("transport", ["tcp-ndjson", "stdio-lsp"])
def test_values_as_deep_as_the_largest_depth_limit_allows_are_handled_and_deeper_ones_refused(server_factory, transport):
    arena = Arena(server_factory, transport, RAISED_DEPTH)
    c = arena.hostile()

    def one_round():
        for name, (body, reply_id, code) in DEEP_ACCEPTED.items():
            c.send_body(body)
            if reply_id == "NO_REPLY":
                # Never answered: a round trip shows that nothing came before its reply.
                c.barrier()
                assert c._stash == [], (name, c._stash)
                continue
            msg = c.next_reply().msg if reply_id is None else c.wait_reply(reply_id)
            assert msg["id"] == reply_id, (name, str(msg)[:500])
            if code is None:
                assert "result" in msg and msg["result"]["ads"], (name, str(msg)[:500])
            else:
                assert_error(msg.get("error"), code)
        still_answers(c)

    one_round()
    arena.baseline()
    for _ in range(3):
        one_round()
    arena.finish(2 * MiB, "the messages are at most 200 kB and the parser's tape at most 4,096 nodes deep "
                 "(kept for the next message); 3 rounds of 7 would retain 1.5 MB of messages if each leaked")


def test_an_adapter_answer_whose_error_data_is_as_deep_as_the_limit_allows_fails_only_that_source(server_factory):
    """The path the depth cap protects: an adapter's error, materialized with its data."""
    arena = Arena(server_factory, "tcp-lsp", RAISED_DEPTH)
    srv = arena.srv
    adapter = srv.connect("ndjson", name="adapter")
    assert adapter.call("mediation.registerAdapter", adapterClassName="E2EDeepData") == {"registered": True}
    unit = "/e2e/deep-waterfall"
    arena.witness.call("store.putAdUnit", adUnit={"id": unit, "creatives": [], "waterfall": [
        {"type": "customEvent", "adapterClassName": "E2EDeepData", "parameter": "p", "eCPM": 1.0, "timeoutMs": 60_000}]})

    def one_load(tag: str):
        arena.witness.send({"jsonrpc": "2.0", "id": tag, "method": "loadAd", "params": {"adUnitID": unit}})
        ask = adapter.next_frame().msg
        assert ask.get("method") == "adapter.loadNativeAd", ask
        adapter.send_body(b'{"jsonrpc":"2.0","id":' + dumps(ask["id"]) + b',"error":{"code":3,"message":"no fill",'
                          b'"data":{"domain":"com.e2e","deep":' + deep_arrays(AT_LIMIT - 3) + b"}}}")
        err = arena.witness.wait_reply(tag)["error"]
        assert err["code"] == 1001 and err["data"]["name"] == "noFill", err
        info = err["data"]["responseInfo"]["adNetworkInfoArray"]
        assert [(i["adNetworkClassName"], i["error"]["code"], i["error"]["domain"]) for i in info] \
            == [("E2EDeepData", 3, "com.e2e")], info

    one_load("warm")
    arena.baseline()
    for n in range(5):
        one_load(f"load-{n}")
    arena.finish(2 * MiB, "each answer's data (4,087 levels, 8 kB of text) is materialized once and dropped")


# ------------------------------------------------------------------------------------------
# Content-Length claims


SMUGGLED = frame_body("lsp", dumps({"jsonrpc": "2.0", "id": "smuggled", "method": "e2e.noSuchMethod"}))


@pytest.mark.parametrize("transport", LSP_TRANSPORTS)
def test_a_content_length_of_64_mib_is_refused_at_once_and_its_body_skipped_unread(server_factory, transport):
    """Over the default 16 MiB limit: -32001 as soon as the header is read, then exactly 64 MiB
    are skipped without being buffered, and nothing in them is taken for a message."""
    arena = Arena(server_factory, transport)
    c = arena.hostile()
    claim = 64 * 1024 * 1024
    # The body is made of well-formed frames: none of them may be answered.
    body = SMUGGLED * (claim // len(SMUGGLED))
    body += b" " * (claim - len(body))
    assert len(body) == claim

    def one_round(tag: str):
        c.send_raw(b"Content-Length: %d\r\n\r\n" % claim)
        first = c.next_reply().msg  # before any byte of the body was sent
        assert first["id"] is None, first
        assert_error(first["error"], -32001, "Message too large")
        view = memoryview(body)
        for i in range(0, claim, 1 << 20):
            c.send_raw(view[i : i + (1 << 20)])
        c.send_body(dumps({"jsonrpc": "2.0", "id": tag, "method": "loadAd", "params": {"adUnitID": NATIVE_UNIT}}))
        after = c.next_reply().msg
        assert after["id"] == tag and after["result"]["ads"], f"the message after the skipped body: {str(after)[:300]}"
        assert c._stash == [] and c.notifications == []

    one_round("warm")
    arena.baseline()
    one_round("after")
    arena.finish(4 * MiB, "the 64 MiB body is skipped as it arrives (a 64 KiB read buffer); buffering it "
                 "would cost 64 MiB")


@pytest.mark.parametrize("transport", LSP_TRANSPORTS)
def test_a_content_length_of_2_63_minus_1_is_refused_and_only_that_connection_is_lost_to_it(server_factory, transport):
    """The largest length that parses: -32001 at once; the connection then skips (forever)."""
    arena = Arena(server_factory, transport)
    arena.baseline()
    c = arena.hostile()
    c.send_raw(b"Content-Length: 9223372036854775807\r\n\r\n" + SMUGGLED * 1000)
    first = c.next_reply().msg
    assert first["id"] is None
    assert_error(first["error"], -32001, "Message too large")
    arena.finish(1 * MiB, "nothing of the claimed body is buffered")
    assert not c._frames, f"a frame inside the skipped body was answered: {c._frames[0].msg!r}"


UNUSABLE_LENGTHS = {
    "2^64": b"18446744073709551616",
    "2^63": b"9223372036854775808",
    "2^64 x 10^10": b"184467440737095516160000000000",
    "-1": b"-1",
    "-64 MiB": b"-67108864",
    "-0": b"-0",
}


@pytest.mark.parametrize("value", list(UNUSABLE_LENGTHS), ids=list(UNUSABLE_LENGTHS))
@pytest.mark.parametrize("transport", LSP_TRANSPORTS)
def test_an_unusable_content_length_is_a_parse_error_and_closes_only_that_connection(server_factory, transport, value):
    """A length that is not a byte count (negative, or beyond any integer) cannot be
    resynchronised: one -32700 with id null, then that connection is closed, whatever follows."""
    arena = Arena(server_factory, transport)
    arena.baseline()
    c = arena.hostile()
    c.send_raw(b"Content-Length: " + UNUSABLE_LENGTHS[value] + b"\r\n\r\n" + SMUGGLED
               + frame_body("lsp", dumps({"jsonrpc": "2.0", "id": 2, "method": "loadAd", "params": {"adUnitID": NATIVE_UNIT}})))
    frames = c.read_until_closed()
    assert len(frames) == 1, f"only the error, nothing after it is read: {[f.msg for f in frames]}"
    parse_error_without_id(frames[0].msg)
    arena.finish(1 * MiB, "one header block")


# ------------------------------------------------------------------------------------------
# Invalid UTF-8


INVALID_UTF8 = {
    "ff": b"\xff",
    "fe ff": b"\xfe\xff",
    "overlong /": b"\xc0\xaf",
    "overlong 3-byte": b"\xe0\x80\xaf",
    "UTF-16 surrogate": b"\xed\xa0\x80",
    "above U+10FFFF": b"\xf4\x90\x80\x80",
    "lone continuation": b"\x80",
    "truncated 2-byte": b"\xc3",
    "truncated 4-byte": b"\xf0\x9f\x98",
}
_UNIT = NATIVE_UNIT.encode()
INVALID_UTF8_PLACES = {
    "a params key": lambda bad: b'{"jsonrpc":"2.0","id":1,"method":"loadAd","params":{"adUnitID":"' + _UNIT + b'","k' + bad + b'":1}}',
    "a top-level key": lambda bad: b'{"jsonrpc":"2.0","id":1,"meth' + bad + b'od":"loadAd"}',
    "a nested key": lambda bad: b'{"jsonrpc":"2.0","id":1,"method":"loadAd","params":{"adUnitID":"' + _UNIT
                                + b'","request":{"customTargeting":{"s' + bad + b'":"v"}}}}',
    "a string value": lambda bad: b'{"jsonrpc":"2.0","id":1,"method":"loadAd","params":{"adUnitID":"' + _UNIT + bad + b'"}}',
    "the method": lambda bad: b'{"jsonrpc":"2.0","id":1,"method":"loadAd' + bad + b'"}',
    "a string id": lambda bad: b'{"jsonrpc":"2.0","id":"x' + bad + b'","method":"e2e.noSuchMethod"}',
    "a notification": lambda bad: b'{"jsonrpc":"2.0","method":"recordImpression","params":{"adId":"' + bad + b'"}}',
    "a batch member": lambda bad: b'[{"jsonrpc":"2.0","id":3,"method":"e2e.noSuchMethod"},{"jsonrpc":"2.0","id":4,"method":"e2e.' + bad + b'"}]',
}


@pytest.mark.parametrize("transport", TRANSPORTS)
def test_invalid_utf8_in_keys_and_string_values_is_a_parse_error_and_the_connection_continues(server_factory, transport):
    """Contract section 2: text that is not valid UTF-8 is -32700, and every reply is valid UTF-8
    (the test's frame parser decodes every reply strictly)."""
    arena = Arena(server_factory, transport)
    c = arena.hostile()
    messages = [(place, seq, make(bad)) for place, make in INVALID_UTF8_PLACES.items() for seq, bad in INVALID_UTF8.items()]
    # Valid UTF-8 beyond ASCII is still fine, in keys and in values.
    valid = {"adUnitID": NATIVE_UNIT, "zzz é 😀 \uffff \U0010ffff": "é 😀 \U0010ffff",
             "request": {"customTargeting": {"sëction": "spört"}}}

    def one_round():
        for place, seq, body in messages:
            c.send_body(body)
            msg = c.next_reply().msg
            assert isinstance(msg, dict), f"{seq} in {place}: one error, not {msg!r}"
            parse_error_without_id(msg)
        assert c.call("loadAd", valid)["ads"]

    one_round()
    arena.baseline()
    for _ in range(10):
        one_round()
    arena.finish(2 * MiB, f"{10 * len(messages)} messages of about 100 bytes, each refused as it is parsed")


@pytest.mark.parametrize("transport", LSP_TRANSPORTS)
def test_invalid_utf8_in_an_ignored_header_does_not_matter(server_factory, transport):
    arena = Arena(server_factory, transport)
    arena.baseline()
    c = arena.hostile()
    body = dumps({"jsonrpc": "2.0", "id": 7, "method": "loadAd", "params": {"adUnitID": NATIVE_UNIT}})
    c.send_raw(b"X-Junk: \xff\xfe\xc0\xaf\r\nContent-Length: %d\r\nX-More: \xed\xa0\x80\r\n\r\n" % len(body) + body)
    assert c.wait_reply(7)["result"]["ads"]
    still_answers(c)
    arena.finish(1 * MiB, "one message")


# ------------------------------------------------------------------------------------------
# Headers without an end


ENDLESS_HEADERS = {
    "one endless line": b"Content-Length: 10\r\nX-Pad: " + b"a" * 20_000,
    "endless lines": b"Content-Length: 10\r\n" + b"X-Pad: a\r\n" * 2000,
    "LF-only line ends": b"Content-Length: 2\n\n{}" * 2000,
    "text, no header at all": b"hello, server " * 1500,
}


@pytest.mark.parametrize("shape", list(ENDLESS_HEADERS), ids=list(ENDLESS_HEADERS))
@pytest.mark.parametrize("transport", LSP_TRANSPORTS)
def test_a_header_block_without_an_end_is_a_parse_error_after_8_kib_and_closes_only_that_connection(
        server_factory, transport, shape):
    arena = Arena(server_factory, transport)
    arena.baseline()
    c = arena.hostile()
    c.send_raw(ENDLESS_HEADERS[shape])
    frames = c.read_until_closed()
    assert len(frames) == 1, [f.msg for f in frames]
    parse_error_without_id(frames[0].msg)
    arena.finish(1 * MiB, "at most 8 KiB of header are held")


def _header_block_of(size: int, body: bytes) -> bytes:
    """A header block of exactly `size` bytes, CRLFCRLF included, declaring `body`."""
    head = b"Content-Length: %d\r\nX-Pad: " % len(body)
    pad = size - len(head) - 4
    assert pad >= 0
    return head + b"a" * pad + b"\r\n\r\n"


@pytest.mark.parametrize("transport", ["tcp-lsp"])
def test_a_header_block_of_exactly_8_kib_is_accepted(server_factory, transport):
    arena = Arena(server_factory, transport)
    arena.baseline()
    c = arena.hostile()
    body = dumps({"jsonrpc": "2.0", "id": 8192, "method": "e2e.noSuchMethod"})
    c.send_raw(_header_block_of(8192, body) + body)
    assert_error(c.wait_reply(8192)["error"], -32601)
    arena.finish(1 * MiB, "one header block")


@pytest.mark.parametrize("transport", ["tcp-lsp"])
def test_a_header_block_one_byte_over_8_kib_is_refused(server_factory, transport):
    """8 KiB is 8,192 bytes, the final CRLFCRLF included (docs/wire-format.md)."""
    arena = Arena(server_factory, transport)
    arena.baseline()
    c = arena.hostile()
    body = dumps({"jsonrpc": "2.0", "id": 8193, "method": "e2e.noSuchMethod"})
    c.send_raw(_header_block_of(8193, body) + body)
    parse_error_without_id(c.next_reply().msg)  # not the -32601 that an accepted frame gets
    assert c.read_until_closed() == []
    arena.finish(1 * MiB, "one header block")


# ------------------------------------------------------------------------------------------
# 100 mid-frame disconnects


def _rst(sock: socket.socket) -> None:
    """Close with a reset (SO_LINGER 0) instead of a FIN."""
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    sock.close()


def _load(id_: int | str, **extra) -> dict:
    return {"jsonrpc": "2.0", "id": id_, "method": "loadAd", "params": dict({"adUnitID": NATIVE_UNIT}, **extra)}


LOAD_LINE = dumps(_load(1)) + b"\n"
LOAD_FRAME = frame_body("lsp", dumps(_load(1)))

# name: (bytes to send, read one reply first?, close with a reset?)
MID_FRAME = {
    "ndjson half a line": (LOAD_LINE[: len(LOAD_LINE) // 2], False, False),
    "ndjson request + half a line": (LOAD_LINE + LOAD_LINE[:30], False, False),
    "ndjson reply read, then half a line, reset": (LOAD_LINE + LOAD_LINE[:30], True, True),
    "ndjson 256 KiB of one line, reset": (b'{"jsonrpc":"2.0","id":1,"method":"x","params":{"p":"' + b"x" * 262144, False, True),
    "ndjson 100 loads + half a line, reset, replies unread": (LOAD_LINE * 100 + LOAD_LINE[:10], False, True),
    "lsp half a header": (b"Content-Len", False, False),
    "lsp header without its blank line": (b"Content-Length: 5\r\n", False, False),
    "lsp header + half the body": (LOAD_FRAME[: len(LOAD_FRAME) - 20], False, False),
    "lsp 1 MiB declared, 256 KiB sent, reset": (b"Content-Length: 1048576\r\n\r\n" + b"x" * 262144, False, True),
    "lsp request + next header, reset, reply unread": (LOAD_FRAME + b"Content-Length: 99\r\n", False, True),
}


def test_100_mid_frame_disconnects_leave_no_trace(server_factory):
    arena = Arena(server_factory, "tcp-ndjson")
    srv = arena.srv
    variants = list(MID_FRAME.items())
    read_ads: list[str] = []

    def one(name: str, data: bytes, read_first: bool, reset: bool) -> None:
        s = socket.create_connection((srv.host, srv.port), timeout=WAIT)
        s.sendall(data)
        if read_first:
            framing = "lsp" if data[:1].isalpha() else "ndjson"
            frames, _ = recv_frames(s, framing, count=1)
            read_ads.append(frames[0].msg["result"]["ads"][0]["adId"])
        (_rst if reset else socket.socket.close)(s)

    fds = open_fd_count(srv.pid)
    for name, (data, read_first, reset) in variants:  # every path once before the baseline
        one(name, data, read_first, reset)
    wait_until(lambda: open_fd_count(srv.pid) <= fds, what="the server to close the warm-up connections")
    arena.baseline()
    for i in range(100):
        name, (data, read_first, reset) = variants[i % len(variants)]
        one(name, data, read_first, reset)
        if i % 25 == 24:
            witness_round(arena.witness)  # served throughout
    wait_until(lambda: open_fd_count(srv.pid) <= fds, what=f"the server to close all 100 connections (fds back to {fds})")
    for ad_id in read_ads:  # ads of closed connections are released
        assert_ad_not_found(arena.witness.error("stringForKey", {"adId": ad_id, "key": "headline"}))
    arena.finish(2 * MiB, "every connection is gone and its buffers with it (a leaked session would keep "
                 "up to 256 KiB of framer buffer: 20 of the 100 sent that much)")


@pytest.mark.parametrize("with_tcp", [False, True], ids=["stdio only", "stdio and tcp"])
@pytest.mark.parametrize("framing", ["ndjson", "lsp"])
def test_stdin_ending_mid_frame_answers_what_was_complete(server_factory, tmp_path, framing, with_tcp):
    """stdin EOF in the middle of a frame: what was complete is answered and flushed; alone the
    process then exits 0, with TCP beside it the process keeps serving."""
    if with_tcp:
        arena = Arena(server_factory, f"stdio-{framing}")
        arena.baseline()
        srv = arena.srv
    else:
        srv = server_factory(stdio=True, framing=framing)
        srv.stdio.sync()
    whole = frame_body(framing, dumps(_load("complete")))
    srv.stdio.send_raw(whole + whole[: len(whole) - 15])
    srv.stdio.close_stdin()
    frames = srv.stdio.read_until_closed()
    assert [f.msg.get("id") for f in frames] == ["complete"], [f.msg for f in frames]
    assert frames[0].msg["result"]["ads"]
    if with_tcp:
        arena.finish(1 * MiB, "one message and a partial one")
    else:
        assert srv.wait() == 0, srv.describe()


# ------------------------------------------------------------------------------------------
# 1,100 connections against --max-connections 1024


def test_1100_connections_against_max_connections_1024(server_factory):
    raise_fd_limit(4096)  # 1,100 sockets here, as many in the server
    arena = Arena(server_factory, "tcp-ndjson", ["--max-connections", 1024])
    srv = arena.srv
    fds = open_fd_count(srv.pid)

    def storm(n: int) -> tuple[int, int]:
        socks = []
        try:
            for i in range(n):
                socks.append(socket.create_connection((srv.host, srv.port), timeout=WAIT))
            # All are open (the witness is one of the 1024): now each sends a request.
            for i, s in enumerate(socks):
                framing = "ndjson" if i % 2 == 0 else "lsp"
                s.sendall(frame_body(framing, dumps({"jsonrpc": "2.0", "id": i, "method": "e2e.noSuchMethod"})))
            served = refused = 0
            for i, s in enumerate(socks):
                framing = "ndjson" if i % 2 == 0 else "lsp"
                frames, _ = recv_frames(s, framing, count=1)  # in the connection's own framing
                msg = frames[0].msg
                if msg["id"] == i:
                    assert_error(msg["error"], -32601, "Method not found")
                    served += 1
                else:
                    assert msg["id"] is None, msg
                    assert_error(msg["error"], -32002, "Too many connections")
                    rest, closed = recv_frames(s, framing)
                    assert closed and rest == [], f"a refused connection is closed after its error: {rest}"
                    refused += 1
            return served, refused
        finally:
            for s in socks:
                s.close()

    def storm_and_wait():
        served, refused = storm(1100)
        assert (served, refused) == (1023, 77), (
            f"with the witness open, 1023 of 1100 are served: got {served} served, {refused} refused")
        wait_until(lambda: open_fd_count(srv.pid) <= fds, timeout=3 * WAIT,
                   what=f"the server to close the 1100 connections (fds back to {fds})")
        witness_round(arena.witness)

    storm_and_wait()  # the first storm sizes the connection tables and allocator arenas
    arena.baseline()
    storm_and_wait()
    storm_and_wait()
    # Back under the limit: a new connection is served again.
    c = srv.connect("lsp", name="after-the-storm")
    witness_round(c)
    c.close()
    arena.finish(1 * MiB, "the first storm grows the heap by some 1.8 MB (1.6 kB per connection) that later "
                 "storms reuse; a leak of the per-connection state would add that much per storm")


# ------------------------------------------------------------------------------------------
# A client that sends loadAd forever and never reads


class ForeverWriter(threading.Thread):
    """Sends `frame` over and over (in bursts of `burst`) until stopped; counts whole frames."""

    def __init__(self, write, frame: bytes, burst: int = 20):
        super().__init__(daemon=True)
        self.write, self.data, self.burst = write, frame * burst, burst
        self.frames_sent = 0
        self.stop = threading.Event()
        self.error: Exception | None = None

    def run(self):
        try:
            while not self.stop.is_set():
                self.write(self.data)
                self.frames_sent += self.burst
        except OSError as e:
            self.error = e


def stop_writer(writer: ForeverWriter, sock: socket.socket) -> None:
    """Stops `writer` and closes its socket, in that order: shut down (which ends a send in
    progress), wait for the writer, and only then close. Closed first, the descriptor could be
    reused by the next socket opened while the writer is still on its way into a send."""
    writer.stop.set()
    try:
        sock.shutdown(socket.SHUT_RDWR)
    except OSError:
        pass
    writer.join(WAIT)
    sock.close()


def wait_until_held_back(writer: ForeverWriter, unread, witness, what: str) -> None:
    """Waits (bounded) until the server has stopped reading: the writer is stuck, the bytes the
    server has not read are not shrinking across three round trips of the witness (each runs
    the server's loop, which reads any connection it is reading from), and there are some."""

    def held_back():
        before = (writer.frames_sent, unread())
        for _ in range(3):
            witness.barrier()
        after = (writer.frames_sent, unread())
        return writer.error is None and before == after and after[1] > 0

    wait_until(held_back, timeout=6 * WAIT, interval=0.01, what=what)
    # Requests read before reading stopped may still be waiting for their replies (in a fleet,
    # on Redis): a witness's rounds take several Redis round trips each, queued behind theirs,
    # so after two of them those replies are written too, and what the server holds is settled.
    for _ in range(2):
        witness_round(witness)


def read_until_writer_done(read_some, writer: ForeverWriter, check) -> int:
    """After writer.stop: reads replies (read_some(timeout) -> the frames that came, raising
    TimeoutError when none did) until the writer has finished its last burst and every frame it
    sent is answered; returns how many replies were read. The short timeout only makes the loop
    look at the writer again; the whole wait is bounded."""
    got = 0
    deadline = time.monotonic() + 6 * WAIT
    while writer.is_alive() or got < writer.frames_sent:
        assert time.monotonic() < deadline, f"{got} replies of {writer.frames_sent} within {6 * WAIT} s"
        try:
            frames = read_some(0.2)
        except TimeoutError:
            continue
        for f in frames:
            check(f)
        got += len(frames)
    return got


@pytest.mark.parametrize("framing", ["ndjson", "lsp"])
def test_a_client_that_sends_load_ad_forever_and_never_reads_is_held_back(server_factory, framing):
    arena = Arena(server_factory, f"tcp-{'lsp' if framing == 'ndjson' else 'ndjson'}")
    srv = arena.srv
    # Replies with images (some kB each); requests padded so that kernel buffers fill with a
    # few thousand of them (the replies to read at the end stay a few tens of MB).
    frame = frame_body(framing, dumps(_load("forever", zzzPadding="p" * 3000, options={"numberOfAds": 2})))
    arena.baseline()
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 65536)
    s.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 65536)
    s.connect((srv.host, srv.port))
    client_port = s.getsockname()[1]
    writer = ForeverWriter(s.sendall, frame)
    writer.start()
    try:
        def unread():
            q = tcp_queues(srv.port, client_port)
            return q[1] if q else 0

        wait_until_held_back(writer, unread, arena.witness, "the server to stop reading the client that never reads")
        held = assert_memory_growth(srv.pid, arena.before, 8 * MiB,
                                    "reading stops above --write-high-water (1 MiB of unsent replies); the server "
                                    "holds that, the rest of one 64 KiB read and a reply in the making; without "
                                    "backpressure it would queue up to --max-queued-bytes (64 MiB)")
        # Still held back, still served: more rounds change nothing.
        for _ in range(5):
            witness_round(arena.witness)
        assert writer.error is None, f"the connection was dropped instead of held back: {writer.error}"
        assert_memory_growth(srv.pid, held, 1 * MiB, "nothing more is read from the held-back client")

        # Now read: every reply arrives, in order, and the writer gets going again until told.
        writer.stop.set()
        parser = FrameParser(framing)

        def read_some(timeout):
            frames, closed = recv_frames(s, framing, count=1, timeout=timeout, parser=parser)
            assert not closed, "the connection closed before every reply was read"
            return frames

        def check(f):
            assert f.msg["id"] == "forever" and len(f.msg["result"]["ads"]) == 2, str(f.msg)[:300]

        got = read_until_writer_done(read_some, writer, check)
        assert got == writer.frames_sent and not parser.buf, (got, writer.frames_sent)
    finally:
        stop_writer(writer, s)
    arena.finish(8 * MiB, "the held-back client is gone; allocator slack of its output buffers may remain")


# ------------------------------------------------------------------------------------------
# SIGTERM with 1,000 replies in flight


def in_flight_args(high_water: int = 32 << 20) -> list:
    """So that every request is read (and every reply produced) before the signal, the server
    may queue `high_water` bytes per connection without pausing its reading: "in flight" is
    then exactly the 1,000 replies, none of them an unread request. The drain deadline is not
    what is tested: it is two minutes."""
    return ["--write-high-water", high_water, "--write-low-water", 1 << 20, "--max-queued-bytes", 2 * high_water,
            "--shutdown-timeout-ms", 120_000]



IN_FLIGHT_PARAMS = {"adUnitID": NATIVE_UNIT, "options": {"numberOfAds": 2, "shouldRequestMultipleImages": True}}


def _tcp_wmem_max() -> int:
    try:
        with open("/proc/sys/net/ipv4/tcp_wmem") as f:
            return int(f.read().split()[2])
    except (OSError, ValueError, IndexError):
        return 4 << 20


PER_CONN = 125
# Each connection is due at least twice what the kernel may buffer for it (the server's send
# queue can grow to tcp_wmem's maximum, 4 MiB by default): so at the signal, half the replies
# or more are still in the server, not in kernel buffers.
BIG_BODY = max(60_000, 2 * _tcp_wmem_max() // PER_CONN)


def put_big_unit(c) -> str:
    """A unit whose ad has a BIG_BODY-byte body: each loadAd reply is that big (spliced from the
    creative's pre-encoded JSON, so cheap to make)."""
    creative = {"id": "e2e-big-1", "kind": "native", "landingPageURL": "https://example.com/big",
                "assets": {"headline": "Big", "body": "b" * BIG_BODY,
                           "images": [{"url": "https://example.com/big.png", "width": 64, "height": 64}]}}
    c.call("store.putCreative", creative=creative)
    c.call("store.putAdUnit", adUnit={"id": "/e2e/big", "creatives": ["e2e-big-1"]})
    return "/e2e/big"


def test_sigterm_with_1000_replies_in_flight_over_8_connections_delivers_every_reply(server_factory):
    srv = server_factory(stdio=False, tcp=True, args=in_flight_args(max(32 << 20, 2 * PER_CONN * BIG_BODY)))
    setup = srv.connect("ndjson", name="setup")
    unit = put_big_unit(setup)
    setup.close()
    per_conn = PER_CONN
    socks = []
    for i in range(8):
        s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        s.connect((srv.host, srv.port))
        socks.append(s)
    framings = ["ndjson" if i % 2 == 0 else "lsp" for i in range(8)]
    for i, s in enumerate(socks):
        s.sendall(b"".join(frame_body(framings[i], dumps({"jsonrpc": "2.0", "id": f"c{i}-{n}", "method": "loadAd",
                                                            "params": {"adUnitID": unit}}))
                           for n in range(per_conn)))

    def queues(s):
        port = s.getsockname()[1]
        return tcp_queues(srv.port, port), tcp_queues(port, srv.port)

    def all_read():
        for s in socks:
            server_side, client_side = queues(s)
            if server_side is None or client_side is None or server_side[1] or client_side[0]:
                return False
        return True

    wait_until(all_read, what="the server to read all 1,000 requests")
    # The replies are really in flight: kernel buffers (the server's send queue, the client's
    # receive queue) hold at most half of what is due on each connection; the rest is still in
    # the server when the signal comes.
    for i, s in enumerate(socks):
        (server_tx, _), (_, client_rx) = queues(s)
        assert server_tx + client_rx <= per_conn * BIG_BODY // 2 + (1 << 20), (
            f"connection {i}: {server_tx + client_rx} bytes in the kernel of {per_conn * BIG_BODY} due")
    srv.signal(signal.SIGTERM)
    results: dict[int, tuple] = {}

    def reader(i: int):
        try:
            results[i] = recv_frames(socks[i], framings[i], timeout=3 * WAIT)
        except Exception as e:  # reported below
            results[i] = ([], e)

    threads = [threading.Thread(target=reader, args=(i,), daemon=True) for i in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(6 * WAIT)
    for i in range(8):
        frames, closed = results.get(i, ([], "no result"))
        assert closed is True, f"connection {i}: {closed}"
        ids = [f.msg.get("id") for f in frames]
        assert ids == [f"c{i}-{n}" for n in range(per_conn)], f"connection {i}: {len(ids)} replies: {ids[:3]}...{ids[-3:]}"
        errors = [f.msg for f in frames if "result" not in f.msg]
        assert not errors, f"connection {i}: {len(errors)} errors: {errors[:2]}"
        assert all(f.msg["result"]["ads"][0]["body"] == "b" * BIG_BODY for f in frames)
    assert srv.wait() == 0, srv.describe()
    for s in socks:
        s.close()


@pytest.mark.parametrize("framing", ["ndjson", "lsp"])
def test_sigterm_with_1000_replies_in_flight_on_stdio_delivers_every_reply(tmp_path, framing):
    p = RawProcess(str(tmp_path), in_flight_args(), tcp=False)
    try:
        data = b"".join(frame_body(framing, dumps({"jsonrpc": "2.0", "id": n, "method": "loadAd",
                                                    "params": IN_FLIGHT_PARAMS})) for n in range(1000))
        writer = threading.Thread(target=p.write_stdin, args=(data,), daemon=True)
        writer.start()
        writer.join(3 * WAIT)
        assert not writer.is_alive(), "the server did not read its stdin"
        wait_until(lambda: p.stdin_unread_bytes() == 0, what="the server to read all 1,000 requests")
        # The pipe holds at most 64 kB of the 14 MB of replies: nearly all are in the server.
        assert pipe_unread_bytes(p.stdout_fd) <= 1 << 20
        p.proc.send_signal(signal.SIGTERM)
        frames, eof = p.read_stdout(framing, timeout=3 * WAIT)
        assert eof
        assert [f.msg.get("id") for f in frames] == list(range(1000)), f"{len(frames)} replies"
        assert all(len(f.msg["result"]["ads"]) == 2 for f in frames)
        assert p.wait() == 0, p.describe()
    finally:
        p.stop()


# ------------------------------------------------------------------------------------------
# stdout a full pipe that nobody reads, while TCP clients are served


@pytest.mark.parametrize("framing", ["ndjson", "lsp"])
def test_a_full_stdout_that_nobody_reads_does_not_stop_tcp_clients(tmp_path, framing):
    p = RawProcess(str(tmp_path))
    try:
        witness = p.connect("lsp", name="witness")
        witness_round(witness)
        before = proc_memory_kb(p.pid)
        writer = ForeverWriter(p.write_stdin, frame_body(framing, dumps(_load("stdin", options={"numberOfAds": 2}))))
        writer.start()
        wait_until_held_back(writer, p.stdin_unread_bytes, witness, "the server to stop reading stdin")
        # TCP clients, both framings, are served in full meanwhile.
        clients = [p.connect(f, name=f"tcp-{f}-{i}") for i, f in enumerate(["ndjson", "lsp", "ndjson", "lsp"])]
        for c in clients:
            c.send_raw(b"".join(c.frame(dumps(_load(f"p{n}", options={"disableImageLoading": True}))) for n in range(100)))
        for c in clients:
            for n in range(100):
                assert c.wait_reply(f"p{n}")["result"]["ads"]
            witness_round(c)
        witness_round(witness)
        assert_memory_growth(p.pid, before, 8 * MiB,
                             "stdio stops being read above --write-high-water (1 MiB) of unsent replies; the rest "
                             "is one 64 KiB read set aside and the TCP clients' round trips")
        # Reading stdout at last: every stdin request was answered, in order.
        writer.stop.set()
        parser = FrameParser(framing)

        def read_some(timeout):
            frames, eof = p.read_stdout(framing, count=1, timeout=timeout, parser=parser)
            assert not eof, "stdout closed before every reply was read"
            return frames

        def check(f):
            assert f.msg["id"] == "stdin" and len(f.msg["result"]["ads"]) == 2, str(f.msg)[:300]

        got = read_until_writer_done(read_some, writer, check)
        assert got == writer.frames_sent and not parser.buf, (got, writer.frames_sent)
        p.close_stdin()
        frames, eof = p.read_stdout(framing)
        assert eof and frames == [], "stdio closes at stdin EOF with nothing more to say"
        assert p.alive(), "with TCP served the process outlives stdio"
        witness_round(witness)
    finally:
        p.stop()


# ------------------------------------------------------------------------------------------
# More faults: SIGTERM while a client never reads, a stdout closed by its reader, silent
# connections over the limit


def test_sigterm_while_a_client_never_reads_exits_0_after_the_drain_deadline_and_others_get_every_reply(server_factory):
    """A connection that never drains cannot hold the process: at --shutdown-timeout-ms it is
    closed and the process exits 0, and a well-behaved client loses no reply. (The deadline's
    length only bounds how long this test waits.)"""
    srv = server_factory(stdio=False, tcp=True, args=["--shutdown-timeout-ms", 300], spread=False)
    witness = srv.connect("lsp", name="witness")
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 65536)
    s.connect((srv.host, srv.port))
    stuck_port = s.getsockname()[1]
    writer = ForeverWriter(s.sendall, frame_body("ndjson", dumps(_load("stuck", zzzPadding="p" * 3000))))
    writer.start()
    try:
        def unread():
            q = tcp_queues(srv.port, stuck_port)
            return q[1] if q else 0

        wait_until_held_back(writer, unread, witness, "the server to stop reading the stuck client")
        good = srv.connect("ndjson", name="good")
        good.send_raw(b"".join(good.frame(dumps(_load(f"g{n}"))) for n in range(100)))
        good_port = good.sock.getsockname()[1]

        def good_read():
            server_side, client_side = tcp_queues(srv.port, good_port), tcp_queues(good_port, srv.port)
            return server_side is not None and client_side is not None and not server_side[1] and not client_side[0]

        wait_until(good_read, what="the server to read the good client's 100 requests")
        srv.signal(signal.SIGTERM)
        assert srv.wait(3 * WAIT) == 0, srv.describe()
        for n in range(100):
            assert good.wait_reply(f"g{n}")["result"]["ads"]
        good.read_until_closed()
    finally:
        stop_writer(writer, s)


def holds_pipe(pid: int, fd_of_ours: int) -> bool:
    """Whether process `pid` has a descriptor on the pipe that our `fd_of_ours` is one end of."""
    target = f"pipe:[{os.fstat(fd_of_ours).st_ino}]"
    for fd in os.listdir(f"/proc/{pid}/fd"):
        try:
            if os.readlink(f"/proc/{pid}/fd/{fd}") == target:
                return True
        except FileNotFoundError:
            pass
    return False


def close_stdio_by_epipe(p: RawProcess, witness) -> None:
    """Closes our end of the server's stdout, then writes requests until the server, failing
    to write their replies (EPIPE), lets go of its end of stdout."""
    target = f"pipe:[{os.fstat(p.stdout_fd).st_ino}]"
    p.proc.stdout.close()  # nobody will ever read stdout again
    request = frame_body("ndjson", dumps(_load("nobody-reads")))

    def let_go():
        if not any(_readlink(p.pid, fd) == target for fd in os.listdir(f"/proc/{p.pid}/fd")):
            return True
        p.write_stdin(request)  # its reply fails with EPIPE
        witness.barrier()
        return False

    wait_until(let_go, what="the server to close its stdout after EPIPE")


def _readlink(pid: int, fd: str) -> str | None:
    try:
        return os.readlink(f"/proc/{pid}/fd/{fd}")
    except FileNotFoundError:
        return None


def test_a_stdout_closed_by_its_reader_ends_stdio_only_and_tcp_is_still_served(tmp_path):
    """EPIPE on stdout is the end of the stdio connection, not of the process (SIGPIPE is
    ignored)."""
    p = RawProcess(str(tmp_path))
    try:
        witness = p.connect("ndjson", name="witness")
        witness_round(witness)
        before = proc_memory_kb(p.pid)
        close_stdio_by_epipe(p, witness)
        assert p.alive(), f"the server died of a closed stdout: {p.describe()}"
        witness_round(witness)
        assert_memory_growth(p.pid, before, 1 * MiB, "a few requests; the stdio session is gone")
    finally:
        p.stop()


@pytest.mark.parametrize("cause", ["unusable Content-Length", "EPIPE on stdout"])
def test_when_the_server_closes_stdio_it_lets_go_of_stdin(tmp_path, cause):
    """Closing the stdio connection while TCP is still served releases stdin too (descriptor 0,
    which libuv never closes itself): the client's writes then fail with EPIPE instead of
    filling a pipe that nobody reads."""
    p = RawProcess(str(tmp_path))
    try:
        witness = p.connect("ndjson", name="witness")
        if cause == "EPIPE on stdout":
            close_stdio_by_epipe(p, witness)
        else:
            p.write_stdin(b"Content-Length: -1\r\n\r\n")
            frames, eof = p.read_stdout("lsp")
            assert eof and len(frames) == 1, [f.msg for f in frames]
            parse_error_without_id(frames[0].msg)
        witness.barrier()  # the close has run its course
        assert p.alive()
        assert not holds_pipe(p.pid, p.stdin_fd), "the server keeps its stdin open after closing the stdio connection"
        with pytest.raises(BrokenPipeError):
            p.write_stdin(b"x")
        witness_round(witness)
    finally:
        p.stop()


@pytest.mark.parametrize("pending", [None, 100], ids=["default 256", "100"])
def test_silent_connections_over_the_limit_are_bounded_by_max_pending_refusals(server_factory, pending):
    """--max-connections bounds what the server holds: of the connections over it that have
    sent nothing yet, at most --max-pending-refusals are kept (to be answered -32002 in their
    framing); further ones are closed at once, without a reply (docs/wire-format.md)."""
    raise_fd_limit(4096)
    args = ["--max-connections", 16] + ([] if pending is None else ["--max-pending-refusals", pending])
    kept = 256 if pending is None else pending
    arena = Arena(server_factory, "tcp-ndjson", args)  # the witness is 1 of the 16
    srv = arena.srv
    fds = open_fd_count(srv.pid)
    arena.baseline()
    socks = []
    try:
        for _ in range(1100):
            socks.append(socket.create_connection((srv.host, srv.port), timeout=WAIT))
        # Every connection is accepted in the end; the server then holds 15 served and `kept` refused.
        wait_until(lambda: open_fd_count(srv.pid) - fds == 15 + kept,
                   what=f"the server to hold 15 + {kept} of the 1100 connections")
        outcomes = collections.Counter()
        for i, s in enumerate(socks):
            framing = "ndjson" if i % 2 == 0 else "lsp"
            try:
                s.sendall(frame_body(framing, dumps({"jsonrpc": "2.0", "id": i, "method": "e2e.noSuchMethod"})))
            except OSError:
                pass  # closed by the server: the reply below is EOF
            frames, closed = _first_frame_or_close(s, framing)
            if not frames:
                assert closed
                outcomes["closed without a reply"] += 1
            elif frames[0].msg["id"] == i:
                assert_error(frames[0].msg["error"], -32601)
                outcomes["served"] += 1
            else:
                assert frames[0].msg["id"] is None
                assert_error(frames[0].msg["error"], -32002, "Too many connections")
                outcomes["refused with -32002"] += 1
        assert outcomes == {"served": 15, "refused with -32002": kept, "closed without a reply": 1100 - 15 - kept}, outcomes
    finally:
        for s in socks:
            s.close()
    wait_until(lambda: open_fd_count(srv.pid) <= fds, what="the connections to close")
    arena.finish(2 * MiB, "the silent connections are gone")


def _first_frame_or_close(s: socket.socket, framing: str) -> tuple[list, bool]:
    """The first frame on a raw socket, or ([], True) when the server closes it first."""
    parser = FrameParser(framing)
    while True:
        s.settimeout(WAIT)
        try:
            chunk = s.recv(65536)
        except ConnectionResetError:
            chunk = b""
        if not chunk:
            assert not parser.buf, f"truncated frame at the close: {bytes(parser.buf)!r}"
            return [], True
        frames = parser.feed(chunk)
        if frames:
            return frames, False
