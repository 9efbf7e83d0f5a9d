"""Contract section 8 from the client's side: Unix domain sockets, cancellation, and ending a
spawned server with ``shutdown`` and ``exit``; sync and asyncio.

A request that stays pending long enough to cancel is a ``loadAd`` of a waterfall unit whose
only source is an adapter (another connection) that holds every load until the test releases
it. Tests of what the server must do for the client's features skip at run time when the binary
lacks the feature (``features.py``). The races (an answer that comes as the call gives up) and
the fallbacks of ``close()`` (a server that does not know ``shutdown``, one that never answers,
one that will not die) are scripted with stand-in servers, so they need nothing of the binary.
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import queue
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from conftest import BIN, SCHEMAS, run
from features import require_shutdown, require_unix, short_socket_path, supports_cancel
from helpers import NATIVE_UNIT, mapped_ad, unique

from native_ads import (
    AsyncClient,
    Client,
    ConnectionClosedError,
    InvalidRequest,
    NativeAdsError,
    ProtocolError,
    RequestCancelled,
    RequestTimeoutError,
    error_for,
)
from native_ads._framing import FRAMINGS, encode, read_frame
from native_ads.client import _SocketTransport

WAIT = 10.0  # the bound of every wait on a condition


# ----------------------------------------------------------------------------------------------
# Plumbing


class Recorder:
    """Every message one client sends and receives (a trace hook), with bounded waits."""

    def __init__(self, client: Client | AsyncClient) -> None:
        self.messages: list[tuple[str, Any, str | None]] = []
        self.cond = threading.Condition()
        client.add_trace_hook(self._hook)

    def _hook(self, direction: str, message: Any, method: str | None) -> None:
        with self.cond:
            self.messages.append((direction, message, method))
            self.cond.notify_all()

    def sent(self, method: str) -> list[Any]:
        """What was sent for ``method``: each request's id, or each notification's params."""
        with self.cond:
            return [
                m.get("id", m.get("params"))
                for d, m, _ in self.messages
                if d == "send" and isinstance(m, dict) and m.get("method") == method
            ]

    def sent_methods(self) -> list[str]:
        with self.cond:
            return [m["method"] for d, m, _ in self.messages if d == "send" and "method" in m]

    def _answer(self, request_id: Any) -> Any:
        for d, m, _ in self.messages:
            if d == "recv" and "method" not in m and m.get("id") == request_id:
                return m
        return None

    def answer(self, request_id: Any) -> Any:
        """The answer to ``request_id``, once it came (blocking: sync clients only)."""
        with self.cond:
            assert self.cond.wait_for(lambda: self._answer(request_id) is not None, WAIT), f"no answer to {request_id}"
            return self._answer(request_id)

    async def answer_async(self, request_id: Any) -> Any:
        """The same from inside an event loop (which the reader task needs to run)."""
        deadline = time.monotonic() + WAIT
        while True:
            with self.cond:
                found = self._answer(request_id)
            if found is not None:
                return found
            assert time.monotonic() < deadline, f"no answer to {request_id}"
            await asyncio.sleep(0.01)

    def method_of_answer(self, request_id: Any) -> str | None:
        """The method the client matched the answer to (the trace hook's ``method``)."""
        with self.cond:
            for d, m, method in self.messages:
                if d == "recv" and "method" not in m and m.get("id") == request_id:
                    return method
        return None


class Held:
    """A waterfall unit whose only source is an adapter (another connection) that holds each
    load until :meth:`release`. ``loads`` receives each load as the adapter gets it;
    ``cancels`` the ``$/cancelRequest`` notifications the server sends the adapter."""

    def __init__(self, app: Client, adapter: Client) -> None:
        self.name = unique("PyHeld")
        self.loads: queue.Queue[Any] = queue.Queue()
        self._release = threading.Event()
        self.cancels = adapter.subscribe("$/cancelRequest")

        def handler(load: Any) -> dict[str, Any]:
            self.loads.put(load)
            self._release.wait(60)
            return mapped_ad()

        adapter.serve_adapter(self.name, handler)
        self.unit = unique("/py/held")
        app.store_put_ad_unit(held_unit(self.unit, self.name))  # type: ignore[arg-type]

    def release(self) -> None:
        self._release.set()


class AsyncHeld:
    """:class:`Held` for asyncio clients (the handler is a coroutine function)."""

    def __init__(self) -> None:
        self.name = unique("PyHeld")
        self.loads: asyncio.Queue[Any] = asyncio.Queue()
        self._release = asyncio.Event()

    @classmethod
    async def create(cls, app: AsyncClient, adapter: AsyncClient) -> AsyncHeld:
        held = cls()
        held.cancels = adapter.subscribe("$/cancelRequest")

        async def handler(load: Any) -> dict[str, Any]:
            held.loads.put_nowait(load)
            await held._release.wait()
            return mapped_ad()

        await adapter.serve_adapter(held.name, handler)
        held.unit = unique("/py/held")
        await app.store_put_ad_unit(held_unit(held.unit, held.name))  # type: ignore[arg-type]
        return held

    def release(self) -> None:
        self._release.set()


def held_unit(unit_id: str, adapter_class: str) -> dict[str, Any]:
    source = {"type": "customEvent", "adapterClassName": adapter_class, "parameter": "held", "eCPM": 1.0}
    return {"id": unit_id, "deadlineMs": 60000, "waterfall": [{**source, "timeoutMs": 60000}]}


def assert_cancelled_answer(answer: Any) -> None:
    assert answer["error"]["code"] == -32800, answer
    assert answer["error"]["message"] == "Request cancelled", answer


def assert_dropped_quietly(caplog: pytest.LogCaptureFixture, method: str) -> None:
    """The late answer was matched to the cancelled request and dropped: nothing but a debug line."""
    problems = [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING]
    assert problems == [], problems
    assert any(f"late reply to a {method}" in r.getMessage() for r in caplog.records), "the late answer was dropped"


def settle_sync(held: Held, rec: Recorder, request_id: int) -> Any:
    """The late answer to a cancelled load: -32800 at once from a server that supports
    cancellation, else the result once the adapter answers."""
    if supports_cancel():
        answer = rec.answer(request_id)
        assert_cancelled_answer(answer)
        held.release()
    else:
        held.release()
        answer = rec.answer(request_id)
    return answer


async def settle_async(held: AsyncHeld, rec: Recorder, request_id: int, load: Any) -> Any:
    """As :func:`settle_sync`, for a load the adapter is known to hold: a server that supports
    cancellation also cancels the adapter's request."""
    if supports_cancel():
        answer = await rec.answer_async(request_id)
        assert_cancelled_answer(answer)
        assert await held.cancels.get(WAIT) == {"id": load.request_id}, "the adapter's request is cancelled too"
        held.release()
    else:
        held.release()
        answer = await rec.answer_async(request_id)
    return answer


def spy_signals(proc: subprocess.Popen[bytes] | asyncio.subprocess.Process) -> list[str]:
    """Records every signal the client sends ``proc``: ``terminate``, ``kill`` (and
    ``send_signal``, by signal name), each once however they call each other."""
    sent: list[str] = []
    depth = [0]
    for name in ("terminate", "kill", "send_signal"):
        original: Callable[..., Any] = getattr(proc, name)

        def spy(*args: Any, _name: str = name, _original: Callable[..., Any] = original) -> Any:
            if depth[0] == 0:
                sent.append(_name if not args else signal.Signals(args[0]).name)
            depth[0] += 1
            try:
                return _original(*args)
            finally:
                depth[0] -= 1

        setattr(proc, name, spy)
    return sent


# ----------------------------------------------------------------------------------------------
# Cancellation: a call's timeout, a cancelled task


def test_a_timed_out_call_is_cancelled_and_its_late_answer_dropped(net: Any, caplog: pytest.LogCaptureFixture) -> None:
    app = net.client
    held = Held(app, net.other())
    rec = Recorder(app)
    caplog.set_level(logging.DEBUG, logger="native_ads")
    try:
        started = time.monotonic()
        with pytest.raises(RequestTimeoutError) as raised:
            app.load_ad(held.unit, timeout=0.3)  # a generated method's own timeout
        assert time.monotonic() - started < WAIT
        # one exception for both ways of catching it; never a cancellation
        assert isinstance(raised.value, TimeoutError) and isinstance(raised.value, NativeAdsError)
        assert raised.value.method == "loadAd" and "cancelled" in str(raised.value)
        [load_id] = rec.sent("loadAd")
        assert rec.sent("$/cancelRequest") == [{"id": load_id}], "the server is told at once"
        settle_sync(held, rec, load_id)
        assert rec.method_of_answer(load_id) == "loadAd"  # matched to the cancelled call...
        # ...and to no other: the next call gets its own answer, the connection goes on
        assert app.store_list()["adUnits"]
        assert not app.closed
        assert_dropped_quietly(caplog, "loadAd")
    finally:
        held.release()


def test_the_client_timeout_cancels_too(net: Any) -> None:
    app = net.client
    held = Held(app, net.other())
    impatient = net.other()
    impatient.timeout = 0.3
    rec = Recorder(impatient)
    try:
        with pytest.raises(RequestTimeoutError):
            impatient.call("loadAd", {"adUnitID": held.unit})
        [load_id] = rec.sent("loadAd")
        assert rec.sent("$/cancelRequest") == [{"id": load_id}]
        settle_sync(held, rec, load_id)
        assert impatient.store_list()["adUnits"]
    finally:
        held.release()


def test_async_a_cancelled_task_cancels_its_request(net: Any, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG, logger="native_ads")

    async def body() -> None:
        app = await net.aclient()
        held = await AsyncHeld.create(app, await net.aother())
        rec = Recorder(app)
        try:
            task = asyncio.create_task(app.load_ad(held.unit))
            load = await asyncio.wait_for(held.loads.get(), WAIT)  # it is pending at the adapter
            task.cancel()
            with pytest.raises(asyncio.CancelledError):
                await task
            [load_id] = rec.sent("loadAd")
            assert rec.sent("$/cancelRequest") == [{"id": load_id}]
            await settle_async(held, rec, load_id, load)
            assert rec.method_of_answer(load_id) == "loadAd"
            assert (await app.store_list())["adUnits"]
            assert not app.closed
        finally:
            held.release()
            await net.aclose()

    run(body())
    assert_dropped_quietly(caplog, "loadAd")


def test_async_timeouts_cancel_the_request(net: Any) -> None:
    """The call's own timeout raises RequestTimeoutError; asyncio's (wait_for, asyncio.timeout)
    cancels the task, so asyncio raises its TimeoutError. Both cancel the request."""

    async def body() -> None:
        app = await net.aclient()
        held = await AsyncHeld.create(app, await net.aother())
        rec = Recorder(app)
        try:
            with pytest.raises(RequestTimeoutError) as raised:
                await app.load_ad(held.unit, timeout=0.3)
            assert isinstance(raised.value, TimeoutError) and isinstance(raised.value, NativeAdsError)
            with pytest.raises(TimeoutError) as outer:
                await asyncio.wait_for(app.load_ad(held.unit), 0.3)
            assert not isinstance(outer.value, NativeAdsError), "asyncio's own timeout, not the client's"
            with pytest.raises(TimeoutError):
                async with asyncio.timeout(0.3):
                    await app.call("loadAd", {"adUnitID": held.unit})
            load_ids = rec.sent("loadAd")
            assert len(load_ids) == 3
            assert rec.sent("$/cancelRequest") == [{"id": i} for i in load_ids]
            if supports_cancel():
                for i in load_ids:
                    assert_cancelled_answer(await rec.answer_async(i))
            held.release()
            for i in load_ids:
                await rec.answer_async(i)
            assert (await app.store_list())["adUnits"]
        finally:
            held.release()
            await net.aclose()

    run(body())


def require_cancel() -> None:
    if not supports_cancel():
        pytest.skip("the server under test does not answer $/cancelRequest with -32800 yet")


def test_the_adapter_role_stops_a_load_the_server_cancels(net: Any) -> None:
    """The server passes the app's cancellation on (``$/cancelRequest "native-ads:N"``): the
    load's ``cancelled`` is set, and what the handler returns then is not sent."""
    require_cancel()
    app = net.client
    adapter = net.other()
    adapter_rec = Recorder(adapter)
    name = unique("PyCancelled")
    outcome: queue.Queue[tuple[Any, bool]] = queue.Queue()

    def handler(load: Any) -> dict[str, Any]:
        outcome.put((load, load.cancelled.wait(WAIT)))
        return mapped_ad()

    adapter.serve_adapter(name, handler)
    unit = unique("/py/cancelled")
    app.store_put_ad_unit(held_unit(unit, name))  # type: ignore[arg-type]
    with pytest.raises(RequestTimeoutError):
        app.load_ad(unit, timeout=0.3)
    load, cancelled = outcome.get(timeout=WAIT)
    assert cancelled, "load.cancelled was set"
    # the handler has returned: once its thread is done, the answer it made was not sent
    deadline = time.monotonic() + WAIT
    while any(t.name == f"{adapter.name}-adapter" for t in threading.enumerate()):
        assert time.monotonic() < deadline, "the handler's thread is still running"
        time.sleep(0.01)
    assert adapter.store_list()["adUnits"], "the adapter's connection goes on"
    sent_ids = [m.get("id") for d, m, _ in adapter_rec.messages if d == "send"]
    assert load.request_id not in sent_ids


def test_async_the_adapter_role_cancels_the_handler_task(net: Any) -> None:
    require_cancel()

    async def body() -> None:
        app = await net.aclient()
        adapter = await net.aother()
        adapter_rec = Recorder(adapter)
        name = unique("PyCancelled")
        started: asyncio.Queue[Any] = asyncio.Queue()
        stopped: asyncio.Queue[Any] = asyncio.Queue()

        async def handler(load: Any) -> dict[str, Any]:
            started.put_nowait(load)
            try:
                await asyncio.sleep(3600)
            except asyncio.CancelledError:
                stopped.put_nowait(load)
                raise
            return mapped_ad()

        await adapter.serve_adapter(name, handler)
        unit = unique("/py/cancelled")
        await app.store_put_ad_unit(held_unit(unit, name))  # type: ignore[arg-type]
        task = asyncio.create_task(app.load_ad(unit))
        load = await asyncio.wait_for(started.get(), WAIT)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        assert await asyncio.wait_for(stopped.get(), WAIT) is load, "the handler's task was cancelled"
        assert load.cancelled.is_set()
        assert (await adapter.store_list())["adUnits"]
        sent_ids = [m.get("id") for d, m, _ in adapter_rec.messages if d == "send"]
        assert load.request_id not in sent_ids, "no answer for a cancelled request"
        await net.aclose()

    run(body())


# ----------------------------------------------------------------------------------------------
# Late answers and races, against a scripted peer (a socket pair)


class ScriptedPeer:
    """The far end of a socket pair: reads what the client sends, writes what the test says.

    The scripts use ``stringForKey`` (any string is a result that passes the schema check every
    received reply goes through): "stale" marks a late answer, "fresh" the expected one."""

    STALE = "stale"
    FRESH = "fresh"

    def __init__(self, sock: socket.socket, framing: str) -> None:
        self.sock = sock
        self.framing = framing
        self.reader = sock.makefile("rb")

    def next(self) -> Any:
        """The next message the client sent (None once it closed the connection)."""
        frame = read_frame(self.reader, self.framing)  # type: ignore[arg-type]
        return None if frame is None else json.loads(frame)

    def rest(self) -> list[Any]:
        """Everything the client sends until it closes the connection."""
        out = []
        while (message := self.next()) is not None:
            out.append(message)
        return out

    def send(self, message: Any) -> None:
        self.sock.sendall(encode(message, self.framing))  # type: ignore[arg-type]

    def result(self, request_id: Any, result: Any) -> None:
        self.send({"jsonrpc": "2.0", "id": request_id, "result": result})

    def cancelled(self, request_id: Any) -> None:
        self.send({"jsonrpc": "2.0", "id": request_id, "error": {"code": -32800, "message": "Request cancelled"}})

    def close(self) -> None:
        self.reader.close()
        self.sock.close()


def cancel_of(request: Any) -> dict[str, Any]:
    return {"jsonrpc": "2.0", "method": "$/cancelRequest", "params": {"id": request["id"]}}


def late_answers_of(peer: ScriptedPeer, requests: list[Any]) -> None:
    """Each way a cancelled request can end: a result that raced the cancellation, -32800, and
    a late result inside a batch."""
    first, second, third = requests
    peer.result(first["id"], peer.STALE)
    peer.cancelled(second["id"])
    peer.send([{"jsonrpc": "2.0", "id": third["id"], "result": peer.STALE}])


def assert_quiet(caplog: pytest.LogCaptureFixture, late: int) -> None:
    problems = [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING]
    assert problems == [], problems
    dropped = [r for r in caplog.records if "late reply to a stringForKey" in r.getMessage()]
    assert len(dropped) == late, [r.getMessage() for r in caplog.records]


@pytest.mark.parametrize("framing", FRAMINGS)
def test_late_answers_never_reach_another_call(framing: str, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG, logger="native_ads")
    near, far = socket.socketpair()
    client = Client(_SocketTransport(near), framing)
    peer = ScriptedPeer(far, framing)
    try:
        requests = []
        for ad_id in ("a", "b", "c"):
            with pytest.raises(RequestTimeoutError):
                client.string_for_key(ad_id, "k", timeout=0.2)
            request = peer.next()
            requests.append(request)
            assert peer.next() == cancel_of(request)
        late_answers_of(peer, requests)
        answered: list[Any] = []
        caller = threading.Thread(target=lambda: answered.append(client.string_for_key("d", "k", timeout=WAIT)))
        caller.start()
        fresh = peer.next()
        assert fresh["params"] == {"adId": "d", "key": "k"}
        peer.result(fresh["id"], peer.FRESH)
        caller.join(WAIT)
        assert answered == [peer.FRESH], "the next call gets its own answer, not a late one"
        assert not client.closed
    finally:
        client.close()
        peer.close()
    assert_quiet(caplog, late=3)


@pytest.mark.parametrize("framing", FRAMINGS)
def test_an_answer_that_comes_as_the_timeout_passes_is_returned(framing: str) -> None:
    """The reader took the answer just as the wait ran out: the call returns it, and sends no
    cancellation (the request was answered)."""
    near, far = socket.socketpair()
    client = Client(_SocketTransport(near), framing)
    peer = ScriptedPeer(far, framing)
    gave_up = threading.Event()
    original_cancel = client._cancel

    def cancel(request_id: int, method: str) -> bool:
        gave_up.set()
        return original_cancel(request_id, method)

    client._cancel = cancel  # type: ignore[method-assign]

    def hold_the_answer(direction: str, message: Any, method: str | None) -> None:
        if direction == "recv" and method == "stringForKey":
            assert gave_up.wait(WAIT)  # the reader has taken the answer; the caller gives up now

    client.add_trace_hook(hold_the_answer)
    try:
        answered: list[Any] = []
        caller = threading.Thread(target=lambda: answered.append(client.string_for_key("a", "k", timeout=0.2)))
        caller.start()
        peer.result(peer.next()["id"], peer.FRESH)
        caller.join(WAIT)
        assert answered == [peer.FRESH]
        assert gave_up.is_set()
    finally:
        client.close()
        rest = peer.rest()
        peer.close()
    assert rest == [], "no $/cancelRequest for an answered request"


@pytest.mark.parametrize("framing", FRAMINGS)
def test_async_late_answers_and_a_cancellation_that_races_the_answer(
    framing: str, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG, logger="native_ads")

    async def body() -> None:
        near, far = socket.socketpair()
        reader, writer = await asyncio.open_connection(sock=near)
        client = AsyncClient(reader, writer, framing)
        peer = ScriptedPeer(far, framing)
        loop = asyncio.get_running_loop()

        async def peer_next() -> Any:
            return await asyncio.wait_for(loop.run_in_executor(None, peer.next), WAIT)

        try:
            # cancelled tasks: $/cancelRequest for each, and every late answer dropped
            requests = []
            for ad_id in ("a", "b", "c"):
                task = asyncio.create_task(client.string_for_key(ad_id, "k"))
                request = await peer_next()
                task.cancel()
                with pytest.raises(asyncio.CancelledError):
                    await task
                assert await peer_next() == cancel_of(request)
                requests.append(request)
            late_answers_of(peer, requests)
            nxt = asyncio.create_task(client.string_for_key("d", "k"))
            fresh = await peer_next()
            assert fresh["params"] == {"adId": "d", "key": "k"}
            peer.result(fresh["id"], peer.FRESH)
            assert await asyncio.wait_for(nxt, WAIT) == peer.FRESH

            # the task is cancelled as its answer arrives (the reader has it): CancelledError,
            # as asyncio wants; no $/cancelRequest for an answered request; the answer goes
            # to no other call
            racing = asyncio.create_task(client.string_for_key("e", "k"))

            def cancel_as_it_arrives(direction: str, message: Any, method: str | None) -> None:
                if direction == "recv" and isinstance(message, dict) and message.get("id") == race["id"]:
                    racing.cancel()

            client.add_trace_hook(cancel_as_it_arrives)
            race = await peer_next()
            peer.result(race["id"], peer.STALE)
            with pytest.raises(asyncio.CancelledError):
                await racing
            last = asyncio.create_task(client.string_for_key("f", "k"))
            after = await peer_next()
            assert after["params"] == {"adId": "f", "key": "k"}, "no $/cancelRequest for an answered request"
            peer.result(after["id"], peer.FRESH)
            assert await asyncio.wait_for(last, WAIT) == peer.FRESH
            assert not client.closed
        finally:
            await client.close()
            peer.close()

    run(body())
    assert_quiet(caplog, late=3)


# ----------------------------------------------------------------------------------------------
# shutdown and exit: ending a spawned server


@pytest.mark.parametrize("framing", FRAMINGS)
@pytest.mark.parametrize("sockets", [[], ["--tcp", "127.0.0.1:0"]], ids=["stdio-only", "with-tcp"])
def test_close_ends_a_spawned_server_with_shutdown_and_exit(framing: str, sockets: list[str]) -> None:
    """Even a server that also serves TCP (which outlives its stdin) ends by itself: no signal."""
    require_shutdown()
    c = Client.spawn(BIN, sockets, framing=framing)
    rec = Recorder(c)
    assert c.process is not None
    signals = spy_signals(c.process)
    c.load_ad(NATIVE_UNIT)
    assert c.close() == 0, c.stderr_lines[-5:]
    assert rec.sent_methods()[-2:] == ["shutdown", "exit"]
    [shutdown_id] = rec.sent("shutdown")
    assert rec.answer(shutdown_id)["result"] is None
    assert signals == [], "the process ended by itself"
    assert c.closed


@pytest.mark.parametrize("framing", FRAMINGS)
def test_async_close_ends_a_spawned_server_with_shutdown_and_exit(framing: str) -> None:
    require_shutdown()

    async def body() -> None:
        c = await AsyncClient.spawn(BIN, ["--tcp", "127.0.0.1:0"], framing=framing)
        rec = Recorder(c)
        assert c.process is not None
        signals = spy_signals(c.process)
        await c.load_ad(NATIVE_UNIT)
        assert await c.close() == 0, c.stderr_lines[-5:]
        assert rec.sent_methods()[-2:] == ["shutdown", "exit"]
        [shutdown_id] = rec.sent("shutdown")
        assert (await rec.answer_async(shutdown_id))["result"] is None
        assert signals == []

    run(body())


@pytest.mark.parametrize("framing", FRAMINGS)
def test_shutdown_and_exit_helpers(framing: str) -> None:
    require_shutdown()
    c = Client.spawn(BIN, framing=framing)
    rec = Recorder(c)
    assert c.process is not None
    try:
        assert c.shutdown() is None
        with pytest.raises(InvalidRequest):  # every request but exit, after shutdown
            c.load_ad(NATIVE_UNIT)
        c.exit()
        assert c.process.wait(WAIT) == 0, "exit after shutdown: status 0"
    finally:
        assert c.close() == 0
    assert rec.sent_methods().count("shutdown") == 1, "close() does not repeat what was done"
    assert rec.sent_methods().count("exit") == 1


@pytest.mark.parametrize("framing", FRAMINGS)
def test_async_shutdown_and_exit_helpers(framing: str) -> None:
    require_shutdown()

    async def body() -> None:
        c = await AsyncClient.spawn(BIN, framing=framing)
        rec = Recorder(c)
        assert c.process is not None
        try:
            assert await c.shutdown() is None
            with pytest.raises(InvalidRequest):
                await c.load_ad(NATIVE_UNIT)
            await c.exit()
            assert await asyncio.wait_for(c.process.wait(), WAIT) == 0
        finally:
            assert await c.close() == 0
        assert rec.sent_methods().count("shutdown") == 1
        assert rec.sent_methods().count("exit") == 1

    run(body())


def test_exit_on_a_socket_closes_that_connection_only(net: Any) -> None:
    require_shutdown()
    app = net.client
    leaving = net.other()
    assert leaving.shutdown() is None
    leaving.exit()
    deadline = time.monotonic() + WAIT
    while not leaving.closed:  # the server closes the connection
        assert time.monotonic() < deadline, "the connection is still open after exit"
        time.sleep(0.01)
    with pytest.raises(ConnectionClosedError):
        leaving.store_list()
    assert app.store_list()["adUnits"], "the other connections are served as before"


def test_async_exit_on_a_socket_closes_that_connection_only(net: Any) -> None:
    require_shutdown()

    async def body() -> None:
        app = await net.aclient()
        leaving = await net.aother()
        await leaving.shutdown()
        await leaving.exit()
        deadline = time.monotonic() + WAIT
        while not leaving.closed:
            assert time.monotonic() < deadline, "the connection is still open after exit"
            await asyncio.sleep(0.01)
        assert (await app.store_list())["adUnits"]
        await net.aclose()

    run(body())


# Stand-in servers (NDJSON over stdio) for what close() does when the server is not the real one:
# each logs the methods it receives, one a line, to the file named by its first argument.
_STAND_IN = """\
import json, os, signal, sys, time
args = [a for a in sys.argv[1:] if a != "--stdio"]
log = open(args[0], "a", buffering=1)
mode = args[1]
if mode == "stubborn":
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
log.write("ready\\n")
for line in sys.stdin.buffer:
    message = json.loads(line)
    log.write(message.get("method", "?") + "\\n")
    if "id" not in message:
        if mode == "lsp" and message["method"] == "exit":
            sys.exit(0)
        continue
    if mode == "lsp":
        reply = {"jsonrpc": "2.0", "id": message["id"], "result": None}
    elif mode == "old":
        reply = {"jsonrpc": "2.0", "id": message["id"], "error": {"code": -32601, "message": "Method not found"}}
    else:
        continue  # silent, stubborn: never answer
    sys.stdout.write(json.dumps(reply) + "\\n")
    sys.stdout.flush()
log.write("EOF\\n")
if mode in ("silent", "stubborn"):
    while True:  # outlives its stdin
        time.sleep(3600)
"""


def stand_in(tmp_path: Path, mode: str) -> tuple[Path, Path]:
    script = tmp_path / "stand-in-server"
    script.write_text(f"#!{sys.executable}\n{_STAND_IN}")
    script.chmod(0o755)
    log = tmp_path / f"{mode}.log"
    return script, log


def received(log: Path) -> list[str]:
    return log.read_text().split()


@pytest.mark.parametrize("flavour", ["sync", "async"])
@pytest.mark.parametrize(
    ("mode", "expected_methods", "expected_status", "expected_signals", "timeout"),
    [
        # the contract: shutdown answered, exit, stdin closed; it exits by itself
        ("lsp", ["shutdown", "exit"], 0, [], WAIT),
        # a server without shutdown (-32601): stdin EOF ends it, no exit is sent
        ("old", ["shutdown", "EOF"], 0, [], WAIT),
        # no answer to shutdown: it times out (and is cancelled), exit and EOF all the same,
        # then SIGTERM for a process that lingers
        ("silent", ["shutdown", "$/cancelRequest", "exit", "EOF"], -signal.SIGTERM, ["terminate"], 0.5),
        # one that ignores SIGTERM too: SIGKILL, the last resort
        ("stubborn", ["shutdown", "$/cancelRequest", "exit", "EOF"], -signal.SIGKILL, ["terminate", "kill"], 0.5),
    ],
)
def test_close_of_a_spawned_server_that_is_not_the_real_one(
    tmp_path: Path,
    flavour: str,
    mode: str,
    expected_methods: list[str],
    expected_status: int,
    expected_signals: list[str],
    timeout: float,
) -> None:
    script, log = stand_in(tmp_path, mode)

    def running() -> None:  # its handlers are in place
        deadline = time.monotonic() + WAIT
        while not (log.exists() and "ready" in received(log)):
            assert time.monotonic() < deadline, "the stand-in did not start"
            time.sleep(0.01)

    if flavour == "sync":
        c = Client.spawn(script, [str(log), mode])
        assert c.process is not None
        signals = spy_signals(c.process)
        running()
        started = time.monotonic()
        status = c.close(timeout=timeout)
    else:

        async def body() -> tuple[int | None, list[str], float]:
            ac = await AsyncClient.spawn(script, [str(log), mode])
            assert ac.process is not None
            spied = spy_signals(ac.process)
            await asyncio.get_running_loop().run_in_executor(None, running)
            began = time.monotonic()
            return await ac.close(timeout=timeout), spied, began

        status, signals, started = run(body())
    assert time.monotonic() - started < 4 * timeout + 2, "every step of close() is bounded"
    assert status == expected_status
    assert signals == expected_signals
    assert received(log)[: len(expected_methods) + 1] == ["ready", *expected_methods]


# ----------------------------------------------------------------------------------------------
# --parent-pid: a spawned server does not outlive the process that started it


def test_spawned_servers_are_given_this_process_as_their_parent() -> None:
    from native_ads._core import server_argv

    me = str(os.getpid())
    assert server_argv("ns", ["--seed", "1"], stdio=True) == ["ns", "--stdio", "--seed", "1", "--parent-pid", me]
    assert server_argv("ns", ["--tcp", "127.0.0.1:0"], stdio=False)[-2:] == ["--parent-pid", me]
    # one named by the caller is kept, in either spelling; watch_parent=False adds none
    assert server_argv("ns", ["--parent-pid", "1"], stdio=True).count("--parent-pid") == 1
    assert not any(a.startswith("--parent-pid") and a != "--parent-pid=1"
                   for a in server_argv("ns", ["--parent-pid=1"], stdio=True))
    assert "--parent-pid" not in server_argv("ns", [], stdio=True, watch_parent=False)


_ORPHAN_MAKER = """\
import asyncio, sys
from native_ads import AsyncClient, Client, Server
binary, how = sys.argv[1], sys.argv[2]
if how == "spawn":
    c = Client.spawn(binary, ["--tcp", "127.0.0.1:0"])
    c.load_ad("/21775744923/example/native")
    pid = c.process.pid
elif how == "async-spawn":
    async def start():
        c = await AsyncClient.spawn(binary, ["--tcp", "127.0.0.1:0"])
        await c.load_ad("/21775744923/example/native")
        return c
    pid = asyncio.run(start()).process.pid
else:
    pid = Server.start(binary).process.pid
print(pid, flush=True)
sys.stdin.read()  # until killed
"""


def _ended(pid: int) -> bool:
    """Whether process ``pid`` has ended: gone, or a zombie nobody has reaped yet (an orphan's
    new parent, in a container, may never reap it)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] in ("Z", "X")
    except FileNotFoundError:
        return True


@pytest.mark.parametrize("how", ["spawn", "async-spawn", "server-start"])
def test_a_spawned_server_ends_when_the_process_that_started_it_is_killed(how: str) -> None:
    """Killed with SIGKILL, the starter runs no close(); a server that also serves TCP would
    serve on forever, but it watches its parent (``--parent-pid``) and exits."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    starter = subprocess.Popen(
        [sys.executable, "-c", _ORPHAN_MAKER, BIN, how],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env, text=True,
    )
    try:
        line = queue.Queue[str]()
        threading.Thread(target=lambda: line.put(starter.stdout.readline()), daemon=True).start()
        try:
            pid = int(line.get(timeout=WAIT))
        except (queue.Empty, ValueError):
            starter.kill()
            raise AssertionError(f"the starter printed no pid: {starter.communicate()[1][-2000:]}") from None
        assert not _ended(pid)
        starter.kill()
        starter.wait(WAIT)
        deadline = time.monotonic() + WAIT
        while not _ended(pid):
            assert time.monotonic() < deadline, f"server {pid} outlived its parent by {WAIT} s"
            time.sleep(0.02)
    finally:
        if starter.poll() is None:
            starter.kill()
            starter.wait(WAIT)


