"""The sync client against the real binary: every method, notifications, errors.

Every test runs over stdio, TCP and a Unix socket, each in both framings (the ``net`` fixture).
"""

from __future__ import annotations

import os
import threading
from typing import Any

import pytest
from conftest import LIFECYCLE_METHODS, VALIDATOR
from helpers import (
    ADMOB_UNIT,
    BACKFILL_UNIT,
    CUSTOM_FORMAT,
    CUSTOM_VIDEO_FORMAT,
    NATIVE_UNIT,
    VIDEO_UNIT,
    house_creative,
    png_size,
    stdin_closing_server,
    unique,
)

import native_ads
from native_ads import (
    AdLoadError,
    AdNotFound,
    AdObjectError,
    AssetNotFound,
    Client,
    ConnectionClosedError,
    InvalidAdRequestError,
    InvalidParams,
    MethodNotFound,
    MuteNotOffered,
    NativeAdsError,
    NoFillError,
    WrongAdKind,
)


def load_one(client: Client, unit: str = NATIVE_UNIT, **kw: Any) -> native_ads.Ad:
    result = client.load_ad(unit, **kw)
    assert len(result["ads"]) >= 1
    return result["ads"][0]


# ---------------------------------------------------------------------------------------------
# loadAd


def test_load_native_ad(net: Any) -> None:
    result = net.client.load_ad(NATIVE_UNIT)
    assert len(result["ads"]) == 1
    ad = result["ads"][0]
    assert ad["kind"] == "native"
    assert isinstance(ad["headline"], str) and ad["headline"]
    assert ad["adChoices"] is None  # direct-sold
    assert ad["responseInfo"] == result["responseInfo"]
    info = result["responseInfo"]
    assert info["loadedAdNetworkResponseInfo"] is not None
    assert info["loadedAdNetworkResponseInfo"]["adSourceName"] == "Reservation"
    assert [e["adNetworkClassName"] for e in info["adNetworkInfoArray"]] == ["GADMAdapterGoogleAdMobAds"]
    image = ad["images"][0]
    assert image["mimeType"] == "image/png"
    assert png_size(image["data"]) == (image["width"], image["height"])
    assert ad["expiresAt"].endswith("Z")


def test_load_options_and_multiple_ads(net: Any) -> None:
    c = net.client
    result = c.load_ad(
        NATIVE_UNIT,
        ad_types=["native"],
        options={"disableImageLoading": True, "numberOfAds": 2, "shouldRequestMultipleImages": True},
        request={"isTestRequest": True, "keywords": ["games"]},
    )
    ads = result["ads"]
    assert len(ads) == 2
    assert len({a["adId"] for a in ads}) == 2
    assert {a["headline"] for a in ads} == {"Flood-It! 2", "Mobile Ads, Made Simple"}
    for ad in ads:
        assert "data" not in ad["images"][0]
        assert ad["icon"] is None or "data" not in ad["icon"]
    assert result["responseInfo"].get("isTestRequest") is True

    backfill = c.load_ad(BACKFILL_UNIT, options={"adChoicesPosition": "bottomLeft"})["ads"][0]
    assert backfill["adChoices"] is not None
    assert backfill["adChoices"]["position"] == "bottomLeft"
    assert backfill["responseInfo"]["loadedAdNetworkResponseInfo"]["adSourceName"] == "AdMob Network"


def test_custom_native_ad_and_its_assets(net: Any) -> None:
    c = net.client
    ad = load_one(c, NATIVE_UNIT, ad_types=["customNative"], custom_native_ad_format_ids=[CUSTOM_FORMAT])
    assert ad["kind"] == "customNative"
    assert ad["formatID"] == CUSTOM_FORMAT
    assert "headline" not in ad
    keys = ad["availableAssetKeys"]
    assert {"Headline", "MainImage", "Caption"} <= set(keys)
    headline = c.string_for_key(ad["adId"], "Headline")
    assert isinstance(headline, str) and headline
    image = c.image_for_key(ad["adId"], "MainImage")
    assert image is not None and png_size(image["data"]) == (image["width"], image["height"])
    assert c.string_for_key(ad["adId"], "NoSuchAsset") is None
    assert c.image_for_key(ad["adId"], "Headline") is None
    # the whole custom ad, assets included, against the format's own schema (when schemas/ has it)
    assets = {k: c.string_for_key(ad["adId"], k) or c.image_for_key(ad["adId"], k) for k in keys}
    VALIDATOR.check_custom("custom ad with its assets", dict(ad), {k: v for k, v in assets.items() if v is not None})


