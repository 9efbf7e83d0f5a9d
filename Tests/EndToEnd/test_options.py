"""Loader options beyond the core (docs/sdk-behaviour.md, "Loader options"): image loading,
multiple images, media aspect ratio (orientation of the creative's media, 5% square tolerance),
the video options, the AdChoices corner and numberOfAds.

Orientation tests run on a private server serving stores/aspect.json, whose unit `/e2e/aspect`
holds (headline or Title = creative id, best first):

    ar-noimg            p11  no image at all (no orientation)
    ar-land             p10  1200x627 (+ 800x800, 300x600)      landscape
    ar-port             p9   627x1200                           portrait
    ar-square           p8   600x600                            square
    ar-near-square      p7   1000x960  (r = 1.042)              square (within 5%)
    ar-video-portrait   p6   1200x627 poster, video ratio 9:16  portrait (video ratio wins)
    ar-custom-portrait  p5   custom format, Picture 627x1200    portrait
    ar-almost-square    p4   1000x940  (r = 1.064)              landscape
    ar-near-square-tall p3   960x1000  (r = 0.96)               square
"""
from __future__ import annotations

import pytest

from e2e_support import (
    ADMOB_UNIT,
    BACKFILL_UNIT,
    NATIVE_UNIT,
    VIDEO_UNIT,
    ad_names,
    check_image,
    check_video_controller,
    load_ads,
    load_custom,
    load_one,
    start_private,
    store_path,
)

ASPECT_UNIT = "/e2e/aspect"
ASPECT_FORMAT = "900001"
POSITIONS = ["topRight", "topLeft", "bottomRight", "bottomLeft"]


@pytest.fixture(scope="module")
def aspect_server(tmp_path_factory):
    srv = start_private(str(tmp_path_factory.mktemp("aspect")), ["--store", store_path("aspect.json")])
    yield srv
    srv.stop()


@pytest.fixture
def aspect(aspect_server):
    assert aspect_server.alive(), aspect_server.describe()
    c = aspect_server.stdio
    c.sync()
    return c


def load_aspect(c, ratio=None, n=5, **options):
    if ratio is not None:
        options["mediaAspectRatio"] = ratio
    options["numberOfAds"] = n
    ads = load_ads(c, ASPECT_UNIT, adTypes=["native", "customNative"], customNativeAdFormatIDs=[ASPECT_FORMAT],
                   options=options)["ads"]
    return ads, ad_names(c, ads)


# ------------------------------------------------------------------------------------------
# disableImageLoading, shouldRequestMultipleImages


def test_disable_image_loading_strips_the_bytes_of_every_image_of_an_indirect_native_ad(conn):
    ad = load_one(conn, BACKFILL_UNIT, options={"disableImageLoading": True, "shouldRequestMultipleImages": True})
    check_image(ad["icon"], 128, 128, loaded=False)
    assert [(i["width"], i["height"]) for i in ad["images"]] == [(1200, 627), (627, 627)]
    for img in ad["images"]:
        check_image(img, loaded=False)
    check_image(ad["adChoices"]["image"], loaded=False)
    assert ad["mediaContent"]["mainImage"] is None
    for key in ("icon", "image", "_adChoices"):
        check_image(conn.call("imageForKey", adId=ad["adId"], key=key), loaded=False)


def test_disable_image_loading_strips_the_bytes_of_custom_image_assets(conn):
    ad = load_custom(conn, options={"disableImageLoading": True})
    check_image(conn.call("imageForKey", adId=ad["adId"], key="MainImage"), 1200, 627, loaded=False)


def test_disable_image_loading_keeps_the_video_but_drops_its_main_image(conn):
    ad = load_one(conn, ADMOB_UNIT, options={"disableImageLoading": True})
    mc = ad["mediaContent"]
    assert mc["hasVideoContent"] is True and mc["duration"] == 30
    assert mc["mainImage"] is None
    check_image(ad["images"][0], 1280, 720, loaded=False)


