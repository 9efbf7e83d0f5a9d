"""The native ad view (contract section 7, docs/sdk-behaviour.md "The native ad view"):
registerAdView / unregisterAdView / reportVisibility, clicks restricted to registered clickable
assets, the "3001"-"3010" aliases, and the errors."""
from __future__ import annotations

import pytest

from e2e_support import (
    ADMOB_UNIT,
    ASSET_IDS,
    BACKFILL_UNIT,
    NATIVE_UNIT,
    VIDEO_FORMAT,
    VIDEO_UNIT,
    assert_ad_not_found,
    assert_error,
    assert_invalid_params,
    assert_not_recorded_impression,
    load_custom,
    load_one,
    not_recorded_click,
    wait_ad_event,
)

FLOOD_IT_LANDING = "https://play.google.com/store/apps/details?id=com.labpixies.flood"
ALL_NAMES = ["headline", "callToAction", "icon", "body", "advertiser", "store", "price", "image", "starRating",
             "mediaView"]


def register(conn, ad_id, clickable=(), nonclickable=()):
    return conn.call("registerAdView", adId=ad_id, clickableAssets=list(clickable), nonclickableAssets=list(nonclickable))


def visibility(conn, ad_id, pixels):
    result = conn.call("reportVisibility", adId=ad_id, visiblePixels=pixels)
    assert isinstance(result, dict) and isinstance(result.get("impressionRecorded"), bool), result
    return result


def click(conn, ad_id, key):
    return conn.call("performClickOnAsset", adId=ad_id, key=key)


# ------------------------------------------------------------------------------------------
# registerAdView / unregisterAdView


def test_register_ad_view_answers_the_canonical_asset_names(conn):
    ad = load_one(conn, NATIVE_UNIT)
    result = register(conn, ad["adId"], ["headline", "3002", "icon"], ["body", "3010", "3009"])
    assert result == {"registered": True, "clickableAssets": ["headline", "callToAction", "icon"],
                      "nonclickableAssets": ["body", "mediaView", "starRating"]}


def test_every_asset_identifier_is_an_alias_of_its_name(conn):
    ad = load_one(conn, NATIVE_UNIT)
    ids = [i for i in ASSET_IDS if ASSET_IDS[i] != "mediaView"]
    result = register(conn, ad["adId"], ids, ["3010"])
    assert result["clickableAssets"] == [ASSET_IDS[i] for i in ids]
    assert result["nonclickableAssets"] == ["mediaView"]
    result = register(conn, ad["adId"], [], ALL_NAMES)
    assert result == {"registered": True, "clickableAssets": [], "nonclickableAssets": ALL_NAMES}


@pytest.mark.parametrize("clickable", [["headline", "body", "mediaView"], ["headline", "body", "3010"]],
                         ids=["name", "alias"])
def test_the_media_view_may_not_be_clickable(conn, clickable):
    ad = load_one(conn, NATIVE_UNIT)
    err = conn.error("registerAdView", {"adId": ad["adId"], "clickableAssets": clickable, "nonclickableAssets": []})
    assert_invalid_params(err, "clickableAssets[2]")
    assert "mediaView" in err["message"], err
    # Nothing was registered: every asset is still clickable.
    assert click(conn, ad["adId"], "body")["recorded"] is True


@pytest.mark.parametrize(
    "clickable,nonclickable,field",
    [
        (["headline", "nope"], [], "clickableAssets[1]"),
        ([], ["body", "3011"], "nonclickableAssets[1]"),
        (["3000"], [], "clickableAssets[0]"),
        ([], ["Headline"], "nonclickableAssets[0]"),
        ([], ["body", "_adChoices"], "nonclickableAssets[1]"),
    ],
    ids=["unknown-name", "unknown-id", "id-out-of-range", "wrong-case", "adchoices-is-no-view-asset"],
)
def test_a_key_that_is_no_asset_name_or_identifier_is_invalid_params(conn, clickable, nonclickable, field):
    ad = load_one(conn, NATIVE_UNIT)
    err = conn.error("registerAdView", {"adId": ad["adId"], "clickableAssets": clickable,
                                        "nonclickableAssets": nonclickable})
    assert_invalid_params(err, field)


