"""The blocking client: :class:`Client`.

One reader thread reads the connection and completes the pending calls (any number of threads
may call at once; replies are matched by id). Notifications go to an event thread that runs
the callbacks in arrival order; a call returns only after the callbacks of the notifications
that arrived before its reply have run (the server writes the notifications a request causes
before its reply), except when the call is made from a callback itself. Requests from the
server (``adapter.loadNativeAd``) are answered on a thread of their own each.

A call that times out (or is interrupted, e.g. by KeyboardInterrupt) is cancelled: the client
sends ``$/cancelRequest`` for it and drops its late answer. Closing a client that spawned its
server ends the server the LSP way: ``shutdown``, then ``exit``, then stdin closed.
"""

from __future__ import annotations

import collections
import json
import os
import queue
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from types import TracebackType
from typing import IO, Any

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
from ._framing import FramingError, check_framing, encode, read_frame
from ._methods import SyncMethods
from .adapter import (
    LOAD_NATIVE_AD,
    AdapterHandler,
    AdapterLoad,
    failure_reply,
    method_not_found_reply,
    no_adapter_reply,
    success_reply,
)
from .errors import ConnectionClosedError, MethodNotFound, NativeAdsError, RequestTimeoutError, error_for
from .types import Framing

__all__ = ["Client", "AdapterRegistration", "Subscription"]


class _Pending:
    __slots__ = ("method", "params", "event", "reply", "barrier")

    def __init__(self, method: str, params: Mapping[str, Any] | None) -> None:
        self.method = method
        self.params = params
        self.event = threading.Event()
        self.reply: dict[str, Any] | None = None
        self.barrier = 0


class _Transport:
    """A byte stream to the server: its reader, a writer and how to close it."""

    reader: IO[bytes]

    def write(self, data: bytes) -> None:
        raise NotImplementedError

    def shutdown(self) -> None:
        """Ends the conversation and wakes the reader (which then sees EOF); the descriptor
        stays open until ``close``, so a reader still on its way into a read cannot read
        from another connection that was given the same descriptor number."""
        self.close()

    def close(self) -> None:
        raise NotImplementedError


class _PipeTransport(_Transport):
    def __init__(self, proc: subprocess.Popen[bytes]) -> None:
        assert proc.stdin is not None and proc.stdout is not None
        self.proc = proc
        self.reader = proc.stdout
        self._stdin: IO[bytes] = proc.stdin

    def write(self, data: bytes) -> None:
        try:
            self._stdin.write(data)
            self._stdin.flush()
        except ValueError as e:  # closed by close()
            raise BrokenPipeError(str(e)) from e

    def close(self) -> None:
        try:
            self._stdin.close()  # the server finishes what is in flight and exits 0
        except (OSError, ValueError):
            # ValueError: closed while another thread writes to it, the buffered writer can
            # raise "PyMemoryView_FromBuffer(): info->buf must not be NULL"
            pass


class _SocketTransport(_Transport):
    """A TCP or a Unix domain socket."""

    def __init__(self, sock: socket.socket) -> None:
        self.sock = sock
        self.reader = sock.makefile("rb")

    def write(self, data: bytes) -> None:
        self.sock.sendall(data)

    def shutdown(self) -> None:
        try:
            self.sock.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass

    def close(self) -> None:
        self.shutdown()
        self.sock.close()
        try:
            self.reader.close()
        except OSError:
            pass


