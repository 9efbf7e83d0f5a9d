"""Targeting and ranking (docs/sdk-behaviour.md, "Targeting and ranking") on stores/targeting.json:

    /e2e/targeted        t-multi   p11 customTargeting section=sports AND age=adult
                         t-section p10 customTargeting section in (sports, news)
                         t-cars    p9  keywords Cars, Trucks (case-insensitive)
                         t-url     p8  contentURLs https://example.com/cars, https://example.com/autos/
                         t-open    p1  no targeting
    /e2e/targeted-only   the four targeted creatives, without t-open
    /e2e/rank            r-top p10/1.0, r-rich p5/9.0, r-mid p5/3.0, tie-a and tie-b p3/2.0
    /e2e/ties            tie-a, tie-b, tie-c: all p3/2.0

Every native creative's headline is its id.
"""
from __future__ import annotations

import pytest

from e2e_support import (
    NATIVE_UNIT,
    check_response_info,
    load_ads,
    start_private,
    store_path,
)

TARGETED = "/e2e/targeted"


@pytest.fixture(scope="module")
def targeting_server(tmp_path_factory):
    srv = start_private(str(tmp_path_factory.mktemp("targeting")), ["--store", store_path("targeting.json")])
    yield srv
    srv.stop()


@pytest.fixture
def tconn(targeting_server):
    assert targeting_server.alive(), targeting_server.describe()
    c = targeting_server.stdio
    c.sync()
    return c


def served(c, unit=TARGETED, n=5, **request):
    params = {"options": {"numberOfAds": n}}
    if request:
        params["request"] = request
    return [a["headline"] for a in load_ads(c, unit, **params)["ads"]]


# ------------------------------------------------------------------------------------------
# Matching


def test_a_request_without_targeting_gets_only_creatives_without_targeting(tconn):
    assert served(tconn) == ["t-open"]


@pytest.mark.parametrize(
    "custom_targeting,expected",
    [
        ({"section": "news"}, ["t-section", "t-open"]),
        ({"section": ["weather", "sports"]}, ["t-section", "t-open"]),
        ({"section": "sports", "age": "adult"}, ["t-multi", "t-section", "t-open"]),
        ({"section": ["sports"], "age": ["kid", "adult"], "extra": "ignored"}, ["t-multi", "t-section", "t-open"]),
        ({"age": "adult"}, ["t-open"]),
        ({"section": "weather"}, ["t-open"]),
    ],
    ids=["single-value", "array-value", "every-key", "arrays-and-extra-keys", "missing-key", "no-shared-value"],
)
def test_custom_targeting_needs_every_key_with_one_of_its_values(tconn, custom_targeting, expected):
    assert served(tconn, customTargeting=custom_targeting) == expected


@pytest.mark.parametrize(
    "keywords,expected",
    [
        (["cars"], ["t-cars", "t-open"]),
        (["boats", "TRUCKS"], ["t-cars", "t-open"]),
        (["cArS"], ["t-cars", "t-open"]),
        (["boats"], ["t-open"]),
        ([], ["t-open"]),
    ],
    ids=["lower-case", "one-shared-upper-case", "mixed-case", "none-shared", "empty"],
)
def test_keywords_match_when_one_is_shared_ignoring_case(tconn, keywords, expected):
    assert served(tconn, keywords=keywords) == expected


@pytest.mark.parametrize(
    "url,expected",
    [
        ("https://example.com/cars", ["t-url", "t-open"]),
        ("https://example.com/cars/review?id=7", ["t-url", "t-open"]),
        ("https://example.com/autos/new", ["t-url", "t-open"]),
        ("https://example.com/autos", ["t-open"]),
        ("https://example.com/car", ["t-open"]),
        ("http://example.com/cars", ["t-open"]),
        ("https://news.example.org/https://example.com/cars", ["t-open"]),
    ],
    ids=["exact", "longer", "second-prefix", "shorter-than-prefix", "partial", "other-scheme", "not-a-prefix"],
)
def test_content_url_matches_by_prefix(tconn, url, expected):
    assert served(tconn, contentURL=url) == expected


