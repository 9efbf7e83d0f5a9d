"""The methods and events of contract sections 4-5 on the built-in inventory (section 6), plus the
`_adChoices` click and the "3001"-"3010" asset-identifier aliases of section 7; every test runs
on the four transport x framing combinations."""
from __future__ import annotations

import pytest

from e2e_support import (
    ADMOB_UNIT,
    BACKFILL_UNIT,
    CUSTOM_FORMAT,
    NATIVE_UNIT,
    assert_ad_not_found,
    assert_error,
    check_image,
    check_response_info,
    load_ads,
    load_custom,
    load_one,
)

FLOOD_IT_LANDING = "https://play.google.com/store/apps/details?id=com.labpixies.flood"
FLOOD_IT_DEEP_LINK = "market://details?id=com.labpixies.flood"
CONTENT_LANDING = "https://developers.google.com/admob/ios/native"
CUSTOM_LANDING = "https://developers.google.com/ad-manager/mobile-ads-sdk/ios/native/custom-formats"
CUSTOM_DEEP_LINK = "gadexample://custom/10063170"
BACKFILL_LANDING = "https://apps.apple.com/app/id000000001"
BACKFILL_DEEP_LINK = "itms-apps://apps.apple.com/app/id000000001"
ADCHOICES_URL = "https://adssettings.google.com/whythisad"
POSITIONS = ["topRight", "topLeft", "bottomRight", "bottomLeft"]


def both_types(**extra):
    return dict(adTypes=["native", "customNative"], customNativeAdFormatIDs=[CUSTOM_FORMAT], **extra)


def click(conn, ad_id, key, schemes=None):
    params = {"adId": ad_id, "key": key}
    if schemes is not None:
        params["openableURLSchemes"] = schemes
    result = conn.call("performClickOnAsset", params)
    assert set(result) >= {"recorded", "action", "url"}, result
    return result


def wait_event(conn, ad_id, event, asset_key=...):
    def match(p):
        return p.get("adId") == ad_id and p.get("event") == event and (asset_key is ... or p.get("assetKey") == asset_key)

    params = conn.wait_notification("adEvent", match)
    assert set(params) >= {"adId", "event", "assetKey"}, params
    return params


def load_error(conn, params):
    resp = conn.request("loadAd", params)
    assert "error" in resp, f"loadAd {params!r} should have failed: {resp!r}"
    return resp["error"]


def check_load_error(err, code, gad_code, name):
    assert_error(err, code)
    data = err.get("data")
    assert isinstance(data, dict), err
    assert data.get("gadErrorCode") == gad_code and data.get("name") == name, data
    check_response_info(data.get("responseInfo"))
    return data


# ------------------------------------------------------------------------------------------
# loadAd: /21775744923/example/native


def test_the_native_unit_serves_the_app_install_ad_by_default(conn):
    result = load_ads(conn, NATIVE_UNIT)
    assert len(result["ads"]) == 1
    ad = result["ads"][0]
    assert ad["kind"] == "native"
    assert ad["headline"] == "Flood-It! 2"
    assert ad["callToAction"] == "Install"
    assert ad["store"] == "Google Play"
    assert ad["price"] == "Free"
    assert ad["advertiser"] is None
    assert ad["starRating"] == 4.5
    check_image(ad["icon"], 128, 128)
    assert len(ad["images"]) == 1
    check_image(ad["images"][0], 1200, 627)
    assert ad["adChoices"] is None, "direct-sold ads carry no AdChoices"


def test_a_native_ad_without_video_shows_its_first_image_as_media(conn):
    ad = load_one(conn, NATIVE_UNIT)
    mc = ad["mediaContent"]
    assert mc["hasVideoContent"] is False
    assert mc["duration"] == 0 and mc["currentTime"] == 0
    assert mc["aspectRatio"] == pytest.approx(1200 / 627, rel=1e-3)
    main = check_image(mc["mainImage"], 1200, 627)
    assert main["url"] == ad["images"][0]["url"]