class Subscription:
    """Notifications of one method, queued as they arrive (``client.subscribe("adEvent")``)."""

    def __init__(self, client: Client, method: str) -> None:
        self.method = method
        self.received: list[Any] = []
        self._queue: queue.Queue[Any] = queue.Queue()
        self._unsubscribe = client.on(method, self._put)

    def _put(self, params: Any) -> None:
        self.received.append(params)
        self._queue.put(params)

    def get(self, timeout: float | None = 5.0) -> Any:
        """The next notification's params (TimeoutError when none arrives in time)."""
        try:
            return self._queue.get(timeout=timeout)
        except queue.Empty:
            raise TimeoutError(f"no {self.method} notification within {timeout} s") from None

    def wait_for(self, predicate: Callable[[Any], bool], timeout: float = 5.0) -> Any:
        """The first next notification whose params satisfy ``predicate``."""
        deadline = time.monotonic() + timeout
        while True:
            params = self.get(max(0.0, deadline - time.monotonic()))
            if predicate(params):
                return params

    def drain(self) -> list[Any]:
        """Everything queued now, without waiting."""
        items = []
        while True:
            try:
                items.append(self._queue.get_nowait())
            except queue.Empty:
                return items

    def close(self) -> None:
        self._unsubscribe()

    def __enter__(self) -> Subscription:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class AdapterRegistration:
    """An adapter class this client serves (``client.serve_adapter``)."""

    def __init__(self, client: Client, class_name: str) -> None:
        self.client = client
        self.class_name = class_name

    def unregister(self) -> bool:
        """Stops serving the class (``mediation.unregisterAdapter``); True when the server had it."""
        return self.client.stop_serving_adapter(self.class_name)

    def __enter__(self) -> AdapterRegistration:
        return self

    def __exit__(self, *exc: object) -> None:
        if not self.client.closed:
            self.unregister()

    def __repr__(self) -> str:
        return f"AdapterRegistration({self.class_name!r})"


