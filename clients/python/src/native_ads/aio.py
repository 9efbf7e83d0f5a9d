"""The asyncio client: :class:`AsyncClient`, the same methods as coroutines.

A reader task reads the connection and completes the pending calls; notifications go to an
event task that runs the callbacks (plain functions or coroutine functions, awaited one at a
time) in arrival order. A call returns only after the callbacks of the notifications that
arrived before its reply have run, except when the call is made from a callback itself.
Requests from the server (``adapter.loadNativeAd``) are answered in tasks of their own.

Cancelling the task that awaits a call (``task.cancel()``, ``asyncio.timeout``, ``wait_for``)
cancels the request: the client sends ``$/cancelRequest`` for it, drops its late answer, and the
call raises :class:`asyncio.CancelledError` as usual. A call's own ``timeout`` does the same and
raises :class:`RequestTimeoutError`. Closing a client that spawned its server ends the server
the LSP way: ``shutdown``, then ``exit``, then stdin closed.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import inspect
import json
import os
import socket
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from types import TracebackType
from typing import Any

from ._core import (
    CANCEL_REQUEST,
    EXIT,
    SHUTDOWN,
    ClientBase,
    classify,
    log,
    parse_listening,
    parse_listening_unix,
    resolve_binary,
    server_argv,
)
from ._framing import FramingError, check_framing, encode, read_frame_async
from ._methods import AsyncMethods
from .adapter import (
    LOAD_NATIVE_AD,
    AdapterLoad,
    AsyncAdapterHandler,
    failure_reply,
    method_not_found_reply,
    no_adapter_reply,
    success_reply,
)
from .errors import ConnectionClosedError, MethodNotFound, NativeAdsError, RequestTimeoutError, error_for
from .types import Framing

__all__ = ["AsyncClient", "AsyncAdapterRegistration", "AsyncSubscription"]

#: Stream buffer limit: an NDJSON line carries whole ads with their base64 images.
STREAM_LIMIT = 64 * 1024 * 1024


class AsyncSubscription:
    """Notifications of one method, queued as they arrive (``client.subscribe("adEvent")``)."""

    def __init__(self, client: AsyncClient, method: str) -> None:
        self.method = method
        self.received: list[Any] = []
        self._queue: asyncio.Queue[Any] = asyncio.Queue()
        self._unsubscribe = client.on(method, self._put)

    def _put(self, params: Any) -> None:
        self.received.append(params)
        self._queue.put_nowait(params)

    async def get(self, timeout: float | None = 5.0) -> Any:
        try:
            return await asyncio.wait_for(self._queue.get(), timeout)
        except TimeoutError:
            raise TimeoutError(f"no {self.method} notification within {timeout} s") from None

    async def wait_for(self, predicate: Callable[[Any], bool], timeout: float = 5.0) -> Any:
        deadline = time.monotonic() + timeout
        while True:
            params = await self.get(max(0.0, deadline - time.monotonic()))
            if predicate(params):
                return params

    def drain(self) -> list[Any]:
        items = []
        while not self._queue.empty():
            items.append(self._queue.get_nowait())
        return items

    def close(self) -> None:
        self._unsubscribe()


class AsyncAdapterRegistration:
    """An adapter class this client serves (``await client.serve_adapter(...)``)."""

    def __init__(self, client: AsyncClient, class_name: str) -> None:
        self.client = client
        self.class_name = class_name

    async def unregister(self) -> bool:
        return await self.client.stop_serving_adapter(self.class_name)

    async def __aenter__(self) -> AsyncAdapterRegistration:
        return self

    async def __aexit__(self, *exc: object) -> None:
        if not self.client.closed:
            await self.unregister()

    def __repr__(self) -> str:
        return f"AsyncAdapterRegistration({self.class_name!r})"


class AsyncClient(ClientBase, AsyncMethods):
    """A connection to a native-ads server, with one coroutine per RPC method.

    Make one with ``await AsyncClient.spawn(...)`` or ``await AsyncClient.connect(host, port)``;
    use ``async with`` or ``await client.close()``.
    """

    def __init__(
        self,
        reader: asyncio.StreamReader,
        writer: asyncio.StreamWriter,
        framing: Framing | str = "ndjson",
        *,
        timeout: float | None = None,
        name: str = "native-ads",
        process: asyncio.subprocess.Process | None = None,
        serves_tcp: bool = False,
        echo_stderr: bool = False,
    ) -> None:
        ClientBase.__init__(self, framing, name)
        self.timeout = timeout
        self.process = process
        self._reader = reader
        self._writer = writer
        self._serves_tcp = serves_tcp
        self._echo_stderr = echo_stderr
        self._write_lock = asyncio.Lock()
        self._pending: dict[Any, tuple[str, Mapping[str, Any] | None, asyncio.Future[tuple[dict[str, Any], int]]]] = {}
        self._abandoned: dict[Any, str] = {}  # cancelled requests: id -> method (their late replies)
        # the server's requests being answered, by id: the load and the task answering it
        self._serving: dict[Any, tuple[AdapterLoad, asyncio.Task[Any]]] = {}
        self._shutdown_answered = False  # `shutdown` was answered: close() sends only `exit`
        self._exit_sent = False
        self._closed = False  # set before any call fails with ConnectionClosedError
        self._close_reason = "Connection closed"
        self._events: asyncio.Queue[tuple[int, str, Any] | None] = asyncio.Queue()
        self._enqueued = 0
        self._dispatched = 0
        self._dispatch_cond = asyncio.Condition()
        self._stderr_lines: collections.deque[str] = collections.deque(maxlen=500)
        self._listening: asyncio.Future[tuple[str, int] | None] = asyncio.get_running_loop().create_future()
        self._listening_unix: asyncio.Future[str | None] = asyncio.get_running_loop().create_future()
        self._tasks: set[asyncio.Task[Any]] = set()
        self._read_task = asyncio.create_task(self._read_loop(), name=f"{name}-reader")
        self._dispatch_task = asyncio.create_task(self._dispatch_loop(), name=f"{name}-events")
        self._stderr_task: asyncio.Task[None] | None = None
        if process is not None and process.stderr is not None:
            self._stderr_task = asyncio.create_task(self._drain_stderr(process.stderr), name=f"{name}-stderr")

    # -- construction ------------------------------------------------------------------------

    @classmethod
    async def spawn(
        cls,
        path: str | os.PathLike[str] | None = None,
        args: Sequence[str] = (),
        framing: Framing | str = "ndjson",
        *,
        env: Mapping[str, str] | None = None,
        timeout: float | None = None,
        echo_stderr: bool = False,
        watch_parent: bool = True,
    ) -> AsyncClient:
        """Starts ``path --stdio *args`` and talks to it over its stdin/stdout (see ``Client.spawn``)."""
        check_framing(framing)
        binary = resolve_binary(path)
        proc = await asyncio.create_subprocess_exec(
            *server_argv(binary, args, stdio=True, watch_parent=watch_parent),
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
            env=dict(env) if env is not None else None,
            limit=STREAM_LIMIT,
        )
        assert proc.stdout is not None and proc.stdin is not None
        return cls(
            proc.stdout,
            proc.stdin,
            framing,
            timeout=timeout,
            process=proc,
            serves_tcp="--tcp" in args or "--unix" in args,
            echo_stderr=echo_stderr,
        )

    @classmethod
    async def connect(
        cls,
        host: str = "127.0.0.1",
        port: int = 7411,
        framing: Framing | str = "ndjson",
        *,
        timeout: float | None = None,
        connect_timeout: float = 10.0,
    ) -> AsyncClient:
        """Connects to a server's TCP address."""
        check_framing(framing)
        reader, writer = await asyncio.wait_for(
            asyncio.open_connection(host, port, limit=STREAM_LIMIT), connect_timeout
        )
        sock = writer.get_extra_info("socket")
        if sock is not None:
            with contextlib.suppress(OSError):
                sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        return cls(reader, writer, framing, timeout=timeout, name=f"native-ads@{host}:{port}")

    @classmethod
    async def connect_unix(
        cls,
        path: str | os.PathLike[str],
        framing: Framing | str = "ndjson",
        *,
        timeout: float | None = None,
        connect_timeout: float = 10.0,
    ) -> AsyncClient:
        """Connects to a server's Unix domain socket (``native-ads --unix PATH``)."""
        check_framing(framing)
        reader, writer = await asyncio.wait_for(
            asyncio.open_unix_connection(os.fspath(path), limit=STREAM_LIMIT), connect_timeout
        )
        return cls(reader, writer, framing, timeout=timeout, name=f"native-ads@unix:{os.fspath(path)}")

    # -- calls -------------------------------------------------------------------------------

    async def _request(self, method: str, params: dict[str, Any], timeout: float | None = None) -> Any:
        return await self.call(method, params, timeout=timeout)

    async def call(self, method: str, params: Mapping[str, Any] | None = None, *, timeout: float | None = None) -> Any:
        """Sends a request and returns its ``result``; an error reply raises :class:`NativeAdsError`.

        ``timeout`` (seconds; default: the client's ``timeout``, None for no limit) bounds the
        wait: past it the request is cancelled (``$/cancelRequest {"id"}`` is sent, its late
        answer dropped) and :class:`RequestTimeoutError` raised. Cancelling the awaiting task
        cancels the request the same way, and raises :class:`asyncio.CancelledError`.
        """
        if self._closed:
            raise ConnectionClosedError(self._close_reason, method)
        request_id = self._new_id()
        msg = self._request_message(request_id, method, params)
        future: asyncio.Future[tuple[dict[str, Any], int]] = asyncio.get_running_loop().create_future()
        self._pending[request_id] = (method, params, future)
        wait = timeout if timeout is not None else self.timeout
        timed_out = False
        try:
            try:
                await self._send(msg, method)
            except (OSError, RuntimeError) as e:
                self._pending.pop(request_id, None)
                if future.done() and not future.cancelled():
                    future.exception()  # the reader failed it meanwhile: this error says the same
                raise ConnectionClosedError(self._connection_lost(e), method) from e
            # shield: a timeout or a cancellation must not cancel the future the reader completes
            done, _ = await asyncio.wait((future,), timeout=wait)
            if not done:
                timed_out = True
                raise RequestTimeoutError(f"no reply to {method} within {wait} s (request cancelled)", method)
            reply, barrier = future.result()
        except BaseException:
            # timed out, or the awaiting task was cancelled (asyncio.CancelledError): nobody
            # awaits the answer any more; the server stops the work and answers -32800
            self._cancel(request_id, method)
            if not timed_out and future.done() and not future.cancelled():
                future.exception()  # retrieved: a ConnectionClosedError nobody will see
            raise
        await self._wait_for_events(barrier)
        if "error" in reply:
            error = reply["error"] if isinstance(reply["error"], Mapping) else {}
            raise error_for(error, method, params)
        return reply.get("result")

    def _cancel(self, request_id: int, method: str) -> bool:
        """Gives up on a pending request: ``$/cancelRequest`` for it, its late answer dropped.

        Synchronous (no await), so that it runs to the end in a task being cancelled: the frame
        goes straight to the stream's buffer (whole frames never interleave there). False when
        the request is no longer pending (answered, or failed by the reader at the end).
        """
        if self._pending.pop(request_id, None) is None:
            return False
        self._remember_abandoned(self._abandoned, request_id, method)
        if not self._closed and not self._writer.is_closing():
            msg = self._cancel_message(request_id)
            try:
                data = encode(msg, self.framing)
                self._trace("send", msg, None)
                self._writer.write(data)
            except (OSError, RuntimeError) as e:
                self._connection_lost(e)
        return True

    async def notify(self, method: str, params: Mapping[str, Any] | None = None) -> None:
        """Sends a notification (no reply)."""
        if self._closed:
            raise ConnectionClosedError(self._close_reason, method)
        try:
            await self._send(self._notification_message(method, params), method)
        except (OSError, RuntimeError) as e:
            raise ConnectionClosedError(self._connection_lost(e), method) from e

    def _connection_lost(self, error: BaseException) -> str:
        """Marks the client closed after a failed write; returns the reason to raise with.

        Called before the ConnectionClosedError is raised, so that ``closed`` is already True
        when the caller sees it (the reader task may not have reached the end of the stream
        yet). The reader still delivers replies that were already received and fails the calls
        left pending when it reaches the end of the stream.
        """
        if not self._closed:
            self._close_reason = f"Connection closed: {error}"
            self._closed = True
        return self._close_reason

    async def _send(self, msg: Any, method: str | None) -> None:
        data = encode(msg, self.framing)
        self._trace("send", msg, method)
        async with self._write_lock:
            self._writer.write(data)
            await self._writer.drain()

    # -- lifecycle (contract section 8) -------------------------------------------------------

    async def shutdown(self, *, timeout: float | None = None) -> None:
        """``shutdown``: the server finishes what is in flight and answers every later request of
        this connection but ``exit`` with ``-32600``. Returns once it answered (result null)."""
        await self.call(SHUTDOWN, None, timeout=timeout)
        self._shutdown_answered = True

    async def exit(self) -> None:
        """``exit`` (a notification): on a spawned server's stdio, ends the process (status 0 after
        :meth:`shutdown`, 1 without); on a TCP or Unix socket connection, closes that connection.
        :meth:`close` still has to be awaited (it then only waits)."""
        await self.notify(EXIT)
        self._exit_sent = True

    async def _wait_for_events(self, barrier: int) -> None:
        if barrier <= 0 or asyncio.current_task() is self._dispatch_task:
            return
        async with self._dispatch_cond:
            await self._dispatch_cond.wait_for(lambda: self._dispatched >= barrier or self._dispatch_task.done())

    # -- notifications -----------------------------------------------------------------------

    def subscribe(self, method: str) -> AsyncSubscription:
        """Queues every ``method`` notification from now on (``await sub.get()``)."""
        return AsyncSubscription(self, method)

    # -- the adapter role --------------------------------------------------------------------

    async def serve_adapter(self, adapter_class_name: str, handler: AsyncAdapterHandler) -> AsyncAdapterRegistration:
        """Registers this connection as the mediation adapter ``adapter_class_name``.

        ``handler(load)`` (a function or a coroutine function) answers each
        ``adapter.loadNativeAd``: it returns a mapped ad or raises ``AdapterError``.
        """
        with self._cb_lock:
            self._adapter_handlers[adapter_class_name] = handler
        try:
            await self.mediation_register_adapter(adapter_class_name)
        except BaseException:
            with self._cb_lock:
                self._adapter_handlers.pop(adapter_class_name, None)
            raise
        return AsyncAdapterRegistration(self, adapter_class_name)

    async def stop_serving_adapter(self, adapter_class_name: str) -> bool:
        try:
            return bool((await self.mediation_unregister_adapter(adapter_class_name))["unregistered"])
        finally:
            with self._cb_lock:
                self._adapter_handlers.pop(adapter_class_name, None)

    async def _answer_request(self, msg: dict[str, Any]) -> None:
        request_id = msg.get("id")
        method = msg["method"]
        if method != LOAD_NATIVE_AD:
            reply = method_not_found_reply(request_id, method)
        else:
            class_name, handler = self._adapter_handler(msg.get("params"))
            if handler is None:
                reply = no_adapter_reply(request_id, class_name)
            else:
                load = AdapterLoad.from_request(msg.get("params"), request_id)
                hashable = _hashable(request_id)
                task = asyncio.current_task()
                if hashable and task is not None:
                    self._serving[request_id] = (load, task)
                try:
                    mapped = handler(load)
                    if inspect.isawaitable(mapped):
                        mapped = await mapped
                except asyncio.CancelledError:
                    if not load.cancelled.is_set():
                        raise  # the client closing, not the server cancelling
                    reply = None
                except Exception as e:  # noqa: BLE001 - every failure is an answer
                    reply = failure_reply(request_id, e)
                else:
                    reply = success_reply(request_id, mapped)
                finally:
                    if hashable:
                        self._serving.pop(request_id, None)
                if load.cancelled.is_set():
                    log.debug("native_ads: the server cancelled %s %r: no answer is sent", method, request_id)
                    if task is not None:
                        task.uncancel()
                    return
        if not self._closed:
            try:
                await self._send(reply, method)
            except (OSError, RuntimeError) as e:
                self._connection_lost(e)

    def _spawn_task(self, coro: Any) -> None:
        task = asyncio.create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    # -- tasks -------------------------------------------------------------------------------

    async def _read_loop(self) -> None:
        try:
            while True:
                frame = await read_frame_async(self._reader, self.framing)
                if frame is None:
                    break
                try:
                    message = json.loads(frame)
                except ValueError:
                    log.warning("native_ads: undecodable frame from the server: %r", frame[:200])
                    continue
                for m in message if isinstance(message, list) else [message]:
                    self._receive(m)
        except (OSError, ValueError, FramingError, asyncio.LimitOverrunError) as e:
            if not self._closed:
                self._close_reason = f"Connection closed: {e}"
        finally:
            # closed first: a call that fails from here on finds `closed` already True
            self._closed = True
            # the server closed (or is shutting down and waits for our FIN): close our side too
            with contextlib.suppress(OSError, RuntimeError):
                self._writer.close()
            pending = list(self._pending.values())
            self._pending.clear()
            for method, _, future in pending:
                if not future.done():
                    future.set_exception(ConnectionClosedError(self._close_reason, method))
            self._events.put_nowait(None)

    def _receive(self, msg: Any) -> None:
        kind = classify(msg)
        if kind == "response":
            rid = msg["id"]
            entry = self._pending.pop(rid, None) if _hashable(rid) else None
            late = self._abandoned.pop(rid, None) if entry is None and _hashable(rid) else None
            self._trace("recv", msg, entry[0] if entry else late)
            if entry is None:
                if late is not None:
                    log.debug("native_ads: late reply to a %s that was cancelled: %r", late, msg)
                else:
                    log.warning("native_ads: a reply matches no request: %r", msg)
                return
            future = entry[2]
            if not future.done():
                future.set_result((msg, self._enqueued))
        elif kind == "notification":
            self._trace("recv", msg, msg["method"])
            if msg["method"] == CANCEL_REQUEST:
                self._server_cancelled(msg.get("params"))
            self._enqueued += 1
            self._events.put_nowait((self._enqueued, msg["method"], msg.get("params")))
        elif kind == "request":
            self._trace("recv", msg, msg["method"])
            self._spawn_task(self._answer_request(msg))
        else:
            self._trace("recv", msg, None)
            log.warning("native_ads: ignoring an invalid message from the server: %r", msg)

    def _server_cancelled(self, params: Any) -> None:
        """``$/cancelRequest`` from the server: the load it names is cancelled, its task too."""
        request_id = params.get("id") if isinstance(params, Mapping) else None
        if not _hashable(request_id):
            return
        entry = self._serving.get(request_id)
        if entry is not None:
            load, task = entry
            load.cancelled.set()
            task.cancel()

    async def _dispatch_loop(self) -> None:
        while True:
            item = await self._events.get()
            if item is None:
                async with self._dispatch_cond:
                    self._dispatch_cond.notify_all()
                return
            seq, method, params = item
            callbacks, any_callbacks = self._listeners(method)
            for cb in callbacks:
                try:
                    result = cb(params)
                    if inspect.isawaitable(result):
                        await result
                except Exception:  # noqa: BLE001
                    log.exception("native_ads: %s callback %r failed", method, cb)
            for any_cb in any_callbacks:
                try:
                    result = any_cb(method, params)
                    if inspect.isawaitable(result):
                        await result
                except Exception:  # noqa: BLE001
                    log.exception("native_ads: notification callback %r failed", any_cb)
            async with self._dispatch_cond:
                self._dispatched = seq
                self._dispatch_cond.notify_all()

    async def _drain_stderr(self, stream: asyncio.StreamReader) -> None:
        try:
            while True:
                raw = await stream.readline()
                if not raw:
                    break
                line = raw.decode("utf-8", "replace").rstrip("\r\n")
                self._stderr_lines.append(line)
                if self._echo_stderr:
                    print(line, file=sys.stderr, flush=True)
                if not self._listening.done() and (address := parse_listening(line)) is not None:
                    self._listening.set_result(address)
                if not self._listening_unix.done() and (unix_path := parse_listening_unix(line)) is not None:
                    self._listening_unix.set_result(unix_path)
        except (OSError, ValueError):
            pass
        finally:
            if not self._listening.done():
                self._listening.set_result(None)
            if not self._listening_unix.done():
                self._listening_unix.set_result(None)

    # -- the spawned server ------------------------------------------------------------------

    @property
    def stderr_lines(self) -> list[str]:
        return list(self._stderr_lines)

    async def tcp_address(self, timeout: float = 10.0) -> tuple[str, int]:
        """The ``(host, port)`` a spawned server reported (``args=["--tcp", "127.0.0.1:0"]``)."""
        if self.process is None:
            raise RuntimeError("tcp_address() is for a spawned server")
        try:
            address = await asyncio.wait_for(asyncio.shield(self._listening), timeout)
        except TimeoutError:
            address = None
        if address is None:
            raise RuntimeError(f"the server reported no 'listening on HOST:PORT' within {timeout} s")
        return address

    async def unix_path(self, timeout: float = 10.0) -> str:
        """The socket path a spawned server reported (``args=["--unix", PATH]``)."""
        if self.process is None:
            raise RuntimeError("unix_path() is for a spawned server")
        try:
            path = await asyncio.wait_for(asyncio.shield(self._listening_unix), timeout)
        except TimeoutError:
            path = None
        if path is None:
            raise RuntimeError(f"the server reported no 'listening on unix:PATH' within {timeout} s")
        return path

    # -- closing -----------------------------------------------------------------------------

    @property
    def closed(self) -> bool:
        """True once the connection is closed: by :meth:`close`, by the server, or by a failed write.

        It is True before any call fails with :class:`ConnectionClosedError`.
        """
        return self._closed

    async def close(self, timeout: float = 5.0) -> int | None:
        """Closes the connection. Returns a spawned server's exit status (None for a socket).

        A server this client spawned is ended the LSP way: ``shutdown`` (its answer awaited at
        most ``timeout`` seconds), ``exit``, stdin closed, then the process awaited (at most
        ``timeout``); only a process that lingers is killed. A server that does not know
        ``shutdown`` (``-32601``) is ended by stdin EOF alone (and SIGTERM when it serves TCP or
        a Unix socket too, since it then outlives its stdin).
        """
        exit_sent = await self._end_spawned_server(timeout)
        with contextlib.suppress(OSError, RuntimeError):
            self._writer.close()
        if self.process is None:
            with contextlib.suppress(OSError, RuntimeError, asyncio.TimeoutError):
                await asyncio.wait_for(self._writer.wait_closed(), timeout)
        try:
            await asyncio.wait_for(asyncio.shield(self._read_task), timeout)
        except (TimeoutError, Exception):  # noqa: BLE001
            self._read_task.cancel()
            with contextlib.suppress(BaseException):
                await self._read_task
        code: int | None = None
        if self.process is not None:
            if not exit_sent and self._serves_tcp and self.process.returncode is None:
                with contextlib.suppress(ProcessLookupError):
                    self.process.terminate()  # with sockets served too, stdin EOF only closes stdio
            try:
                code = await asyncio.wait_for(self.process.wait(), timeout)
            except TimeoutError:
                with contextlib.suppress(ProcessLookupError):
                    self.process.terminate()
                try:
                    code = await asyncio.wait_for(self.process.wait(), timeout)
                except TimeoutError:
                    with contextlib.suppress(ProcessLookupError):
                        self.process.kill()
                    code = await self.process.wait()
            if self._stderr_task is not None:
                with contextlib.suppress(BaseException):
                    await asyncio.wait_for(self._stderr_task, timeout)
        self._closed = True
        self._events.put_nowait(None)
        if asyncio.current_task() is not self._dispatch_task:
            with contextlib.suppress(BaseException):
                await asyncio.wait_for(self._dispatch_task, timeout)
        for task in list(self._tasks):
            task.cancel()
        return code

    async def _end_spawned_server(self, timeout: float) -> bool:
        """``shutdown`` then ``exit`` to a spawned server that is still there; True once ``exit``
        went out (the server ends by itself then)."""
        if self._exit_sent:
            return True
        if self.process is None or self.process.returncode is not None or self._closed:
            return False
        if asyncio.current_task() is self._read_task:
            return False  # it could not read the answer
        if not self._shutdown_answered:
            try:
                await self.shutdown(timeout=timeout)
            except MethodNotFound:
                return False  # an older server: stdin EOF ends it
            except ConnectionClosedError:
                return False
            except NativeAdsError as e:  # timed out, or refused: exit still ends the process
                log.debug("native_ads: shutdown failed while closing: %s", e)
        try:
            await self.exit()
        except ConnectionClosedError:
            return False
        return True

    async def __aenter__(self) -> AsyncClient:
        return self

    async def __aexit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        await self.close()

    def __repr__(self) -> str:
        state = "closed" if self.closed else "open"
        return f"<AsyncClient {self.name} {self.framing} {state}>"


def _hashable(value: Any) -> bool:
    try:
        hash(value)
    except TypeError:
        return False
    return True