def test_string_and_image_for_key(net: Any) -> None:
    c = net.client
    ad = load_one(c, NATIVE_UNIT, options={"numberOfAds": 1})
    ad_id = ad["adId"]
    assert c.string_for_key(ad_id, "headline") == ad["headline"]
    assert c.string_for_key(ad_id, "body") == ad["body"]
    assert c.string_for_key(ad_id, "noSuchKey") is None
    icon = c.image_for_key(ad_id, "icon")
    assert icon is not None and icon["url"] == ad["icon"]["url"]  # type: ignore[index]
    image = c.image_for_key(ad_id, "image")
    assert image is not None and image["url"] == ad["images"][0]["url"]
    assert c.image_for_key(ad_id, "_adChoices") is None  # direct-sold: no AdChoices

    backfill = load_one(c, BACKFILL_UNIT)
    choices = c.image_for_key(backfill["adId"], "_adChoices")
    assert choices is not None and choices["url"] == backfill["adChoices"]["image"]["url"]  # type: ignore[index]


# ---------------------------------------------------------------------------------------------
# clicks, impressions, events


def test_record_impression_once_with_event(net: Any) -> None:
    c = net.client
    events: list[dict[str, Any]] = []
    c.on("adEvent", events.append)
    ad_id = load_one(c)["adId"]
    first = c.record_impression(ad_id)
    assert first == {"recorded": True}
    # the notification the request caused reached the callback before the call returned
    assert events == [{"adId": ad_id, "event": "didRecordImpression", "assetKey": None}]
    again = c.record_impression(ad_id)
    assert again["recorded"] is False
    assert again.get("reason") == "alreadyRecorded"
    assert len(events) == 1


def test_click_landing_page_and_full_screen_events(net: Any) -> None:
    c = net.client
    sub = c.subscribe("adEvent")
    ad_id = load_one(c, BACKFILL_UNIT)["adId"]
    click = c.perform_click_on_asset(ad_id, "headline")
    assert click["recorded"] is True
    assert click["action"] == "landingPage"
    assert isinstance(click["url"], str) and click["url"].startswith("https://")
    assert [e["event"] for e in sub.drain()] == ["didRecordClick", "willPresentScreen"]
    assert c.report_screen_dismissed(ad_id) == {"dismissed": True}
    assert [e["event"] for e in sub.drain()] == ["willDismissScreen", "didDismissScreen"]
    assert c.report_screen_dismissed(ad_id) == {"dismissed": False}
    # the asset identifier alias: the event names the asset
    c.perform_click_on_asset(ad_id, "3001")
    clicks = [e for e in sub.drain() if e["event"] == "didRecordClick"]
    assert clicks and clicks[0]["assetKey"] == "headline"
    # AdChoices: reported, never counted
    choices = c.perform_click_on_asset(ad_id, "_adChoices")
    assert choices["recorded"] is False and choices["action"] == "adChoices" and choices["url"]
    assert sub.drain() == []
    sub.close()


def test_click_deep_link(net: Any) -> None:
    c = net.client
    creative_id, unit_id = unique("deeplink"), unique("/py/deeplink")
    c.store_put_creative(house_creative(creative_id, deepLinks=["myapp://open/1", "other://x"]))
    c.store_put_ad_unit({"id": unit_id, "creatives": [creative_id]})
    ad_id = load_one(c, unit_id)["adId"]
    deep = c.perform_click_on_asset(ad_id, "headline", openable_url_schemes=["other", "myapp"])
    assert deep == {"recorded": True, "action": "deepLink", "url": "myapp://open/1"}
    landing = c.perform_click_on_asset(ad_id, "body", openable_url_schemes=["nope"])
    assert landing["action"] == "landingPage" and landing["url"] == f"https://example.com/{creative_id}"


