"""Contract section 8: cancellation, shutdown/exit, --parent-pid and Unix sockets, tried from
outside over every transport and framing.

A request that stays unanswered long enough to cancel is a loadAd of a waterfall unit whose
first source is an external adapter that never answers (MyNet, 5 s timeout, in the mediation
fixture store).
"""
from __future__ import annotations

import os
import signal
import socket
import stat
import subprocess
import time

import pytest

from e2e_support import (
    BIN,
    NATIVE_UNIT,
    NEVER,
    assert_error,
    SERVER_REQUEST_ID,
    SOCKET_TRANSPORTS,
    TRANSPORTS,
    UNIX_TRANSPORTS,
    WAIT,
    ExternalAdapter,
    dumps,
    fill,
    Server,
    UnixConn,
    get_events,
    load_one,
    short_socket_path,
    split_transport,
)
from test_mediation import HOUSE, U_FIRST, mapped, open_pair

CANCELLED = {"code": -32800, "message": "Request cancelled"}


def send_load(conn, unit=U_FIRST, *, id=None):
    id = conn.new_id() if id is None else id
    conn.send({"jsonrpc": "2.0", "id": id, "method": "loadAd", "params": {"adUnitID": unit}})
    return id


def assert_nothing_more(conn):
    """A round trip: nothing but its reply arrives (no late reply, no notification)."""
    conn.send({"jsonrpc": "2.0", "id": "e2e-probe", "method": "e2e.noSuchMethod"})
    frame = conn.next_reply()
    assert frame.msg.get("id") == "e2e-probe", f"something arrived before the probe's reply: {frame.msg!r}"
    assert conn._stash == [] and conn.notifications == [], (conn._stash, conn.notifications)


def pair(server_factory, app_transport):
    """(server, adapter, app): the adapter (MyNet, never answering) on TCP, or on stdio when
    the app is on a socket."""
    adapter_transport = "stdio-ndjson" if split_transport(app_transport)[0] != "stdio" else "tcp-ndjson"
    srv, adapter_conn, app = open_pair(server_factory, adapter_transport, app_transport)
    return srv, ExternalAdapter(adapter_conn, "MyNet", NEVER), app


# ------------------------------------------------------------------------------------------
# $/cancelRequest


@pytest.mark.parametrize("app_transport", TRANSPORTS)
def test_a_cancelled_load_is_answered_32800_at_once_and_its_adapter_is_told(server_factory, app_transport):
    srv, adapter, app = pair(server_factory, app_transport)
    id = send_load(app)
    (asked,) = adapter.wait_loads(1)
    server_id = adapter.requests[0]["id"]
    assert SERVER_REQUEST_ID.match(server_id), server_id
    started = time.monotonic()
    app.notify("$/cancelRequest", {"id": id})
    reply = app.wait_reply(id)
    assert reply["error"] == CANCELLED, reply
    # MyNet's timeout is 5 s: the answer came from the cancellation, not from the waterfall.
    assert time.monotonic() - started < 4.5
    notice = adapter.conn.wait_notification("$/cancelRequest")
    assert notice == {"id": server_id}, notice
    # The adapter answers anyway: nothing changes.
    adapter.conn.send({"jsonrpc": "2.0", "id": server_id, "result": {"ad": mapped("late")}})
    assert_nothing_more(app)
    assert get_events(app)["events"] == []
    assert load_one(app)["headline"]
    assert srv.alive()


@pytest.mark.parametrize("app_transport", ["stdio-ndjson", "tcp-lsp", "unix-ndjson"])
def test_unknown_answered_and_differently_typed_ids_are_ignored(server_factory, app_transport):
    srv, adapter, app = pair(server_factory, app_transport)
    app.call("getEvents")  # answered: id 1, say
    answered_id = app.new_id()
    app.request("getEvents", {}, id=answered_id)
    pending = send_load(app, id="7")
    adapter.wait_loads(1)
    for target in (answered_id, 999, 7, "nope"):  # 7 is a number: the pending id is the string "7"
        app.notify("$/cancelRequest", {"id": target})
    assert_nothing_more(app)
    app.notify("$/cancelRequest", {"id": "7"})
    assert app.wait_reply(pending)["error"] == CANCELLED


def test_a_cancelled_batch_member_is_answered_in_the_batch(server_factory):
    srv, adapter, app = pair(server_factory, "tcp-ndjson")
    app.send([
        {"jsonrpc": "2.0", "id": "slow", "method": "loadAd", "params": {"adUnitID": U_FIRST}},
        {"jsonrpc": "2.0", "id": "fast", "method": "loadAd", "params": {"adUnitID": NATIVE_UNIT}},
    ])
    adapter.wait_loads(1)
    app.notify("$/cancelRequest", {"id": "slow"})
    frame = app.next_reply()
    assert isinstance(frame.msg, list), frame.msg
    by_id = {r["id"]: r for r in frame.msg}
    assert by_id["slow"]["error"] == CANCELLED
    assert by_id["fast"]["result"]["ads"]