def test_register_ad_view_params_are_checked(conn):
    ad = load_one(conn, NATIVE_UNIT)
    assert_invalid_params(conn.error("registerAdView", {"adId": ad["adId"], "clickableAssets": "headline",
                                                        "nonclickableAssets": []}), "clickableAssets")
    assert_invalid_params(conn.error("registerAdView", {"adId": ad["adId"], "clickableAssets": [3001],
                                                        "nonclickableAssets": []}), "clickableAssets[0]")
    assert_invalid_params(conn.error("reportVisibility", {"adId": ad["adId"], "visiblePixels": -1}), "visiblePixels")
    assert_invalid_params(conn.error("reportVisibility", {"adId": ad["adId"], "visiblePixels": "10"}), "visiblePixels")
    assert_invalid_params(conn.error("reportVisibility", {"adId": ad["adId"], "visiblePixels": 1.5}), "visiblePixels")


def test_custom_format_ads_have_no_ad_view(conn):
    ad = load_custom(conn)
    assert_error(conn.error("registerAdView", {"adId": ad["adId"], "clickableAssets": ["headline"],
                                               "nonclickableAssets": []}), 2003)
    assert_error(conn.error("reportVisibility", {"adId": ad["adId"], "visiblePixels": 100}), 2003)
    video = load_one(conn, VIDEO_UNIT, adTypes=["customNative"], customNativeAdFormatIDs=[VIDEO_FORMAT])
    assert_error(conn.error("registerAdView", {"adId": video["adId"], "clickableAssets": [],
                                               "nonclickableAssets": []}), 2003)
    # Their impressions stay the app's job.
    assert conn.call("recordImpression", adId=ad["adId"])["recorded"] is True


def test_unregister_ad_view_says_whether_a_view_was_registered(conn):
    ad = load_one(conn, NATIVE_UNIT)
    assert conn.call("unregisterAdView", adId=ad["adId"]) == {"unregistered": False}
    register(conn, ad["adId"], ["headline"])
    assert conn.call("unregisterAdView", adId=ad["adId"]) == {"unregistered": True}
    assert conn.call("unregisterAdView", adId=ad["adId"]) == {"unregistered": False}


@pytest.mark.parametrize(
    "method,params",
    [
        ("registerAdView", {"clickableAssets": ["headline"], "nonclickableAssets": []}),
        ("unregisterAdView", {}),
        ("reportVisibility", {"visiblePixels": 1}),
    ],
)
def test_ad_view_methods_on_an_unknown_or_released_ad_are_ad_not_found(conn, method, params):
    assert_ad_not_found(conn.error(method, dict(params, adId="no-such-ad")))
    ad = load_one(conn, NATIVE_UNIT)
    conn.call("releaseAd", adId=ad["adId"])
    assert_ad_not_found(conn.error(method, dict(params, adId=ad["adId"])))


# ------------------------------------------------------------------------------------------
# reportVisibility


def test_the_first_visible_pixel_of_a_registered_ad_records_the_impression_once(conn):
    ad = load_one(conn, NATIVE_UNIT)
    register(conn, ad["adId"], ["headline"], ["body", "mediaView"])
    assert visibility(conn, ad["adId"], 0) == {"impressionRecorded": False, "reason": "notVisible"}
    assert visibility(conn, ad["adId"], 1) == {"impressionRecorded": True}
    assert visibility(conn, ad["adId"], 5000) == {"impressionRecorded": False, "reason": "alreadyRecorded"}
    assert_not_recorded_impression(conn.call("recordImpression", adId=ad["adId"]), "alreadyRecorded")
    event = wait_ad_event(conn, ad["adId"], "didRecordImpression")
    assert event["assetKey"] is None
    conn.barrier()
    assert [e["event"] for e in conn.ad_events(ad["adId"])] == ["didRecordImpression"]


