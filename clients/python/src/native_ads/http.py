"""The RPC methods over HTTP: ``POST /rpc`` of a server started with ``--http HOST:PORT``
(contract section 9), with the standard library only (:mod:`http.client`).

>>> from native_ads.http import HTTPClient
>>> with HTTPClient("http://127.0.0.1:7412") as client:   # doctest: +SKIP
...     ad = client.load_ad("/21775744923/example/native")["ads"][0]
...     client.record_impression(ad["adId"])

One request a call, on one kept-alive connection (made again when the server closed it).
There are no notifications over ``POST``: ads loaded this way live until :meth:`release_ad`
or expiry, and their events are in the event log (:meth:`get_events`). For notifications,
use a WebSocket (``GET /rpc``), TCP or stdio (:class:`native_ads.Client`). The same server
shows everything at ``GET /``: the inspector page.
"""

from __future__ import annotations

import http.client
import json
import threading
import urllib.parse
from collections.abc import Mapping, Sequence
from typing import Any

from ._methods import SyncMethods
from .errors import ConnectionClosedError, NativeAdsError, ProtocolError, RequestTimeoutError, error_for

__all__ = ["HTTPClient", "HTTPStatusError"]


class HTTPStatusError(NativeAdsError):
    """The server answered with an HTTP error status (403: the Host or Origin was refused,
    413: the body is over ``--max-message-bytes``, 415, ...), not a JSON-RPC reply."""

    CODE = -32000

    def __init__(self, status: int, body: str, method: str | None = None) -> None:
        super().__init__(-32000, f"HTTP {status}: {body.strip()}", {"status": status}, method)
        self.status = status


class HTTPClient(SyncMethods):
    """The methods of :class:`native_ads.Client` as ``POST /rpc`` calls.

    ``url`` is the server's (``http://HOST:PORT``; a path other than ``/`` is not expected);
    ``timeout`` bounds each call (seconds). ``origin`` is sent as the ``Origin`` header, for
    trying the server's checks. Thread-safe: calls are made one at a time.
    """

    def __init__(self, url: str = "http://127.0.0.1:7412", *, timeout: float = 30.0, origin: str | None = None) -> None:
        parts = urllib.parse.urlsplit(url)
        if parts.scheme != "http" or not parts.hostname:
            raise ValueError(f"HTTPClient expects http://HOST:PORT, got {url!r}")
        self.host = parts.hostname
        self.port = parts.port or 80
        self.timeout = timeout
        self.origin = origin
        self._connection: http.client.HTTPConnection | None = None
        self._lock = threading.Lock()
        self._ids = 0

    def __enter__(self) -> HTTPClient:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        with self._lock:
            if self._connection is not None:
                self._connection.close()
                self._connection = None

    # -- calls ------------------------------------------------------------------------------

    def _request(self, method: str, params: dict[str, Any], timeout: float | None = None) -> Any:
        return self.call(method, params, timeout=timeout)

    def call(self, method: str, params: Mapping[str, Any] | None = None, *, timeout: float | None = None) -> Any:
        """Sends one request and returns its ``result``; an error reply raises
        :class:`NativeAdsError` (the same classes as :class:`native_ads.Client`)."""
        with self._lock:
            self._ids += 1
            request_id = self._ids
        message: dict[str, Any] = {"jsonrpc": "2.0", "id": request_id, "method": method}
        if params:
            message["params"] = dict(params)
        reply = self._post(message, method, timeout)
        if not isinstance(reply, Mapping) or reply.get("id") != request_id:
            raise ProtocolError(-32603, f"not the reply to request {request_id}: {reply!r}", None, method)
        if "error" in reply:
            error = reply["error"] if isinstance(reply["error"], Mapping) else {}
            raise error_for(error, method, params)
        return reply.get("result")

    def notify(self, method: str, params: Mapping[str, Any] | None = None) -> None:
        """Sends a notification (the server answers ``204``)."""
        message: dict[str, Any] = {"jsonrpc": "2.0", "method": method}
        if params:
            message["params"] = dict(params)
        self._post(message, method, None)

    def batch(self, calls: Sequence[tuple[str, Mapping[str, Any] | None]]) -> list[Any]:
        """Sends the calls as one batch; returns, in their order, each one's result or the
        :class:`NativeAdsError` its error reply stands for (not raised)."""
        with self._lock:
            first = self._ids + 1
            self._ids += len(calls)
        messages = [{"jsonrpc": "2.0", "id": first + i, "method": m, **({"params": dict(p)} if p else {})}
                    for i, (m, p) in enumerate(calls)]
        replies = self._post(messages, "batch", None)
        if not isinstance(replies, list):
            raise ProtocolError(-32603, f"a batch answered with {replies!r}", None, "batch")
        by_id = {r.get("id"): r for r in replies if isinstance(r, Mapping)}
        out: list[Any] = []
        for i, (method, params) in enumerate(calls):
            reply = by_id.get(first + i)
            if reply is None:
                out.append(ProtocolError(-32603, "no reply in the batch", None, method))
            elif "error" in reply:
                out.append(error_for(reply["error"] if isinstance(reply["error"], Mapping) else {}, method, params))
            else:
                out.append(reply.get("result"))
        return out

    # -- HTTP -------------------------------------------------------------------------------

    def _post(self, message: Any, method: str, timeout: float | None) -> Any:
        body = json.dumps(message, separators=(",", ":")).encode()
        headers = {"Content-Type": "application/json"}
        if self.origin:
            headers["Origin"] = self.origin
        with self._lock:
            for attempt in (1, 2):
                connection = self._connection
                fresh = connection is None
                if connection is None:
                    connection = http.client.HTTPConnection(self.host, self.port, timeout=timeout or self.timeout)
                    self._connection = connection
                elif connection.sock is not None:
                    connection.sock.settimeout(timeout or self.timeout)
                try:
                    connection.request("POST", "/rpc", body, headers)
                    response = connection.getresponse()
                    data = response.read()
                except TimeoutError as e:
                    self._drop()
                    raise RequestTimeoutError(f"no reply to {method} within {timeout or self.timeout} s", method) from e
                except (http.client.RemoteDisconnected, ConnectionResetError, BrokenPipeError) as e:
                    # A kept-alive connection the server closed: once more, on a new one.
                    self._drop()
                    if fresh or attempt == 2:
                        raise ConnectionClosedError(f"the server closed the connection: {e}", method) from e
                    continue
                except OSError as e:
                    self._drop()
                    raise ConnectionClosedError(f"cannot reach {self.host}:{self.port}: {e}", method) from e
                if response.will_close:
                    self._drop()
                break
        if response.status == 204:
            return None
        if response.status != 200:
            raise HTTPStatusError(response.status, data.decode("utf-8", "replace"), method)
        return json.loads(data)

    def _drop(self) -> None:
        if self._connection is not None:
            self._connection.close()
            self._connection = None
