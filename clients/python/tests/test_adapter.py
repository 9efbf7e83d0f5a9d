"""The mediation adapter role, end to end: an adapter on one connection, the app on another.

The adapter is the test's main connection (stdio or TCP, each framing); the app is a second
connection to the same server. Each test defines its own waterfall unit with
``store.putAdUnit`` (docs/mediation.md), so runs never collide.
"""

from __future__ import annotations

import threading
import time
from typing import Any

import pytest
from helpers import house_creative, mapped_ad, unique

from native_ads import (
    AdapterError,
    AdapterLoad,
    AdNotFound,
    Client,
    InvalidParams,
    MediationAdapterError,
    NetworkError,
    RequestTimeoutError,
)


def waterfall_unit(
    app: Client,
    adapter_class: str,
    *,
    ecpm: float = 3.0,
    timeout_ms: int = 2000,
    with_inventory: bool = True,
    parameter: str = "placement-42",
) -> str:
    unit_id = unique("/py/waterfall")
    sources: list[dict[str, Any]] = [
        {
            "type": "customEvent",
            "adapterClassName": adapter_class,
            "parameter": parameter,
            "eCPM": ecpm,
            "timeoutMs": timeout_ms,
            "label": f"{adapter_class} label",
        },
    ]
    unit: dict[str, Any] = {"id": unit_id, "waterfall": sources}
    if with_inventory:
        creative_id = unique("house")
        app.store_put_creative(house_creative(creative_id))  # type: ignore[arg-type]
        unit["creatives"] = [creative_id]
        sources.append({"type": "inventory", "eCPM": 0.5, "label": "House"})
    assert app.store_put_ad_unit(unit)["adUnitID"] == unit_id  # type: ignore[arg-type]
    return unit_id


def test_adapter_round_trip(net: Any) -> None:
    adapter = net.client
    name = unique("PyNet")
    loads: list[AdapterLoad] = []
    handler_threads: set[str] = set()

    def handler(load: AdapterLoad) -> dict[str, Any]:
        loads.append(load)
        handler_threads.add(threading.current_thread().name)
        wide = load.media_aspect_ratio != "portrait"
        return mapped_ad(
            images=[
                {
                    "url": "https://cdn.acme.example/hero.png",
                    "width": 1200 if wide else 627,
                    "height": 627 if wide else 1200,
                }
            ]
        )

    notes = adapter.subscribe("adapter.didRender")
    impressions = adapter.subscribe("adapter.didRecordImpression")
    clicks = adapter.subscribe("adapter.didRecordClickOnAsset")
    untracks = adapter.subscribe("adapter.didUntrackView")
    registration = adapter.serve_adapter(name, handler)
    assert registration.class_name == name

    app = net.other()
    app_events = app.subscribe("adEvent")
    unit_id = waterfall_unit(app, name)
    result = app.load_ad(unit_id, options={"mediaAspectRatio": "portrait"}, request={"isTestRequest": True})
    ad = result["ads"][0]
    assert ad["headline"] == "Rocket Boots 3000"
    assert ad["price"] == "$19.99" and ad["starRating"] == 4.5
    assert ad["extraAssets"] == {"acmeCampaign": "desert-2024"}
    assert (ad["images"][0]["width"], ad["images"][0]["height"]) == (627, 1200)
    info = result["responseInfo"]
    assert info["loadedAdNetworkResponseInfo"]["adNetworkClassName"] == name  # type: ignore[index]
    assert info["loadedAdNetworkResponseInfo"]["adSourceName"] == f"{name} label"  # type: ignore[index]
    assert [e["adNetworkClassName"] for e in info["adNetworkInfoArray"]] == [name]

    assert len(loads) == 1
    load = loads[0]
    assert load.adapter_class_name == name
    assert load.parameter == "placement-42"
    assert load.settings["parameter"] == "placement-42"
    assert load.options.get("mediaAspectRatio") == "portrait"
    assert load.is_test_request is True
    assert isinstance(load.request_id, str) and load.request_id.startswith("native-ads:")
    assert load.load_id
    assert threading.current_thread().name not in handler_threads

    ad_id = ad["adId"]
    app.register_ad_view(ad_id, clickable_assets=["headline", "callToAction"], nonclickable_assets=["body"])
    rendered = notes.get()
    assert rendered["adId"] == ad_id and rendered["loadId"] == load.load_id
    assert rendered["clickableAssets"] == ["headline", "callToAction"]

    assert app.record_impression(ad_id) == {"recorded": True}
    assert impressions.get() == {"loadId": load.load_id, "adId": ad_id}
    assert app_events.get()["event"] == "didRecordImpression"

    click = app.perform_click_on_asset(ad_id, "callToAction")
    assert click["recorded"] is True and click["url"] == "https://acme.example/click"
    assert clicks.get() == {"loadId": load.load_id, "adId": ad_id, "assetKey": "callToAction"}

    assert app.unregister_ad_view(ad_id) == {"unregistered": True}
    assert untracks.get()["adId"] == ad_id

    events = [e["event"] for e in app.get_events(ad_id=ad_id)["events"]]
    assert events.count("didRecordImpression") == 1 and events.count("didRecordClick") == 1

    # only the connection that mapped the ad may report on it
    with pytest.raises(AdNotFound):
        app.report_impression(ad_id)

    assert registration.unregister() is True
    assert adapter.mediation_unregister_adapter(name) == {"unregistered": False}
    # with the adapter gone, the waterfall skips it and the house ad fills
    fallback = app.load_ad(unit_id)
    entries = fallback["responseInfo"]["adNetworkInfoArray"]
    assert entries[0]["error"] is not None and entries[0]["error"]["code"] == 8
    assert fallback["ads"][0]["headline"].startswith("House ad")


