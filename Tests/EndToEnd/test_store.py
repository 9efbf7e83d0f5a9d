"""The store (contract section 7, docs/sdk-behaviour.md "The store"): --store FILE and
--with-builtin, user-defined custom formats, generated image bytes, start-up errors naming the
exact place, the store.* RPC methods with the same validation, and a generated inventory of
10,000 creatives. Store files are checked against schemas/store.schema.json when it exists."""
from __future__ import annotations

import base64
import copy
import glob
import json
import os
import random
import subprocess
import sys

import pytest

from e2e_support import (
    BACKFILL_UNIT,
    NATIVE_UNIT,
    STORE_SCHEMA,
    STORES_DIR,
    VIDEO_UNIT,
    WAIT,
    ad_names,
    assert_invalid_params,
    check_image,
    creative_image,
    load_ads,
    load_one,
    make_png,
    read_store,
    run_once,
    store_path,
    store_schema,
    write_json,
)

GALLERY_UNIT = "/e2e/custom/gallery"
GOOD_STORES = ["aspect.json", "targeting.json", "custom.json"]
BUILTIN_STORE = os.path.normpath(os.path.join(STORES_DIR, "..", "..", "..", "Sources", "NativeAdsRPC", "Resources",
                                              "builtin-store.json"))


def start(server_factory, *args, framing="ndjson"):
    srv = server_factory(stdio=True, framing=framing, args=[str(a) for a in args])
    srv.stdio.sync()
    return srv.stdio


def load_error(c, params):
    resp = c.request("loadAd", params)
    assert "error" in resp, resp
    return resp["error"]


# ------------------------------------------------------------------------------------------
# The schema


def validator():
    schema = store_schema()
    if schema is None:
        pytest.skip(f"{STORE_SCHEMA} does not exist yet")
    jsonschema = pytest.importorskip("jsonschema")
    cls = jsonschema.validators.validator_for(schema)
    cls.check_schema(schema)
    return cls(schema)


@pytest.mark.parametrize("name", GOOD_STORES + ["builtin-store.json"])
def test_store_files_validate_against_the_schema(name):
    v = validator()
    path = BUILTIN_STORE if name == "builtin-store.json" else store_path(name)
    if not os.path.isfile(path):
        pytest.skip(f"{path} does not exist")
    with open(path, encoding="utf-8") as f:
        doc = json.load(f)
    errors = sorted(v.iter_errors(doc), key=lambda e: list(e.path))
    assert not errors, "\n".join(f"{list(e.path)}: {e.message}" for e in errors[:10])


def test_the_schema_rejects_a_non_positive_image_width():
    v = validator()
    assert not v.is_valid(read_store("bad-mainimage-width.json"))


# ------------------------------------------------------------------------------------------
# --store FILE, --with-builtin


def test_a_store_file_replaces_the_builtin_inventory(server_factory):
    c = start(server_factory, "--store", store_path("custom.json"))
    for unit in (NATIVE_UNIT, BACKFILL_UNIT, VIDEO_UNIT):
        err = load_error(c, {"adUnitID": unit})
        assert err["code"] == 1000 and err["data"]["name"] == "invalidRequest", err
    ads = load_ads(c, "/e2e/native/short-video", options={"numberOfAds": 2})["ads"]
    assert [a["headline"] for a in ads] == ["One second video", "nv-no-controls"]


def test_with_builtin_keeps_the_builtin_units_and_adds_the_files(server_factory):
    c = start(server_factory, "--store", store_path("custom.json"), "--with-builtin")
    assert load_one(c, NATIVE_UNIT)["headline"] == "Flood-It! 2"
    assert load_one(c, VIDEO_UNIT)["headline"] == "Ad Manager Native Video"
    assert load_one(c, BACKFILL_UNIT, adTypes=["native"])["headline"] == "Backfill Puzzle Quest"
    custom = load_one(c, NATIVE_UNIT, adTypes=["customNative"], customNativeAdFormatIDs=["10063170"])
    assert custom["formatID"] == "10063170"
    ads = load_ads(c, GALLERY_UNIT, adTypes=["customNative"], customNativeAdFormatIDs=["900100"],
                   options={"numberOfAds": 2})["ads"]
    assert ad_names(c, ads) == ["Gallery full", "Gallery minimal"]
    listed = c.call("store.list")
    units = {u["id"] for u in listed["adUnits"]}
    assert {NATIVE_UNIT, BACKFILL_UNIT, VIDEO_UNIT, GALLERY_UNIT, "/e2e/custom/video"} <= units