def test_a_load_reports_response_info_from_the_admob_network(conn):
    result = load_ads(conn, NATIVE_UNIT)
    for ri in (result["responseInfo"], result["ads"][0]["responseInfo"]):
        assert len(ri["adNetworkInfoArray"]) == 1, ri
        info = ri["adNetworkInfoArray"][0]
        assert info["adNetworkClassName"] == "GADMAdapterGoogleAdMobAds"
        assert info["error"] is None
        loaded = ri["loadedAdNetworkResponseInfo"]
        assert loaded is not None and loaded["adNetworkClassName"] == "GADMAdapterGoogleAdMobAds", ri


def test_every_load_gives_new_ad_ids(conn):
    ids = [load_one(conn, NATIVE_UNIT)["adId"] for _ in range(3)]
    ids += [a["adId"] for a in load_ads(conn, NATIVE_UNIT, **both_types(options={"numberOfAds": 3}))["ads"]]
    assert len(set(ids)) == len(ids)


def test_should_request_multiple_images_returns_every_image(conn):
    ad = load_one(conn, NATIVE_UNIT, options={"shouldRequestMultipleImages": True})
    assert len(ad["images"]) == 2
    check_image(ad["images"][0], 1200, 627)
    check_image(ad["images"][1], 627, 627)


def test_disable_image_loading_gives_urls_and_sizes_but_no_bytes(conn):
    ad = load_one(conn, NATIVE_UNIT, options={"disableImageLoading": True, "shouldRequestMultipleImages": True})
    check_image(ad["icon"], 128, 128, loaded=False)
    assert [(i["width"], i["height"]) for i in ad["images"]] == [(1200, 627), (627, 627)]
    for img in ad["images"]:
        check_image(img, loaded=False)
    assert ad["mediaContent"]["mainImage"] is None
    image = conn.call("imageForKey", adId=ad["adId"], key="icon")
    check_image(image, 128, 128, loaded=False)


def test_two_ads_from_the_native_unit_are_the_two_native_creatives_best_first(conn):
    result = load_ads(conn, NATIVE_UNIT, options={"numberOfAds": 2})
    ads = result["ads"]
    assert [a["headline"] for a in ads] == ["Flood-It! 2", "Mobile Ads, Made Simple"]
    second = ads[1]
    assert second["callToAction"] == "Learn more"
    assert second["advertiser"] == "Google"
    assert second["store"] is None and second["price"] is None and second["starRating"] is None
    assert len({a["adId"] for a in ads}) == 2


def test_asking_native_and_custom_gives_the_app_install_ad_first(conn):
    ad = load_one(conn, NATIVE_UNIT, **both_types())
    assert ad["kind"] == "native" and ad["headline"] == "Flood-It! 2"


def test_three_ads_of_both_types_come_in_priority_order(conn):
    ads = load_ads(conn, NATIVE_UNIT, **both_types(options={"numberOfAds": 3}))["ads"]
    assert [a["kind"] for a in ads] == ["native", "customNative", "native"]
    assert ads[0]["headline"] == "Flood-It! 2"
    assert ads[1]["formatID"] == CUSTOM_FORMAT
    assert ads[2]["headline"] == "Mobile Ads, Made Simple"


def test_number_of_ads_above_five_is_clamped_and_never_repeats_a_creative(conn):
    ads = load_ads(conn, NATIVE_UNIT, **both_types(options={"numberOfAds": 9}))["ads"]
    assert len(ads) == 3
    assert [a["kind"] for a in ads] == ["native", "customNative", "native"]
    assert len({a["adId"] for a in ads}) == 3


@pytest.mark.parametrize("ratio", ["landscape", "any", "unknown"])
def test_a_landscape_compatible_aspect_ratio_still_serves_the_landscape_app_install_ad(conn, ratio):
    ad = load_one(conn, NATIVE_UNIT, options={"mediaAspectRatio": ratio})
    assert ad["headline"] == "Flood-It! 2"