def test_adapter_tracks_its_own_events(net: Any) -> None:
    adapter = net.client
    name = unique("PyTracker")
    reports: list[Any] = []

    # the network "sees" its view and reports back, from the callback itself
    adapter.on("adapter.handleImpression", lambda p: reports.append(adapter.report_impression(p["adId"])))
    adapter.on("adapter.handleClick", lambda p: reports.append(adapter.report_click(p["adId"])))
    adapter.serve_adapter(
        name,
        lambda load: mapped_ad(tracks=True, media={"aspectRatio": 1.7778, "hasVideoContent": True, "duration": 12}),
    )

    app = net.other()
    videos = app.subscribe("videoEvent")
    app_events = app.subscribe("adEvent")
    ad = app.load_ad(waterfall_unit(app, name))["ads"][0]
    ad_id = ad["adId"]
    assert ad["mediaContent"]["hasVideoContent"] is True

    impression = app.record_impression(ad_id)
    assert impression["recorded"] is False and impression.get("reason") == "handledByAdapter"
    assert app_events.wait_for(lambda e: e["event"] == "didRecordImpression")["adId"] == ad_id
    click = app.perform_click_on_asset(ad_id, "headline")
    assert click["recorded"] is False and click["action"] == "adapter"
    assert app_events.wait_for(lambda e: e["event"] == "didRecordClick")["adId"] == ad_id
    deadline = time.monotonic() + 5
    while len(reports) < 2 and time.monotonic() < deadline:
        time.sleep(0.01)
    assert reports == [{"recorded": True}, {"recorded": True}]
    # impressions still count once
    assert adapter.report_impression(ad_id) == {"recorded": False}

    assert adapter.report_video_event(ad_id, "didPlay") == {"recorded": True}
    assert videos.get() == {"adId": ad_id, "event": "didPlay"}
    assert adapter.report_full_screen(ad_id, "willPresentScreen") == {"recorded": True}
    assert app_events.wait_for(lambda e: e["event"] == "willPresentScreen")["adId"] == ad_id
    with pytest.raises(InvalidParams) as info:
        adapter.report_video_event(ad_id, "didExplode")  # type: ignore[arg-type]
    assert info.value.field == "event"


def test_adapter_errors_reach_the_app(net: Any) -> None:
    adapter = net.client
    name = unique("PyFailing")

    def handler(load: AdapterLoad) -> dict[str, Any]:
        if load.parameter == "network-down":
            raise AdapterError(7, "Acme: network unreachable", network_error=True, domain="com.acme")
        if load.parameter == "crash":
            raise KeyError("bug in the adapter")
        return {"body": "no headline: not a valid mapped ad"}

    adapter.serve_adapter(name, handler)
    app = net.other()

    # a network error with nothing else to fill: 1002, the source's error in responseInfo
    with pytest.raises(NetworkError) as failed:
        app.load_ad(waterfall_unit(app, name, with_inventory=False, parameter="network-down"))
    assert failed.value.code == 1002
    info = failed.value.response_info
    assert info is not None
    error = info["adNetworkInfoArray"][0]["error"]
    assert error == {"code": 7, "domain": "com.acme", "message": "Acme: network unreachable"}

    # an exception in the handler and an invalid mapped ad fail the source; the house ad fills
    for parameter in ("crash", "bad-ad"):
        result = app.load_ad(waterfall_unit(app, name, parameter=parameter))
        entries = result["responseInfo"]["adNetworkInfoArray"]
        assert entries[0]["adNetworkClassName"] == name and entries[0]["error"] is not None
        assert result["ads"][0]["headline"].startswith("House ad")
        if parameter == "crash":
            assert "KeyError" in entries[0]["error"]["message"]
        else:
            assert entries[0]["error"]["code"] == 102 and "headline" in entries[0]["error"]["message"]

    # an adapter class nobody serves: 1008
    with pytest.raises(MediationAdapterError) as missing:
        app.load_ad(waterfall_unit(app, unique("Nobody"), with_inventory=False))
    assert missing.value.code == 1008


def test_adapter_timeout_and_request_timeout(net: Any) -> None:
    adapter = net.client
    name = unique("PySlow")
    release = threading.Event()

    def slow(load: AdapterLoad) -> dict[str, Any]:
        release.wait(float(load.parameter or "1"))
        return mapped_ad()

    adapter.serve_adapter(name, slow)
    app = net.other()
    # the source's own timeout: it fails, the house ad fills, a late answer changes nothing
    result = app.load_ad(waterfall_unit(app, name, timeout_ms=150, parameter="0.6"))
    first = result["responseInfo"]["adNetworkInfoArray"][0]
    assert first["error"] is not None
    assert result["ads"][0]["headline"].startswith("House ad")
    # the caller's timeout: RequestTimeoutError, and the late reply is dropped quietly
    with pytest.raises(RequestTimeoutError):
        app.call("loadAd", {"adUnitID": waterfall_unit(app, name, timeout_ms=3000, parameter="1.0")}, timeout=0.2)
    release.set()
    assert app.store_list()["adUnits"]
