"""stdio mode (stdin as /dev/null, a regular file, a pipe), clean exits, signals, the command
line, and the purity of stdout."""
from __future__ import annotations

import fcntl
import json
import os
import signal
import socket
import subprocess

import pytest

from e2e_support import (
    ADMOB_UNIT,
    BACKFILL_UNIT,
    BIN,
    NATIVE_UNIT,
    WAIT,
    assert_error,
    dumps,
    frame_body,
    load_custom,
    load_one,
    parse_all,
    request_bytes,
)


def run(args, stdin=subprocess.DEVNULL, input=None, timeout=WAIT):
    try:
        return subprocess.run([BIN, *args], stdin=stdin, input=input, capture_output=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        raise AssertionError(f"native-ads {' '.join(args)} did not exit within {timeout} s") from None


def session(framing: str, count: int) -> tuple[bytes, list]:
    """`count` framed requests and, for each, what its reply must be (id, kind)."""
    data = bytearray()
    expected = []
    for i in range(1, count + 1):
        if i % 5 == 0:
            body = request_bytes(str(i).encode(), "loadAd", {"adUnitID": NATIVE_UNIT,
                                                             "options": {"disableImageLoading": True}})
            expected.append((i, "result"))
        elif i % 5 == 1:
            body = request_bytes(str(i).encode(), "releaseAd", {"adId": "no-such-ad"})
            expected.append((i, 2001))
        elif i % 5 == 2:
            # a notification in between: never answered
            data += frame_body(framing, request_bytes(None, "e2e.noSuchMethod"))
            body = request_bytes(str(i).encode())
            expected.append((i, -32601))
        elif i % 5 == 3:
            body = dumps([{"jsonrpc": "2.0", "id": i, "method": "e2e.noSuchMethod"}])
            expected.append((i, "batch"))
        else:
            body = request_bytes(dumps(f"s{i}"), "loadAd", {"adUnitID": BACKFILL_UNIT})
            expected.append((f"s{i}", "result"))
        data += frame_body(framing, body)
    return bytes(data), expected


def check_session_replies(framing: str, out: bytes, expected: list) -> None:
    frames = parse_all(framing, out)
    assert len(frames) == len(expected), f"{len(frames)} replies for {len(expected)} requests"
    for f, (id, kind) in zip(frames, expected):
        msg = f.msg
        if kind == "batch":
            assert isinstance(msg, list) and msg[0]["id"] == id, msg
            continue
        assert msg["id"] == id, (id, msg)
        if kind == "result":
            assert "result" in msg, msg
        else:
            assert msg["error"]["code"] == kind, msg


def test_stdin_from_dev_null_exits_zero_promptly_without_output():
    p = run(["--stdio"], stdin=subprocess.DEVNULL)
    assert p.returncode == 0, p.stderr[-2000:]
    assert p.stdout == b""


@pytest.mark.parametrize("framing", ["ndjson", "lsp"])
def test_stdin_from_a_regular_file_is_answered_in_order_and_exits_zero(tmp_path, framing):
    data, expected = session(framing, 100)
    path = tmp_path / f"requests.{framing}"
    path.write_bytes(data)
    with open(path, "rb") as f:
        p = run(["--stdio"], stdin=f)
    assert p.returncode == 0, p.stderr[-2000:]
    check_session_replies(framing, p.stdout, expected)


def test_an_empty_regular_file_on_stdin_exits_zero_without_output(tmp_path):
    path = tmp_path / "empty"
    path.write_bytes(b"")
    with open(path, "rb") as f:
        p = run(["--stdio"], stdin=f)
    assert p.returncode == 0 and p.stdout == b""


@pytest.mark.parametrize("framing", ["ndjson", "lsp"])
def test_stdin_eof_on_a_pipe_flushes_every_reply_then_exits_zero(framing):
    data, expected = session(framing, 500)
    p = run(["--stdio"], stdin=None, input=data)  # written in one go, then stdin is closed
    assert p.returncode == 0, p.stderr[-2000:]
    check_session_replies(framing, p.stdout, expected)


def test_the_server_leaves_shared_stdin_and_stdout_in_blocking_mode_at_exit():
    # O_NONBLOCK is a flag of the open file description, which the parent shares with the server.
    in_r, in_w = os.pipe()
    out_r, out_w = os.pipe()
    try:
        proc = subprocess.Popen([BIN, "--stdio"], stdin=in_r, stdout=out_w, stderr=subprocess.DEVNULL)
        os.write(in_w, request_bytes(b"1") + b"\n")
        os.close(in_w)
        in_w = -1
        proc.wait(WAIT)
        assert proc.returncode == 0
        for fd, name in ((in_r, "stdin"), (out_w, "stdout")):
            assert not fcntl.fcntl(fd, fcntl.F_GETFL) & os.O_NONBLOCK, f"{name} left non-blocking after exit"
        os.close(out_w)
        out_w = -1
        out = b""
        while chunk := os.read(out_r, 65536):
            out += chunk
        assert [f.msg["id"] for f in parse_all("ndjson", out)] == [1]
    finally:
        for fd in (in_r, in_w, out_r, out_w):
            if fd >= 0:
                os.close(fd)


def test_stdin_and_stdout_may_be_a_socket():
    ours, theirs = socket.socketpair()
    try:
        proc = subprocess.Popen([BIN, "--stdio"], stdin=theirs, stdout=theirs, stderr=subprocess.DEVNULL)
        theirs.close()
        ours.sendall(request_bytes(b"1", "loadAd", {"adUnitID": NATIVE_UNIT}) + b"\n" + request_bytes(b"2") + b"\n")
        ours.shutdown(socket.SHUT_WR)
        ours.settimeout(WAIT)
        out = b""
        while chunk := ours.recv(65536):
            out += chunk
        assert proc.wait(WAIT) == 0
        frames = parse_all("ndjson", out)
        assert [f.msg["id"] for f in frames] == [1, 2]
        assert frames[0].msg["result"]["ads"][0]["headline"] == "Flood-It! 2"
    finally:
        ours.close()


def test_a_last_request_without_a_trailing_newline_is_answered_at_eof():
    p = run(["--stdio"], stdin=None, input=request_bytes(b"1") + b"\n" + request_bytes(b"2"))
    assert p.returncode == 0
    frames = parse_all("ndjson", p.stdout)
    # The unterminated last line is either answered as a message or dropped, never half-written.
    assert [f.msg["id"] for f in frames] in ([1], [1, 2])


@pytest.mark.parametrize("framing", ["ndjson", "lsp"])
def test_stdout_carries_only_protocol_frames_even_with_debug_logging(server_factory, framing):
    srv = server_factory(stdio=True, framing=framing, args=["--log-level", "debug"])
    c = srv.stdio
    ad = load_one(c, NATIVE_UNIT)
    c.call("recordImpression", adId=ad["adId"])
    c.call("performClickOnAsset", adId=ad["adId"], key="headline")
    custom = load_custom(c)
    c.call("setCustomClickHandler", adId=custom["adId"], enabled=True)
    c.call("performClickOnAsset", adId=custom["adId"], key="Headline")
    c.wait_notification("customClick")
    load_one(c, ADMOB_UNIT)
    c.send_body(b"{broken")
    assert_error(c.next_reply().msg["error"], -32700)
    assert_error(c.error("loadAd", {"adUnitID": "/no/such/unit"}), 1000)
    c.close_stdin()
    c.read_until_closed()  # the frame parser fails on any byte that is not part of a frame
    assert srv.wait() == 0


def test_stdin_eof_while_serving_tcp_closes_only_stdio(server_factory):
    srv = server_factory(stdio=True, tcp=True)
    t = srv.connect("ndjson")
    srv.stdio.sync()
    srv.stdio.close_stdin()
    srv.stdio.read_until_closed()
    assert srv.alive(), "the server exited on stdin EOF although it also serves TCP"
    assert load_one(t, NATIVE_UNIT)["headline"] == "Flood-It! 2"
    second = srv.connect("lsp")
    assert load_one(second, BACKFILL_UNIT)["headline"] == "Backfill Puzzle Quest"
    srv.signal(signal.SIGTERM)
    assert srv.wait() == 0


def test_sigterm_with_replies_in_flight_exits_zero_and_delivers_complete_replies_in_order(server_factory):
    srv = server_factory(stdio=True, tcp=True)
    c = srv.connect("ndjson")
    c.send_raw(b"".join(
        frame_body("ndjson", request_bytes(str(i).encode(), "loadAd", {"adUnitID": NATIVE_UNIT}))
        for i in range(1, 2001)))
    srv.signal(signal.SIGTERM)
    assert srv.wait() == 0
    frames = c.read_until_closed(allow_partial_after_reset=True)
    ids = [f.msg["id"] for f in frames]
    # No truncated reply: closing a socket whose input was not all read makes the kernel send a
    # reset and drop replies already written, so the server must shut down its write side and
    # drain (or wait for the peer to close) before closing.
    assert not c.pending_bytes, (
        f"the stream ends in a truncated reply ({c.pending_bytes} bytes after {len(ids)} complete replies;"
        f" connection {'reset' if c.was_reset else 'closed'}): replies the server had written were lost at exit"
    )
    assert ids == list(range(1, len(ids) + 1)), "replies missing or out of order before the close"
    assert all("result" in f.msg for f in frames)
    assert srv.stdio.received_bytes == 0, "nothing was asked on stdio, so stdout must stay empty"


@pytest.mark.parametrize("modes", [["--stdio"], ["--tcp"], ["--stdio", "--tcp"]], ids=["stdio", "tcp", "both"])
@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT], ids=["SIGTERM", "SIGINT"])
def test_a_signal_on_an_idle_server_exits_zero_promptly(server_factory, modes, sig):
    srv = server_factory(stdio="--stdio" in modes, tcp="--tcp" in modes)
    if "--tcp" in modes:
        c = srv.connect("lsp")
        c.close()
    if "--stdio" in modes:
        srv.stdio.sync()
    srv.signal(sig)
    assert srv.wait() == 0