def test_custom_native_alone_gives_the_custom_format_ad(conn):
    ad = load_custom(conn)
    assert ad["formatID"] == CUSTOM_FORMAT
    assert ad["availableAssetKeys"] == ["Headline", "MainImage", "Caption"]
    assert ad["mediaContent"]["mainImage"] is None
    assert ad["mediaContent"]["aspectRatio"] == 0
    assert ad["mediaContent"]["hasVideoContent"] is False
    assert ad["adChoices"] is None


# ------------------------------------------------------------------------------------------
# loadAd errors


def test_an_unknown_ad_unit_is_an_invalid_request(conn):
    err = load_error(conn, {"adUnitID": "/no/such/unit"})
    check_load_error(err, 1000, 0, "invalidRequest")


@pytest.mark.parametrize(
    "params",
    [
        {"adUnitID": NATIVE_UNIT, "options": {"numberOfAds": 0}},
        {"adUnitID": NATIVE_UNIT, "options": {"numberOfAds": -3}},
        {"adUnitID": NATIVE_UNIT, "adTypes": []},
        {"adUnitID": NATIVE_UNIT, "adTypes": ["customNative"]},
        {"adUnitID": NATIVE_UNIT, "adTypes": ["customNative"], "customNativeAdFormatIDs": []},
        {"adUnitID": NATIVE_UNIT, "adTypes": ["native", "customNative"], "customNativeAdFormatIDs": []},
    ],
    ids=["zero-ads", "negative-ads", "no-ad-types", "custom-without-formats", "custom-empty-formats",
         "both-empty-formats"],
)
def test_an_impossible_request_is_an_invalid_request(conn, params):
    check_load_error(load_error(conn, params), 1000, 0, "invalidRequest")


def test_a_custom_format_the_unit_does_not_serve_is_no_fill_with_the_network_error(conn):
    err = load_error(conn, {"adUnitID": NATIVE_UNIT, "adTypes": ["customNative"], "customNativeAdFormatIDs": ["999"]})
    data = check_load_error(err, 1001, 1, "noFill")
    infos = data["responseInfo"]["adNetworkInfoArray"]
    assert len(infos) == 1 and infos[0]["adNetworkClassName"] == "GADMAdapterGoogleAdMobAds"
    assert isinstance(infos[0]["error"], dict), infos[0]


# ------------------------------------------------------------------------------------------
# loadAd: backfill and AdMob units


def test_the_backfill_unit_serves_an_indirect_app_install_ad_with_adchoices(conn):
    ad = load_one(conn, BACKFILL_UNIT)
    assert ad["kind"] == "native"
    assert ad["headline"] == "Backfill Puzzle Quest"
    assert ad["store"] == "App Store" and ad["price"] == "$0.99" and ad["starRating"] == 4.0
    ac = ad["adChoices"]
    assert ac is not None, "indirect ads carry AdChoices"
    assert ac["position"] == "topRight"
    check_image(ac["image"], 30, 30, scale=2)
    assert ac["clickURL"] == ADCHOICES_URL


def test_the_backfill_units_second_ad_is_the_content_ad(conn):
    ads = load_ads(conn, BACKFILL_UNIT, options={"numberOfAds": 2})["ads"]
    assert [a["headline"] for a in ads] == ["Backfill Puzzle Quest", "Backfill: Ten Tips for Better Sleep"]
    assert ads[1]["advertiser"] == "Sleep Weekly"
    assert all(a["adChoices"] is not None for a in ads)


def test_the_requested_adchoices_position_is_echoed(conn):
    for position in POSITIONS:
        ad = load_one(conn, BACKFILL_UNIT, options={"adChoicesPosition": position})
        assert ad["adChoices"]["position"] == position


