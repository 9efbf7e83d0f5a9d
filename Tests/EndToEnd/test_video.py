"""Video (contract section 7, docs/sdk-behaviour.md "Video"): the video controller, videoControl,
videoEvent notifications to the loading connection, the custom-format impression rule, the
service clock, and getVideoState. One-second videos come from stores/custom.json
(`/e2e/native/short-video`: `nv-short` 1 s with custom controls allowed; `/e2e/custom/video`:
custom format 900200 `cv-short`, 1 s)."""
from __future__ import annotations

import time

import pytest

from e2e_support import (
    ADMOB_UNIT,
    NATIVE_UNIT,
    VIDEO_FORMAT,
    VIDEO_UNIT,
    assert_ad_not_found,
    assert_invalid_params,
    check_image,
    check_video_controller,
    load_ads,
    load_custom,
    load_one,
    notes,
    start_private,
    store_path,
    video_control,
    video_state,
    wait_video_event,
)

CONTROLS = {"customControlsRequested": True}


def load_video(conn, unit=VIDEO_UNIT, **options):
    return load_one(conn, unit, options=options)


def load_custom_video(conn, **options):
    ad = load_one(conn, VIDEO_UNIT, adTypes=["customNative"], customNativeAdFormatIDs=[VIDEO_FORMAT], options=options)
    assert ad["kind"] == "customNative" and ad["formatID"] == VIDEO_FORMAT
    return ad


@pytest.fixture(scope="module")
def short_server(tmp_path_factory):
    srv = start_private(str(tmp_path_factory.mktemp("video")), ["--store", store_path("custom.json")])
    yield srv
    srv.stop()


@pytest.fixture
def sconn(short_server):
    assert short_server.alive(), short_server.describe()
    c = short_server.stdio
    c.sync()
    return c


# ------------------------------------------------------------------------------------------
# The video inventory and the controller


def test_the_native_video_unit_serves_a_direct_sold_video_ad(conn):
    ad = load_video(conn)
    assert ad["kind"] == "native" and ad["headline"] == "Ad Manager Native Video"
    assert ad["adChoices"] is None
    mc = ad["mediaContent"]
    assert mc["hasVideoContent"] is True
    assert mc["duration"] == 15 and mc["currentTime"] == 0
    assert mc["aspectRatio"] == pytest.approx(16 / 9, rel=1e-3)
    check_video_controller(mc["videoController"])
    check_image(mc["mainImage"], creative=True)


def test_the_custom_video_format_has_video_but_no_main_image(conn):
    ad = load_custom_video(conn)
    assert ad["availableAssetKeys"] == ["Headline", "Video", "Caption"]
    assert conn.call("stringForKey", adId=ad["adId"], key="Headline") == "Custom Native Video"
    assert conn.call("stringForKey", adId=ad["adId"], key="Caption") == "A custom native format with video"
    assert conn.call("stringForKey", adId=ad["adId"], key="Video") is None
    assert conn.call("imageForKey", adId=ad["adId"], key="Video") is None
    mc = ad["mediaContent"]
    assert mc["hasVideoContent"] is True and mc["duration"] == 20 and mc["currentTime"] == 0
    assert mc["mainImage"] is None
    check_video_controller(mc["videoController"])


def test_the_video_controller_is_present_exactly_when_there_is_video(conn):
    ads = load_ads(conn, ADMOB_UNIT, options={"numberOfAds": 2})["ads"]
    assert [a["mediaContent"]["hasVideoContent"] for a in ads] == [True, False]
    assert "videoController" in ads[0]["mediaContent"]
    assert "videoController" not in ads[1]["mediaContent"]
    assert "videoController" not in load_custom(conn)["mediaContent"]


def test_get_video_state_reports_the_controller_time_and_duration(conn):
    ad = load_video(conn, startMuted=False, **CONTROLS)
    state = video_state(conn, ad["adId"])
    assert state["videoController"] == ad["mediaContent"]["videoController"]
    assert state["videoController"]["isMuted"] is False
    assert state["currentTime"] == 0 and state["duration"] == 15