def test_a_user_defined_format_serves_its_required_and_optional_assets(server_factory):
    c = start(server_factory, "--store", store_path("custom.json"))
    full, minimal = load_ads(c, GALLERY_UNIT, adTypes=["customNative"], customNativeAdFormatIDs=["900100"],
                             options={"numberOfAds": 2})["ads"]
    assert full["formatID"] == minimal["formatID"] == "900100"
    assert full["availableAssetKeys"] == ["Title", "Hero", "Caption", "Badge"]
    assert [k for k in minimal["availableAssetKeys"] if k != "_adChoices"] == ["Title", "Hero"]
    get = lambda ad, m, k: c.call(m, adId=ad["adId"], key=k)  # noqa: E731
    assert get(full, "stringForKey", "Title") == "Gallery full"
    assert get(full, "stringForKey", "Caption") == "With every asset"
    assert get(minimal, "stringForKey", "Caption") is None
    assert get(minimal, "imageForKey", "Badge") is None
    assert get(full, "stringForKey", "Hero") is None
    # An image without data is a generated PNG of the stated size.
    hero = check_image(get(full, "imageForKey", "Hero"), 1000, 500, creative=True)
    assert hero["url"] == "https://static.native-ads.test/creatives/cg-full/Hero.png"
    check_image(get(minimal, "imageForKey", "Hero"), 300, 300, creative=True)
    # An image with data keeps its bytes, scale and MIME type.
    badge = check_image(get(full, "imageForKey", "Badge"), 4, 3, scale=2, creative=True)
    assert base64.b64decode(badge["data"]) == make_png(4, 3, (0xEE, 0x44, 0x11))
    # Clicks follow the creative's deep links and landing page.
    assert c.call("performClickOnAsset", adId=full["adId"], key="Hero", openableURLSchemes=["galleryapp"]) == {
        "recorded": True, "action": "deepLink", "url": "galleryapp://item/1"}
    assert c.call("performClickOnAsset", adId=full["adId"], key="Title") == {
        "recorded": True, "action": "landingPage", "url": "https://example.com/gallery/1"}

def test_contract_1_1_a_set_custom_click_handler_takes_clicks_without_a_custom_click_action(server_factory):
    # Version 1 let the handler take over only when the creative had a custom click action; 1.1
    # follows the SDK: a set handler runs and the SDK takes no other action, whatever the creative.
    c = start(server_factory, "--store", store_path("custom.json"))
    full = load_one(c, GALLERY_UNIT, adTypes=["customNative"], customNativeAdFormatIDs=["900100"])
    assert full["availableAssetKeys"] == ["Title", "Hero", "Caption", "Badge"]
    c.call("setCustomClickHandler", adId=full["adId"], enabled=True)
    assert c.call("performClickOnAsset", adId=full["adId"], key="Title", openableURLSchemes=["galleryapp"]) == {
        "recorded": True, "action": "customClickHandler", "url": None}
    assert c.wait_notification("customClick") == {"adId": full["adId"], "assetID": "Title"}
    c.call("setCustomClickHandler", adId=full["adId"], enabled=False)
    assert c.call("performClickOnAsset", adId=full["adId"], key="Title")["action"] == "landingPage"


