"""Exceptions: every JSON-RPC error reply becomes a :class:`NativeAdsError` subclass.

The class is chosen by the error ``code`` (``error_for``); every instance carries ``code``,
``message`` and ``data`` exactly as the server sent them, and ``method``, the request's method.

==============================  ==============  ==========================================
class                           code            extra attributes
==============================  ==============  ==========================================
ParseError                      -32700
InvalidRequest                  -32600
MethodNotFound                  -32601
InvalidParams                   -32602          ``field`` (``data.field``)
InternalError                   -32603
MessageTooLarge                 -32001
TooManyConnections              -32002
RequestCancelled                -32800          the server's answer to a request that a
                                                ``$/cancelRequest`` cancelled
AdLoadError                     1000..1999      ``gad_error_code``, ``name``, ``response_info``,
                                                ``field`` (``data.field``, when given)
  InvalidAdRequestError         1000
  NoFillError                   1001
  NetworkError                  1002
  ServerError                   1003
  AdLoadTimeoutError            1005
  MediationAdapterError         1008
  AdInternalError               1011
  InvalidArgumentError          1012
  ReceivedInvalidResponseError  1013            an ``adResponseString`` that cannot be
                                                mapped; ``field`` names the place
AdObjectError                   2001..2999      ``ad_id`` (the request's ``adId``, if any)
  AdNotFound                    2001
  AssetNotFound                 2002
  WrongAdKind                   2003
  MuteNotOffered                2004
ConnectionClosedError           -32000          raised for requests pending when the
                                                connection closes, or sent after
RequestTimeoutError             -32000          the call's ``timeout`` passed (the request
                                                was cancelled with ``$/cancelRequest``)
==============================  ==============  ==========================================

Cancelling an asyncio task that awaits a call raises :class:`asyncio.CancelledError` in it, as
asyncio always does; the request is cancelled on the server too.

:class:`AdapterError` is the other direction: an adapter handler raises it to fail a load.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from .types import ResponseInfo

__all__ = [
    "NativeAdsError",
    "ProtocolError",
    "ParseError",
    "InvalidRequest",
    "MethodNotFound",
    "InvalidParams",
    "InternalError",
    "MessageTooLarge",
    "TooManyConnections",
    "RequestCancelled",
    "AdLoadError",
    "InvalidAdRequestError",
    "NoFillError",
    "NetworkError",
    "ServerError",
    "AdLoadTimeoutError",
    "MediationAdapterError",
    "AdInternalError",
    "InvalidArgumentError",
    "ReceivedInvalidResponseError",
    "AdObjectError",
    "AdNotFound",
    "AssetNotFound",
    "WrongAdKind",
    "MuteNotOffered",
    "ConnectionClosedError",
    "RequestTimeoutError",
    "AdapterError",
    "error_for",
]


class NativeAdsError(Exception):
    """A JSON-RPC error reply (or a client-side failure shaped like one)."""

    code: int
    message: str
    data: Any
    method: str | None
    CODE: ClassVar[int | None] = None

    def __init__(self, code: int, message: str, data: Any = None, method: str | None = None) -> None:
        super().__init__(code, message, data)
        self.code = code
        self.message = message
        self.data = data
        self.method = method

    def __str__(self) -> str:
        where = f"{self.method}: " if self.method else ""
        return f"{where}{self.message} (code {self.code})"

    def __repr__(self) -> str:
        return f"{type(self).__name__}(code={self.code!r}, message={self.message!r}, data={self.data!r})"

    @property
    def detail(self) -> str | None:
        """``data.detail`` when the server gave one."""
        if isinstance(self.data, Mapping):
            d = self.data.get("detail")
            return d if isinstance(d, str) else None
        return None


class ProtocolError(NativeAdsError):
    """A reserved JSON-RPC code (-32768..-32000)."""


class ParseError(ProtocolError):
    CODE = -32700


class InvalidRequest(ProtocolError):
    CODE = -32600


class MethodNotFound(ProtocolError):
    CODE = -32601


class InvalidParams(ProtocolError):
    """``-32602``; ``field`` names the offending param (``options.numberOfAds``)."""

    CODE = -32602

    @property
    def field(self) -> str | None:
        if isinstance(self.data, Mapping):
            f = self.data.get("field")
            return f if isinstance(f, str) else None
        return None


class InternalError(ProtocolError):
    CODE = -32603


class MessageTooLarge(ProtocolError):
    CODE = -32001


class TooManyConnections(ProtocolError):
    CODE = -32002


class RequestCancelled(ProtocolError):
    """``-32800 Request cancelled``: the server's answer to a request that was cancelled.

    The client drops the answers to the requests it cancels itself (a timeout, a cancelled
    task); this is raised only for a request that someone else cancelled, e.g. with
    ``client.notify("$/cancelRequest", {"id": ...})``.
    """

    CODE = -32800


class AdLoadError(NativeAdsError):
    """``loadAd`` failed: ``code`` is ``1000 + gad_error_code``."""

    @property
    def gad_error_code(self) -> int:
        if isinstance(self.data, Mapping) and isinstance(self.data.get("gadErrorCode"), int):
            return int(self.data["gadErrorCode"])
        return self.code - 1000

    @property
    def name(self) -> str | None:
        """The camelCase name of the GADErrorCode (``noFill``)."""
        if isinstance(self.data, Mapping):
            n = self.data.get("name")
            return n if isinstance(n, str) else None
        return None

    @property
    def response_info(self) -> ResponseInfo | None:
        if isinstance(self.data, Mapping):
            info = self.data.get("responseInfo")
            if isinstance(info, dict):
                return info  # type: ignore[return-value]
        return None

    @property
    def field(self) -> str | None:
        """``data.field``: the place that is wrong, when the server names one (an
        ``adResponseString`` that cannot be mapped: ``native.assets[2].img.url``,
        ``seatbid[0].bid[1].adm.native.link.url``, ``adResponseString`` itself)."""
        if isinstance(self.data, Mapping):
            f = self.data.get("field")
            return f if isinstance(f, str) else None
        return None


class InvalidAdRequestError(AdLoadError):
    CODE = 1000


class NoFillError(AdLoadError):
    CODE = 1001


class NetworkError(AdLoadError):
    CODE = 1002


class ServerError(AdLoadError):
    CODE = 1003


class AdLoadTimeoutError(AdLoadError):
    CODE = 1005


class MediationAdapterError(AdLoadError):
    CODE = 1008


class AdInternalError(AdLoadError):
    CODE = 1011


class InvalidArgumentError(AdLoadError):
    CODE = 1012


class ReceivedInvalidResponseError(AdLoadError):
    """``1013 receivedInvalidResponse``: ``loadAd``'s ``adResponseString`` (or its
    ``nativeRequest``) cannot be mapped to an ad; ``field`` names the place, the message says
    what is wrong there."""

    CODE = 1013


class AdObjectError(NativeAdsError):
    """An error about an ad object (2001..2999)."""

    ad_id: str | None = None


class AdNotFound(AdObjectError):
    CODE = 2001


class AssetNotFound(AdObjectError):
    CODE = 2002


class WrongAdKind(AdObjectError):
    CODE = 2003


class MuteNotOffered(AdObjectError):
    CODE = 2004


class ConnectionClosedError(NativeAdsError, ConnectionError):
    """The connection closed before the reply came (or was closed when the call was made)."""

    CODE = -32000

    def __init__(self, message: str = "Connection closed", method: str | None = None) -> None:
        super().__init__(-32000, message, None, method)


class RequestTimeoutError(NativeAdsError, TimeoutError):
    """No reply within the call's ``timeout`` (or the client's): the request was cancelled.

    The client sent ``$/cancelRequest`` for it and drops its late answer. It is a
    :class:`NativeAdsError` (``except NativeAdsError`` catches every failure of a call) and a
    built-in :class:`TimeoutError` (``except TimeoutError`` works too). It is never an
    :class:`asyncio.CancelledError`: only cancelling the task raises that.
    """

    CODE = -32000

    def __init__(self, message: str = "Request timed out", method: str | None = None) -> None:
        super().__init__(-32000, message, None, method)


_BY_CODE: dict[int, type[NativeAdsError]] = {
    cls.CODE: cls
    for cls in (
        ParseError,
        InvalidRequest,
        MethodNotFound,
        InvalidParams,
        InternalError,
        MessageTooLarge,
        TooManyConnections,
        RequestCancelled,
        InvalidAdRequestError,
        NoFillError,
        NetworkError,
        ServerError,
        AdLoadTimeoutError,
        MediationAdapterError,
        AdInternalError,
        InvalidArgumentError,
        ReceivedInvalidResponseError,
        AdNotFound,
        AssetNotFound,
        WrongAdKind,
        MuteNotOffered,
    )
    if cls.CODE is not None
}


def error_for(
    error: Mapping[str, Any], method: str | None = None, params: Mapping[str, Any] | None = None
) -> NativeAdsError:
    """The exception for a JSON-RPC ``error`` object."""
    raw_code = error.get("code")
    code = raw_code if isinstance(raw_code, int) and not isinstance(raw_code, bool) else -32603
    message = error.get("message")
    if not isinstance(message, str):
        message = str(message)
    data = error.get("data")
    cls = _BY_CODE.get(code)
    if cls is None:
        if 1000 <= code <= 1999:
            cls = AdLoadError
        elif 2000 <= code <= 2999:
            cls = AdObjectError
        elif -32768 <= code <= -32000:
            cls = ProtocolError
        else:
            cls = NativeAdsError
    exc = cls(code, message, data, method)
    if isinstance(exc, AdObjectError) and params is not None:
        ad_id = params.get("adId")
        exc.ad_id = ad_id if isinstance(ad_id, str) else None
    return exc


class AdapterError(Exception):
    """Raised by an adapter handler to fail a load (docs/mediation.md).

    ``code``, ``message`` and ``domain`` become the source's ``AdNetworkInfo.error``;
    ``network_error=True`` marks a network error (the load then fails with ``1002`` when
    nothing else fills).
    """

    def __init__(self, code: int, message: str, network_error: bool = False, domain: str | None = None) -> None:
        super().__init__(code, message)
        self.code = code
        self.message = message
        self.network_error = network_error
        self.domain = domain

    def __str__(self) -> str:
        return f"{self.message} (code {self.code})"

    def to_error(self) -> dict[str, Any]:
        """The JSON-RPC error object sent back to the server."""
        data: dict[str, Any] = {"networkError": self.network_error}
        if self.domain is not None:
            data["domain"] = self.domain
        return {"code": self.code, "message": self.message, "data": data}
