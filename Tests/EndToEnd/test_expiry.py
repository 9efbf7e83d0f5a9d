"""Expiry (docs/sdk-behaviour.md "Expiry"): an ad expires `--ad-lifetime` seconds after its load
(`expiresAt`); an expired ad records no impression and no click (reason `expired`), its assets
stay readable and releaseAd still works. One sleep past a one-second lifetime serves every check."""
from __future__ import annotations

import time

from e2e_support import (
    BACKFILL_UNIT,
    NATIVE_UNIT,
    check_image,
    get_events,
    load_unchecked,
    not_recorded_click,
    notes,
    parse_rfc3339_utc,
)


def test_expires_at_is_the_load_time_plus_the_configured_lifetime(server_factory):
    for lifetime in (1, 7200):
        srv = server_factory(stdio=True, args=["--ad-lifetime", lifetime])
        c = srv.stdio
        c.sync()
        before = time.time()
        result = load_unchecked(c, NATIVE_UNIT, options={"numberOfAds": 2})
        after = time.time()
        for ad in result["ads"]:
            expires = parse_rfc3339_utc(ad["expiresAt"])
            # One second of slack each way for an expiresAt given to the second.
            assert before + lifetime - 1 <= expires <= after + lifetime + 1, (lifetime, ad["expiresAt"], before)


def test_an_expired_ad_records_nothing_but_its_assets_stay_readable(server_factory):
    srv = server_factory(stdio=True, args=["--ad-lifetime", 1])
    c = srv.stdio
    c.sync()
    native, custom = load_unchecked(c, NATIVE_UNIT, adTypes=["native", "customNative"],
                                    customNativeAdFormatIDs=["10063170"], options={"numberOfAds": 2})["ads"]
    assert native["kind"] == "native" and custom["kind"] == "customNative"
    backfill = load_unchecked(c, BACKFILL_UNIT)["ads"][0]
    c.call("registerAdView", adId=backfill["adId"], clickableAssets=["headline"], nonclickableAssets=["mediaView"])
    c.call("setCustomClickHandler", adId=custom["adId"], enabled=True)
    loaded_by = time.time()
    deadline = max([loaded_by + 1] + [parse_rfc3339_utc(a["expiresAt"]) for a in (native, custom, backfill)])
    time.sleep(max(0.0, deadline - time.time()) + 0.3)

    for ad in (native, custom, backfill):
        result = c.call("recordImpression", adId=ad["adId"])
        assert result == {"recorded": False, "reason": "expired"}, (ad["adId"], result)
    for ad, key in ((native, "headline"), (native, "3002"), (custom, "MainImage"), (backfill, "headline")):
        result = c.call("performClickOnAsset", adId=ad["adId"], key=key, openableURLSchemes=["market", "gadexample"])
        assert result == not_recorded_click("expired"), (key, result)
    assert c.call("reportVisibility", adId=backfill["adId"], visiblePixels=10) == {
        "impressionRecorded": False, "reason": "expired"}

    # The assets are still there.
    assert c.call("stringForKey", adId=native["adId"], key="headline") == "Flood-It! 2"
    check_image(c.call("imageForKey", adId=native["adId"], key="icon"), 128, 128, creative=True)
    assert c.call("stringForKey", adId=custom["adId"], key="Headline") == "Custom Native Ad Headline"
    check_image(c.call("imageForKey", adId=custom["adId"], key="MainImage"), 1200, 627, creative=True)
    check_image(c.call("imageForKey", adId=backfill["adId"], key="_adChoices"))

    c.barrier()
    assert c.ad_events() == [] and notes(c, "customClick") == [], c.notifications
    assert get_events(c)["events"] == []
    for ad in (native, custom, backfill):
        assert c.call("releaseAd", adId=ad["adId"]) == {"released": True}