class Client(ClientBase, SyncMethods):
    """A connection to a native-ads server, with one blocking method per RPC method.

    Make one with :meth:`spawn` (a server process of its own, over its stdio) or
    :meth:`connect` (TCP); use it as a context manager or call :meth:`close`.
    """

    def __init__(
        self,
        transport: _Transport,
        framing: Framing | str = "ndjson",
        *,
        timeout: float | None = None,
        name: str = "native-ads",
        process: subprocess.Popen[bytes] | None = None,
    ) -> None:
        ClientBase.__init__(self, framing, name)
        self.timeout = timeout
        self.process = process
        self._transport = transport
        self._write_lock = threading.Lock()
        self._pending: dict[Any, _Pending] = {}
        self._pending_lock = threading.Lock()
        self._abandoned: dict[Any, str] = {}  # cancelled requests: id -> method (their late replies)
        self._serving: dict[Any, AdapterLoad] = {}  # the server's requests being answered, by id
        self._shutdown_answered = False  # `shutdown` was answered: close() sends only `exit`
        self._exit_sent = False
        self._closed = threading.Event()  # set before any call fails with ConnectionClosedError
        self._close_reason = "Connection closed"
        self._reader_done = False  # under _pending_lock: the reader failed what was pending
        # notifications -> event thread, with the barrier that orders them before replies
        self._events: queue.Queue[tuple[int, str, Any] | None] = queue.Queue()
        self._enqueued = 0
        self._dispatched = 0
        self._dispatch_cond = threading.Condition()
        self._stderr_lines: collections.deque[str] = collections.deque(maxlen=500)
        self._listening: tuple[str, int] | None = None
        self._listening_unix: str | None = None
        self._listening_event = threading.Event()
        self._listening_unix_event = threading.Event()
        self._reader = threading.Thread(target=self._read_loop, name=f"{name}-reader", daemon=True)
        self._dispatcher = threading.Thread(target=self._dispatch_loop, name=f"{name}-events", daemon=True)
        self._dispatcher.start()
        self._reader.start()
        self._stderr_thread: threading.Thread | None = None
        if process is not None and process.stderr is not None:
            self._stderr_thread = threading.Thread(
                target=self._drain_stderr, args=(process.stderr,), name=f"{name}-stderr", daemon=True
            )
            self._stderr_thread.start()

    # -- construction ------------------------------------------------------------------------

    @classmethod
    def spawn(
        cls,
        path: str | os.PathLike[str] | None = None,
        args: Sequence[str] = (),
        framing: Framing | str = "ndjson",
        *,
        env: Mapping[str, str] | None = None,
        timeout: float | None = None,
        echo_stderr: bool = False,
        watch_parent: bool = True,
    ) -> Client:
        """Starts ``path --stdio *args`` and talks to it over its stdin/stdout.

        ``path`` defaults to ``$NATIVE_ADS_BIN``, else ``native-ads`` on the PATH. The server's
        stderr is kept (:attr:`stderr_lines`; ``echo_stderr`` also copies it to ours). Closing
        the client ends the server: ``shutdown`` (its answer awaited), ``exit``, stdin closed, and
        the process awaited (see :meth:`close`). The server is given ``--parent-pid`` (this
        process) unless ``args`` name one or ``watch_parent`` is false: it stops when this process
        ends, even killed, instead of outliving it.
        """
        check_framing(framing)
        binary = resolve_binary(path)
        proc = subprocess.Popen(
            server_argv(binary, args, stdio=True, watch_parent=watch_parent),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env=dict(env) if env is not None else None,
        )
        client = cls(_PipeTransport(proc), framing, timeout=timeout, name="native-ads", process=proc)
        client._echo_stderr = echo_stderr
        client._serves_tcp = "--tcp" in args or "--unix" in args
        return client

    @classmethod
    def connect(
        cls,
        host: str = "127.0.0.1",
        port: int = 7411,
        framing: Framing | str = "ndjson",
        *,
        timeout: float | None = None,
        connect_timeout: float = 10.0,
    ) -> Client:
        """Connects to a server's TCP address (``native-ads --tcp HOST:PORT``)."""
        check_framing(framing)
        sock = socket.create_connection((host, port), timeout=connect_timeout)
        sock.settimeout(None)
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        return cls(_SocketTransport(sock), framing, timeout=timeout, name=f"native-ads@{host}:{port}")

    @classmethod
    def connect_unix(
        cls,
        path: str | os.PathLike[str],
        framing: Framing | str = "ndjson",
        *,
        timeout: float | None = None,
        connect_timeout: float = 10.0,
    ) -> Client:
        """Connects to a server's Unix domain socket (``native-ads --unix PATH``)."""
        check_framing(framing)
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            sock.settimeout(connect_timeout)
            sock.connect(os.fspath(path))
            sock.settimeout(None)
        except BaseException:
            sock.close()
            raise
        return cls(_SocketTransport(sock), framing, timeout=timeout, name=f"native-ads@unix:{os.fspath(path)}")

    _echo_stderr = False
    _serves_tcp = False

    # -- calls -------------------------------------------------------------------------------

    def _request(self, method: str, params: dict[str, Any], timeout: float | None = None) -> Any:
        return self.call(method, params, timeout=timeout)

    def call(self, method: str, params: Mapping[str, Any] | None = None, *, timeout: float | None = None) -> Any:
        """Sends a request and returns its ``result``; an error reply raises :class:`NativeAdsError`.

        ``timeout`` (seconds; default: the client's ``timeout``, None for no limit) bounds the
        wait: past it the request is cancelled (``$/cancelRequest {"id"}`` is sent, its late
        answer dropped) and :class:`RequestTimeoutError` raised. An exception that interrupts
        the wait (KeyboardInterrupt) cancels the request the same way.
        """
        if self._closed.is_set():
            raise ConnectionClosedError(self._close_reason, method)
        request_id = self._new_id()
        msg = self._request_message(request_id, method, params)
        pending = _Pending(method, params)
        with self._pending_lock:
            if self._reader_done:  # the reader has failed the pending calls already
                raise ConnectionClosedError(self._close_reason, method)
            self._pending[request_id] = pending
        try:
            self._send(msg, method)
        except OSError as e:
            with self._pending_lock:
                self._pending.pop(request_id, None)
            raise ConnectionClosedError(self._connection_lost(e), method) from e
        wait = timeout if timeout is not None else self.timeout
        try:
            answered = pending.event.wait(wait)
        except BaseException:
            self._cancel(request_id, method)  # interrupted (KeyboardInterrupt): nobody awaits it now
            raise
        if not answered:
            if self._cancel(request_id, method):
                raise RequestTimeoutError(f"no reply to {method} within {wait} s (request cancelled)", method)
            pending.event.wait()  # the reader took the reply as the wait ended: it sets the event next
        reply = pending.reply
        if reply is None:
            raise ConnectionClosedError(self._close_reason, method)
        self._wait_for_events(pending.barrier)
        if "error" in reply:
            error = reply["error"] if isinstance(reply["error"], Mapping) else {}
            raise error_for(error, method, params)
        return reply.get("result")

    def _cancel(self, request_id: int, method: str) -> bool:
        """Gives up on a pending request: ``$/cancelRequest`` for it, its late answer dropped.

        False when it is no longer pending (answered, or failed by the reader at the end).
        """
        with self._pending_lock:
            if self._pending.pop(request_id, None) is None:
                return False
            self._remember_abandoned(self._abandoned, request_id, method)
        if not self._closed.is_set():
            try:
                self._send(self._cancel_message(request_id), None)
            except OSError as e:
                self._connection_lost(e)
        return True

    def notify(self, method: str, params: Mapping[str, Any] | None = None) -> None:
        """Sends a notification (no reply)."""
        if self._closed.is_set():
            raise ConnectionClosedError(self._close_reason, method)
        try:
            self._send(self._notification_message(method, params), method)
        except OSError as e:
            raise ConnectionClosedError(self._connection_lost(e), method) from e

    def _connection_lost(self, error: OSError) -> str:
        """Marks the client closed after a failed write; returns the reason to raise with.

        Called before the ConnectionClosedError is raised, so that ``closed`` is already True
        when the caller sees it (the reader may not have reached the end of the stream yet). The
        reader still delivers replies that were already received and fails the calls left
        pending when it reaches the end of the stream.
        """
        with self._pending_lock:
            if not self._closed.is_set():
                self._close_reason = f"Connection closed: {error}"
                self._closed.set()
            return self._close_reason

    def _send(self, msg: Any, method: str | None) -> None:
        data = encode(msg, self.framing)
        self._trace("send", msg, method)
        with self._write_lock:
            self._transport.write(data)

    # -- lifecycle (contract section 8) -------------------------------------------------------

    def shutdown(self, *, timeout: float | None = None) -> None:
        """``shutdown``: the server finishes what is in flight and answers every later request of
        this connection but ``exit`` with ``-32600``. Returns once it answered (result null)."""
        self.call(SHUTDOWN, None, timeout=timeout)
        self._shutdown_answered = True

    def exit(self) -> None:
        """``exit`` (a notification): on a spawned server's stdio, ends the process (status 0 after
        :meth:`shutdown`, 1 without); on a TCP or Unix socket connection, closes that connection.
        :meth:`close` still has to be called (it then only waits)."""
        self.notify(EXIT)
        self._exit_sent = True

    def _wait_for_events(self, barrier: int) -> None:
        """Waits until the notifications that came before a reply have been dispatched."""
        if barrier <= 0 or threading.current_thread() is self._dispatcher:
            return
        with self._dispatch_cond:
            self._dispatch_cond.wait_for(lambda: self._dispatched >= barrier or not self._dispatcher.is_alive())

    # -- notifications -----------------------------------------------------------------------

    def subscribe(self, method: str) -> Subscription:
        """Queues every ``method`` notification from now on (``get``, ``wait_for``)."""
        return Subscription(self, method)

    # -- the adapter role --------------------------------------------------------------------

    def serve_adapter(self, adapter_class_name: str, handler: AdapterHandler) -> AdapterRegistration:
        """Registers this connection as the mediation adapter ``adapter_class_name``.

        ``handler(load)`` answers each ``adapter.loadNativeAd`` (on a thread of its own): it
        returns a mapped ad or raises :class:`~native_ads.errors.AdapterError`.
        """
        with self._cb_lock:
            self._adapter_handlers[adapter_class_name] = handler
        try:
            self.mediation_register_adapter(adapter_class_name)
        except BaseException:
            with self._cb_lock:
                self._adapter_handlers.pop(adapter_class_name, None)
            raise
        return AdapterRegistration(self, adapter_class_name)

    def stop_serving_adapter(self, adapter_class_name: str) -> bool:
        try:
            return bool(self.mediation_unregister_adapter(adapter_class_name)["unregistered"])
        finally:
            with self._cb_lock:
                self._adapter_handlers.pop(adapter_class_name, None)

    def _answer_request(self, msg: dict[str, Any]) -> None:
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
                if hashable:
                    with self._pending_lock:
                        self._serving[request_id] = load
                try:
                    mapped = handler(load)
                except Exception as e:  # noqa: BLE001 - every failure is an answer
                    reply = failure_reply(request_id, e)
                else:
                    reply = success_reply(request_id, mapped)
                finally:
                    if hashable:
                        with self._pending_lock:
                            self._serving.pop(request_id, None)
                if load.cancelled.is_set():
                    log.debug("native_ads: the server cancelled %s %r: no answer is sent", method, request_id)
                    return
        try:
            if not self._closed.is_set():
                self._send(reply, method)
        except OSError as e:
            self._connection_lost(e)

    # -- threads -----------------------------------------------------------------------------

    def _read_loop(self) -> None:
        reader = self._transport.reader
        try:
            while True:
                frame = read_frame(reader, self.framing)
                if frame is None:
                    break
                try:
                    message = json.loads(frame)
                except ValueError:
                    log.warning("native_ads: undecodable frame from the server: %r", frame[:200])
                    continue
                for m in message if isinstance(message, list) else [message]:
                    self._receive(m)
        except (OSError, ValueError, FramingError) as e:
            with self._pending_lock:
                if not self._closed.is_set():
                    self._close_reason = f"Connection closed: {e}"
        finally:
            # closed first: a call that fails from here on finds `closed` already True
            self._closed.set()
            # the server closed (or is shutting down and waits for our FIN): close our side too
            try:
                self._transport.close()
            except Exception as e:  # noqa: BLE001 - the pending calls below must be failed anyway
                log.debug("native_ads: closing the transport failed: %r", e)
            with self._pending_lock:
                self._reader_done = True
                pending = list(self._pending.values())
                self._pending.clear()
            for p in pending:
                p.event.set()  # reply None: ConnectionClosedError
            self._events.put(None)

    def _receive(self, msg: Any) -> None:
        kind = classify(msg)
        if kind == "response":
            late: str | None = None
            with self._pending_lock:
                pending = self._pending.pop(msg["id"], None) if _hashable(msg["id"]) else None
                if pending is None and _hashable(msg["id"]):
                    late = self._abandoned.pop(msg["id"], None)
            self._trace("recv", msg, pending.method if pending else late)
            if pending is None:
                if late is not None:
                    log.debug("native_ads: late reply to a %s that was cancelled: %r", late, msg)
                elif msg.get("id") is not None or "error" not in msg:
                    log.warning("native_ads: a reply matches no request: %r", msg)
                else:
                    log.warning("native_ads: the server reported an error: %r", msg.get("error"))
                return
            pending.reply = msg
            pending.barrier = self._enqueued
            pending.event.set()
        elif kind == "notification":
            self._trace("recv", msg, msg["method"])
            if msg["method"] == CANCEL_REQUEST:
                self._server_cancelled(msg.get("params"))
            self._enqueued += 1
            self._events.put((self._enqueued, msg["method"], msg.get("params")))
        elif kind == "request":
            self._trace("recv", msg, msg["method"])
            threading.Thread(target=self._answer_request, args=(msg,), name=f"{self.name}-adapter", daemon=True).start()
        else:
            self._trace("recv", msg, None)
            log.warning("native_ads: ignoring an invalid message from the server: %r", msg)

    def _server_cancelled(self, params: Any) -> None:
        """``$/cancelRequest`` from the server: the load it names is cancelled."""
        request_id = params.get("id") if isinstance(params, Mapping) else None
        if not _hashable(request_id):
            return
        with self._pending_lock:
            load = self._serving.get(request_id)
        if load is not None:
            load.cancelled.set()

    def _dispatch_loop(self) -> None:
        while True:
            item = self._events.get()
            if item is None:
                with self._dispatch_cond:
                    self._dispatch_cond.notify_all()
                return
            seq, method, params = item
            callbacks, any_callbacks = self._listeners(method)
            for cb in callbacks:
                try:
                    cb(params)
                except Exception:  # noqa: BLE001
                    log.exception("native_ads: %s callback %r failed", method, cb)
            for any_cb in any_callbacks:
                try:
                    any_cb(method, params)
                except Exception:  # noqa: BLE001
                    log.exception("native_ads: notification callback %r failed", any_cb)
            with self._dispatch_cond:
                self._dispatched = seq
                self._dispatch_cond.notify_all()

    def _drain_stderr(self, stream: IO[bytes]) -> None:
        for raw in iter(stream.readline, b""):
            line = raw.decode("utf-8", "replace").rstrip("\r\n")
            self._stderr_lines.append(line)
            if self._echo_stderr:
                print(line, file=sys.stderr, flush=True)
            if self._listening is None and (address := parse_listening(line)) is not None:
                self._listening = address
                self._listening_event.set()
            if self._listening_unix is None and (unix_path := parse_listening_unix(line)) is not None:
                self._listening_unix = unix_path
                self._listening_unix_event.set()
        self._listening_event.set()
        self._listening_unix_event.set()

    # -- the spawned server ------------------------------------------------------------------

    @property
    def stderr_lines(self) -> list[str]:
        """The last 500 lines the spawned server wrote to stderr."""
        return list(self._stderr_lines)

    def tcp_address(self, timeout: float = 10.0) -> tuple[str, int]:
        """The ``(host, port)`` a spawned server reported (``args=["--tcp", "127.0.0.1:0"]``)."""
        if self.process is None:
            raise RuntimeError("tcp_address() is for a spawned server")
        self._listening_event.wait(timeout)
        if self._listening is None:
            raise RuntimeError(f"the server reported no 'listening on HOST:PORT' within {timeout} s")
        return self._listening

    def unix_path(self, timeout: float = 10.0) -> str:
        """The socket path a spawned server reported (``args=["--unix", PATH]``)."""
        if self.process is None:
            raise RuntimeError("unix_path() is for a spawned server")
        self._listening_unix_event.wait(timeout)
        if self._listening_unix is None:
            raise RuntimeError(f"the server reported no 'listening on unix:PATH' within {timeout} s")
        return self._listening_unix

    # -- closing -----------------------------------------------------------------------------

    @property
    def closed(self) -> bool:
        """True once the connection is closed: by :meth:`close`, by the server, or by a failed write.

        It is True before any call fails with :class:`ConnectionClosedError`.
        """
        return self._closed.is_set()

    def close(self, timeout: float = 5.0) -> int | None:
        """Closes the connection. Returns a spawned server's exit status (None for a socket).

        A server this client spawned is ended the LSP way: ``shutdown`` (its answer awaited at
        most ``timeout`` seconds), ``exit``, stdin closed, then the process awaited (at most
        ``timeout``); only a process that lingers is sent SIGTERM, then SIGKILL. A server that
        does not know ``shutdown`` (``-32601``) is ended by stdin EOF alone (and SIGTERM when it
        serves TCP or a Unix socket too, since it then outlives its stdin).
        """
        exit_sent = self._end_spawned_server(timeout)
        self._transport.shutdown()
        if threading.current_thread() is not self._reader:
            self._reader.join(timeout)
        if self.process is not None:
            if not exit_sent and self._serves_tcp and self.process.poll() is None:
                self.process.terminate()  # with sockets served too, stdin EOF only closes stdio
            try:
                self.process.wait(timeout)
            except subprocess.TimeoutExpired:
                self.process.terminate()
                try:
                    self.process.wait(timeout)
                except subprocess.TimeoutExpired:
                    self.process.kill()
                    self.process.wait()
        else:
            # the reader is done (or still blocked, when shutdown raced: closing wakes it)
            try:
                self._transport.close()
                self._transport.reader.close()
            except OSError:
                pass
        self._closed.set()
        self._events.put(None)
        if threading.current_thread() is not self._dispatcher:
            self._dispatcher.join(timeout)
        if self.process is not None:
            if self._stderr_thread is not None:
                self._stderr_thread.join(timeout)  # EOF once the process is gone
            for stream in (self.process.stdout, self.process.stderr):
                if stream is not None:
                    try:
                        stream.close()
                    except OSError:
                        pass
            return self.process.returncode
        return None

    def _end_spawned_server(self, timeout: float) -> bool:
        """``shutdown`` then ``exit`` to a spawned server that is still there; True once ``exit``
        went out (the server ends by itself then)."""
        if self._exit_sent:
            return True
        if (
            self.process is None
            or self.process.poll() is not None
            or self._closed.is_set()
            or threading.current_thread() is self._reader  # it could not read the answer
        ):
            return False
        if not self._shutdown_answered:
            try:
                self.shutdown(timeout=timeout)
            except MethodNotFound:
                return False  # an older server: stdin EOF ends it
            except ConnectionClosedError:
                return False
            except NativeAdsError as e:  # timed out, or refused: exit still ends the process
                log.debug("native_ads: shutdown failed while closing: %s", e)
        try:
            self.exit()
        except ConnectionClosedError:
            return False
        return True

    def __enter__(self) -> Client:
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()

    def __repr__(self) -> str:
        state = "closed" if self.closed else "open"
        return f"<Client {self.name} {self.framing} {state}>"


def _hashable(value: Any) -> bool:
    try:
        hash(value)
    except TypeError:
        return False
    return True