def test_adchoices_image_has_no_bytes_when_image_loading_is_disabled(conn):
    ad = load_one(conn, BACKFILL_UNIT, options={"disableImageLoading": True})
    check_image(ad["adChoices"]["image"], 30, 30, loaded=False, scale=2)
    check_image(conn.call("imageForKey", adId=ad["adId"], key="_adChoices"), 30, 30, loaded=False)


def test_the_admob_unit_serves_a_video_ad_first(conn):
    ad = load_one(conn, ADMOB_UNIT)
    assert ad["headline"] == "Test Ad: Google Mobile Ads Video"
    mc = ad["mediaContent"]
    assert mc["hasVideoContent"] is True
    assert mc["duration"] == 30
    assert mc["aspectRatio"] == pytest.approx(1280 / 720, rel=1e-3)
    assert ad["adChoices"] is not None, "AdMob ads are indirect and carry AdChoices"


def test_the_admob_units_second_ad_has_no_video(conn):
    ads = load_ads(conn, ADMOB_UNIT, options={"numberOfAds": 2})["ads"]
    assert [a["headline"] for a in ads] == ["Test Ad: Google Mobile Ads Video", "Test Ad: Google Mobile Ads"]
    assert ads[1]["mediaContent"]["hasVideoContent"] is False
    assert ads[1]["mediaContent"]["duration"] == 0
    assert ads[1]["starRating"] == 4.5


# ------------------------------------------------------------------------------------------
# stringForKey / imageForKey


def test_string_for_key_returns_the_native_text_assets(conn):
    ad = load_one(conn, NATIVE_UNIT)
    for key in ("headline", "body", "callToAction", "store", "price", "advertiser"):
        assert conn.call("stringForKey", adId=ad["adId"], key=key) == ad[key], key
    assert conn.call("stringForKey", adId=ad["adId"], key="headline") == "Flood-It! 2"
    assert conn.call("stringForKey", adId=ad["adId"], key="advertiser") is None


def test_string_for_key_returns_null_for_unknown_or_non_text_keys(conn):
    ad = load_one(conn, NATIVE_UNIT)
    for key in ("nope", "icon", "image", "_adChoices", ""):
        assert conn.call("stringForKey", adId=ad["adId"], key=key) is None, key


def test_string_for_key_returns_the_custom_format_text_assets(conn):
    ad = load_custom(conn)
    assert conn.call("stringForKey", adId=ad["adId"], key="Headline") == "Custom Native Ad Headline"
    assert conn.call("stringForKey", adId=ad["adId"], key="Caption") == "A custom native format served by Ad Manager"
    assert conn.call("stringForKey", adId=ad["adId"], key="MainImage") is None
    assert conn.call("stringForKey", adId=ad["adId"], key="Nope") is None


def test_image_for_key_returns_the_native_icon_and_first_image(conn):
    ad = load_one(conn, NATIVE_UNIT, options={"shouldRequestMultipleImages": True})
    icon = conn.call("imageForKey", adId=ad["adId"], key="icon")
    assert icon == ad["icon"]
    check_image(icon, 128, 128)
    image = conn.call("imageForKey", adId=ad["adId"], key="image")
    assert image == ad["images"][0]
    check_image(image, 1200, 627)


def test_image_for_key_returns_null_for_unknown_keys_text_keys_and_missing_adchoices(conn):
    ad = load_one(conn, NATIVE_UNIT)
    for key in ("nope", "headline", "_adChoices", "images"):
        assert conn.call("imageForKey", adId=ad["adId"], key=key) is None, key


def test_image_for_key_returns_the_custom_format_image(conn):
    ad = load_custom(conn)
    check_image(conn.call("imageForKey", adId=ad["adId"], key="MainImage"), 1200, 627)
    assert conn.call("imageForKey", adId=ad["adId"], key="Headline") is None
    assert conn.call("imageForKey", adId=ad["adId"], key="_adChoices") is None