# ------------------------------------------------------------------------------------------
# videoControl refusals


@pytest.mark.parametrize("action", ["play", "mute", "unmute"])
def test_without_custom_controls_every_action_is_a_no_op_that_says_so(conn, action):
    # startMuted is chosen so that the action would change something with custom controls.
    ad = load_video(conn, ADMOB_UNIT, startMuted=action != "mute")
    before = ad["mediaContent"]["videoController"]
    result = video_control(conn, ad["adId"], action)
    assert result["applied"] is False and result["reason"] == "customControlsNotEnabled"
    assert result["videoController"] == before
    conn.barrier()
    assert notes(conn, "videoEvent", ad["adId"]) == []


def test_video_control_on_an_ad_without_video_is_no_video(conn):
    for ad in (load_one(conn, NATIVE_UNIT, options=CONTROLS), load_custom(conn, options=CONTROLS)):
        result = conn.call("videoControl", adId=ad["adId"], action="play")
        assert result["applied"] is False and result["reason"] == "noVideo", result


def test_video_control_params_are_checked(conn):
    ad = load_video(conn, **CONTROLS)
    assert_invalid_params(conn.error("videoControl", {"adId": ad["adId"], "action": "rewind"}), "action")
    assert_invalid_params(conn.error("videoControl", {"adId": ad["adId"]}), "action")
    assert_invalid_params(conn.error("videoControl", {"adId": ad["adId"], "action": 1}), "action")


@pytest.mark.parametrize("method,params", [("videoControl", {"action": "play"}), ("getVideoState", {})])
def test_video_methods_on_an_unknown_or_released_ad_are_ad_not_found(conn, method, params):
    assert_ad_not_found(conn.error(method, dict(params, adId="no-such-ad")))
    ad = load_video(conn, **CONTROLS)
    conn.call("releaseAd", adId=ad["adId"])
    assert_ad_not_found(conn.error(method, dict(params, adId=ad["adId"])))


# ------------------------------------------------------------------------------------------
# videoControl with custom controls


def test_custom_controls_drive_playback_and_report_each_change(conn):
    ad = load_video(conn, **CONTROLS)
    ad_id = ad["adId"]
    steps = [
        ("play", True, "playing", None, "didPlay"),
        ("play", False, "playing", "noChange", None),
        ("pause", True, "paused", None, "didPause"),
        ("pause", False, "paused", "noChange", None),
        ("play", True, "playing", None, "didPlay"),
        ("stop", True, "stopped", None, "didEnd"),
        ("stop", False, "stopped", "noChange", None),
        ("pause", False, "stopped", "noChange", None),
        ("mute", False, "stopped", "noChange", None),  # startMuted defaults to true
        ("unmute", True, "stopped", None, "didUnmute"),
        ("unmute", False, "stopped", "noChange", None),
        ("mute", True, "stopped", None, "didMute"),
    ]
    expected_events = []
    muted = True
    for action, applied, state, reason, event in steps:
        result = video_control(conn, ad_id, action)
        assert result["applied"] is applied, (action, result)
        assert result.get("reason") == reason, (action, result)
        vc = result["videoController"]
        assert vc["playbackState"] == state, (action, result)
        if applied and action in ("mute", "unmute"):
            muted = action == "mute"
        assert vc["isMuted"] is muted, (action, result)
        assert vc["customControlsEnabled"] is True
        assert result["duration"] == 15
        if event:
            expected_events.append(event)
    conn.barrier()
    got = [n["event"] for n in notes(conn, "videoEvent", ad_id)]
    assert got == expected_events
    for n in notes(conn, "videoEvent", ad_id):
        assert n["adId"] == ad_id
    assert conn.ad_events(ad_id) == [], "video events are videoEvent notifications, not adEvent"
    assert video_state(conn, ad_id)["videoController"]["isMuted"] is True


