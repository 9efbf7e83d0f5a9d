#!/usr/bin/env python3
"""Writes src/native_ads/_methods.py: one typed method per RPC method, sync and async.

The sync client and the asyncio client expose the same methods; both are generated from the
table below so that they cannot drift apart. Run it after changing the table:

    python3 clients/python/tools/gen_methods.py          # rewrite
    python3 clients/python/tools/gen_methods.py --check  # exit 1 when the file is stale (a test runs this)
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass, field
from pathlib import Path

TARGET = Path(__file__).resolve().parent.parent / "src" / "native_ads" / "_methods.py"

REQUIRED = object()


@dataclass
class P:
    """One param: Python name, wire name, annotation, default (REQUIRED or a literal's source)."""

    py: str
    wire: str
    type: str
    default: object = REQUIRED
    keyword_only: bool = False
    convert: str | None = None  # an expression of `v` applied before sending (e.g. list(v))


@dataclass
class M:
    py: str
    wire: str
    result: str
    doc: str
    params: list[P] = field(default_factory=list)


def ad_id() -> P:
    return P("ad_id", "adId", "str")


METHODS: list[M] = [
    M(
        "load_ad",
        "loadAd",
        "LoadAdResult",
        "Loads 1 to ``options['numberOfAds']`` ads from an ad unit.\n\n"
        'With ``ad_response_string`` (an OpenRTB Native 1.2 response, bare or ``{"native": ...}``, or an\n'
        "OpenRTB 2.x bid response), the ads are that response's (``ad_unit_id`` names what it is for);\n"
        "``native_request`` (the Native 1.2 request, an object or its JSON) types its untyped assets.\n\n"
        "Raises :class:`AdLoadError` (``1000 + GADErrorCode``) when nothing loads; a response string\n"
        "that cannot be mapped raises :class:`ReceivedInvalidResponseError` (1013, ``field`` the place).",
        [
            P("ad_unit_id", "adUnitID", "str"),
            P("ad_types", "adTypes", "Sequence[AdKind] | None", "None", True, "list(v)"),
            P(
                "custom_native_ad_format_ids",
                "customNativeAdFormatIDs",
                "Sequence[str] | None",
                "None",
                True,
                "list(v)",
            ),
            P("options", "options", "AdLoaderOptions | None", "None", True),
            P("request", "request", "AdRequestOptions | None", "None", True),
            P("ad_response_string", "adResponseString", "str | None", "None", True),
            P("native_request", "nativeRequest", "OpenRTBNativeRequest | str | None", "None", True),
        ],
    ),
    M(
        "string_for_key",
        "stringForKey",
        "str | None",
        "The text asset ``key`` of an ad, or None when it has none.",
        [ad_id(), P("key", "key", "str")],
    ),
    M(
        "image_for_key",
        "imageForKey",
        "Image | None",
        "The image asset ``key`` (``icon``, ``image``, a custom format's image, ``_adChoices``), or None.",
        [ad_id(), P("key", "key", "str")],
    ),
    M(
        "perform_click_on_asset",
        "performClickOnAsset",
        "ClickResult",
        "Clicks an asset: records the click and says what the app should open.",
        [
            ad_id(),
            P("key", "key", "str"),
            P("openable_url_schemes", "openableURLSchemes", "Sequence[str] | None", "None", True, "list(v)"),
        ],
    ),
    M(
        "record_impression",
        "recordImpression",
        "ImpressionResult",
        "Records the ad's impression (once: later calls answer ``recorded`` false).",
        [ad_id()],
    ),
    M(
        "export_ad",
        "exportAd",
        "OpenRTBNativeResponse",
        "A loaded system-defined native ad as an OpenRTB Native 1.2 response object (every asset typed,\n"
        "so ``load_ad(unit, ad_response_string=json.dumps(...))`` loads it back).\n\n"
        "Raises :class:`WrongAdKind` (2003) for a custom native ad.",
        [ad_id(), P("format", "format", "ExportFormat", '"openrtb-native-1.2"')],
    ),
    M(
        "set_custom_click_handler",
        "setCustomClickHandler",
        "CustomClickHandlerResult",
        "Enables (or disables) this connection's custom click handler for a custom native ad.",
        [ad_id(), P("enabled", "enabled", "bool", "True")],
    ),
    M(
        "release_ad",
        "releaseAd",
        "ReleaseResult",
        "Releases the ad: every later call naming it raises :class:`AdNotFound`.",
        [ad_id()],
    ),
    M(
        "register_ad_view",
        "registerAdView",
        "RegisterAdViewResult",
        "Registers the native ad view: which assets are clickable.",
        [
            ad_id(),
            P("clickable_assets", "clickableAssets", "Sequence[str] | None", "None", True, "list(v)"),
            P("nonclickable_assets", "nonclickableAssets", "Sequence[str] | None", "None", True, "list(v)"),
        ],
    ),
    M(
        "unregister_ad_view",
        "unregisterAdView",
        "UnregisterAdViewResult",
        "Undoes :meth:`register_ad_view`.",
        [ad_id()],
    ),
    M(
        "report_visibility",
        "reportVisibility",
        "VisibilityResult",
        "Reports how many pixels of a registered ad are on screen (the first visible pixel records the impression).",
        [ad_id(), P("visible_pixels", "visiblePixels", "int")],
    ),
    M(
        "report_screen_dismissed",
        "reportScreenDismissed",
        "ScreenDismissedResult",
        "The user came back from the screen a click presented.",
        [ad_id()],
    ),
    M(
        "mute_this_ad",
        "muteThisAd",
        "MuteResult",
        "Mutes the ad (Mute This Ad), optionally with one of its ``muteThisAdReasons``.",
        [ad_id(), P("reason", "reason", "str | None", "None")],
    ),
    M(
        "video_control",
        "videoControl",
        "VideoControlResult",
        "Plays, pauses, stops, mutes or unmutes the ad's video (custom controls only).",
        [ad_id(), P("action", "action", "VideoAction")],
    ),
    M(
        "get_video_state",
        "getVideoState",
        "VideoState | None",
        "The video controller's state, or None for an ad without video.",
        [ad_id()],
    ),
    M(
        "get_events",
        "getEvents",
        "EventsResult",
        "The event log, oldest first, optionally filtered.",
        [
            P("ad_id", "adId", "str | None", "None", True),
            P("event", "event", "str | None", "None", True),
            P("since", "since", "int | None", "None", True),
            P("limit", "limit", "int | None", "None", True),
        ],
    ),
    M(
        "store_define_format",
        "store.defineFormat",
        "DefineFormatResult",
        "Defines (or replaces) a custom native ad format.",
        [P("format", "format", "Format")],
    ),
    M(
        "store_put_creative",
        "store.putCreative",
        "PutCreativeResult",
        "Adds (or replaces) a creative.",
        [P("creative", "creative", "Creative")],
    ),
    M(
        "store_put_ad_unit",
        "store.putAdUnit",
        "PutAdUnitResult",
        "Adds (or replaces) an ad unit, optionally with a mediation waterfall.",
        [P("ad_unit", "adUnit", "AdUnit")],
    ),
    M(
        "store_remove",
        "store.remove",
        "RemoveResult",
        "Removes a format, creative or ad unit.",
        [P("kind", "kind", "StoreItemKind"), P("id", "id", "str")],
    ),
    M(
        "store_list",
        "store.list",
        "StoreListResult",
        "Lists the store: formats, creatives (summaries) and ad units.",
        [],
    ),
    M(
        "inspector_watch",
        "inspector.watch",
        "InspectorSnapshot",
        "Watches the process: its live ads and recent events now, then ``inspector.adLoaded``, ``inspector.loadFailed``, ``inspector.adReleased``, ``inspector.event`` and ``inspector.storeChanged`` notifications (what the inspector page at ``GET /`` shows).",
        [],
    ),
    M(
        "formats_schema",
        "formats.schema",
        "dict[str, Any]",
        "The JSON Schema (draft 2020-12) of the ads of a custom native ad format, built-in or user-defined.",
        [P("format_id", "formatID", "str")],
    ),
    M("discover", "rpc.discover", "dict[str, Any]", "The service's OpenRPC document.", []),
    M(
        "mediation_register_adapter",
        "mediation.registerAdapter",
        "RegisterAdapterResult",
        "Registers this connection as the adapter for a class (prefer :meth:`serve_adapter`).",
        [P("adapter_class_name", "adapterClassName", "str")],
    ),
    M(
        "mediation_unregister_adapter",
        "mediation.unregisterAdapter",
        "UnregisterAdapterResult",
        "Unregisters an adapter class this connection registered.",
        [P("adapter_class_name", "adapterClassName", "str")],
    ),
    M(
        "report_impression",
        "adapter.reportImpression",
        "ReportResult",
        "Adapter role: the network recorded the impression of an ad this connection mapped.",
        [ad_id()],
    ),
    M(
        "report_click",
        "adapter.reportClick",
        "ReportResult",
        "Adapter role: the network handled a click on an ad this connection mapped.",
        [ad_id()],
    ),
    M(
        "report_video_event",
        "adapter.reportVideoEvent",
        "ReportResult",
        "Adapter role: a video event of an ad this connection mapped.",
        [ad_id(), P("event", "event", "VideoEventName")],
    ),
    M(
        "report_full_screen",
        "adapter.reportFullScreen",
        "ReportResult",
        "Adapter role: a full-screen event of an ad this connection mapped.",
        [ad_id(), P("event", "event", "FullScreenEventName")],
    ),
]

TYPES = [
    "AdKind",
    "AdLoaderOptions",
    "AdRequestOptions",
    "AdUnit",
    "ClickResult",
    "Creative",
    "CustomClickHandlerResult",
    "DefineFormatResult",
    "EventsResult",
    "ExportFormat",
    "Format",
    "FullScreenEventName",
    "Image",
    "ImpressionResult",
    "LoadAdResult",
    "MuteResult",
    "OpenRTBNativeRequest",
    "OpenRTBNativeResponse",
    "PutAdUnitResult",
    "PutCreativeResult",
    "RegisterAdViewResult",
    "RegisterAdapterResult",
    "ReleaseResult",
    "RemoveResult",
    "ReportResult",
    "ScreenDismissedResult",
    "StoreItemKind",
    "StoreListResult",
    "InspectorSnapshot",
    "UnregisterAdViewResult",
    "UnregisterAdapterResult",
    "VideoAction",
    "VideoControlResult",
    "VideoEventName",
    "VideoState",
    "VisibilityResult",
]


def signature(m: M) -> str:
    parts = ["self"]
    star = False
    for p in m.params:
        if p.keyword_only and not star:
            parts.append("*")
            star = True
        s = f"{p.py}: {p.type}"
        if p.default is not REQUIRED:
            s += f" = {p.default}"
        parts.append(s)
    # every method takes a per-call timeout (seconds; None: the client's own ``timeout``)
    if not star:
        parts.append("*")
    parts.append("timeout: float | None = None")
    return ", ".join(parts)


def body(m: M, is_async: bool) -> list[str]:
    lines: list[str] = []
    required = [p for p in m.params if p.default is REQUIRED or p.default not in ("None",)]
    optional = [p for p in m.params if p not in required]

    def value(p: P) -> str:
        return p.convert.replace("(v)", f"({p.py})") if p.convert else p.py

    inits = ", ".join(f'"{p.wire}": {value(p)}' for p in required)
    lines.append(f"params: dict[str, Any] = {{{inits}}}")
    for p in optional:
        lines.append(f"if {p.py} is not None:")
        lines.append(f'    params["{p.wire}"] = {value(p)}')
    call = f'self._request("{m.wire}", params, timeout)'
    if is_async:
        call = "await " + call
    lines.append(
        f"return cast({m.result!r}, {call})"
        if " " in m.result or "|" in m.result
        else f"return cast({m.result}, {call})"
    )
    return lines


def render() -> str:
    out: list[str] = []
    w = out.append
    w('"""Generated by tools/gen_methods.py: do not edit. One method per RPC method, sync and async."""')
    w("")
    w("from __future__ import annotations")
    w("")
    w("from typing import Any, Sequence, cast")
    w("")
    w("from .types import (")
    for t in TYPES:
        w(f"    {t},")
    w(")")
    w("")
    w("#: Python method name -> wire method name, for every generated method.")
    w("METHOD_NAMES: dict[str, str] = {")
    for m in METHODS:
        w(f'    "{m.py}": "{m.wire}",')
    w("}")
    for is_async in (False, True):
        w("")
        w("")
        cls = "AsyncMethods" if is_async else "SyncMethods"
        kind = "coroutines" if is_async else "blocking calls"
        w(f"class {cls}:")
        w(f'    """The RPC methods as {kind}; the client provides ``_request``."""')
        w("")
        w("    __slots__ = ()")
        w("")
        d = "async def" if is_async else "def"
        w(
            f"    {d} _request(self, method: str, params: dict[str, Any], timeout: float | None = None) -> Any:"
            "  # pragma: no cover"
        )
        w("        raise NotImplementedError")
        for m in METHODS:
            w("")
            one_line = f"    {d} {m.py}({signature(m)}) -> {m.result}:"
            if len(one_line) <= 100:
                w(one_line)
            else:
                w(f"    {d} {m.py}(")
                for part in signature(m).split(", "):
                    w(f"        {part},")
                w(f"    ) -> {m.result}:")
            doc = m.doc.replace("\n", "\n        ")
            docstring = f'        """{doc}\n\n        Wire method ``{m.wire}``. ``timeout``: see ``call``.\n        """'
            w(docstring.replace("\n        \n", "\n\n"))
            for line in body(m, is_async):
                w("        " + line)
    w("")
    return "\n".join(out)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--check", action="store_true", help="exit 1 when the generated file is stale")
    args = ap.parse_args()
    text = render()
    if args.check:
        current = TARGET.read_text(encoding="utf-8") if TARGET.exists() else ""
        if current != text:
            print(f"{TARGET} is stale: run python3 {Path(__file__).name}", file=sys.stderr)
            return 1
        return 0
    TARGET.write_text(text, encoding="utf-8")
    print(f"wrote {TARGET}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