# ----------------------------------------------------------------------------------------------
# Unix domain sockets


@pytest.mark.parametrize("framing", FRAMINGS)
def test_a_spawned_server_on_a_unix_socket(framing: str) -> None:
    require_unix()
    path = short_socket_path()
    owner = Client.spawn(BIN, ["--unix", path], framing=framing)
    try:
        assert owner.unix_path() == path
        assert os.path.exists(path)
        with Client.connect_unix(path, framing) as c:
            ad = c.load_ad(NATIVE_UNIT)["ads"][0]
            assert c.record_impression(ad["adId"])["recorded"] is True
            assert c.name == f"native-ads@unix:{path}"
    finally:
        status = owner.close()
    assert status == 0, owner.stderr_lines[-5:]
    assert not os.path.exists(path), "the server removes its socket when it exits"


@pytest.mark.parametrize("framing", FRAMINGS)
def test_async_a_spawned_server_on_a_unix_socket(framing: str) -> None:
    require_unix()
    path = short_socket_path()

    async def body() -> None:
        owner = await AsyncClient.spawn(BIN, ["--unix", path], framing=framing)
        try:
            assert await owner.unix_path() == path
            c = await AsyncClient.connect_unix(path, framing)
            ad = (await c.load_ad(NATIVE_UNIT))["ads"][0]
            assert (await c.record_impression(ad["adId"]))["recorded"] is True
            assert await c.close() is None
        finally:
            assert await owner.close() == 0, owner.stderr_lines[-5:]

    run(body())


