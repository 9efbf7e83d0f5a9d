"""Mute This Ad (contract section 7, docs/sdk-behaviour.md "Mute This Ad"): reasons only on the
creatives that offer them, muteThisAd with and without a reason, the errors, the didMute event,
and a muted ad recording nothing more."""
from __future__ import annotations

import pytest

from e2e_support import (
    ADMOB_UNIT,
    BACKFILL_UNIT,
    MUTE_REASONS,
    NATIVE_UNIT,
    VIDEO_FORMAT,
    VIDEO_UNIT,
    assert_ad_not_found,
    assert_error,
    assert_invalid_params,
    assert_not_recorded_impression,
    load_ads,
    load_custom,
    load_one,
    not_recorded_click,
    start_private,
    store_path,
    wait_ad_event,
)


def assert_mute_not_offered(err):
    assert_error(err, 2004)
    data = err.get("data")
    if isinstance(data, dict) and "name" in data:
        assert data["name"] == "muteNotOffered", err


@pytest.fixture(scope="module")
def custom_server(tmp_path_factory):
    srv = start_private(str(tmp_path_factory.mktemp("mute")), ["--store", store_path("custom.json")])
    yield srv
    srv.stop()


# ------------------------------------------------------------------------------------------
# Which ads offer it


@pytest.mark.parametrize("unit", [BACKFILL_UNIT, ADMOB_UNIT])
def test_backfill_and_admob_ads_offer_the_mute_reasons(conn, unit):
    for ad in load_ads(conn, unit, options={"numberOfAds": 2})["ads"]:
        assert ad.get("muteThisAdReasons") == MUTE_REASONS, ad.get("headline")


def test_direct_sold_ads_offer_no_mute_reasons(conn):
    ads = load_ads(conn, NATIVE_UNIT, adTypes=["native", "customNative"], customNativeAdFormatIDs=["10063170"],
                   options={"numberOfAds": 3})["ads"]
    ads += load_ads(conn, VIDEO_UNIT, adTypes=["native", "customNative"], customNativeAdFormatIDs=[VIDEO_FORMAT],
                    options={"numberOfAds": 2})["ads"]
    assert len(ads) == 5
    for ad in ads:
        assert "muteThisAdReasons" not in ad, ad


# ------------------------------------------------------------------------------------------
# muteThisAd


def test_muting_without_a_reason_sends_did_mute_once(conn):
    ad = load_one(conn, BACKFILL_UNIT)
    assert conn.call("muteThisAd", adId=ad["adId"]) == {"muted": True}
    event = wait_ad_event(conn, ad["adId"], "didMute")
    assert event["assetKey"] is None and event.get("reason") is None, event
    assert conn.call("muteThisAd", adId=ad["adId"]) == {"muted": True}
    assert conn.call("muteThisAd", adId=ad["adId"], reason=MUTE_REASONS[0]) == {"muted": True}
    conn.barrier()
    assert [e["event"] for e in conn.ad_events(ad["adId"])] == ["didMute"], "muting again changes nothing"


@pytest.mark.parametrize("reason", MUTE_REASONS)
def test_muting_with_an_offered_reason_reports_it(conn, reason):
    ad = load_one(conn, ADMOB_UNIT)
    assert conn.call("muteThisAd", adId=ad["adId"], reason=reason) == {"muted": True}
    event = wait_ad_event(conn, ad["adId"], "didMute")
    assert event == {"adId": ad["adId"], "event": "didMute", "assetKey": None, "reason": reason}


def test_a_reason_that_is_not_offered_is_invalid_params_and_mutes_nothing(conn):
    ad = load_one(conn, BACKFILL_UNIT)
    for bad in ("Too loud", "irrelevant", "", 3, ["Irrelevant"]):
        assert_invalid_params(conn.error("muteThisAd", {"adId": ad["adId"], "reason": bad}), "reason")
    assert conn.call("recordImpression", adId=ad["adId"]) == {"recorded": True}
    conn.barrier()
    assert [e["event"] for e in conn.ad_events(ad["adId"])] == ["didRecordImpression"]


def test_an_ad_that_offers_no_reasons_cannot_be_muted(conn):
    for ad in (load_one(conn, NATIVE_UNIT), load_custom(conn), load_one(conn, VIDEO_UNIT)):
        assert_mute_not_offered(conn.error("muteThisAd", {"adId": ad["adId"]}))
        assert conn.call("recordImpression", adId=ad["adId"]) == {"recorded": True}


def test_mute_this_ad_on_an_unknown_or_released_ad_is_ad_not_found(conn):
    assert_ad_not_found(conn.error("muteThisAd", {"adId": "no-such-ad"}))
    ad = load_one(conn, BACKFILL_UNIT)
    conn.call("releaseAd", adId=ad["adId"])
    assert_ad_not_found(conn.error("muteThisAd", {"adId": ad["adId"]}))


# ------------------------------------------------------------------------------------------
# A muted ad


def test_a_muted_ad_records_no_impression_and_no_click(conn):
    ad = load_one(conn, BACKFILL_UNIT)
    conn.call("muteThisAd", adId=ad["adId"], reason="Ad covered content")
    assert_not_recorded_impression(conn.call("recordImpression", adId=ad["adId"]), "muted")
    for key in ("headline", "callToAction", "3001"):
        assert conn.call("performClickOnAsset", adId=ad["adId"], key=key, openableURLSchemes=["itms-apps"]) == \
            not_recorded_click("muted")
    conn.call("registerAdView", adId=ad["adId"], clickableAssets=["headline"], nonclickableAssets=[])
    result = conn.call("reportVisibility", adId=ad["adId"], visiblePixels=100)
    assert result == {"impressionRecorded": False, "reason": "muted"}
    # Its assets are still readable.
    assert conn.call("stringForKey", adId=ad["adId"], key="headline") == "Backfill Puzzle Quest"
    conn.barrier()
    assert [e["event"] for e in conn.ad_events(ad["adId"])] == ["didMute"]


def test_muting_one_ad_leaves_the_others_alone(conn):
    first, second = load_ads(conn, BACKFILL_UNIT, options={"numberOfAds": 2})["ads"]
    conn.call("muteThisAd", adId=first["adId"])
    assert conn.call("recordImpression", adId=second["adId"]) == {"recorded": True}
    assert conn.call("performClickOnAsset", adId=second["adId"], key="headline")["recorded"] is True


def test_a_store_creative_offers_its_own_reasons_for_custom_ads(custom_server):
    c = custom_server.stdio
    c.sync()
    ads = load_ads(c, "/e2e/custom/gallery", adTypes=["customNative"], customNativeAdFormatIDs=["900100"],
                   options={"numberOfAds": 2})["ads"]
    full, minimal = ads
    assert "muteThisAdReasons" not in full
    assert minimal["muteThisAdReasons"] == ["Too often", "Not relevant"]
    assert_mute_not_offered(c.error("muteThisAd", {"adId": full["adId"]}))
    assert_invalid_params(c.error("muteThisAd", {"adId": minimal["adId"], "reason": "Irrelevant"}), "reason")
    assert c.call("muteThisAd", adId=minimal["adId"], reason="Not relevant") == {"muted": True}
    assert wait_ad_event(c, minimal["adId"], "didMute")["reason"] == "Not relevant"
    assert_not_recorded_impression(c.call("recordImpression", adId=minimal["adId"]), "muted")
    assert c.call("performClickOnAsset", adId=minimal["adId"], key="Title") == not_recorded_click("muted")