def test_closing_the_app_connection_cancels_its_load_on_the_adapter(server_factory):
    srv, adapter, app = pair(server_factory, "tcp-ndjson")
    send_load(app)
    adapter.wait_loads(1)
    server_id = adapter.requests[0]["id"]
    app.close()
    assert adapter.conn.wait_notification("$/cancelRequest") == {"id": server_id}


# ------------------------------------------------------------------------------------------
# shutdown and exit


@pytest.mark.parametrize("framing", ["ndjson", "lsp"])
def test_exit_on_stdio_after_shutdown_ends_the_process_with_status_0(server_factory, framing):
    srv = server_factory(stdio=True, framing=framing)
    c = srv.stdio
    c.send({"jsonrpc": "2.0", "id": 1, "method": "loadAd", "params": {"adUnitID": NATIVE_UNIT}})
    c.send({"jsonrpc": "2.0", "id": 2, "method": "shutdown"})
    c.send({"jsonrpc": "2.0", "method": "exit"})
    c.send({"jsonrpc": "2.0", "id": 3, "method": "getEvents"})  # never read
    assert c.wait_reply(1)["result"]["ads"]
    assert c.wait_reply(2) == {"jsonrpc": "2.0", "id": 2, "result": None}
    assert srv.wait() == 0
    frames = c.read_until_closed()
    assert frames == [], [f.msg for f in frames]


def test_exit_on_stdio_without_shutdown_ends_the_process_with_status_1(server_factory):
    srv = server_factory(stdio=True)
    srv.stdio.notify("exit")
    assert srv.wait() == 1


def test_after_shutdown_requests_are_refused_notifications_ignored_and_work_in_flight_finishes(server_factory):
    srv, adapter_conn, app = open_pair(server_factory, "tcp-ndjson", "stdio-ndjson")
    adapter = ExternalAdapter(adapter_conn, "MyNet", NEVER)
    ad_id = load_one(app)["adId"]
    pending = send_load(app)
    adapter.wait_loads(1)
    assert app.call("shutdown") is None
    refused = app.error("getEvents")
    assert refused["code"] == -32600, refused
    app.notify("recordImpression", {"adId": ad_id})  # ignored
    app.notify("$/cancelRequest", {"id": pending})  # ignored too: the load goes on
    # The load in flight is still answered: the adapter fills it.
    server_id = adapter.requests[0]["id"]
    adapter.conn.send({"jsonrpc": "2.0", "id": server_id, "result": {"ad": mapped("after")}})
    assert app.wait_reply(pending)["result"]["ads"][0]["headline"] == "after headline"
    # Another connection is unaffected, and shows that the impression was not recorded.
    other = srv.connect()
    assert get_events(other, adId=ad_id)["events"] == []
    assert other.call("shutdown") is None
    app.notify("exit")
    assert srv.wait() == 0


@pytest.mark.parametrize("transport", SOCKET_TRANSPORTS)
def test_exit_on_a_socket_closes_that_connection_only(server_factory, transport):
    kind, framing = split_transport(transport)
    srv = server_factory(stdio=False, tcp=True, unix=True)
    leaving = srv.connect_to(kind, framing)
    staying = srv.connect_to(kind, framing)
    assert leaving.call("shutdown") is None
    leaving.notify("exit")
    assert leaving.read_until_closed() == []
    assert load_one(staying)["headline"]
    assert srv.alive()


def test_shutdown_and_the_notifications_are_in_the_openrpc_document():
    import json
    import pathlib

    document = json.loads((pathlib.Path(__file__).resolve().parents[2] / "schemas" / "openrpc.json").read_text())
    methods = {m["name"]: m for m in document["methods"]}
    assert "result" in methods["shutdown"]
    assert "result" not in methods["exit"] and "result" not in methods["$/cancelRequest"]
    assert [p["name"] for p in methods["$/cancelRequest"]["params"]] == ["id"]


# ------------------------------------------------------------------------------------------
# --parent-pid


def spawn_parent():
    """A stand-in for an editor: a process the test ends."""
    return subprocess.Popen(["sleep", "120"])


