"""AdChoices (contract section 7, docs/sdk-behaviour.md "AdChoices"): indirect ads carry it at the
requested corner with the attribution "Ad"; the image is `_adChoices` for both kinds; custom
formats list `_adChoices` when they have it; a click on it opens the AdChoices page and never
counts. Custom-format AdChoices use stores/custom.json (`cg-min` is indirect with its own
AdChoices image and page, `cg-full` is direct-sold)."""
from __future__ import annotations

import pytest

from e2e_support import (
    ADCHOICES_PAGE,
    ADMOB_UNIT,
    BACKFILL_UNIT,
    NATIVE_UNIT,
    VIDEO_FORMAT,
    VIDEO_UNIT,
    assert_error,
    check_image,
    get_events,
    load_ads,
    load_custom,
    load_one,
    start_private,
    store_path,
    wait_ad_event,
)

GALLERY_UNIT = "/e2e/custom/gallery"
GALLERY_FORMAT = "900100"
CUSTOM_ADCHOICES_PAGE = "https://example.com/why-this-ad"
POSITIONS = ["topRight", "topLeft", "bottomRight", "bottomLeft"]


@pytest.fixture(scope="module")
def custom_server(tmp_path_factory):
    srv = start_private(str(tmp_path_factory.mktemp("adchoices")), ["--store", store_path("custom.json")])
    yield srv
    srv.stop()


@pytest.fixture
def cconn(custom_server):
    assert custom_server.alive(), custom_server.describe()
    c = custom_server.stdio
    c.sync()
    return c


def load_gallery(c, n=2, **options):
    options["numberOfAds"] = n
    ads = load_ads(c, GALLERY_UNIT, adTypes=["customNative"], customNativeAdFormatIDs=[GALLERY_FORMAT],
                   options=options)["ads"]
    assert len(ads) == 2
    return ads  # cg-full (direct), cg-min (indirect)


# ------------------------------------------------------------------------------------------
# System-defined ads


@pytest.mark.parametrize("unit", [BACKFILL_UNIT, ADMOB_UNIT])
def test_indirect_native_ads_carry_adchoices_with_the_ad_attribution(conn, unit):
    for position in POSITIONS:
        ads = load_ads(conn, unit, options={"adChoicesPosition": position, "numberOfAds": 2})["ads"]
        assert len(ads) == 2
        for ad in ads:
            ac = ad["adChoices"]
            assert ac["position"] == position
            assert ac.get("attribution") == "Ad", ac
            assert ac["clickURL"] == ADCHOICES_PAGE
            check_image(ac["image"])
            assert conn.call("imageForKey", adId=ad["adId"], key="_adChoices") == ac["image"]


@pytest.mark.parametrize("unit", [NATIVE_UNIT, VIDEO_UNIT])
def test_direct_sold_ads_have_no_adchoices(conn, unit):
    ad = load_one(conn, unit)
    assert ad["adChoices"] is None
    assert conn.call("imageForKey", adId=ad["adId"], key="_adChoices") is None
    assert_error(conn.error("performClickOnAsset", {"adId": ad["adId"], "key": "_adChoices"}), 2002)


def test_direct_sold_custom_ads_do_not_list_adchoices(conn):
    ad = load_custom(conn)
    assert "_adChoices" not in ad["availableAssetKeys"]
    video = load_one(conn, VIDEO_UNIT, adTypes=["customNative"], customNativeAdFormatIDs=[VIDEO_FORMAT])
    assert video["adChoices"] is None and "_adChoices" not in video["availableAssetKeys"]


@pytest.mark.parametrize("unit", [BACKFILL_UNIT, ADMOB_UNIT])
def test_an_adchoices_click_opens_the_adchoices_page_and_is_never_an_ad_click(conn, unit):
    ad = load_one(conn, unit)
    for schemes in ([], ["itms-apps", "market", "https"]):
        result = conn.call("performClickOnAsset", adId=ad["adId"], key="_adChoices", openableURLSchemes=schemes)
        assert result == {"recorded": False, "action": "adChoices", "url": ADCHOICES_PAGE}
    # A real click afterwards is the first event the ad reports.
    assert conn.call("performClickOnAsset", adId=ad["adId"], key="headline")["recorded"] is True
    wait_ad_event(conn, ad["adId"], "didRecordClick")
    conn.barrier()
    events = conn.ad_events(ad["adId"])
    assert events[0]["event"] == "didRecordClick" and events[0]["assetKey"] == "headline", events
    assert all(e["assetKey"] != "_adChoices" for e in events)
    logged = get_events(conn, adId=ad["adId"])["events"]
    assert all(e["assetKey"] != "_adChoices" for e in logged), logged