def test_custom_click_handler_per_connection(net: Any) -> None:
    app = net.client
    clicks: list[dict[str, Any]] = []
    app.on("customClick", clicks.append)
    ad = load_one(app, NATIVE_UNIT, ad_types=["customNative"], custom_native_ad_format_ids=[CUSTOM_FORMAT])
    ad_id = ad["adId"]
    assert app.set_custom_click_handler(ad_id, True) == {"enabled": True}
    result = app.perform_click_on_asset(ad_id, "Headline")
    assert result["recorded"] is True
    assert result["action"] == "customClickHandler"
    assert result["url"] is None
    assert clicks == [{"adId": ad_id, "assetID": "Headline"}]

    # another connection did not enable the handler: its click opens the landing page,
    # and the loading connection still gets the adEvent
    events = app.subscribe("adEvent")
    other = net.other()
    elsewhere = other.perform_click_on_asset(ad_id, "Caption")
    assert elsewhere["recorded"] is True and elsewhere["action"] != "customClickHandler"
    got = events.wait_for(lambda e: e["event"] == "didRecordClick")
    assert got["adId"] == ad_id and got["assetKey"] == "Caption"
    assert len(clicks) == 1

    assert app.set_custom_click_handler(ad_id, enabled=False) == {"enabled": False}
    assert app.perform_click_on_asset(ad_id, "Headline")["action"] != "customClickHandler"


def test_release_ad(net: Any) -> None:
    c = net.client
    ad_id = load_one(c)["adId"]
    assert c.release_ad(ad_id) == {"released": True}
    with pytest.raises(AdNotFound) as info:
        c.record_impression(ad_id)
    assert info.value.code == 2001
    assert info.value.ad_id == ad_id
    with pytest.raises(AdNotFound):
        c.release_ad(ad_id)


def test_ad_view_and_visibility(net: Any) -> None:
    c = net.client
    sub = c.subscribe("adEvent")
    ad_id = load_one(c)["adId"]
    assert c.report_visibility(ad_id, 10) == {"impressionRecorded": False, "reason": "notRegistered"}
    reg = c.register_ad_view(ad_id, clickable_assets=["headline", "3002"], nonclickable_assets=["body", "mediaView"])
    assert reg["registered"] is True
    assert reg["clickableAssets"] == ["headline", "callToAction"]
    assert reg["nonclickableAssets"] == ["body", "mediaView"]
    assert c.report_visibility(ad_id, 0) == {"impressionRecorded": False, "reason": "notVisible"}
    assert c.report_visibility(ad_id, 1) == {"impressionRecorded": True}
    assert c.report_visibility(ad_id, 100)["impressionRecorded"] is False
    assert [e["event"] for e in sub.drain()] == ["didRecordImpression"]

    not_clickable = c.perform_click_on_asset(ad_id, "body")
    assert not_clickable["recorded"] is False and not_clickable.get("reason") == "notClickable"
    assert c.perform_click_on_asset(ad_id, "headline")["recorded"] is True

    with pytest.raises(InvalidParams) as info:
        c.register_ad_view(ad_id, clickable_assets=["headline", "mediaView"])
    assert info.value.field is not None and info.value.field.startswith("clickableAssets")

    assert c.unregister_ad_view(ad_id) == {"unregistered": True}
    assert c.unregister_ad_view(ad_id) == {"unregistered": False}


def test_mute_this_ad(net: Any) -> None:
    c = net.client
    sub = c.subscribe("adEvent")
    ad = load_one(c, ADMOB_UNIT)
    reasons = ad.get("muteThisAdReasons")
    assert reasons, ad
    with pytest.raises(InvalidParams) as info:
        c.mute_this_ad(ad["adId"], reason="not one of them")
    assert info.value.field == "reason"
    assert c.mute_this_ad(ad["adId"], reasons[0]) == {"muted": True}
    muted = sub.wait_for(lambda e: e["event"] == "didMute")
    assert muted == {"adId": ad["adId"], "event": "didMute", "assetKey": None, "reason": reasons[0]}
    assert c.record_impression(ad["adId"]) == {"recorded": False, "reason": "muted"}

    direct = load_one(c, NATIVE_UNIT)
    assert "muteThisAdReasons" not in direct
    with pytest.raises(MuteNotOffered) as info2:
        c.mute_this_ad(direct["adId"])
    assert info2.value.code == 2004