def test_connect_unix_to_no_socket_raises() -> None:
    missing = short_socket_path("missing.sock")
    with pytest.raises(OSError):
        Client.connect_unix(missing)

    async def body() -> None:
        with pytest.raises(OSError):
            await AsyncClient.connect_unix(missing)

    run(body())


def test_request_cancelled_error_class() -> None:
    """-32800 from a cancellation someone else made is a RequestCancelled (a protocol error)."""
    e = error_for({"code": -32800, "message": "Request cancelled"}, "loadAd")
    assert type(e) is RequestCancelled and isinstance(e, ProtocolError) and e.code == -32800


@pytest.mark.skipif(not (SCHEMAS / "openrpc.json").exists(), reason="schemas/openrpc.json does not exist yet")
def test_openrpc_documents_the_lifecycle() -> None:
    """A server that answers ``shutdown`` documents it (``rpc.discover`` lists every method), so
    that the schema check validates its answer."""
    require_shutdown()
    doc = json.loads((SCHEMAS / "openrpc.json").read_text(encoding="utf-8"))
    methods = {m["name"]: m for m in doc["methods"]}
    assert "shutdown" in methods, "openrpc.json does not document shutdown"
    assert "schema" in methods["shutdown"].get("result", {}), "openrpc.json: shutdown has no result schema"