def test_a_store_video_creative_gets_its_poster_from_its_first_image(server_factory):
    c = start(server_factory, "--store", store_path("custom.json"))
    ad = load_one(c, "/e2e/native/short-video")
    mc = ad["mediaContent"]
    assert mc["hasVideoContent"] is True and mc["duration"] == 1
    assert mc["aspectRatio"] == pytest.approx(1.7778, rel=1e-3)
    assert mc["mainImage"] == ad["images"][0]
    check_image(mc["mainImage"], 1280, 720, creative=True)


# ------------------------------------------------------------------------------------------
# Bad store files


def base_store():
    """A valid store; each bad-file case breaks exactly one place of it."""
    fmt = {"id": "900300", "assets": [{"name": "Title", "type": "text", "required": True},
                                      {"name": "Hero", "type": "image", "required": True},
                                      {"name": "Caption", "type": "text", "required": False}]}

    def native(cid):
        return {"id": cid, "kind": "native", "priority": 1, "eCPM": 1.0,
                "assets": {"headline": cid, "icon": creative_image(cid, "icon", 16, 16),
                           "images": [creative_image(cid, "image1", 40, 20)]},
                "landingPageURL": f"https://example.com/{cid}"}

    def custom(cid):
        return {"id": cid, "kind": "customNative", "formatID": "900300", "priority": 1, "eCPM": 1.0,
                "assets": {"Title": cid, "Hero": creative_image(cid, "Hero", 30, 30)},
                "landingPageURL": f"https://example.com/{cid}"}

    return {"formats": [fmt], "creatives": [native("n-0"), custom("c-1"), native("n-2"), custom("c-3")],
            "adUnits": [{"id": "/e2e/base", "creatives": ["n-0", "c-1", "n-2", "c-3"]}]}


DELETE = object()
DUPLICATE_ID = object()


def mutate(store, keys, value):
    if value is DUPLICATE_ID:
        # Two creatives named n-0; the unit lists only names that exist either way.
        store["creatives"][2]["id"] = "n-0"
        store["adUnits"][0]["creatives"] = ["n-0", "c-1", "c-3"]
        return
    obj = store
    for k in keys[:-1]:
        obj = obj[k]
    if value is DELETE:
        del obj[keys[-1]]
    else:
        obj[keys[-1]] = copy.deepcopy(value)
C = "creatives"
BAD_CASES = [
    ((C, 3, "assets", "Hero", "width"), 0, "creatives[3].assets.Hero.width"),
    ((C, 3, "assets", "Hero", "width"), "wide", "creatives[3].assets.Hero.width"),
    ((C, 0, "assets", "images", 0, "height"), -5, "creatives[0].assets.images[0].height"),
    ((C, 0, "assets", "icon", "data"), "not base64!", "creatives[0].assets.icon.data"),
    ((C, 0, "assets", "headline"), DELETE, "creatives[0].assets.headline"),
    ((C, 0, "assets", "starRating"), 6, "creatives[0].assets.starRating"),
    ((C, 0, "video"), {"duration": -1, "aspectRatio": 1.5}, "creatives[0].video.duration"),
    ((C, 1, "formatID"), "424242", "creatives[1].formatID"),
    ((C, 1, "assets", "Title"), DELETE, "creatives[1].assets.Title"),
    ((C, 1, "assets", "Title"), {"url": "https://example.com/t.png", "width": 1, "height": 1},
     "creatives[1].assets.Title"),
    ((C, 1, "assets", "Hero"), "a text where an image belongs", "creatives[1].assets.Hero"),
    ((C, 2, "id"), DUPLICATE_ID, "creatives[2].id"),
    ((C, 2, "kind"), "banner", "creatives[2].kind"),
    ((C, 2, "priority"), "high", "creatives[2].priority"),
    ((C, 2, "muteThisAdReasons"), "Irrelevant", "creatives[2].muteThisAdReasons"),
    ((C, 2, "targeting"), {"keywords": "cars"}, "creatives[2].targeting.keywords"),
    (("formats", 0, "assets", 1, "type"), "audio", "formats[0].assets[1].type"),
    (("adUnits", 0, "creatives", 1), "no-such-creative", "adUnits[0].creatives[1]"),
]


