"""Configurable limits: message size, nesting depth, batch size, connection count."""
from __future__ import annotations

import socket
import time

import pytest

from e2e_support import (
    NATIVE_UNIT,
    TRANSPORTS,
    WAIT,
    FrameParser,
    assert_error,
    dumps,
    request_bytes,
)

LIMIT = 1000


def padded_request(id_token: bytes, size: int) -> bytes:
    """A valid loadAd request of exactly `size` bytes."""
    head = b'{"jsonrpc":"2.0","id":' + id_token + b',"method":"loadAd","params":{"adUnitID":' + dumps(NATIVE_UNIT) + b',"zzzPadding":"'
    tail = b'"}}'
    assert size >= len(head) + len(tail)
    return head + b"x" * (size - len(head) - len(tail)) + tail


@pytest.mark.parametrize("transport", TRANSPORTS)
def test_an_oversized_message_gets_message_too_large_and_the_connection_continues(open_conn, transport):
    c = open_conn(transport, ["--max-message-bytes", LIMIT])
    c.send_body(padded_request(b"1", 3 * LIMIT))
    c.send_body(padded_request(b"2", LIMIT // 2))
    first = c.next_reply().msg
    assert first["id"] is None, first
    assert_error(first["error"], -32001, "Message too large")
    second = c.next_reply().msg
    assert second["id"] == 2 and "result" in second, second


@pytest.mark.parametrize("transport", ["stdio-ndjson", "tcp-ndjson"])
def test_an_oversized_ndjson_line_arriving_in_pieces_is_skipped_to_its_end(open_conn, transport):
    c = open_conn(transport, ["--max-message-bytes", LIMIT])
    big = padded_request(b"1", 5 * LIMIT) + b"\n"
    for i in range(0, len(big), 700):
        c.send_raw(big[i : i + 700])
        time.sleep(0.01)
    c.send_raw(request_bytes(b"2") + b"\n")
    first = c.next_reply().msg
    assert first["id"] is None
    assert_error(first["error"], -32001, "Message too large")
    second = c.next_reply().msg
    assert second["id"] == 2, f"the rest of the oversized line was not skipped: {second!r}"


@pytest.mark.parametrize("transport", ["stdio-lsp", "tcp-lsp"])
def test_an_oversized_content_length_is_refused_and_its_body_skipped(open_conn, transport):
    c = open_conn(transport, ["--max-message-bytes", LIMIT])
    body = padded_request(b"1", 5 * LIMIT)
    # Header first, body later in pieces: the server must skip exactly the declared length.
    c.send_raw(b"Content-Length: %d\r\n\r\n" % len(body))
    for i in range(0, len(body), 1500):
        c.send_raw(body[i : i + 1500])
        time.sleep(0.01)
    c.send_body(request_bytes(b"2", "loadAd", {"adUnitID": NATIVE_UNIT}))
    first = c.next_reply().msg
    assert first["id"] is None
    assert_error(first["error"], -32001, "Message too large")
    second = c.next_reply().msg
    assert second["id"] == 2 and "result" in second, second


@pytest.mark.parametrize("conn", TRANSPORTS, indirect=True)
def test_a_four_megabyte_message_is_accepted_under_the_default_limit(conn):
    conn.send_body(padded_request(b"77", 4 * 1024 * 1024))
    f = conn.next_reply()
    assert f.msg["id"] == 77 and "result" in f.msg, f.msg


@pytest.mark.parametrize("transport", ["stdio-ndjson", "tcp-lsp"])
def test_a_batch_larger_than_max_batch_is_a_single_invalid_request(open_conn, transport):
    c = open_conn(transport, ["--max-batch", 2])
    req = [{"jsonrpc": "2.0", "id": i, "method": "e2e.noSuchMethod"} for i in range(1, 4)]
    c.send(req)
    f = c.next_reply()
    assert isinstance(f.msg, dict), f"an oversized batch gets one object, not an array: {f.msg!r}"
    assert f.msg["id"] is None
    assert_error(f.msg["error"], -32600, "Invalid Request")
    c.send(req[:2])
    replies = c.next_reply().msg
    assert isinstance(replies, list) and [r["id"] for r in replies] == [1, 2]


def nested(depth: int) -> bytes:
    """A request whose params hold arrays nested so that the message is `depth`+2 levels deep."""
    return (b'{"jsonrpc":"2.0","id":1,"method":"loadAd","params":{"adUnitID":' + dumps(NATIVE_UNIT)
            + b',"zzz":' + b"[" * depth + b"]" * depth + b"}}")


@pytest.mark.parametrize("transport", ["stdio-lsp", "tcp-ndjson"])
def test_nesting_deeper_than_max_depth_is_a_parse_error_and_the_server_survives(open_conn, transport):
    c = open_conn(transport, ["--max-depth", 10])
    c.send_body(nested(3))  # 5 levels in all: fine
    ok = c.next_reply().msg
    assert "result" in ok, ok
    c.send_body(nested(50))
    f = c.next_reply().msg
    assert f["id"] is None
    assert_error(f["error"], -32700, "Parse error")
    c.send_body(b"[" * 1000 + b"]" * 1000)
    f = c.next_reply().msg
    assert isinstance(f, dict) and f["id"] is None
    assert_error(f["error"], -32700, "Parse error")
    assert_error(c.error("e2e.noSuchMethod"), -32601)


def test_max_depth_is_at_most_4096():
    import subprocess

    from e2e_support import BIN, WAIT

    p = subprocess.run([BIN, "--max-depth", "4097"], capture_output=True, timeout=WAIT)
    assert p.returncode == 2 and b"--max-depth must be at most 4096" in p.stderr, p.stderr


@pytest.mark.parametrize("transport", ["tcp-ndjson", "stdio-lsp"])
def test_values_as_deep_as_the_largest_depth_limit_are_kept_and_written_without_crashing(open_conn, transport):
    """At --max-depth 4096, what the server materializes and writes again (an adapter's
    error.data, a store document's extra members) may nest 4,094 levels: no stack overflow."""
    c = open_conn(transport, ["--max-depth", 4096])
    deep = b"[" * 4090 + b"]" * 4090
    c.send_body(b'{"jsonrpc":"2.0","id":"native-ads:1","error":{"code":3,"message":"m","data":' + deep + b"}}")
    c.send_body(b'{"jsonrpc":"2.0","id":2,"method":"e2e.noSuchMethod","params":{"x":' + deep + b"}}")
    f = c.next_reply().msg
    assert f["id"] == 2 and f["error"]["code"] == -32601, f
    c.send_body(b"[" * 5000 + b"]" * 5000)
    assert_error(c.next_reply().msg["error"], -32700, "Parse error")
    assert_error(c.error("e2e.noSuchMethod"), -32601)


@pytest.mark.parametrize("transport", ["stdio-ndjson", "tcp-lsp"])
def test_pathological_nesting_is_a_parse_error_under_the_default_depth_limit(open_conn, transport):
    c = open_conn(transport)
    c.send_body(nested(200))
    f = c.next_reply().msg
    assert f["id"] is None
    assert_error(f["error"], -32700, "Parse error")
    for opener, closer in ((b"[", b"]"), (b'{"a":', b"}")):
        c.send_body(opener * 100000 + b"1" + closer * 100000)
        f = c.next_reply(timeout=WAIT).msg
        assert isinstance(f, dict) and f["id"] is None
        assert_error(f["error"], -32700, "Parse error")
    # Unterminated deep nesting too.
    c.send_body(b"[" * 100000)
    f = c.next_reply().msg
    assert_error(f["error"], -32700, "Parse error")
    assert c.server.alive()
    assert_error(c.error("e2e.noSuchMethod"), -32601)


def _read_until_closed(sock: socket.socket, timeout: float = WAIT) -> tuple[bytes, bool]:
    sock.settimeout(timeout)
    data = bytearray()
    try:
        while True:
            chunk = sock.recv(65536)
            if not chunk:
                return bytes(data), True
            data += chunk
    except ConnectionResetError:
        return bytes(data), True
    except socket.timeout:
        return bytes(data), False


def _frames_any_framing(data: bytes):
    framing = "lsp" if data[:1].isalpha() else "ndjson"
    p = FrameParser(framing)
    return p.feed(data)


def test_a_connection_over_max_connections_gets_too_many_connections_and_is_closed(server_factory):
    srv = server_factory(stdio=False, tcp=True, args=["--max-connections", 1])
    first = srv.connect("ndjson", name="first")
    second = socket.create_connection((srv.host, srv.port))
    try:
        second.settimeout(1.0)
        try:
            early = second.recv(65536)
        except socket.timeout:
            early = b""
        rest, closed = b"", False
        if early:
            rest, closed = _read_until_closed(second)
        else:
            # The server may wait for the first bytes to pick a framing.
            try:
                second.sendall(request_bytes(b"1") + b"\n")
            except OSError:
                pass
            rest, closed = _read_until_closed(second)
        data = early + rest
        assert closed, "the connection over the limit was not closed"
        frames = _frames_any_framing(data)
        assert frames, f"no error reply before the close: {data!r}"
        assert frames[0].msg["id"] is None
        assert_error(frames[0].msg["error"], -32002, "Too many connections")
        assert all(f.msg.get("error", {}).get("code") != -32601 for f in frames), "the request was served"
    finally:
        second.close()
    assert_error(first.error("e2e.noSuchMethod"), -32601)
    assert first.call("loadAd", adUnitID=NATIVE_UNIT)["ads"]
    first.close()

    # Once the first connection is gone a new one is accepted.
    def accepted():
        c = srv.connect("ndjson", sync=False)
        try:
            resp = c.request("e2e.noSuchMethod", id="probe")
            return resp["error"]["code"] == -32601
        except Exception:
            return False
        finally:
            c.close()

    deadline = time.monotonic() + WAIT
    while not accepted():
        assert time.monotonic() < deadline, "no connection accepted after the first one closed"
        time.sleep(0.05)