def test_video_controls_and_events(net: Any) -> None:
    c = net.client
    videos: list[dict[str, Any]] = []
    c.on("videoEvent", videos.append)
    ad = load_one(
        c, VIDEO_UNIT, options={"customControlsRequested": True, "startMuted": True, "disableImageLoading": True}
    )
    assert ad["mediaContent"]["hasVideoContent"] is True
    controller = ad["mediaContent"]["videoController"]
    assert controller["customControlsEnabled"] is True and controller["isMuted"] is True
    ad_id = ad["adId"]

    played = c.video_control(ad_id, "play")
    assert played["applied"] is True
    assert played["videoController"]["playbackState"] == "playing"  # type: ignore[typeddict-item]
    state = c.get_video_state(ad_id)
    assert state is not None and state["videoController"]["playbackState"] == "playing"
    again = c.video_control(ad_id, "play")
    assert again["applied"] is False and again.get("reason") == "noChange"
    assert c.video_control(ad_id, "pause")["applied"] is True
    assert c.video_control(ad_id, "unmute")["applied"] is True
    assert c.video_control(ad_id, "mute")["applied"] is True
    stopped = c.video_control(ad_id, "stop")
    assert stopped["applied"] is True and stopped["currentTime"] == 0  # type: ignore[typeddict-item]
    assert [v["event"] for v in videos] == ["didPlay", "didPause", "didUnmute", "didMute", "didEnd"]

    # without custom controls nothing changes
    plain = load_one(c, VIDEO_UNIT, options={"disableImageLoading": True})
    refused = c.video_control(plain["adId"], "play")
    assert refused["applied"] is False and refused.get("reason") == "customControlsNotEnabled"
    # no video at all
    still = load_one(c, NATIVE_UNIT, options={"disableImageLoading": True})
    assert c.get_video_state(still["adId"]) is None
    assert c.video_control(still["adId"], "play")["reason"] == "noVideo"  # type: ignore[typeddict-item]

    # a custom video format refuses play until its impression is recorded; recording it shows
    # the media and the video starts playing (contract 1.1)
    custom = load_one(
        c,
        VIDEO_UNIT,
        ad_types=["customNative"],
        custom_native_ad_format_ids=[CUSTOM_VIDEO_FORMAT],
        options={"customControlsRequested": True},
    )
    assert c.video_control(custom["adId"], "play").get("reason") == "impressionNotRecorded"
    c.record_impression(custom["adId"])
    state = c.get_video_state(custom["adId"])
    assert state is not None and state["videoController"]["playbackState"] == "playing"
    assert c.video_control(custom["adId"], "play").get("reason") == "noChange"
    assert c.video_control(custom["adId"], "pause")["applied"] is True


def test_get_events(net: Any) -> None:
    c = net.client
    start = c.get_events(limit=1)["lastSequence"]
    ad_id = load_one(c, BACKFILL_UNIT)["adId"]
    c.record_impression(ad_id)
    c.perform_click_on_asset(ad_id, "body")
    log = c.get_events(ad_id=ad_id)
    assert [e["event"] for e in log["events"]] == ["didRecordImpression", "didRecordClick", "willPresentScreen"]
    assert all(e["adId"] == ad_id and e["type"] == "adEvent" for e in log["events"])
    assert log["events"][1]["assetKey"] == "body"
    seqs = [e["sequence"] for e in log["events"]]
    assert seqs == sorted(seqs) and seqs[0] > start
    assert log["lastSequence"] >= seqs[-1]
    clicks = c.get_events(ad_id=ad_id, event="didRecordClick")["events"]
    assert [e["sequence"] for e in clicks] == [seqs[1]]
    assert [e["sequence"] for e in c.get_events(ad_id=ad_id, since=seqs[0])["events"]] == seqs[1:]
    assert len(c.get_events(ad_id=ad_id, limit=1)["events"]) == 1
    with pytest.raises(InvalidParams) as info:
        c.get_events(limit=0)
    assert info.value.field == "limit"


# ---------------------------------------------------------------------------------------------
# the store


