"""The mediation adapter role (docs/mediation.md, "Adapters in any language").

A connection that calls ``client.serve_adapter("MyNet", handler)`` registers the adapter class
``MyNet`` with the server; from then on the server sends it ``adapter.loadNativeAd`` requests
(ids ``"native-ads:N"``) and the client answers each with ``handler(load)``:

- return a mapped ad (:class:`~native_ads.types.MappedAd`, a dict with at least ``headline``):
  the client answers ``{"ad": <it>}``;
- raise :class:`~native_ads.errors.AdapterError` (code, message, ``network_error``): the
  client answers a JSON-RPC error that the server records as that source's error;
- any other exception is answered as an error too (``-32603``, the exception in the message).

The server then tells the adapter's connection about the ad it mapped through notifications
(``adapter.didRecordImpression``, ``adapter.didRecordClickOnAsset``, ``adapter.handleImpression``,
``adapter.handleClick``, ``adapter.didRender``, ``adapter.didUntrackView``): subscribe with
``client.on(...)``. An ad that says ``handlesUserImpressions``/``handlesUserClicks`` is tracked
by the adapter, which reports with ``client.report_impression(ad_id)`` /
``client.report_click(ad_id)`` (and ``report_video_event``, ``report_full_screen``).

When the app cancels its load, the server sends the adapter's connection ``$/cancelRequest``
naming its request (contract section 8): the load's :attr:`AdapterLoad.cancelled` is set (with
``AsyncClient``, the handler's task is cancelled too), and whatever the handler returns then is
not sent (the server would ignore it).
"""

from __future__ import annotations

import threading
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from .errors import AdapterError
from .types import MappedAd

__all__ = [
    "AdapterLoad",
    "AdapterHandler",
    "AsyncAdapterHandler",
    "ADAPTER_NOTIFICATIONS",
    "LOAD_NATIVE_AD",
]

LOAD_NATIVE_AD = "adapter.loadNativeAd"

#: The notifications the server sends to an adapter's connection.
ADAPTER_NOTIFICATIONS = (
    "adapter.didRecordImpression",
    "adapter.didRecordClickOnAsset",
    "adapter.handleImpression",
    "adapter.handleClick",
    "adapter.didRender",
    "adapter.didUntrackView",
)


@dataclass(frozen=True)
class AdapterLoad:
    """One ``adapter.loadNativeAd`` request: what the app's load asks of this network."""

    load_id: str
    """The server's id for this load (``loadId``), repeated in the later notifications."""
    adapter_class_name: str
    parameter: str | None
    """``adConfiguration.credentials.settings.parameter``: the waterfall source's parameter."""
    settings: dict[str, str]
    """Every credential setting."""
    options: dict[str, Any]
    """The app's loader options (``mediaAspectRatio``, ``disableImageLoading``, ...)."""
    is_test_request: bool | None
    request_id: str | int | None
    """The JSON-RPC id of the server's request (``"native-ads:N"``)."""
    params: dict[str, Any] = field(repr=False, default_factory=dict)
    """The request's params as received."""
    cancelled: threading.Event = field(repr=False, compare=False, default_factory=threading.Event)
    """Set when the server cancels the request (``$/cancelRequest``: the app gave up its load).
    A handler that works for long can check it (``load.cancelled.is_set()``) or wait on it."""

    @property
    def media_aspect_ratio(self) -> str:
        value = self.options.get("mediaAspectRatio")
        return value if isinstance(value, str) else "unknown"

    @property
    def disable_image_loading(self) -> bool:
        return bool(self.options.get("disableImageLoading", False))

    @classmethod
    def from_request(cls, params: Any, request_id: str | int | None) -> AdapterLoad:
        p: Mapping[str, Any] = params if isinstance(params, Mapping) else {}
        cfg = p.get("adConfiguration")
        cfg = cfg if isinstance(cfg, Mapping) else {}
        creds = cfg.get("credentials")
        creds = creds if isinstance(creds, Mapping) else {}
        settings = creds.get("settings")
        settings = dict(settings) if isinstance(settings, Mapping) else {}
        options = cfg.get("options")
        options = dict(options) if isinstance(options, Mapping) else {}
        parameter = settings.get("parameter")
        test = cfg.get("isTestRequest")
        return cls(
            load_id=str(p.get("loadId", "")),
            adapter_class_name=str(p.get("adapterClassName", "")),
            parameter=parameter if isinstance(parameter, str) else None,
            settings={str(k): v for k, v in settings.items()},
            options=options,
            is_test_request=test if isinstance(test, bool) else None,
            request_id=request_id,
            params=dict(p),
        )


AdapterHandler = Callable[[AdapterLoad], MappedAd | Mapping[str, Any]]
"""A sync adapter: returns the mapped ad or raises AdapterError."""

AsyncAdapterHandler = Callable[[AdapterLoad], MappedAd | Mapping[str, Any] | Awaitable[MappedAd | Mapping[str, Any]]]
"""An adapter for the asyncio client: a plain function or a coroutine function."""


def success_reply(request_id: Any, mapped: Any) -> dict[str, Any]:
    if not isinstance(mapped, Mapping):
        return failure_reply(
            request_id,
            TypeError(f"the adapter handler returned {type(mapped).__name__}, not a mapped ad (a dict)"),
        )
    return {"jsonrpc": "2.0", "id": request_id, "result": {"ad": dict(mapped)}}


def failure_reply(request_id: Any, exc: BaseException) -> dict[str, Any]:
    if isinstance(exc, AdapterError):
        error = exc.to_error()
    else:
        error = {
            "code": -32603,
            "message": f"adapter failed: {type(exc).__name__}: {exc}",
            "data": {"domain": "native_ads.python", "networkError": False},
        }
    return {"jsonrpc": "2.0", "id": request_id, "error": error}


def method_not_found_reply(request_id: Any, method: str) -> dict[str, Any]:
    return {
        "jsonrpc": "2.0",
        "id": request_id,
        "error": {"code": -32601, "message": "Method not found", "data": {"method": method}},
    }


def no_adapter_reply(request_id: Any, class_name: str) -> dict[str, Any]:
    return {
        "jsonrpc": "2.0",
        "id": request_id,
        "error": {
            "code": -32602,
            "message": f"Invalid params: no adapter {class_name!r} is served by this client",
            "data": {"field": "adapterClassName", "domain": "native_ads.python", "networkError": False},
        },
    }