def test_the_clock_advances_while_playing_freezes_on_pause_and_resets_on_stop(conn):
    ad = load_video(conn, **CONTROLS)
    ad_id = ad["adId"]
    assert video_control(conn, ad_id, "play")["applied"] is True
    time.sleep(0.3)
    playing = video_state(conn, ad_id)
    assert playing["videoController"]["playbackState"] == "playing"
    assert 0 < playing["currentTime"] <= playing["duration"] == 15
    paused = video_control(conn, ad_id, "pause")
    assert paused["currentTime"] >= playing["currentTime"]
    time.sleep(0.2)
    later = video_state(conn, ad_id)
    assert later["currentTime"] == paused["currentTime"], "pause freezes the time"
    assert video_control(conn, ad_id, "play")["currentTime"] >= paused["currentTime"], "play resumes where it paused"
    stopped = video_control(conn, ad_id, "stop")
    assert stopped["currentTime"] == 0 and stopped["videoController"]["playbackState"] == "stopped"


def test_video_events_go_to_the_connection_that_loaded_the_ad(server_factory):
    srv = server_factory(stdio=False, tcp=True)
    a = srv.connect("ndjson", name="A")
    b = srv.connect("lsp", name="B")
    ad = load_video(a, ADMOB_UNIT, startMuted=False, **CONTROLS)
    assert video_control(b, ad["adId"], "play")["applied"] is True
    assert video_control(b, ad["adId"], "mute")["applied"] is True
    assert wait_video_event(a, ad["adId"], "didPlay") == {"adId": ad["adId"], "event": "didPlay"}
    wait_video_event(a, ad["adId"], "didMute")
    b.barrier()
    assert notes(b, "videoEvent") == []
    # The state is the ad's, whoever reads it.
    assert video_state(a, ad["adId"])["videoController"]["isMuted"] is True


def test_contract_1_1_a_custom_video_does_not_play_before_its_impression_and_starts_with_it(conn):
    # 1.1: a video starts playing when the app shows its media; for a custom format the app
    # shows it when it records the impression (version 1 waited for an explicit play).
    ad = load_custom_video(conn, **CONTROLS)
    ad_id = ad["adId"]
    assert ad["mediaContent"]["videoController"]["customControlsEnabled"] is True
    refused = video_control(conn, ad_id, "play")
    assert refused["applied"] is False and refused["reason"] == "impressionNotRecorded"
    assert refused["videoController"]["playbackState"] == "stopped"
    # Only play waits for the impression.
    assert video_control(conn, ad_id, "unmute")["applied"] is True
    assert conn.call("recordImpression", adId=ad_id)["recorded"] is True
    wait_video_event(conn, ad_id, "didPlay")
    played = video_state(conn, ad_id)
    assert played["videoController"]["playbackState"] == "playing" and played["duration"] == 20
    again = video_control(conn, ad_id, "play")
    assert again["applied"] is False and again["reason"] == "noChange"
    conn.barrier()
    assert [n["event"] for n in notes(conn, "videoEvent", ad_id)] == ["didUnmute", "didPlay"]


def test_playback_reaching_the_end_is_noticed_when_the_ad_is_next_touched(sconn):
    ad = load_one(sconn, "/e2e/native/short-video", options=CONTROLS)
    assert ad["headline"] == "One second video" and ad["mediaContent"]["duration"] == 1
    ad_id = ad["adId"]
    assert video_control(sconn, ad_id, "play")["applied"] is True
    time.sleep(1.3)
    state = video_state(sconn, ad_id)
    assert state["videoController"]["playbackState"] == "ended"
    assert state["currentTime"] == state["duration"] == 1
    wait_video_event(sconn, ad_id, "didEnd")
    sconn.barrier()
    assert [n["event"] for n in notes(sconn, "videoEvent", ad_id)] == ["didPlay", "didEnd"]
    # Stopping an ended video returns it to the first frame.
    stopped = video_control(sconn, ad_id, "stop")
    assert stopped["currentTime"] == 0 and stopped["videoController"]["playbackState"] == "stopped"