def test_an_adchoices_click_counts_for_nothing_even_while_a_view_is_registered(conn):
    ad = load_one(conn, BACKFILL_UNIT)
    conn.call("registerAdView", adId=ad["adId"], clickableAssets=["headline"], nonclickableAssets=["body"])
    result = conn.call("performClickOnAsset", adId=ad["adId"], key="_adChoices")
    assert result["recorded"] is False and result["action"] == "adChoices" and result["url"] == ADCHOICES_PAGE


# ------------------------------------------------------------------------------------------
# Custom formats


def test_an_indirect_custom_ad_lists_and_serves_its_adchoices_image(cconn):
    full, minimal = load_gallery(cconn, adChoicesPosition="bottomLeft")
    assert full["adChoices"] is None
    assert "_adChoices" not in full["availableAssetKeys"]
    assert "_adChoices" in minimal["availableAssetKeys"], minimal["availableAssetKeys"]
    assert [k for k in minimal["availableAssetKeys"] if k != "_adChoices"] == ["Title", "Hero"]
    ac = minimal["adChoices"]
    assert ac["position"] == "bottomLeft" and ac.get("attribution") == "Ad" and ac["clickURL"] == CUSTOM_ADCHOICES_PAGE
    image = cconn.call("imageForKey", adId=minimal["adId"], key="_adChoices")
    assert image == ac["image"]
    check_image(image, 24, 24, scale=2)
    assert image["url"] == "https://static.native-ads.test/adchoices/e2e.png"


def test_a_custom_adchoices_click_opens_its_page_and_records_nothing(cconn):
    _full, minimal = load_gallery(cconn)
    result = cconn.call("performClickOnAsset", adId=minimal["adId"], key="_adChoices", openableURLSchemes=["https"])
    assert result == {"recorded": False, "action": "adChoices", "url": CUSTOM_ADCHOICES_PAGE}
    cconn.barrier()
    assert cconn.ad_events(minimal["adId"]) == []
    assert get_events(cconn, adId=minimal["adId"])["events"] == []
    # Its impression is still the first one.
    assert cconn.call("recordImpression", adId=minimal["adId"]) == {"recorded": True}


def test_a_custom_adchoices_image_has_no_bytes_when_image_loading_is_disabled(cconn):
    full, minimal = load_gallery(cconn, disableImageLoading=True)
    check_image(minimal["adChoices"]["image"], 24, 24, loaded=False)
    check_image(cconn.call("imageForKey", adId=minimal["adId"], key="_adChoices"), 24, 24, loaded=False)
    assert cconn.call("imageForKey", adId=full["adId"], key="_adChoices") is None
    assert_error(cconn.error("performClickOnAsset", {"adId": full["adId"], "key": "_adChoices"}), 2002)


def test_contract_1_1_a_direct_sold_creative_may_carry_adchoices_under_the_dsa(cconn):
    # The custom-format seeds: under the Digital Services Act, reservation ads served in the EEA
    # also carry the AdChoices icon (linking to "About this ad"). Such a creative says so in the
    # store; it stays direct-sold (Reservation, no ad attribution). Direct ads without it have none.
    c = cconn
    creative = {
        "id": "e2e-dsa-direct", "kind": "native", "priority": 1, "eCPM": 1.0,
        "assets": {"headline": "Direct with AdChoices"},
        "landingPageURL": "https://example.com/dsa",
        "adChoices": {"clickURL": CUSTOM_ADCHOICES_PAGE},
    }
    assert c.call("store.putCreative", creative=creative)["creativeID"] == "e2e-dsa-direct"
    c.call("store.putAdUnit", adUnit={"id": "/e2e/dsa", "creatives": ["e2e-dsa-direct"]})
    ad = load_one(c, "/e2e/dsa", options={"adChoicesPosition": "bottomLeft"})
    assert ad["responseInfo"]["loadedAdNetworkResponseInfo"]["adSourceName"] == "Reservation"
    ac = ad["adChoices"]
    assert ac["position"] == "bottomLeft" and ac["clickURL"] == CUSTOM_ADCHOICES_PAGE
    assert "attribution" not in ac, "the ad attribution is for indirect ads"
    check_image(ac["image"], 30, 30)
    assert c.call("imageForKey", adId=ad["adId"], key="_adChoices") == ac["image"]
    assert c.call("performClickOnAsset", adId=ad["adId"], key="_adChoices") == {
        "recorded": False, "action": "adChoices", "url": CUSTOM_ADCHOICES_PAGE}
    listed = {x["id"] for x in c.call("store.list")["creatives"]}
    assert "e2e-dsa-direct" in listed