def test_image_for_key_returns_the_adchoices_image_of_an_indirect_ad(conn):
    for unit in (BACKFILL_UNIT, ADMOB_UNIT):
        ad = load_one(conn, unit)
        image = conn.call("imageForKey", adId=ad["adId"], key="_adChoices")
        assert image == ad["adChoices"]["image"]
        check_image(image)


# ------------------------------------------------------------------------------------------
# performClickOnAsset


def test_a_click_opens_the_landing_page_by_default_and_is_reported(conn):
    ad = load_one(conn, NATIVE_UNIT)
    assert click(conn, ad["adId"], "headline") == {"recorded": True, "action": "landingPage", "url": FLOOD_IT_LANDING}
    event = wait_event(conn, ad["adId"], "didRecordClick")
    assert event["assetKey"] == "headline"


def test_a_click_opens_the_deep_link_when_its_scheme_is_openable(conn):
    ad = load_one(conn, NATIVE_UNIT)
    result = click(conn, ad["adId"], "callToAction", ["myapp", "market"])
    assert result == {"recorded": True, "action": "deepLink", "url": FLOOD_IT_DEEP_LINK}
    assert wait_event(conn, ad["adId"], "didRecordClick")["assetKey"] == "callToAction"


def test_a_click_falls_back_to_the_landing_page_when_no_deep_link_scheme_is_openable(conn):
    ad = load_one(conn, NATIVE_UNIT)
    assert click(conn, ad["adId"], "icon", ["myapp", "itms-apps"])["action"] == "landingPage"
    assert click(conn, ad["adId"], "icon", [])["url"] == FLOOD_IT_LANDING


def test_an_ad_without_deep_links_always_opens_its_landing_page(conn):
    ads = load_ads(conn, NATIVE_UNIT, options={"numberOfAds": 2})["ads"]
    content = ads[1]
    result = click(conn, content["adId"], "headline", ["market", "itms-apps", "gadexample", "https", "http"])
    assert result == {"recorded": True, "action": "landingPage", "url": CONTENT_LANDING}


def test_a_backfill_click_uses_its_app_store_deep_link_or_landing_page(conn):
    ad = load_one(conn, BACKFILL_UNIT)
    assert click(conn, ad["adId"], "headline", ["itms-apps"]) == {
        "recorded": True, "action": "deepLink", "url": BACKFILL_DEEP_LINK}
    assert click(conn, ad["adId"], "headline") == {"recorded": True, "action": "landingPage", "url": BACKFILL_LANDING}


def test_every_click_is_recorded_and_reported(conn):
    ad = load_one(conn, NATIVE_UNIT)
    for key in ("headline", "callToAction", "headline"):
        assert click(conn, ad["adId"], key)["recorded"] is True
    events = [wait_event(conn, ad["adId"], "didRecordClick") for _ in range(3)]
    assert [e["assetKey"] for e in events] == ["headline", "callToAction", "headline"]


@pytest.mark.parametrize("alias", ["3001", "3002"])
def test_a_click_accepts_an_asset_identifier_alias(conn, alias):
    ad = load_one(conn, NATIVE_UNIT)
    result = click(conn, ad["adId"], alias)
    assert result == {"recorded": True, "action": "landingPage", "url": FLOOD_IT_LANDING}
    wait_event(conn, ad["adId"], "didRecordClick")


def test_a_click_on_an_asset_the_ad_lacks_is_asset_not_found(conn):
    ads = load_ads(conn, NATIVE_UNIT, options={"numberOfAds": 2})["ads"]
    flood_it, content = ads
    for ad_id, key in ((flood_it["adId"], "advertiser"), (flood_it["adId"], "nope"), (content["adId"], "store"),
                       (content["adId"], "price"), (flood_it["adId"], "_adChoices")):
        err = conn.error("performClickOnAsset", {"adId": ad_id, "key": key})
        assert_error(err, 2002)
    custom = load_custom(conn)
    assert_error(conn.error("performClickOnAsset", {"adId": custom["adId"], "key": "Nope"}), 2002)