def assert_refused(proc, path, place=None):
    out, err = proc.stdout, proc.stderr.decode("utf-8", "replace")
    assert proc.returncode == 1, f"exit {proc.returncode}, stderr: {err[-1000:]}"
    assert out == b"", f"nothing may reach stdout: {out[:300]!r}"
    assert "native-ads: error:" in err, err
    assert path in err, f"the error should name the file {path}: {err}"
    if place is not None:
        assert f"{path}: {place}:" in err, f"the error should name {place!r}: {err}"
    return err


def test_the_base_of_the_bad_files_is_valid(tmp_path):
    path = write_json(str(tmp_path / "base.json"), base_store())
    proc = run_once(["--store", path])
    assert proc.returncode == 0, proc.stderr.decode()
    assert proc.stdout == b""


def _case_id(case):
    value = case[1]
    label = "missing" if value is DELETE else "duplicate" if value is DUPLICATE_ID else str(value)
    return f"{case[2]}:{label}"


@pytest.mark.parametrize("keys,value,place", BAD_CASES, ids=[_case_id(c) for c in BAD_CASES])
def test_a_bad_store_file_stops_start_up_naming_the_exact_place(tmp_path, keys, value, place):
    store = base_store()
    mutate(store, keys, value)
    path = write_json(str(tmp_path / "bad.json"), store)
    assert_refused(run_once(["--store", path]), path, place)


def test_the_documented_example_of_a_bad_file(tmp_path):
    path = store_path("bad-mainimage-width.json")
    err = assert_refused(run_once(["--store", path]), path, "creatives[3].assets.MainImage.width")
    assert f"native-ads: error: {path}: creatives[3].assets.MainImage.width: must be a positive integer" in err
    # --with-builtin does not make a bad file acceptable.
    assert_refused(run_once(["--store", path, "--with-builtin"]), path, "creatives[3].assets.MainImage.width")


@pytest.mark.parametrize(
    "content",
    [b"{\"formats\": [", b"", b"[]", b"\"a store\"", b"{\"formats\": 5, \"creatives\": [], \"adUnits\": []}",
     b"\xff\xfe{}"],
    ids=["truncated", "empty", "array", "string", "formats-not-array", "not-utf8"],
)
def test_a_file_that_is_not_a_store_stops_start_up(tmp_path, content):
    path = str(tmp_path / "store.json")
    with open(path, "wb") as f:
        f.write(content)
    assert_refused(run_once(["--store", path]), path)


def test_a_missing_store_file_stops_start_up(tmp_path):
    path = str(tmp_path / "nowhere.json")
    assert_refused(run_once(["--store", path]), path)


# ------------------------------------------------------------------------------------------
# store.* RPC


def uid():
    return f"{random.randrange(10**9):09d}"


def rpc_format(fid):
    return {"id": fid, "assets": [{"name": "Title", "type": "text", "required": True},
                                  {"name": "Hero", "type": "image", "required": True},
                                  {"name": "Caption", "type": "text", "required": False}]}


def rpc_native(cid, headline=None, priority=1):
    return {"id": cid, "kind": "native", "priority": priority, "eCPM": 1.0,
            "assets": {"headline": headline or cid, "images": [creative_image(cid, "image1", 60, 30)]},
            "landingPageURL": f"https://example.com/{cid}"}


def rpc_custom(cid, fid, title=None, priority=5):
    return {"id": cid, "kind": "customNative", "formatID": fid, "priority": priority, "eCPM": 1.0,
            "assets": {"Title": title or cid, "Hero": creative_image(cid, "Hero", 320, 100)},
            "landingPageURL": f"https://example.com/{cid}"}