def test_store_methods(net: Any) -> None:
    c = net.client
    fmt, creative_id, unit_id = unique("fmt"), unique("creative"), unique("/py/unit")
    defined = c.store_define_format(
        {
            "id": fmt,
            "assets": [
                {"name": "Title", "type": "text", "required": True},
                {"name": "Picture", "type": "image", "required": False},
            ],
        }
    )
    assert defined == {"formatID": fmt, "replaced": False}
    creative = {
        "id": creative_id,
        "kind": "customNative",
        "formatID": fmt,
        "assets": {
            "Title": "Hello from Python",
            "Picture": {"url": "https://example.com/p.png", "width": 40, "height": 30},
        },
        "landingPageURL": "https://example.com/py",
    }
    assert c.store_put_creative(creative) == {"creativeID": creative_id, "replaced": False}  # type: ignore[arg-type]
    assert c.store_put_creative(creative)["replaced"] is True  # type: ignore[arg-type]
    assert c.store_put_ad_unit({"id": unit_id, "creatives": [creative_id]}) == {"adUnitID": unit_id, "replaced": False}

    listing = c.store_list()
    assert any(f["id"] == fmt for f in listing["formats"])
    assert {"id": creative_id, "kind": "customNative", "formatID": fmt} in listing["creatives"]
    assert any(u["id"] == unit_id and u.get("creatives") == [creative_id] for u in listing["adUnits"])

    ad = load_one(c, unit_id, ad_types=["customNative"], custom_native_ad_format_ids=[fmt])
    assert c.string_for_key(ad["adId"], "Title") == "Hello from Python"
    picture = c.image_for_key(ad["adId"], "Picture")
    assert picture is not None and png_size(picture["data"]) == (40, 30)

    schema = c.formats_schema(fmt)
    assert schema.get("type") == "object"
    assert "Title" in str(schema)

    # a creative still listed by a unit cannot go; bad input names the field
    with pytest.raises(InvalidParams):
        c.store_remove("creative", creative_id)
    with pytest.raises(InvalidParams) as info:
        c.store_put_creative({**creative, "assets": {"Title": "x", "Picture": {"url": "u", "width": -1, "height": 1}}})  # type: ignore[typeddict-item]
    assert info.value.field is not None and "width" in info.value.field
    assert c.store_remove("adUnit", unit_id) == {"removed": True}
    assert c.store_remove("creative", creative_id) == {"removed": True}
    assert c.store_remove("format", fmt) == {"removed": True}
    assert c.store_remove("format", fmt) == {"removed": False}
    with pytest.raises(InvalidAdRequestError):
        c.load_ad(unit_id)


# ---------------------------------------------------------------------------------------------
# errors as exceptions


def test_errors_are_exceptions(net: Any) -> None:
    c = net.client
    with pytest.raises(InvalidParams) as bad:
        c.load_ad(NATIVE_UNIT, options={"numberOfAds": "two"})  # type: ignore[typeddict-item]
    assert bad.value.code == -32602
    assert bad.value.message.startswith("Invalid params")
    assert bad.value.field == "options.numberOfAds"
    assert bad.value.data["field"] == "options.numberOfAds"

    with pytest.raises(InvalidAdRequestError) as unknown:
        c.load_ad("/no/such/unit")
    e = unknown.value
    assert isinstance(e, AdLoadError) and isinstance(e, NativeAdsError)
    assert (e.code, e.gad_error_code, e.name) == (1000, 0, "invalidRequest")
    assert e.response_info is not None and e.response_info["adNetworkInfoArray"] == []
    assert e.method == "loadAd"

    with pytest.raises(InvalidAdRequestError):
        c.load_ad(NATIVE_UNIT, options={"numberOfAds": 0})
    with pytest.raises(InvalidAdRequestError):
        c.load_ad(NATIVE_UNIT, ad_types=["customNative"])

    # a unit whose only creative is targeted elsewhere: no fill
    creative_id, unit_id = unique("targeted"), unique("/py/nofill")
    c.store_put_creative(house_creative(creative_id, targeting={"keywords": ["cars"]}))
    c.store_put_ad_unit({"id": unit_id, "creatives": [creative_id]})
    with pytest.raises(NoFillError) as nofill:
        c.load_ad(unit_id, request={"keywords": ["boats"]})
    assert nofill.value.code == 1001 and nofill.value.gad_error_code == 1
    info = nofill.value.response_info
    assert info is not None and info["adNetworkInfoArray"][0]["error"]["code"] == 1  # type: ignore[index]
    assert load_one(c, unit_id, request={"keywords": ["Cars"]})["headline"].startswith("House ad")

    ad_id = load_one(c)["adId"]
    with pytest.raises(AssetNotFound) as missing:
        c.perform_click_on_asset(ad_id, "noSuchAsset")
    assert missing.value.code == 2002 and isinstance(missing.value, AdObjectError)
    with pytest.raises(WrongAdKind) as wrong:
        c.set_custom_click_handler(ad_id, True)
    assert wrong.value.code == 2003
    with pytest.raises(AdNotFound):
        c.string_for_key("ad-000000-999999", "headline")
    with pytest.raises(MethodNotFound) as nomethod:
        c.call("noSuchMethod", {})
    assert nomethod.value.code == -32601 and nomethod.value.message == "Method not found"
    with pytest.raises(InvalidParams) as required:
        c.call("recordImpression", {})
    assert required.value.field == "adId"