def test_clicking_adchoices_opens_the_adchoices_page_and_is_not_an_ad_click(conn):
    ad = load_one(conn, BACKFILL_UNIT)
    result = click(conn, ad["adId"], "_adChoices", ["itms-apps"])
    assert result == {"recorded": False, "action": "adChoices", "url": ADCHOICES_URL}
    # A later impression is the first event the ad reports: the AdChoices click sent none.
    assert conn.call("recordImpression", adId=ad["adId"]) == {"recorded": True}
    wait_event(conn, ad["adId"], "didRecordImpression")
    assert [e["event"] for e in conn.ad_events(ad["adId"])] == ["didRecordImpression"]


def test_clicking_adchoices_of_an_admob_ad_opens_its_adchoices_page(conn):
    ad = load_one(conn, ADMOB_UNIT)
    result = click(conn, ad["adId"], "_adChoices")
    assert result == {"recorded": False, "action": "adChoices", "url": ad["adChoices"]["clickURL"]}


def test_a_custom_ad_click_opens_its_landing_page_or_deep_link(conn):
    ad = load_custom(conn)
    assert click(conn, ad["adId"], "Headline") == {"recorded": True, "action": "landingPage", "url": CUSTOM_LANDING}
    assert click(conn, ad["adId"], "MainImage", ["gadexample"]) == {
        "recorded": True, "action": "deepLink", "url": CUSTOM_DEEP_LINK}
    assert wait_event(conn, ad["adId"], "didRecordClick")["assetKey"] == "Headline"
    assert wait_event(conn, ad["adId"], "didRecordClick")["assetKey"] == "MainImage"


def test_the_custom_click_handler_takes_over_clicks_while_enabled(conn):
    ad = load_custom(conn)
    assert conn.call("setCustomClickHandler", adId=ad["adId"], enabled=True) == {"enabled": True}
    result = click(conn, ad["adId"], "MainImage", ["gadexample"])
    assert result == {"recorded": True, "action": "customClickHandler", "url": None}
    note = conn.wait_notification("customClick", lambda p: p.get("adId") == ad["adId"])
    assert note == {"adId": ad["adId"], "assetID": "MainImage"}
    assert wait_event(conn, ad["adId"], "didRecordClick")["assetKey"] == "MainImage"

    assert conn.call("setCustomClickHandler", adId=ad["adId"], enabled=False) == {"enabled": False}
    assert click(conn, ad["adId"], "Caption", ["gadexample"]) == {
        "recorded": True, "action": "deepLink", "url": CUSTOM_DEEP_LINK}
    assert click(conn, ad["adId"], "Caption") == {"recorded": True, "action": "landingPage", "url": CUSTOM_LANDING}
    wait_event(conn, ad["adId"], "didRecordClick", "Caption")
    wait_event(conn, ad["adId"], "didRecordClick", "Caption")
    conn.barrier()
    assert len([n for n in conn.notifications if n["method"] == "customClick"]) == 1


def test_the_custom_click_handler_is_only_for_custom_native_ads(conn):
    for unit in (NATIVE_UNIT, BACKFILL_UNIT, ADMOB_UNIT):
        ad = load_one(conn, unit)
        for enabled in (True, False):
            err = conn.error("setCustomClickHandler", {"adId": ad["adId"], "enabled": enabled})
            assert_error(err, 2003)


# ------------------------------------------------------------------------------------------
# recordImpression and events


def test_an_impression_is_recorded_once_and_reported_once(conn):
    ad = load_one(conn, NATIVE_UNIT)
    assert conn.call("recordImpression", adId=ad["adId"]) == {"recorded": True}
    assert conn.call("recordImpression", adId=ad["adId"]) == {"recorded": False, "reason": "alreadyRecorded"}
    assert conn.call("recordImpression", adId=ad["adId"]) == {"recorded": False, "reason": "alreadyRecorded"}
    event = wait_event(conn, ad["adId"], "didRecordImpression")
    assert event["assetKey"] is None
    # A click afterwards: every event sent before it has arrived, so the count is final.
    click(conn, ad["adId"], "headline")
    wait_event(conn, ad["adId"], "didRecordClick")
    conn.barrier()
    assert [e["event"] for e in conn.ad_events(ad["adId"])] == [
        "didRecordImpression", "didRecordClick", "willPresentScreen"]