def test_store_rpc_defines_a_format_creatives_and_a_unit_that_serves_at_once(conn):
    u = uid()
    fid, cid, nid, unit = f"8{u}", f"e2e-{u}-custom", f"e2e-{u}-native", f"/e2e/rpc/{u}"
    assert conn.call("store.defineFormat", format=rpc_format(fid)) == {"formatID": fid, "replaced": False}
    assert conn.call("store.putCreative", creative=rpc_custom(cid, fid)) == {"creativeID": cid, "replaced": False}
    assert conn.call("store.putCreative", creative=rpc_native(nid)) == {"creativeID": nid, "replaced": False}
    assert conn.call("store.putAdUnit", adUnit={"id": unit, "creatives": [nid, cid]}) == {
        "adUnitID": unit, "replaced": False}
    ads = load_ads(conn, unit, adTypes=["native", "customNative"], customNativeAdFormatIDs=[fid],
                   options={"numberOfAds": 5})["ads"]
    assert [a["kind"] for a in ads] == ["customNative", "native"]
    assert ads[0]["formatID"] == fid and ads[0]["availableAssetKeys"] == ["Title", "Hero"]
    assert conn.call("stringForKey", adId=ads[0]["adId"], key="Title") == cid
    check_image(conn.call("imageForKey", adId=ads[0]["adId"], key="Hero"), 320, 100, creative=True)
    check_image(ads[1]["images"][0], 60, 30, creative=True)

    listed = conn.call("store.list")
    assert set(listed) >= {"formats", "creatives", "adUnits"}
    fmt = [f for f in listed["formats"] if f["id"] == fid]
    assert len(fmt) == 1 and fmt[0]["assets"] == rpc_format(fid)["assets"]
    entries = {c["id"]: c for c in listed["creatives"]}
    assert entries[cid]["kind"] == "customNative" and entries[cid]["formatID"] == fid
    assert entries[nid]["kind"] == "native" and entries[nid].get("formatID") is None
    units = [x for x in listed["adUnits"] if x["id"] == unit]
    assert len(units) == 1 and units[0]["creatives"] == [nid, cid]
    # The built-in inventory is still there.
    assert NATIVE_UNIT in {x["id"] for x in listed["adUnits"]}


def test_replacing_a_creative_changes_new_loads_but_not_loaded_ads(conn):
    u = uid()
    nid, unit = f"e2e-{u}-n", f"/e2e/rpc/{u}"
    conn.call("store.putCreative", creative=rpc_native(nid, "Before"))
    conn.call("store.putAdUnit", adUnit={"id": unit, "creatives": [nid]})
    old = load_one(conn, unit)
    assert old["headline"] == "Before"
    assert conn.call("store.putCreative", creative=rpc_native(nid, "After")) == {"creativeID": nid, "replaced": True}
    assert conn.call("stringForKey", adId=old["adId"], key="headline") == "Before"
    assert conn.call("performClickOnAsset", adId=old["adId"], key="headline")["url"] == f"https://example.com/{nid}"
    assert load_one(conn, unit)["headline"] == "After"
    # Replacing a unit and a format says so too.
    assert conn.call("store.putAdUnit", adUnit={"id": unit, "creatives": [nid]})["replaced"] is True
    fid = f"8{u}"
    conn.call("store.defineFormat", format=rpc_format(fid))
    assert conn.call("store.defineFormat", format=rpc_format(fid)) == {"formatID": fid, "replaced": True}