def test_a_request_matching_everything_gets_every_creative_best_first(tconn):
    names = served(tconn, customTargeting={"section": ["sports"], "age": "adult"}, keywords=["trucks"],
                   contentURL="https://example.com/cars/1")
    assert names == ["t-multi", "t-section", "t-cars", "t-url", "t-open"]


def test_targeting_criteria_of_one_creative_do_not_leak_to_another(tconn):
    # Keywords alone do not satisfy the custom-targeting creatives and vice versa.
    assert served(tconn, keywords=["sports", "news", "adult"]) == ["t-open"]
    assert served(tconn, customTargeting={"keywords": "cars"}) == ["t-open"]


def test_a_unit_whose_creatives_all_miss_the_request_is_no_fill(tconn):
    for request in ({}, {"keywords": ["boats"]}, {"customTargeting": {"section": "weather"}},
                    {"contentURL": "https://example.com/boats"}):
        resp = tconn.request("loadAd", {"adUnitID": "/e2e/targeted-only", "request": request})
        err = resp.get("error")
        assert err is not None and err["code"] == 1001, (request, resp)
        assert err["data"]["gadErrorCode"] == 1 and err["data"]["name"] == "noFill"
        check_response_info(err["data"]["responseInfo"])
    assert served(tconn, "/e2e/targeted-only", 1, keywords=["cars"]) == ["t-cars"]


def test_builtin_creatives_without_targeting_serve_any_request(conn):
    ads = load_ads(conn, NATIVE_UNIT, request={"keywords": ["anything"], "contentURL": "https://x.test/",
                                               "customTargeting": {"k": ["v1", "v2"], "k2": "v"}})["ads"]
    assert ads[0]["headline"] == "Flood-It! 2"


# ------------------------------------------------------------------------------------------
# isTestRequest


@pytest.mark.parametrize("value", [True, False])
def test_is_test_request_is_echoed_in_the_response_info(conn, value):
    result = load_ads(conn, NATIVE_UNIT, request={"isTestRequest": value})
    assert result["responseInfo"].get("isTestRequest") is value, result["responseInfo"]
    assert result["ads"][0]["responseInfo"].get("isTestRequest") is value


def test_is_test_request_is_absent_when_not_given(conn):
    for request in (None, {}, {"isTestRequest": None}):
        params = {} if request is None else {"request": request}
        result = load_ads(conn, NATIVE_UNIT, **params)
        assert "isTestRequest" not in result["responseInfo"], result["responseInfo"]
        assert "isTestRequest" not in result["ads"][0]["responseInfo"]


# ------------------------------------------------------------------------------------------
# Ranking and rotation


def test_ranking_is_by_priority_then_ecpm_whatever_the_listing_order(tconn):
    names = served(tconn, "/e2e/rank")
    assert names[:3] == ["r-top", "r-rich", "r-mid"]
    assert sorted(names[3:]) == ["tie-a", "tie-b"]


def tie_sequence(c, loads=6):
    return [served(c, "/e2e/ties", 1)[0] for _ in range(loads)]


def test_tied_creatives_rotate_over_successive_loads(tconn):
    seq = tie_sequence(tconn, 6)
    assert sorted(seq[:3]) == ["tie-a", "tie-b", "tie-c"], f"three loads should visit the three tied creatives: {seq}"
    assert seq[3:] == seq[:3], f"the rotation should repeat: {seq}"


def test_several_ads_from_a_tie_group_are_all_of_it_in_rotated_order(tconn):
    first = served(tconn, "/e2e/ties", 3)
    second = served(tconn, "/e2e/ties", 3)
    assert sorted(first) == sorted(second) == ["tie-a", "tie-b", "tie-c"]
    assert second != first, "the next load starts the tie group at the next member"
    doubled = first + first
    assert any(doubled[i:i + 3] == second for i in range(3)), f"{second} is not a rotation of {first}"


def test_the_rotation_is_deterministic_for_a_seed(server_factory):
    sequences = []
    for _ in range(2):
        srv = server_factory(stdio=True, args=["--store", store_path("targeting.json"), "--seed", 1234])
        srv.stdio.sync()
        sequences.append(tie_sequence(srv.stdio, 4))
    assert sequences[0] == sequences[1], sequences
    assert sorted(sequences[0][:3]) == ["tie-a", "tie-b", "tie-c"]