def test_a_custom_ad_records_its_impression_once(conn):
    ad = load_custom(conn)
    assert conn.call("recordImpression", adId=ad["adId"]) == {"recorded": True}
    assert conn.call("recordImpression", adId=ad["adId"]) == {"recorded": False, "reason": "alreadyRecorded"}
    assert wait_event(conn, ad["adId"], "didRecordImpression")["assetKey"] is None


def test_impressions_are_counted_per_ad(conn):
    ads = load_ads(conn, NATIVE_UNIT, **both_types(options={"numberOfAds": 3}))["ads"]
    for ad in ads:
        assert conn.call("recordImpression", adId=ad["adId"]) == {"recorded": True}
    for ad in ads:
        wait_event(conn, ad["adId"], "didRecordImpression")


def test_ad_events_are_notifications_with_the_documented_fields(conn):
    ad = load_one(conn, BACKFILL_UNIT)
    conn.call("recordImpression", adId=ad["adId"])
    click(conn, ad["adId"], "body" if ad["body"] is not None else "headline")
    conn.barrier()
    notes = [n for n in conn.notifications if n["method"] == "adEvent" and n["params"]["adId"] == ad["adId"]]
    for n in notes:
        assert n["jsonrpc"] == "2.0" and "id" not in n
    # The landing-page click also announces the full-screen presentation (docs/sdk-behaviour.md).
    assert [n["params"]["event"] for n in notes] == ["didRecordImpression", "didRecordClick", "willPresentScreen"]


# ------------------------------------------------------------------------------------------
# releaseAd and unknown ads

AD_METHODS = {
    "stringForKey": {"key": "headline"},
    "imageForKey": {"key": "icon"},
    "performClickOnAsset": {"key": "headline"},
    "recordImpression": {},
    "setCustomClickHandler": {"enabled": True},
    "releaseAd": {},
}


@pytest.mark.parametrize("method", list(AD_METHODS))
def test_an_unknown_ad_id_is_ad_not_found(conn, method):
    err = conn.error(method, dict(AD_METHODS[method], adId="no-such-ad"))
    assert_ad_not_found(err)


def test_a_released_ad_is_not_found_by_any_method(conn):
    ad = load_one(conn, NATIVE_UNIT)
    assert conn.call("releaseAd", adId=ad["adId"]) == {"released": True}
    for method, extra in AD_METHODS.items():
        err = conn.error(method, dict(extra, adId=ad["adId"]))
        assert_ad_not_found(err)


def test_a_released_custom_ad_is_not_found_and_sends_no_events(conn):
    ad = load_custom(conn)
    conn.call("setCustomClickHandler", adId=ad["adId"], enabled=True)
    assert conn.call("releaseAd", adId=ad["adId"]) == {"released": True}
    assert_ad_not_found(conn.error("performClickOnAsset", {"adId": ad["adId"], "key": "Headline"}))
    assert_ad_not_found(conn.error("recordImpression", {"adId": ad["adId"]}))
    conn.barrier()
    assert conn.ad_events(ad["adId"]) == []
    assert [n for n in conn.notifications if n["method"] == "customClick"] == []


def test_releasing_one_ad_leaves_the_others_usable(conn):
    first, second = load_ads(conn, NATIVE_UNIT, options={"numberOfAds": 2})["ads"]
    conn.call("releaseAd", adId=first["adId"])
    assert conn.call("stringForKey", adId=second["adId"], key="headline") == "Mobile Ads, Made Simple"
