"""Python client of native-ads, the Google Mobile Ads SDK native ads service (JSON-RPC 2.0).

>>> from native_ads import Client
>>> with Client.spawn() as client:                      # doctest: +SKIP
...     ad = client.load_ad("/21775744923/example/native")["ads"][0]
...     print(ad["headline"])

- :class:`Client`: blocking, thread-safe; :meth:`Client.spawn` (stdio), :meth:`Client.connect` (TCP)
  or :meth:`Client.connect_unix` (a Unix domain socket).
- :class:`AsyncClient`: the same methods as coroutines.
- :class:`Server`: a server process listening on TCP (and a Unix socket), for several clients.
- Every call takes ``timeout=``; a call given up (its timeout, a cancelled asyncio task) is
  cancelled on the server with ``$/cancelRequest``. ``close()`` ends a spawned server with
  ``shutdown`` and ``exit``.
- Errors: :class:`NativeAdsError` and its subclasses (:mod:`native_ads.errors`).
- Results and params: ``TypedDict``s in :mod:`native_ads.types` (OpenRTB Native 1.2 too:
  ``load_ad(unit, ad_response_string=...)``, ``export_ad(ad_id)``; the mock bidder is
  ``native_ads.http.HTTPClient.auction``).
- The mediation adapter role: ``client.serve_adapter(name, handler)`` (:mod:`native_ads.adapter`).
"""

from __future__ import annotations

from ._core import TraceHook, add_global_trace_hook, resolve_binary
from ._framing import FRAMINGS
from ._methods import METHOD_NAMES
from .adapter import ADAPTER_NOTIFICATIONS, AdapterHandler, AdapterLoad, AsyncAdapterHandler
from .aio import AsyncAdapterRegistration, AsyncClient, AsyncSubscription
from .client import AdapterRegistration, Client, Subscription
from .errors import (
    AdapterError,
    AdInternalError,
    AdLoadError,
    AdLoadTimeoutError,
    AdNotFound,
    AdObjectError,
    AssetNotFound,
    ConnectionClosedError,
    InternalError,
    InvalidAdRequestError,
    InvalidArgumentError,
    InvalidParams,
    InvalidRequest,
    MediationAdapterError,
    MessageTooLarge,
    MethodNotFound,
    MuteNotOffered,
    NativeAdsError,
    NetworkError,
    NoFillError,
    ParseError,
    ProtocolError,
    ReceivedInvalidResponseError,
    RequestCancelled,
    RequestTimeoutError,
    ServerError,
    TooManyConnections,
    WrongAdKind,
    error_for,
)
from .server import Server
from .types import (
    Ad,
    AdChoices,
    AdEvent,
    AdLoaderOptions,
    AdNetworkInfo,
    AdRequestOptions,
    AdUnit,
    ClickResult,
    Creative,
    CustomClick,
    Event,
    EventsResult,
    ExportFormat,
    Format,
    Framing,
    Image,
    ImpressionResult,
    LoadAdResult,
    MappedAd,
    MediaContent,
    OpenRTBBidResponse,
    OpenRTBNativeRequest,
    OpenRTBNativeResponse,
    ResponseInfo,
    VideoController,
    VideoEvent,
    VideoState,
)

__version__ = "1.0.0"

__all__ = [
    "__version__",
    # clients
    "Client",
    "AsyncClient",
    "Server",
    "Subscription",
    "AsyncSubscription",
    "AdapterRegistration",
    "AsyncAdapterRegistration",
    "AdapterLoad",
    "AdapterHandler",
    "AsyncAdapterHandler",
    "ADAPTER_NOTIFICATIONS",
    "METHOD_NAMES",
    "FRAMINGS",
    "TraceHook",
    "add_global_trace_hook",
    "resolve_binary",
    # errors
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
    # types
    "Ad",
    "AdChoices",
    "AdEvent",
    "AdLoaderOptions",
    "AdNetworkInfo",
    "AdRequestOptions",
    "AdUnit",
    "ClickResult",
    "Creative",
    "CustomClick",
    "Event",
    "EventsResult",
    "ExportFormat",
    "Format",
    "Framing",
    "Image",
    "ImpressionResult",
    "LoadAdResult",
    "MappedAd",
    "MediaContent",
    "OpenRTBBidResponse",
    "OpenRTBNativeRequest",
    "OpenRTBNativeResponse",
    "ResponseInfo",
    "VideoController",
    "VideoEvent",
    "VideoState",
]
