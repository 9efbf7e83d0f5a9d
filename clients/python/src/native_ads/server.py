"""Running a native-ads server for socket clients (TCP, and a Unix domain socket): :class:`Server`."""

from __future__ import annotations

import collections
import os
import queue
import signal
import subprocess
import threading
import time
from collections.abc import Mapping, Sequence
from types import TracebackType
from typing import IO

from ._core import parse_listening, parse_listening_http, parse_listening_unix, resolve_binary, server_argv
from .aio import AsyncClient
from .client import Client
from .types import Framing

__all__ = ["Server"]


class Server:
    """A ``native-ads --tcp HOST:0`` process (with ``unix=PATH``, ``--unix PATH`` too);
    ``connect()`` (``connect_unix()``) makes clients to it.

    >>> with Server.start() as server, server.connect() as client:   # doctest: +SKIP
    ...     client.load_ad("/21775744923/example/native")
    """

    def __init__(
        self,
        process: subprocess.Popen[bytes],
        host: str,
        port: int,
        stderr: collections.deque[str],
        stderr_thread: threading.Thread | None = None,
        unix_path: str | None = None,
    ) -> None:
        self.process = process
        self._stderr_thread = stderr_thread
        self.host = host
        self.port = port
        #: The Unix domain socket it serves too (``Server.start(unix=PATH)``), else None.
        self.unix_path = unix_path
        #: ``http://HOST:PORT`` when it serves HTTP too (``Server.start(http=...)``), else None:
        #: ``POST /rpc`` (:class:`native_ads.http.HTTPClient`), and the inspector page at ``/``.
        self.http_url: str | None = None
        self._stderr = stderr

    @classmethod
    def start(
        cls,
        path: str | os.PathLike[str] | None = None,
        args: Sequence[str] = (),
        *,
        host: str = "127.0.0.1",
        port: int = 0,
        env: Mapping[str, str] | None = None,
        startup_timeout: float = 10.0,
        unix: str | os.PathLike[str] | None = None,
        http: str | None = None,
        watch_parent: bool = True,
    ) -> Server:
        """Starts the server on ``host:port`` (0: a free port) and waits for its address.

        With ``unix=PATH`` it also serves the Unix domain socket ``PATH`` (``--unix PATH``; the
        server creates it with mode 0600 and removes it when it exits), and ``start`` waits for
        that too. With ``http="HOST:PORT"`` (port 0: a free one) it also serves HTTP (``--http``):
        ``server.http_url`` is its URL. The server is given ``--parent-pid`` (this process) unless ``args`` name one or
        ``watch_parent`` is false: it stops when this process ends, even killed, instead of
        serving on as an orphan.
        """
        binary = resolve_binary(path)
        sockets = ["--tcp", f"{host}:{port}"]
        if unix is not None:
            sockets += ["--unix", os.fspath(unix)]
        if http is not None:
            sockets += ["--http", http]
        argv = server_argv(binary, [*sockets, *args], stdio=False, watch_parent=watch_parent)
        proc = subprocess.Popen(
            argv,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            env=dict(env) if env is not None else None,
        )
        lines: collections.deque[str] = collections.deque(maxlen=500)
        found: queue.Queue[tuple[str, int] | tuple[str, str] | str | None] = queue.Queue()
        assert proc.stderr is not None

        def drain(stream: IO[bytes]) -> None:
            reported = reported_unix = reported_http = False
            for raw in iter(stream.readline, b""):
                line = raw.decode("utf-8", "replace").rstrip("\r\n")
                lines.append(line)
                if not reported and (address := parse_listening(line)) is not None:
                    reported = True
                    found.put(address)
                if not reported_unix and (unix_path := parse_listening_unix(line)) is not None:
                    reported_unix = True
                    found.put(unix_path)
                if not reported_http and (url := parse_listening_http(line)) is not None:
                    reported_http = True
                    found.put(("http", url))
            found.put(None)

        thread = threading.Thread(target=drain, args=(proc.stderr,), name="native-ads-server-stderr", daemon=True)
        thread.start()
        address: tuple[str, int] | None = None
        unix_path: str | None = None
        http_url: str | None = None
        deadline = time.monotonic() + startup_timeout
        while address is None or (unix is not None and unix_path is None) or (http is not None and http_url is None):
            try:
                item = found.get(timeout=max(0.0, deadline - time.monotonic()))
            except queue.Empty:
                break
            if item is None:
                break
            if isinstance(item, str):
                unix_path = item
            elif item[0] == "http":
                http_url = str(item[1])
            else:
                address = (str(item[0]), int(item[1]))
        if address is None or (unix is not None and unix_path is None) or (http is not None and http_url is None):
            proc.kill()
            proc.wait()
            wanted = "'listening on HOST:PORT'" + (" and 'listening on unix:PATH'" if unix is not None else "") + (
                " and 'listening on http://HOST:PORT'" if http is not None else "")
            raise RuntimeError(f"{' '.join(argv)} did not report {wanted}: " + " | ".join(list(lines)[-5:]))
        server = cls(proc, address[0], address[1], lines, thread, unix_path)
        server.http_url = http_url
        return server

    @property
    def address(self) -> tuple[str, int]:
        return self.host, self.port

    @property
    def stderr_lines(self) -> list[str]:
        return list(self._stderr)

    def connect(self, framing: Framing | str = "ndjson", *, timeout: float | None = None) -> Client:
        """A new :class:`Client` connected to this server."""
        return Client.connect(self.host, self.port, framing, timeout=timeout)

    async def connect_async(self, framing: Framing | str = "ndjson", *, timeout: float | None = None) -> AsyncClient:
        """A new :class:`AsyncClient` connected to this server."""
        return await AsyncClient.connect(self.host, self.port, framing, timeout=timeout)

    def connect_unix(self, framing: Framing | str = "ndjson", *, timeout: float | None = None) -> Client:
        """A new :class:`Client` connected to this server's Unix domain socket."""
        return Client.connect_unix(self._unix(), framing, timeout=timeout)

    async def connect_unix_async(
        self, framing: Framing | str = "ndjson", *, timeout: float | None = None
    ) -> AsyncClient:
        """A new :class:`AsyncClient` connected to this server's Unix domain socket."""
        return await AsyncClient.connect_unix(self._unix(), framing, timeout=timeout)

    def _unix(self) -> str:
        if self.unix_path is None:
            raise RuntimeError("this server serves no Unix domain socket: start it with Server.start(unix=PATH)")
        return self.unix_path

    def stop(self, timeout: float = 10.0) -> int:
        """SIGTERM (the server flushes and exits 0); SIGKILL after ``timeout``. Returns the exit status."""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        if self._stderr_thread is not None:
            self._stderr_thread.join(timeout)  # EOF once the process is gone
        if self.process.stderr is not None:
            self.process.stderr.close()
        return self.process.returncode

    def __enter__(self) -> Server:
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.stop()

    def __repr__(self) -> str:
        unix = f" unix:{self.unix_path}" if self.unix_path is not None else ""
        return f"<Server {self.host}:{self.port}{unix} pid {self.process.pid}>"