def test_images_carry_real_png_bytes_when_loading_is_enabled(conn):
    ad = load_one(conn, BACKFILL_UNIT, options={"disableImageLoading": False})
    check_image(ad["adChoices"]["image"], loaded=True)
    check_image(conn.call("imageForKey", adId=ad["adId"], key="_adChoices"), loaded=True)
    check_image(ad["mediaContent"]["mainImage"], 1200, 627, creative=True)


def test_one_image_by_default_and_every_image_when_multiple_images_are_requested(aspect):
    one = load_one(aspect, ASPECT_UNIT, options={"mediaAspectRatio": "landscape"})
    assert one["headline"] == "ar-land"
    assert [(i["width"], i["height"]) for i in one["images"]] == [(1200, 627)]
    every = load_one(aspect, ASPECT_UNIT, options={"mediaAspectRatio": "landscape",
                                                    "shouldRequestMultipleImages": True})
    assert [(i["width"], i["height"]) for i in every["images"]] == [(1200, 627), (800, 800), (300, 600)]
    for img in every["images"]:
        check_image(img, creative=True)


# ------------------------------------------------------------------------------------------
# mediaAspectRatio


@pytest.mark.parametrize(
    "ratio,expected",
    [
        ("landscape", ["ar-land", "ar-almost-square"]),
        ("portrait", ["ar-port", "ar-video-portrait", "ar-custom-portrait"]),
        ("square", ["ar-square", "ar-near-square", "ar-near-square-tall"]),
        ("any", ["ar-noimg", "ar-land", "ar-port", "ar-square", "ar-near-square"]),
        ("unknown", ["ar-noimg", "ar-land", "ar-port", "ar-square", "ar-near-square"]),
        (None, ["ar-noimg", "ar-land", "ar-port", "ar-square", "ar-near-square"]),
    ],
    ids=["landscape", "portrait", "square", "any", "unknown", "default"],
)
def test_media_aspect_ratio_selects_creatives_by_the_orientation_of_their_media(aspect, ratio, expected):
    _ads, names = load_aspect(aspect, ratio)
    assert names == expected


def test_a_video_creatives_orientation_is_its_videos_not_its_posters(aspect):
    ads, names = load_aspect(aspect, "portrait", n=2)
    assert names == ["ar-port", "ar-video-portrait"]
    mc = ads[1]["mediaContent"]
    assert mc["hasVideoContent"] is True
    assert mc["aspectRatio"] == pytest.approx(0.5625, rel=1e-3)
    check_image(mc["mainImage"], 1200, 627, creative=True)


def test_a_custom_creatives_orientation_is_its_first_image_asset(aspect):
    ads = load_ads(aspect, ASPECT_UNIT, adTypes=["customNative"], customNativeAdFormatIDs=[ASPECT_FORMAT],
                   options={"mediaAspectRatio": "portrait"})["ads"]
    assert ad_names(aspect, ads) == ["ar-custom-portrait"]
    check_image(aspect.call("imageForKey", adId=ads[0]["adId"], key="Picture"), 627, 1200, creative=True)


@pytest.mark.parametrize("ratio", ["landscape", "square"])
def test_an_orientation_no_creative_has_is_no_fill(aspect, ratio):
    resp = aspect.request("loadAd", {"adUnitID": ASPECT_UNIT, "adTypes": ["customNative"],
                                     "customNativeAdFormatIDs": [ASPECT_FORMAT], "options": {"mediaAspectRatio": ratio}})
    assert resp.get("error", {}).get("code") == 1001, resp
    assert resp["error"]["data"]["name"] == "noFill"


@pytest.mark.parametrize("ratio", ["portrait", "square"])
def test_the_landscape_only_builtin_unit_has_nothing_portrait_or_square(conn, ratio):
    resp = conn.request("loadAd", {"adUnitID": NATIVE_UNIT, "adTypes": ["native", "customNative"],
                                   "customNativeAdFormatIDs": ["10063170"], "options": {"mediaAspectRatio": ratio}})
    assert resp.get("error", {}).get("code") == 1001, resp