def test_removing_something_still_used_is_refused_and_removal_goes_top_down(conn):
    u = uid()
    fid, cid, unit = f"8{u}", f"e2e-{u}-c", f"/e2e/rpc/{u}"
    conn.call("store.defineFormat", format=rpc_format(fid))
    conn.call("store.putCreative", creative=rpc_custom(cid, fid))
    conn.call("store.putAdUnit", adUnit={"id": unit, "creatives": [cid]})
    loaded = load_one(conn, unit, adTypes=["customNative"], customNativeAdFormatIDs=[fid])

    err = conn.error("store.remove", {"kind": "format", "id": fid})
    assert_invalid_params(err, None)
    assert cid in err["message"], f"the error should name the creative using the format: {err}"
    err = conn.error("store.remove", {"kind": "creative", "id": cid})
    assert_invalid_params(err, None)
    assert unit in err["message"], f"the error should name the unit listing the creative: {err}"
    assert load_one(conn, unit, adTypes=["customNative"], customNativeAdFormatIDs=[fid])["formatID"] == fid

    assert conn.call("store.remove", kind="adUnit", id=unit) == {"removed": True}
    err = load_error(conn, {"adUnitID": unit})
    assert err["code"] == 1000, err
    assert conn.call("store.remove", kind="creative", id=cid) == {"removed": True}
    assert conn.call("store.remove", kind="format", id=fid) == {"removed": True}
    for kind, id_ in (("adUnit", unit), ("creative", cid), ("format", fid)):
        assert conn.call("store.remove", kind=kind, id=id_) == {"removed": False}
    listed = conn.call("store.list")
    assert fid not in {f["id"] for f in listed["formats"]}
    assert cid not in {c["id"] for c in listed["creatives"]}
    # A loaded ad keeps the creative it was loaded with.
    assert conn.call("stringForKey", adId=loaded["adId"], key="Title") == cid
    check_image(conn.call("imageForKey", adId=loaded["adId"], key="Hero"), 320, 100, creative=True)


def _bad_rpc_cases():
    u = "e2e-invalid"
    custom = {"id": f"{u}-c", "kind": "customNative", "formatID": "10063170", "priority": 1, "eCPM": 1.0,
              "assets": {"Headline": "h", "MainImage": creative_image(f"{u}-c", "MainImage", 0, 10), "Caption": "c"},
              "landingPageURL": "https://example.com/"}
    good_custom = copy.deepcopy(custom)
    good_custom["assets"]["MainImage"]["width"] = 10
    cases = [("store.putCreative", {"creative": custom}, "creative.assets.MainImage.width")]

    def variant(path, value):
        c = copy.deepcopy(good_custom)
        obj = c
        for k in path[:-1]:
            obj = obj[k]
        if value is DELETE:
            del obj[path[-1]]
        else:
            obj[path[-1]] = value
        return c

    cases += [
        ("store.putCreative", {"creative": variant(("formatID",), "no-such-format")}, "creative.formatID"),
        ("store.putCreative", {"creative": variant(("assets", "Headline"), DELETE)}, "creative.assets.Headline"),
        ("store.putCreative", {"creative": variant(("assets", "MainImage"), "text")}, "creative.assets.MainImage"),
        ("store.putCreative", {"creative": variant(("kind",), "banner")}, "creative.kind"),
        ("store.putCreative", {"creative": dict(rpc_native(f"{u}-n"), assets={"body": "no headline"})},
         "creative.assets.headline"),
        ("store.putCreative", {"creative": dict(rpc_native(f"{u}-n"), assets={"headline": "h", "starRating": 9})},
         "creative.assets.starRating"),
        ("store.putCreative", {}, "creative"),
        ("store.defineFormat", {"format": {"id": "8000000001", "assets": [{"name": "A", "type": "audio",
                                                                             "required": True}]}},
         "format.assets[0].type"),
        ("store.defineFormat", {"format": {"assets": []}}, "format.id"),
        ("store.putAdUnit", {"adUnit": {"id": f"/e2e/{u}", "creatives": ["no-such-creative"]}}, "adUnit.creatives[0]"),
        ("store.putAdUnit", {}, "adUnit"),
        ("store.remove", {"kind": "everything", "id": "x"}, "kind"),
    ]
    return cases


BAD_RPC = _bad_rpc_cases()


@pytest.mark.parametrize("method,params,field", BAD_RPC, ids=[f"{m}:{f}" for m, _, f in BAD_RPC])
def test_store_rpc_validates_like_the_file_and_changes_nothing_on_error(conn, method, params, field):
    err = conn.error(method, params)
    assert_invalid_params(err, field)
    listed = conn.call("store.list")
    assert not any(c["id"].startswith("e2e-invalid") for c in listed["creatives"])
    assert not any(x["id"] == "/e2e/e2e-invalid" for x in listed["adUnits"])
    assert "8000000001" not in {f["id"] for f in listed["formats"]}