@pytest.mark.parametrize("stdio", [True, False])
def test_the_server_exits_0_within_a_second_of_its_parent_ending(server_factory, stdio):
    parent = spawn_parent()
    try:
        srv = server_factory(stdio=stdio, tcp=not stdio, args=["--parent-pid", parent.pid])
        c = srv.stdio if stdio else srv.connect()
        assert load_one(c)["headline"]
        c.send({"jsonrpc": "2.0", "id": "last", "method": "loadAd", "params": {"adUnitID": NATIVE_UNIT}})
        parent.kill()  # not reaped yet: a zombie ended as well as a reaped one
        ended = time.monotonic()
        status = srv.wait(timeout=WAIT)
        took = time.monotonic() - ended
        assert status == 0, srv.describe()
        assert took < 1.0, f"the server took {took:.3f} s to notice its parent ended"
        assert c.wait_reply("last")["result"]["ads"], "the reply in flight was flushed"
    finally:
        parent.kill()
        parent.wait()


def test_a_parent_that_is_already_gone_ends_the_server_at_once(server_factory):
    parent = spawn_parent()
    parent.kill()
    parent.wait()
    srv = server_factory(stdio=True, args=["--parent-pid", parent.pid])
    assert srv.wait(timeout=WAIT) == 0


@pytest.mark.parametrize("value", ["0", "-3", "abc", ""])
def test_a_bad_parent_pid_is_a_usage_error(value):
    p = subprocess.run([BIN, "--parent-pid", value], capture_output=True, timeout=WAIT)
    assert p.returncode == 2
    assert b"--parent-pid" in p.stderr


# ------------------------------------------------------------------------------------------
# Unix sockets


def test_the_unix_socket_is_mode_0600_and_removed_at_exit(server_factory):
    srv = server_factory(stdio=False, unix=True)
    path = srv.unix_path
    info = os.stat(path)
    assert stat.S_ISSOCK(info.st_mode)
    assert stat.S_IMODE(info.st_mode) == 0o600, oct(info.st_mode)
    assert f"listening on unix:{path}" in srv.stderr_text()
    assert load_one(srv.connect_unix())["headline"]
    srv.signal(signal.SIGTERM)
    assert srv.wait() == 0
    assert not os.path.exists(path)


def test_exit_on_stdio_removes_the_unix_socket_too(server_factory):
    srv = server_factory(stdio=True, unix=True)
    srv.connect_unix()
    srv.stdio.notify("exit")
    assert srv.wait() == 1
    assert not os.path.exists(srv.unix_path)


def test_a_stale_socket_file_is_replaced(server_factory):
    path = short_socket_path()
    dead = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    dead.bind(path)  # bound, never listening, then closed: what a crashed server leaves
    dead.close()
    assert os.path.exists(path)
    srv = server_factory(stdio=False, unix=path)
    assert load_one(srv.connect_unix())["headline"]


def test_a_socket_in_use_or_another_file_is_an_error(server_factory):
    srv = server_factory(stdio=False, unix=True)
    second = subprocess.run([BIN, "--unix", srv.unix_path], capture_output=True, timeout=WAIT)
    assert second.returncode == 1
    assert b"address already in use" in second.stderr.lower() or b"eaddrinuse" in second.stderr.lower(), second.stderr
    assert load_one(srv.connect_unix())["headline"], "the first server still serves"
    regular = short_socket_path("file.txt")
    with open(regular, "w") as f:
        f.write("keep me")
    third = subprocess.run([BIN, "--unix", regular], capture_output=True, timeout=WAIT)
    assert third.returncode == 1
    assert open(regular).read() == "keep me"


def test_a_socket_path_too_long_is_a_usage_error():
    p = subprocess.run([BIN, "--unix", "/tmp/" + "x" * 120], capture_output=True, timeout=WAIT)
    assert p.returncode == 2
    assert b"--unix" in p.stderr


@pytest.mark.parametrize("framing", ["ndjson", "lsp"])
def test_many_unix_clients_are_served_at_once(server_factory, framing):
    srv = server_factory(stdio=False, unix=True)
    conns = [srv.connect_unix(framing) for _ in range(16)]
    for c in conns:
        c.send({"jsonrpc": "2.0", "id": "x", "method": "loadAd", "params": {"adUnitID": NATIVE_UNIT}})
    ids = {c.wait_reply("x")["result"]["ads"][0]["adId"] for c in conns}
    assert len(ids) == 16


def test_max_connections_counts_unix_and_tcp_connections_together(server_factory):
    srv = server_factory(stdio=False, tcp=True, unix=True, args=["--max-connections", "2"], spread=False)
    srv.connect()
    srv.connect_unix()
    extra = UnixConn(srv.unix_path, "ndjson")
    extra.send({"jsonrpc": "2.0", "id": 1, "method": "getEvents"})
    frames = extra.read_until_closed()
    assert frames and frames[0].msg["error"]["code"] == -32002, [f.msg for f in frames]
    extra.close()