def test_visibility_of_an_unregistered_ad_records_nothing(conn):
    ad = load_one(conn, BACKFILL_UNIT)
    assert visibility(conn, ad["adId"], 100) == {"impressionRecorded": False, "reason": "notRegistered"}
    register(conn, ad["adId"], ["headline"])
    conn.call("unregisterAdView", adId=ad["adId"])
    assert visibility(conn, ad["adId"], 100) == {"impressionRecorded": False, "reason": "notRegistered"}
    conn.barrier()
    assert conn.ad_events(ad["adId"]) == []
    # The impression is still there to record.
    assert conn.call("recordImpression", adId=ad["adId"]) == {"recorded": True}


def test_an_impression_recorded_by_the_app_is_not_recorded_again_by_visibility(conn):
    ad = load_one(conn, ADMOB_UNIT)
    register(conn, ad["adId"], ["callToAction"], ["mediaView"])
    assert conn.call("recordImpression", adId=ad["adId"]) == {"recorded": True}
    assert visibility(conn, ad["adId"], 10) == {"impressionRecorded": False, "reason": "alreadyRecorded"}
    wait_ad_event(conn, ad["adId"], "didRecordImpression")
    conn.barrier()
    assert [e["event"] for e in conn.ad_events(ad["adId"])] == ["didRecordImpression"]


# ------------------------------------------------------------------------------------------
# Clicks while registered


def test_a_registered_ad_records_clicks_only_on_its_clickable_assets(conn):
    ad = load_one(conn, NATIVE_UNIT)
    register(conn, ad["adId"], ["headline", "3002"], ["body", "3003", "mediaView"])
    assert click(conn, ad["adId"], "headline") == {"recorded": True, "action": "landingPage", "url": FLOOD_IT_LANDING}
    assert click(conn, ad["adId"], "callToAction")["recorded"] is True
    assert click(conn, ad["adId"], "3001")["recorded"] is True, "an alias of a clickable asset is clickable"
    for key in ("body", "icon", "3003", "store", "price", "image", "starRating"):
        assert click(conn, ad["adId"], key) == not_recorded_click("notClickable"), key
    events = [wait_ad_event(conn, ad["adId"], "didRecordClick") for _ in range(3)]
    assert [e["assetKey"] for e in events] == ["headline", "callToAction", "headline"]
    conn.barrier()
    clicks = [e for e in conn.ad_events(ad["adId"]) if e["event"] == "didRecordClick"]
    assert len(clicks) == 3, "a click that is not clickable records nothing"


def test_registering_again_replaces_the_registration(conn):
    ad = load_one(conn, NATIVE_UNIT)
    register(conn, ad["adId"], ["headline"], ["body"])
    result = register(conn, ad["adId"], ["body"], ["headline"])
    assert result == {"registered": True, "clickableAssets": ["body"], "nonclickableAssets": ["headline"]}
    assert click(conn, ad["adId"], "headline") == not_recorded_click("notClickable")
    assert click(conn, ad["adId"], "body")["recorded"] is True
    assert wait_ad_event(conn, ad["adId"], "didRecordClick")["assetKey"] == "body"


def test_unregistering_makes_every_asset_clickable_again(conn):
    ad = load_one(conn, NATIVE_UNIT)
    register(conn, ad["adId"], [], ["headline", "body"])
    assert click(conn, ad["adId"], "headline") == not_recorded_click("notClickable")
    conn.call("unregisterAdView", adId=ad["adId"])
    assert click(conn, ad["adId"], "headline")["recorded"] is True
    assert click(conn, ad["adId"], "3004")["recorded"] is True
    assert [wait_ad_event(conn, ad["adId"], "didRecordClick")["assetKey"] for _ in range(2)] == ["headline", "body"]