def test_the_documented_rpc_validation_message(conn):
    creative = BAD_RPC[0][1]["creative"]
    err = conn.error("store.putCreative", {"creative": creative})
    assert err["message"] == "Invalid params: creative.assets.MainImage.width must be a positive integer", err


# ------------------------------------------------------------------------------------------
# A large generated store


def generated_store():
    formats = [{"id": f"7000{k:02d}", "assets": [{"name": "Title", "type": "text", "required": True},
                                                  {"name": "Hero", "type": "image", "required": True},
                                                  {"name": "Caption", "type": "text", "required": False}]}
               for k in range(20)]
    creatives, units = [], []
    for u in range(100):
        ids = []
        for j in range(100):
            i = u * 100 + j
            cid = f"g{u:03d}-{j:03d}"
            ids.append(cid)
            if j % 4 == 0:
                creatives.append({"id": cid, "kind": "customNative", "formatID": f"7000{i % 20:02d}", "priority": j,
                                  "eCPM": 1.0, "assets": {"Title": cid, "Hero": creative_image(cid, "Hero", 48, 48)},
                                  "landingPageURL": f"https://example.com/{cid}"})
            else:
                creatives.append({"id": cid, "kind": "native", "priority": j, "eCPM": 1.0 + (i % 7) / 10,
                                  "assets": {"headline": cid, "icon": creative_image(cid, "icon", 32, 32),
                                             "images": [creative_image(cid, "image1", 64, 48)]},
                                  "landingPageURL": f"https://example.com/{cid}"})
        units.append({"id": f"/e2e/generated/{u:03d}", "creatives": ids})
    return {"formats": formats, "creatives": creatives, "adUnits": units}


@pytest.mark.timeout(60)
def test_a_generated_store_of_ten_thousand_creatives_serves(server_factory, tmp_path):
    store = generated_store()
    assert len(store["creatives"]) == 10_000 and len(store["adUnits"]) == 100 and len(store["formats"]) == 20
    schema = store_schema()
    if schema is not None:
        import jsonschema
        jsonschema.validate(store, schema)
    path = write_json(str(tmp_path / "generated.json"), store)
    srv = server_factory(stdio=True, args=["--store", path])
    c = srv.stdio
    all_formats = [f["id"] for f in store["formats"]]
    # The first reply may wait for the whole file to load.
    first = c.request("loadAd", {"adUnitID": "/e2e/generated/000"}, timeout=max(WAIT, 30))
    assert "result" in first, first
    for u in (0, 37, 99):
        ads = load_ads(c, f"/e2e/generated/{u:03d}", adTypes=["native", "customNative"],
                       customNativeAdFormatIDs=all_formats, options={"numberOfAds": 5})["ads"]
        assert ad_names(c, ads) == [f"g{u:03d}-{j:03d}" for j in (99, 98, 97, 96, 95)]
        assert ads[3]["kind"] == "customNative" and ads[3]["formatID"] == f"7000{(u * 100 + 96) % 20:02d}"
    custom = load_one(c, "/e2e/generated/042", adTypes=["customNative"], customNativeAdFormatIDs=all_formats)
    assert c.call("stringForKey", adId=custom["adId"], key="Title") == "g042-096"
    check_image(c.call("imageForKey", adId=custom["adId"], key="Hero"), 48, 48, creative=True)
    listed = c.call("store.list")
    assert len(listed["formats"]) == 20 and len(listed["creatives"]) == 10_000 and len(listed["adUnits"]) == 100
    assert NATIVE_UNIT not in {u["id"] for u in listed["adUnits"]}


GEN_STORE = os.path.normpath(os.path.join(STORES_DIR, "..", "..", "..", "bench", "gen_store.py"))