@pytest.mark.parametrize("transport", UNIX_TRANSPORTS)
def test_a_unix_client_that_stops_reading_is_paused_not_buffered(server_factory, transport):
    """Backpressure as on TCP: the server stops reading a connection whose replies pile up, so
    a client that writes without reading is blocked by its socket, not buffered by the server."""
    _, framing = split_transport(transport)
    srv = server_factory(stdio=False, unix=True, args=["--write-high-water", "65536", "--write-low-water", "16384"])
    ad_id = load_one(srv.connect_unix(framing))["adId"]
    before = srv.vmrss_kb()
    body = b'{"jsonrpc":"2.0","id":1,"method":"stringForKey","params":{"adId":"' + ad_id.encode() + b'","key":"headline"}}'
    request = (b"Content-Length: %d\r\n\r\n" % len(body) + body) if framing == "lsp" else body + b"\n"
    raw = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    raw.connect(srv.unix_path)
    raw.settimeout(0.5)
    sent = 0
    limit = 256 * 1024 * 1024
    chunk = request * 256
    try:
        while sent < limit:
            sent += raw.send(chunk)  # blocks (then times out) once the server stops reading
    except (socket.timeout, BlockingIOError):
        pass
    assert sent < limit, "the server kept reading a client that does not read"
    assert srv.vmrss_kb() - before < 48 * 1024, "the server buffered replies without bound"
    other = srv.connect_unix(framing)
    assert load_one(other)["headline"], "other clients are still served"
    raw.close()


# ------------------------------------------------------------------------------------------
# --max-unanswered, and input ending with replies in flight


@pytest.mark.parametrize("ids", ["distinct", "one-id-reused", "notifications"])
def test_a_connection_with_max_unanswered_replies_waiting_is_not_read_until_half_are_answered(server_factory, ids):
    """Requests that reuse one id, and notifications (which are never answered), each hold
    their work in flight as well: each counts, so no client can pile them up without bound."""
    srv, adapter_conn, app = open_pair(server_factory, "stdio-ndjson", "tcp-ndjson", args=["--max-unanswered", 4])
    adapter = ExternalAdapter(adapter_conn, "MyNet", NEVER)
    loads = []
    for n in range(6):
        load = {"jsonrpc": "2.0", "method": "loadAd", "params": {"adUnitID": U_FIRST}}
        if ids != "notifications":
            loads.append(app.new_id() if ids == "distinct" else "same")
            load["id"] = loads[-1]
        app.send(load)
    adapter.wait_loads(4)
    # The fifth load and the probe after it are not read while four replies wait.
    probe = app.new_id()
    app.send({"jsonrpc": "2.0", "id": probe, "method": "e2e.noSuchMethod"})
    with pytest.raises(Exception):
        app.wait_reply(probe, timeout=0.5)
    assert len(adapter.loads) == 4
    # Two answered: two wait, so the connection is read again (after notifications too,
    # which write nothing).
    for request in adapter.requests[:2]:
        adapter.conn.send({"jsonrpc": "2.0", "id": request["id"], "result": {"ad": mapped("ok")}})
    if ids == "distinct":
        for id in loads[:2]:
            assert app.wait_reply(id)["result"]["ads"]
    assert_error(app.wait_reply(probe)["error"], -32601)
    adapter.wait_loads(6)


def test_a_connection_held_at_max_unanswered_again_and_again_within_one_read_is_read_to_the_end(server_factory):
    """Forty loads in one write, four at a time: each resumption fills the connection up again
    from what was read, and the next replies resume it again, until every load is answered."""
    srv, adapter_conn, app = open_pair(server_factory, "stdio-ndjson", "tcp-ndjson", args=["--max-unanswered", 4])
    ExternalAdapter(adapter_conn, "MyNet", fill(mapped("ok")))
    ids = [f"burst-{n}" for n in range(40)]
    app.send_raw(b"".join(app.frame(dumps({"jsonrpc": "2.0", "id": i, "method": "loadAd",
                                            "params": {"adUnitID": U_FIRST}})) for i in ids))
    for i in ids:
        assert app.wait_reply(i)["result"]["ads"], i


def test_input_ending_cancels_loads_still_asking_their_sources(server_factory):
    srv, adapter_conn, app = open_pair(server_factory, "tcp-ndjson", "stdio-ndjson")
    adapter = ExternalAdapter(adapter_conn, "MyNet", NEVER)
    send_load(app)
    adapter.wait_loads(1)
    server_id = adapter.requests[0]["id"]
    app.close_stdin()
    # The load is cancelled (its adapter told), unanswered as when the connection closes; stdio
    # closes, and the process goes on serving its sockets.
    assert adapter.conn.wait_notification("$/cancelRequest") == {"id": server_id}
    assert app.read_until_closed() == []
    assert srv.alive() and adapter.conn.call("getEvents")["events"] == []
