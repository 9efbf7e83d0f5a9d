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

:meth:`HTTPClient.auction` posts an OpenRTB 2.6 bid request to the server's mock native bidder,
``POST /openrtb2/auction`` (docs/openrtb.md): the bid response, or None when no impression got
a bid (``204``; :meth:`HTTPClient.auction_result` gives the ``X-OpenRTB-No-Bid`` reasons).
"""

from __future__ import annotations

import http.client
import json
import threading
import urllib.parse
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, cast

from ._methods import SyncMethods
from .errors import ConnectionClosedError, NativeAdsError, ProtocolError, RequestTimeoutError, error_for
from .types import OpenRTBBidRequest, OpenRTBBidResponse

__all__ = [
    "AUCTION_PATH",
    "NO_BID_HEADER",
    "AuctionError",
    "AuctionResult",
    "HTTPClient",
    "HTTPStatusError",
    "parse_no_bid_header",
]

#: The mock bidder's endpoint.
AUCTION_PATH = "/openrtb2/auction"
#: The header of a ``204`` answer: the impressions' no-bid reasons, ``"1=501; 2=500"``.
NO_BID_HEADER = "X-OpenRTB-No-Bid"
#: The OpenRTB version the bidder speaks (sent as ``X-OpenRTB-Version``).
OPENRTB_VERSION = "2.6"


class HTTPStatusError(NativeAdsError):
    """The server answered with an HTTP error status (403: the Host or Origin was refused,
    413: the body is over ``--max-message-bytes``, 415, ...), not a JSON-RPC reply."""

    CODE = -32000

    def __init__(self, status: int, body: str, method: str | None = None) -> None:
        super().__init__(-32000, f"HTTP {status}: {body.strip()}", {"status": status}, method)
        self.status = status


class AuctionError(HTTPStatusError):
    """``400`` from the bidder: the body is not a bid request (not a JSON object, no ``id``, no
    ``imp`` array, an impression without ``id``). ``error`` is the server's message
    (``ext.error``: ``"imp[0].id is required"``), ``nbr`` its no-bid reason (2, invalid
    request), ``request_id`` the ``id`` it echoed, ``body`` the whole decoded answer."""

    def __init__(self, status: int, body: str, method: str | None = AUCTION_PATH) -> None:
        super().__init__(status, body, method)
        decoded: Any = None
        try:
            decoded = json.loads(body)
        except ValueError:
            pass
        self.body: dict[str, Any] | None = decoded if isinstance(decoded, dict) else None
        ext = self.body.get("ext") if self.body else None
        error = ext.get("error") if isinstance(ext, dict) else None
        self.error: str = error if isinstance(error, str) else body.strip()
        nbr = self.body.get("nbr") if self.body else None
        self.nbr: int | None = nbr if isinstance(nbr, int) and not isinstance(nbr, bool) else None
        rid = self.body.get("id") if self.body else None
        self.request_id: str | None = rid if isinstance(rid, str) else None
        self.message = f"invalid bid request (HTTP {status}): {self.error}"
        self.data = {"status": status, "body": self.body if self.body is not None else body}


def parse_no_bid_header(value: str | None) -> dict[str, int]:
    """``"1=501; 2=500"`` as ``{"1": 501, "2": 500}`` (impression id to no-bid reason)."""
    reasons: dict[str, int] = {}
    for part in (value or "").split(";"):
        imp_id, sep, nbr = part.strip().rpartition("=")
        if not sep:
            continue
        try:
            reasons[imp_id.strip()] = int(nbr.strip())
        except ValueError:
            continue
    return reasons


@dataclass(frozen=True)
class AuctionResult:
    """One answer of ``POST /openrtb2/auction``.

    ``status`` is 200 (``bid_response`` set) or 204 (no impression got a bid:
    ``bid_response`` None, ``no_bid`` the raw ``X-OpenRTB-No-Bid`` header). ``no_bid_reasons``
    maps each impression without a bid to its ``nbr``, from the header of a 204 or from
    ``ext.noBid`` of a 200 (``500`` no such ad unit, ``501`` no creative meets the required
    assets, ``502`` none reaches the floor, ``503`` no native object, ``2`` an invalid native
    request).
    """

    status: int
    bid_response: OpenRTBBidResponse | None
    no_bid: str | None = None
    headers: dict[str, str] = field(default_factory=dict)

    @property
    def no_bid_reasons(self) -> dict[str, int]:
        if self.bid_response is None:
            return parse_no_bid_header(self.no_bid)
        reasons: dict[str, int] = {}
        ext = self.bid_response.get("ext")
        for entry in (ext.get("noBid") or []) if isinstance(ext, dict) else []:
            if isinstance(entry, dict) and isinstance(entry.get("impid"), str) and isinstance(entry.get("nbr"), int):
                reasons[entry["impid"]] = entry["nbr"]
        return reasons

    @property
    def bids(self) -> list[dict[str, Any]]:
        """Every bid of every seat (``seatbid[].bid[]``), in the response's order."""
        if self.bid_response is None:
            return []
        return [
            cast(dict[str, Any], bid)
            for seat in self.bid_response.get("seatbid") or []
            for bid in seat.get("bid") or []
        ]


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

    def auction(
        self, bid_request: OpenRTBBidRequest | str | bytes, *, timeout: float | None = None
    ) -> OpenRTBBidResponse | None:
        """Posts an OpenRTB 2.6 bid request to the mock bidder (``POST /openrtb2/auction``).

        Returns the bid response (a dict: ``{"id", "bidid", "seatbid": [{"seat", "bid": [...]}],
        "cur", "ext"?}``; each bid's ``adm`` is a Native 1.2 response as a JSON string, which
        :meth:`load_ad` takes as ``ad_response_string``), or None when no impression got a bid
        (``204``: :meth:`auction_result` gives the reasons). ``bid_request`` is a mapping, or its
        JSON (``str``/``bytes``) sent as it is. Raises :class:`AuctionError` (``400``, with the
        server's message) when the body is not a bid request, and :class:`HTTPStatusError` for
        any other refusal (403 Host/Origin, 413 too large).
        """
        return self.auction_result(bid_request, timeout=timeout).bid_response

    def auction_result(
        self, bid_request: OpenRTBBidRequest | str | bytes, *, timeout: float | None = None
    ) -> AuctionResult:
        """:meth:`auction`, with the answer's status and no-bid reasons (:class:`AuctionResult`)."""
        if isinstance(bid_request, bytes):
            body = bid_request
        elif isinstance(bid_request, str):
            body = bid_request.encode()
        else:
            body = json.dumps(bid_request, separators=(",", ":")).encode()
        status, headers, data = self._exchange(
            AUCTION_PATH, body, AUCTION_PATH, timeout, {"X-OpenRTB-Version": OPENRTB_VERSION}
        )
        text = data.decode("utf-8", "replace")
        if status == 400:
            raise AuctionError(status, text)
        if status == 204:
            return AuctionResult(204, None, headers.get(NO_BID_HEADER.lower()), headers)
        if status != 200:
            raise HTTPStatusError(status, text, AUCTION_PATH)
        try:
            decoded = json.loads(data)
        except ValueError as e:
            raise ProtocolError(-32700, f"the bidder answered with no JSON: {text[:200]!r}", None, AUCTION_PATH) from e
        if not isinstance(decoded, dict):
            raise ProtocolError(-32603, f"the bidder answered with {decoded!r}", None, AUCTION_PATH)
        return AuctionResult(200, cast(OpenRTBBidResponse, decoded), headers.get(NO_BID_HEADER.lower()), headers)

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
        status, _, data = self._exchange("/rpc", body, method, timeout)
        if status == 204:
            return None
        if status != 200:
            raise HTTPStatusError(status, data.decode("utf-8", "replace"), method)
        return json.loads(data)

    def _exchange(
        self, path: str, body: bytes, method: str, timeout: float | None, extra: Mapping[str, str] | None = None
    ) -> tuple[int, dict[str, str], bytes]:
        """One ``POST path`` on the kept-alive connection: the status, the headers (lower-case
        names) and the body."""
        headers = {"Content-Type": "application/json", **(extra or {})}
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
                    connection.request("POST", path, body, headers)
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
        return response.status, {k.lower(): v for k, v in response.getheaders()}, data

    def _drop(self) -> None:
        if self._connection is not None:
            self._connection.close()
            self._connection = None