# ---------------------------------------------------------------------------------------------
# discovery


def test_discover(net: Any) -> None:
    doc = net.client.discover()
    assert doc["openrpc"].startswith("1.")
    names = {m["name"] for m in doc["methods"]}
    assert "loadAd" in names and "rpc.discover" in names
    # the client has a method for every method the service documents
    assert names - {*native_ads.METHOD_NAMES.values(), *LIFECYCLE_METHODS} == set()


# ---------------------------------------------------------------------------------------------
# the client itself: notifications, threads, closing


def test_notification_callbacks(net: Any) -> None:
    c = net.client
    seen: list[tuple[str, Any]] = []
    thread_names: set[str] = set()
    nested: list[Any] = []

    def on_event(params: Any) -> None:
        thread_names.add(threading.current_thread().name)
        # a callback may call the client (it runs on the event thread, not the reader)
        nested.append(c.string_for_key(params["adId"], "headline"))

    unsubscribe = c.on("adEvent", on_event)
    remove_any = c.on_notification(lambda method, params: seen.append((method, params)))
    ad_id = load_one(c)["adId"]
    c.record_impression(ad_id)
    assert nested and isinstance(nested[0], str)
    assert seen == [("adEvent", {"adId": ad_id, "event": "didRecordImpression", "assetKey": None})]
    assert threading.current_thread().name not in thread_names
    unsubscribe()
    remove_any()
    c.perform_click_on_asset(ad_id, "headline")
    assert len(nested) == 1 and len(seen) == 1

    # a callback that raises does not break the client
    def broken(params: Any) -> None:
        raise RuntimeError("callback bug")

    c.on("adEvent", broken)
    c.perform_click_on_asset(ad_id, "body")
    assert c.string_for_key(ad_id, "headline")