def test_contract_1_1_a_custom_format_video_from_the_store_plays_from_its_impression_and_ends(sconn):
    ad = load_one(sconn, "/e2e/custom/video", adTypes=["customNative"], customNativeAdFormatIDs=["900200"],
                  options=CONTROLS)
    ad_id = ad["adId"]
    assert ad["availableAssetKeys"] == ["Title", "Clip", "Note"]
    assert ad["mediaContent"]["hasVideoContent"] is True and ad["mediaContent"]["duration"] == 1
    assert ad["mediaContent"]["mainImage"] is None
    assert video_control(sconn, ad_id, "play")["reason"] == "impressionNotRecorded"
    sconn.call("recordImpression", adId=ad_id)
    wait_video_event(sconn, ad_id, "didPlay")
    time.sleep(1.3)
    # Any method naming the ad notices the end.
    assert sconn.call("stringForKey", adId=ad_id, key="Title") == "Short clip"
    wait_video_event(sconn, ad_id, "didEnd")
    assert video_state(sconn, ad_id)["videoController"]["playbackState"] == "ended"


def test_a_video_the_creative_forbids_controlling_refuses_even_when_asked(sconn):
    ads = load_ads(sconn, "/e2e/native/short-video", options={"numberOfAds": 2, "customControlsRequested": True,
                                                               "clickToExpandRequested": True})["ads"]
    vc = ads[1]["mediaContent"]["videoController"]
    assert (vc["customControlsEnabled"], vc["clickToExpandEnabled"]) == (False, True)
    assert video_control(sconn, ads[1]["adId"], "play")["reason"] == "customControlsNotEnabled"


def test_contract_1_1_a_native_video_starts_playing_when_its_media_view_is_registered(sconn):
    # 1.1: as the SDK plays a video once its media content is set on a media view, registering
    # an ad view whose assets include mediaView starts it, without custom controls; it ends by
    # itself when its duration has passed.
    ad = load_one(sconn, "/e2e/native/short-video")
    ad_id = ad["adId"]
    assert ad["mediaContent"]["videoController"]["customControlsEnabled"] is False
    sconn.call("registerAdView", adId=ad_id, clickableAssets=["headline"], nonclickableAssets=["body"])
    assert video_state(sconn, ad_id)["videoController"]["playbackState"] == "stopped", "no media view, no play"
    sconn.call("registerAdView", adId=ad_id, clickableAssets=["headline"], nonclickableAssets=["mediaView"])
    assert wait_video_event(sconn, ad_id, "didPlay") == {"adId": ad_id, "event": "didPlay"}
    playing = video_state(sconn, ad_id)
    assert playing["videoController"]["playbackState"] == "playing"
    # Registering again while it plays changes nothing.
    sconn.call("registerAdView", adId=ad_id, clickableAssets=[], nonclickableAssets=["3010"])
    deadline = time.monotonic() + 5
    while video_state(sconn, ad_id)["videoController"]["playbackState"] != "ended":
        assert time.monotonic() < deadline, "the one-second video did not end"
        time.sleep(0.05)
    wait_video_event(sconn, ad_id, "didEnd")
    sconn.barrier()
    assert [n["event"] for n in notes(sconn, "videoEvent", ad_id)] == ["didPlay", "didEnd"]


def test_contract_1_1_custom_controls_still_pause_a_video_the_media_view_started(conn):
    ad = load_video(conn, **CONTROLS)
    ad_id = ad["adId"]
    conn.call("registerAdView", adId=ad_id, clickableAssets=[], nonclickableAssets=["mediaView"])
    wait_video_event(conn, ad_id, "didPlay")
    paused = video_control(conn, ad_id, "pause")
    assert paused["applied"] is True and paused["videoController"]["playbackState"] == "paused"
    assert video_control(conn, ad_id, "play")["applied"] is True