def test_sigterm_stops_accepting_connections(server_factory):
    srv = server_factory(stdio=False, tcp=True)
    port = srv.port
    srv.signal(signal.SIGTERM)
    assert srv.wait() == 0
    with pytest.raises(OSError):
        socket.create_connection(("127.0.0.1", port), timeout=2).close()


@pytest.mark.parametrize("flag", ["--version", "--help"])
def test_version_and_help_print_to_stdout_and_exit_zero(flag):
    # stdin stays an open pipe: the flag must not start a server that waits for it.
    proc = subprocess.Popen([BIN, flag], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        out, err = proc.communicate(timeout=WAIT)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.communicate()
        raise AssertionError(f"native-ads {flag} did not exit") from None
    assert proc.returncode == 0, err[-2000:]
    text = out.decode("utf-8")
    assert text.strip(), f"{flag} printed nothing on stdout"
    if flag == "--help":
        assert "--stdio" in text and "--tcp" in text, text
    else:
        assert any(ch.isdigit() for ch in text), text
        assert "listening" not in err.decode("utf-8", "replace")


def test_stdin_may_be_a_terminal():
    import pty
    import termios

    master, slave = pty.openpty()
    attrs = termios.tcgetattr(slave)
    attrs[3] &= ~termios.ECHO  # no echo: only the server reads what is typed
    termios.tcsetattr(slave, termios.TCSANOW, attrs)
    try:
        proc = subprocess.Popen([BIN, "--stdio"], stdin=slave, stdout=subprocess.PIPE,
                                stderr=subprocess.DEVNULL)
        os.close(slave)
        slave = -1
        os.write(master, request_bytes(b"1") + b"\n")
        line = proc.stdout.readline()
        assert json.loads(line)["error"]["code"] == -32601
        os.write(master, b"\x04")  # end of input at the start of a line
        assert proc.wait(WAIT) == 0
        assert proc.stdout.read() == b""
    finally:
        os.close(master)
        if slave >= 0:
            os.close(slave)