def test_concurrent_calls_from_threads(net: Any) -> None:
    c = net.client
    ads = c.load_ad(NATIVE_UNIT, options={"numberOfAds": 2, "disableImageLoading": True})["ads"]
    expected = {a["adId"]: a["headline"] for a in ads}
    errors: list[BaseException] = []

    def worker() -> None:
        try:
            for i in range(25):
                ad_id = list(expected)[i % len(expected)]
                assert c.string_for_key(ad_id, "headline") == expected[ad_id]
        except BaseException as e:  # noqa: BLE001
            errors.append(e)

    threads = [threading.Thread(target=worker) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(20)
    assert errors == []


def test_close_and_calls_after_close(net: Any) -> None:
    c = net.new_main()
    ad_id = load_one(c)["adId"]
    code = c.close()
    if net.transport == "stdio":
        assert code == 0
    assert c.closed
    with pytest.raises(ConnectionClosedError):
        c.record_impression(ad_id)
    # the ads a connection loaded are released when it closes
    if net.transport != "stdio":
        with pytest.raises(AdNotFound):
            net.other().record_impression(ad_id)


def test_server_going_away_fails_pending_and_later_calls(net: Any) -> None:
    # Repeated: which of the two notices first, the call's write or the reader at the end of the
    # stream, is a race; either way the client is closed by the time the call raises.
    for _ in range(30):
        if net.transport == "stdio":
            c = Client.spawn(framing=net.framing)  # NATIVE_ADS_BIN
            c.load_ad(NATIVE_UNIT)
            assert c.process is not None
            c.process.kill()
            server = None
        else:
            server, c = net.start_server()
            c.load_ad(NATIVE_UNIT)
            assert server.stop() == 0
        try:
            with pytest.raises(ConnectionClosedError):
                c.call("store.list", timeout=10)  # its write fails, or the reader reaches the end
            assert c.closed
            with pytest.raises(ConnectionClosedError):
                c.store_list()
            with pytest.raises(ConnectionClosedError):
                c.notify("store.list")
            assert c.closed
        finally:
            c.close()


def test_a_failed_write_closes_the_client_before_the_call_raises(tmp_path: Any) -> None:
    """The server stops reading (its stdin closed) but its stdout stays open: the reader sees no
    end of stream, so only the failed write can tell the client, and `closed` is True when the
    call raises."""
    c = Client.spawn(path=stdin_closing_server(tmp_path))
    try:
        with pytest.raises(MethodNotFound):
            c.call("test.first")  # answered after the server closed its stdin
        with pytest.raises(ConnectionClosedError):
            c.call("test.second", timeout=10)
        assert c.closed
        for _ in range(100):
            with pytest.raises(ConnectionClosedError):
                c.call("test.later")
            assert c.closed
        with pytest.raises(ConnectionClosedError):
            c.notify("test.notification")
        assert c.closed
    finally:
        assert c.process is not None
        c.process.kill()
        c.close()


def test_a_failed_notification_closes_the_client_before_it_raises(tmp_path: Any) -> None:
    c = Client.spawn(path=stdin_closing_server(tmp_path))
    try:
        with pytest.raises(MethodNotFound):
            c.call("test.first")
        with pytest.raises(ConnectionClosedError):
            c.notify("test.notification")
        assert c.closed
    finally:
        assert c.process is not None
        c.process.kill()
        c.close()


class _CloseRaisesTransport(native_ads.client._Transport):
    """Reads from a pipe the test ends; its first close() raises the ValueError that closing a
    pipe's buffered writer can raise while another thread writes to it."""

    def __init__(self) -> None:
        read_fd, self.write_fd = os.pipe()
        self.reader = os.fdopen(read_fd, "rb")
        self.written = threading.Event()
        self.close_calls = 0

    def write(self, data: bytes) -> None:
        self.written.set()

    def end_of_stream(self) -> None:
        os.close(self.write_fd)

    def close(self) -> None:
        self.close_calls += 1
        if self.close_calls == 1:
            raise ValueError("PyMemoryView_FromBuffer(): info->buf must not be NULL")


def test_pending_calls_fail_even_when_closing_the_transport_raises() -> None:
    transport = _CloseRaisesTransport()
    c = Client(transport)
    outcome: list[BaseException] = []

    def pending_call() -> None:
        try:
            c.call("test.pending", timeout=10)
        except BaseException as e:  # noqa: BLE001 - the test looks at what was raised
            outcome.append(e)

    caller = threading.Thread(target=pending_call)
    caller.start()
    try:
        assert transport.written.wait(10)  # the call is pending
        transport.end_of_stream()
        caller.join(10)
        assert not caller.is_alive()
        assert len(outcome) == 1 and isinstance(outcome[0], ConnectionClosedError), outcome
        assert c.closed
    finally:
        c.close()
        transport.reader.close()


def test_generic_call_and_notify(net: Any) -> None:
    c = net.client
    # the generic call and notify work for any method
    assert c.call("store.list")["formats"]
    ad_id = load_one(c)["adId"]
    events = c.subscribe("adEvent")
    c.notify("recordImpression", {"adId": ad_id})  # notifications are never answered...
    assert events.get()["event"] == "didRecordImpression"  # ...but they do their work
    c.notify("noSuchMethod", {})
    assert c.call("getEvents", {"limit": 1, "adId": ad_id, "event": None})["events"][0]["adId"] == ad_id