def bench_store(tmp_path, creatives, units, *extra):
    path = tmp_path / f"bench-{creatives}-{units}{''.join(extra)}.json"
    subprocess.run([sys.executable, GEN_STORE, "--creatives", str(creatives), "--units", str(units),
                    "--out", str(path), *extra], check=True, timeout=60)
    return path


def expected_top(store, unit_index, count):
    """The creatives a unit serves first, by the ranking rules: no targeting asked, so only
    creatives without targeting; highest priority, then highest eCPM, then listing order (ties
    rotate: only the (priority, eCPM) sequence is fixed)."""
    creatives = {c["id"]: c for c in store["creatives"]}
    unit = store["adUnits"][unit_index]
    eligible = [(i, creatives[cid]) for i, cid in enumerate(unit["creatives"])
                if "targeting" not in creatives[cid]]
    ranked = sorted(eligible, key=lambda e: (-e[1].get("priority", 0), -e[1].get("eCPM", 0), e[0]))
    return unit, [c for _, c in ranked[:count]]


@pytest.mark.timeout(120)
@pytest.mark.parametrize("layout", [[], ["--units-first"]], ids=["creatives-first", "units-first"])
def test_a_bench_store_of_twenty_thousand_creatives_is_streamed_in_and_serves(server_factory, tmp_path, layout):
    """bench/gen_store.py's store, 20,000 small native creatives in 200 units (the shape of the
    million-creative bench store), streamed in by the loader and packed: every served ad shows
    its creative's assets as the file gives them."""
    path = bench_store(tmp_path, 20_000, 200, *layout)
    store = json.loads(path.read_text())
    assert len(store["creatives"]) == 20_000 and len(store["adUnits"]) == 200
    schema = store_schema()
    if schema is not None:
        import jsonschema
        sample = {"creatives": store["creatives"][:500], "adUnits": store["adUnits"][:2]}
        jsonschema.validate(sample, schema)
    srv = server_factory(stdio=True, args=["--store", str(path)])
    c = srv.stdio
    first = c.request("loadAd", {"adUnitID": store["adUnits"][0]["id"]}, timeout=max(WAIT, 60))
    assert "result" in first, first
    for u in (0, 137, 199):
        unit, top = expected_top(store, u, 5)
        ads = load_ads(c, unit["id"], options={"numberOfAds": 5})["ads"]
        by_headline = {store_creative["assets"]["headline"]: store_creative for store_creative in
                       (next(x for x in store["creatives"] if x["id"] == cid) for cid in unit["creatives"])}
        served = [by_headline[a["headline"]] for a in ads]
        assert [(s.get("priority", 0), s.get("eCPM", 0)) for s in served] == \
            [(t.get("priority", 0), t.get("eCPM", 0)) for t in top]
        for ad, creative in zip(ads, served):
            assets = creative["assets"]
            assert ad["body"] == assets["body"] and ad["callToAction"] == assets["callToAction"]
            assert ad["advertiser"] == assets["advertiser"]
            assert ad["starRating"] == assets.get("starRating")
            if "icon" in assets:
                check_image(ad["icon"], assets["icon"]["width"], assets["icon"]["height"], creative=True)
            else:
                assert ad["icon"] is None
            assert (ad["adChoices"] is not None) == creative.get("indirect", False)
            assert ad.get("muteThisAdReasons", []) == creative.get("muteThisAdReasons", [])
    listed = c.call("store.list")
    assert len(listed["creatives"]) == 20_000 and len(listed["adUnits"]) == 200


def test_every_fixture_store_starts_a_server(tmp_path):
    for path in sorted(glob.glob(os.path.join(STORES_DIR, "*.json"))):
        proc = run_once(["--store", path])
        if os.path.basename(path).startswith("bad-"):
            assert proc.returncode == 1, path
        else:
            assert proc.returncode == 0, (path, proc.stderr.decode()[-500:])

