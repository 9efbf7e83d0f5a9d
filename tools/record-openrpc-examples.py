#!/usr/bin/env python3
"""Records the examples of the OpenRPC document by running a scripted session against a
`--seed 1` server (ids and response identifiers are then reproducible), and writes
Sources/NativeAdsRPC/Resources/openrpc-examples.json. The end-to-end suite replays them
(Tests/EndToEnd/test_discovery.py); rebuild and run `make schemas` after recording.

Usage: tools/record-openrpc-examples.py [path/to/native-ads]
"""
from __future__ import annotations

import json
import pathlib
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parents[1]
BIN = sys.argv[1] if len(sys.argv) > 1 else str(ROOT / ".build/debug/native-ads")
NATIVE = "/21775744923/example/native"
AD1, AD2, AD3, AD4 = "ad-1cc520-1", "ad-1cc520-2", "ad-1cc520-3", "ad-1cc520-4"
AD5 = "ad-1cc520-5"
LIGHT = {"disableImageLoading": True}
# An OpenRTB Native 1.2 response, as a server hands one to an app (docs/openrtb.md).
OPENRTB = {"native": {
    "ver": "1.2",
    "link": {"url": "exampleshop://product/42", "fallback": "https://shop.example.com/product/42",
             "clicktrackers": ["https://tracker.example.com/click?ad=42"]},
    "assets": [
        {"id": 1, "title": {"text": "The 42 Shoe"}},
        {"id": 2, "img": {"type": 1, "url": "https://shop.example.com/icon.png", "w": 128, "h": 128}},
        {"id": 3, "img": {"type": 3, "url": "https://shop.example.com/shoe.png", "w": 1200, "h": 627}},
        {"id": 4, "data": {"type": 2, "value": "Light, fast, and made to last."}},
        {"id": 5, "data": {"type": 12, "value": "Shop now"}},
        {"id": 6, "data": {"type": 1, "value": "Example Shop"}},
    ],
    "imptrackers": ["https://tracker.example.com/imp?ad=42"],
    "eventtrackers": [{"event": 1, "method": 1, "url": "https://measure.example.com/pixel?ad=42"}],
    "privacy": "https://shop.example.com/privacy",
}}

SCRIPT = [
    ("loadAd", "load a direct-sold native ad without image bytes",
     {"adUnitID": NATIVE, "options": LIGHT}),
    ("stringForKey", "read the headline", {"adId": AD1, "key": "headline"}),
    ("stringForKey", "an asset the ad lacks is null", {"adId": AD1, "key": "advertiser"}),
    ("imageForKey", "read the icon (no bytes: image loading was disabled)", {"adId": AD1, "key": "icon"}),
    ("registerAdView", "register the ad view with asset names and identifiers",
     {"adId": AD1, "clickableAssets": ["headline", "3002"], "nonclickableAssets": ["body", "mediaView"]}),
    ("reportVisibility", "nothing visible yet", {"adId": AD1, "visiblePixels": 0}),
    ("reportVisibility", "the first visible pixel records the impression", {"adId": AD1, "visiblePixels": 1}),
    ("recordImpression", "an impression is recorded once", {"adId": AD1}),
    ("performClickOnAsset", "a click that opens the app's deep link",
     {"adId": AD1, "key": "callToAction", "openableURLSchemes": ["market"]}),
    ("performClickOnAsset", "a registered but non-clickable asset records nothing",
     {"adId": AD1, "key": "body"}),
    ("reportScreenDismissed", "the user comes back from the store", {"adId": AD1}),
    ("unregisterAdView", "unregister the ad view", {"adId": AD1}),
    ("getVideoState", "an ad without video has no video state", {"adId": AD1}),
    ("loadAd", "load an indirect (backfill) ad, with AdChoices at the top left",
     {"adUnitID": "/21775744923/example/native-backfill",
      "options": {"disableImageLoading": True, "adChoicesPosition": "topLeft"}}),
    ("muteThisAd", "mute it with one of the offered reasons", {"adId": AD2, "reason": "Irrelevant"}),
    ("loadAd", "load the custom native format 10063170",
     {"adUnitID": NATIVE, "adTypes": ["customNative"], "customNativeAdFormatIDs": ["10063170"],
      "options": LIGHT}),
    ("setCustomClickHandler", "this connection handles the custom ad's clicks",
     {"adId": AD3, "enabled": True}),
    ("performClickOnAsset", "the custom click handler takes the click (a customClick notification)",
     {"adId": AD3, "key": "Headline"}),
    ("loadAd", "load a native video ad with custom controls",
     {"adUnitID": "/21775744923/example/native-video",
      "options": {"disableImageLoading": True, "customControlsRequested": True}}),
    ("videoControl", "unmute the video", {"adId": AD4, "action": "unmute"}),
    ("getEvents", "the first three events of the log", {"limit": 3}),
    ("releaseAd", "release the first ad", {"adId": AD1}),
    ("store.defineFormat", "define a custom format",
     {"format": {"id": "90001", "assets": [{"name": "Title", "type": "text", "required": True},
                                            {"name": "Picture", "type": "image"}]}}),
    ("store.putCreative", "add a creative of that format",
     {"creative": {"id": "example-1", "kind": "customNative", "formatID": "90001",
                   "assets": {"Title": "Hello", "Picture": {"url": "https://example.com/p.png", "width": 300, "height": 250}},
                   "landingPageURL": "https://example.com"}}),
    ("store.putAdUnit", "serve it from a new ad unit",
     {"adUnit": {"id": "/1234/example", "creatives": ["example-1"]}}),
    ("store.remove", "a creative still listed by an ad unit cannot be removed, an unknown one is not removed",
     {"kind": "creative", "id": "no-such-creative"}),
    ("mediation.registerAdapter", "answer the loads of an adapter class", {"adapterClassName": "ExampleNet"}),
    ("mediation.unregisterAdapter", "stop answering them", {"adapterClassName": "ExampleNet"}),
    ("loadAd", "load an ad from an OpenRTB Native 1.2 ad response string",
     {"adUnitID": "/6499/example/openrtb", "adResponseString": json.dumps(OPENRTB), "options": LIGHT}),
    ("recordImpression", "an OpenRTB ad hands its impression trackers to the caller", {"adId": AD5}),
    ("performClickOnAsset", "the deep link cannot be opened: the fallback, and the click trackers",
     {"adId": AD5, "key": "callToAction"}),
    ("exportAd", "export the backfill ad as an OpenRTB Native 1.2 response",
     {"adId": AD2, "format": "openrtb-native-1.2"}),
]


def main() -> None:
    proc = subprocess.Popen([BIN, "--stdio", "--seed", "1"], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    exchanges = []
    for i, (method, name, params) in enumerate(SCRIPT, 1):
        request = {"jsonrpc": "2.0", "id": i, "method": method, "params": params}
        proc.stdin.write((json.dumps(request) + "\n").encode())
        proc.stdin.flush()
        while True:
            message = json.loads(proc.stdout.readline())
            if message.get("id") == i:
                break
        if "error" in message:
            sys.exit(f"example {i} ({method}) failed: {message['error']}")
        exchanges.append({"method": method, "name": f"e{i:02d}: {name}", "params": params,
                          "result": message["result"]})
    proc.stdin.close()
    proc.wait()
    out = ROOT / "Sources/NativeAdsRPC/Resources/openrpc-examples.json"
    out.write_text(json.dumps({"exchanges": exchanges}, indent=2, ensure_ascii=False) + "\n")
    print(f"wrote {len(exchanges)} examples to {out}")


if __name__ == "__main__":
    main()