# ------------------------------------------------------------------------------------------
# Video options


@pytest.mark.parametrize(
    "unit,options,expected",
    [
        (ADMOB_UNIT, {}, (True, False, False)),
        (ADMOB_UNIT, {"startMuted": False}, (False, False, False)),
        (ADMOB_UNIT, {"startMuted": True, "customControlsRequested": True}, (True, True, False)),
        # The AdMob video allows custom controls but not click-to-expand.
        (ADMOB_UNIT, {"customControlsRequested": True, "clickToExpandRequested": True}, (True, True, False)),
        (ADMOB_UNIT, {"clickToExpandRequested": True}, (True, False, False)),
        (VIDEO_UNIT, {}, (True, False, False)),
        (VIDEO_UNIT, {"clickToExpandRequested": True, "startMuted": False}, (False, False, True)),
        (VIDEO_UNIT, {"customControlsRequested": True, "clickToExpandRequested": True}, (True, True, True)),
    ],
    ids=["admob-default", "admob-unmuted", "admob-controls", "admob-controls-expand", "admob-expand",
         "video-default", "video-expand-unmuted", "video-all"],
)
def test_video_options_set_the_video_controller_only_as_far_as_the_creative_allows(conn, unit, options, expected):
    ad = load_one(conn, unit, options=options)
    mc = ad["mediaContent"]
    assert mc["hasVideoContent"] is True
    vc = check_video_controller(mc.get("videoController"))
    assert (vc["isMuted"], vc["customControlsEnabled"], vc["clickToExpandEnabled"]) == expected, vc
    assert vc["playbackState"] == "stopped"


def test_an_ad_without_video_has_no_video_controller_whatever_the_options(conn):
    options = {"startMuted": False, "customControlsRequested": True, "clickToExpandRequested": True}
    for ad in [load_one(conn, NATIVE_UNIT, options=options), load_custom(conn, options=options)]:
        assert ad["mediaContent"]["hasVideoContent"] is False
        assert "videoController" not in ad["mediaContent"], ad["mediaContent"]


# ------------------------------------------------------------------------------------------
# adChoicesPosition


def test_the_adchoices_position_defaults_to_top_right_and_follows_the_request(conn):
    assert load_one(conn, ADMOB_UNIT)["adChoices"]["position"] == "topRight"
    for position in POSITIONS:
        ad = load_one(conn, ADMOB_UNIT, options={"adChoicesPosition": position})
        assert ad["adChoices"]["position"] == position


def test_direct_sold_ads_have_no_adchoices_whatever_the_position(conn):
    for unit in (NATIVE_UNIT, VIDEO_UNIT):
        assert load_one(conn, unit, options={"adChoicesPosition": "bottomLeft"})["adChoices"] is None


# ------------------------------------------------------------------------------------------
# numberOfAds


def test_number_of_ads_gives_that_many_distinct_creatives(aspect):
    ads, names = load_aspect(aspect, "any", n=3)
    assert names == ["ar-noimg", "ar-land", "ar-port"]
    assert len({a["adId"] for a in ads}) == 3


def test_number_of_ads_above_five_is_clamped_to_five(aspect):
    ads, names = load_aspect(aspect, "any", n=9)
    assert len(ads) == 5 and len(set(names)) == 5
    assert names == ["ar-noimg", "ar-land", "ar-port", "ar-square", "ar-near-square"]


def test_number_of_ads_gives_fewer_when_fewer_are_eligible(aspect, conn):
    _ads, names = load_aspect(aspect, "landscape", n=5)
    assert names == ["ar-land", "ar-almost-square"]
    ads = load_ads(conn, BACKFILL_UNIT, options={"numberOfAds": 5})["ads"]
    assert [a["headline"] for a in ads] == ["Backfill Puzzle Quest", "Backfill: Ten Tips for Better Sleep"]
