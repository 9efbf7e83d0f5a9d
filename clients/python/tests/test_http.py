"""The HTTP client (``native_ads.http.HTTPClient``) against a real server's ``POST /rpc``
(``--http``): the same methods and errors as the other clients, ads that outlive each request,
batches and notifications, and the server's Host/Origin refusal seen as ``HTTPStatusError``;
and ``HTTPClient.auction``, the mock OpenRTB bidder at ``POST /openrtb2/auction``: bids whose
``adm`` loads back with ``adResponseString``, no-bid reasons (``ext.noBid``, ``204`` with
``X-OpenRTB-No-Bid``) and ``400`` for what is not a bid request (``AuctionError``)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from conftest import BIN

from native_ads import AdNotFound, InvalidAdRequestError, Server
from native_ads.http import AuctionError, AuctionResult, HTTPClient, HTTPStatusError

NATIVE = "/21775744923/example/native"


@pytest.fixture(scope="module")
def http_server() -> Iterator[Server]:
    server = Server.start(BIN, http="127.0.0.1:0")
    yield server
    assert server.stop() == 0, server.stderr_lines[-10:]


def test_http_client_calls_the_methods_and_ads_outlive_each_request(http_server: Server) -> None:
    assert http_server.http_url and http_server.http_url.startswith("http://127.0.0.1:")
    with HTTPClient(http_server.http_url) as client:
        ad = client.load_ad(NATIVE, options={"disableImageLoading": True})["ads"][0]
        assert client.string_for_key(ad["adId"], "headline") == ad["headline"]
        assert client.record_impression(ad["adId"]) == {"recorded": True}
        events = client.get_events(ad_id=ad["adId"])["events"]
        assert [e["event"] for e in events] == ["didRecordImpression"]
        # Another connection (TCP) sees the same ad.
        with http_server.connect() as tcp:
            assert tcp.string_for_key(ad["adId"], "headline") == ad["headline"]
        client.release_ad(ad["adId"])
        with pytest.raises(AdNotFound):
            client.string_for_key(ad["adId"], "headline")


def test_errors_batches_and_notifications(http_server: Server) -> None:
    with HTTPClient(http_server.http_url) as client:
        with pytest.raises(InvalidAdRequestError):
            client.load_ad(NATIVE, options={"numberOfAds": 0})
        results = client.batch([("getEvents", None), ("stringForKey", {"adId": "nope", "key": "headline"})])
        assert isinstance(results[0], dict) and "events" in results[0]
        assert isinstance(results[1], AdNotFound)
        assert client.notify("getEvents") is None


def test_a_refused_origin_is_an_http_status_error(http_server: Server) -> None:
    with HTTPClient(http_server.http_url, origin="http://evil.test") as client:
        with pytest.raises(HTTPStatusError) as caught:
            client.get_events()
        assert caught.value.status == 403


def test_inspector_watch_tells_a_watcher_of_loads_made_over_http(http_server: Server) -> None:
    import queue

    loaded: queue.Queue[dict] = queue.Queue()
    with http_server.connect() as watcher, HTTPClient(http_server.http_url) as client:
        watcher.on("inspector.adLoaded", lambda params: loaded.put(params))
        snapshot = watcher.inspector_watch()
        assert set(snapshot) == {"ads", "events", "lastSequence"}
        ad = client.load_ad(NATIVE, options={"disableImageLoading": True})["ads"][0]
        seen = loaded.get(timeout=10)["ad"]
        assert seen["adId"] == ad["adId"] and seen["adUnitID"] == NATIVE and seen["loadedBy"].startswith("http ")


# ---------------------------------------------------------------------------------------------
# The mock bidder: POST /openrtb2/auction

#: A Native 1.2 request: a required title (at most 25 characters), a required main image of at
#: least 300 x 150 and an optional description.
NATIVE_REQUEST: dict[str, Any] = {
    "ver": "1.2",
    "assets": [
        {"id": 1, "required": 1, "title": {"len": 25}},
        {"id": 2, "required": 1, "img": {"type": 3, "wmin": 300, "hmin": 150}},
        {"id": 3, "data": {"type": 2, "len": 90}},
    ],
}


def bid_request(request_id: str, *imps: dict[str, Any]) -> dict[str, Any]:
    return {"id": request_id, "imp": list(imps)}


def native_imp(imp_id: str, tagid: str = NATIVE, request: dict[str, Any] | None = None, **extra: Any) -> dict[str, Any]:
    # native.request is a JSON string, as the standard says
    return {"id": imp_id, "tagid": tagid, "native": {"request": json.dumps(request or NATIVE_REQUEST)}, **extra}


def test_auction_bids_and_the_adm_loads_back(http_server: Server) -> None:
    with HTTPClient(http_server.http_url) as client:
        response = client.auction(bid_request("req-1", native_imp("1")))
        assert response is not None
        assert response["id"] == "req-1" and response["cur"] == "USD"
        [seat] = response["seatbid"]
        assert seat["seat"] == "native-ads"
        [bid] = seat["bid"]
        assert bid["impid"] == "1" and bid["price"] > 0 and isinstance(bid["crid"], str)
        assert isinstance(bid["adm"], str)  # the Native response as a JSON string
        adm = json.loads(bid["adm"])
        # each answer asset has the request asset's id; img and data carry their type
        by_id = {a["id"]: a for a in adm["assets"]}
        assert len(by_id[1]["title"]["text"]) <= 25
        assert by_id[2]["img"]["type"] == 3
        assert by_id[2]["img"]["w"] >= 300 and by_id[2]["img"]["h"] >= 150
        assert set(by_id) <= {1, 2, 3}
        # the same request answers the same (deterministic)
        assert client.auction(bid_request("req-1", native_imp("1"))) == response
        # the winning adm is a response string loadAd takes, with the request that typed it
        result = client.load_ad(
            NATIVE, ad_response_string=bid["adm"], native_request=NATIVE_REQUEST, options={"disableImageLoading": True}
        )
        ad = result["ads"][0]
        assert ad["headline"] == by_id[1]["title"]["text"]
        assert [i["url"] for i in ad["images"]] == [by_id[2]["img"]["url"]]
        assert result["responseInfo"]["adNetworkInfoArray"][0]["adNetworkClassName"] == "OpenRTB"
        # ... and so is the whole bid response (the bid's seat names the source)
        whole = client.load_ad(NATIVE, ad_response_string=json.dumps(response), options={"disableImageLoading": True})
        assert whole["ads"][0]["headline"] == ad["headline"]
        assert whole["responseInfo"]["loadedAdNetworkResponseInfo"]["adSourceName"] == "native-ads"  # type: ignore[index]
        client.release_ad(ad["adId"])
        client.release_ad(whole["ads"][0]["adId"])


def test_auction_lists_the_impressions_without_a_bid(http_server: Server) -> None:
    with HTTPClient(http_server.http_url) as client:
        result = client.auction_result(
            bid_request(
                "req-2",
                native_imp("a"),
                native_imp("b", tagid="/no/such/unit"),
                native_imp("c", bidfloor=1000.0),
                {"id": "d", "tagid": NATIVE},
            )
        )
        assert isinstance(result, AuctionResult) and result.status == 200
        assert [b["impid"] for b in result.bids] == ["a"]
        assert result.no_bid_reasons == {"b": 500, "c": 502, "d": 503}
        assert result.bid_response is not None
        assert all(isinstance(e.get("reason"), str) for e in result.bid_response["ext"]["noBid"])


def test_auction_without_any_bid_is_none_with_the_no_bid_header(http_server: Server) -> None:
    with HTTPClient(http_server.http_url) as client:
        request = bid_request("req-3", native_imp("1", tagid="/no/such/unit"), {"id": "2"})
        assert client.auction(request) is None
        result = client.auction_result(request)
        assert (result.status, result.bid_response, result.bids) == (204, None, [])
        assert result.no_bid == "1=500; 2=503"
        assert result.no_bid_reasons == {"1": 500, "2": 503}
        # a native request that is invalid: nbr 2
        bad_native = {"id": "x", "tagid": NATIVE, "native": {"request": "{not json"}}
        assert client.auction_result(bid_request("req-4", bad_native)).no_bid_reasons == {"x": 2}


def test_auction_of_what_is_not_a_bid_request_is_an_auction_error(http_server: Server) -> None:
    with HTTPClient(http_server.http_url) as client:
        with pytest.raises(AuctionError) as caught:
            client.auction({"id": "req-5", "imp": [{"tagid": NATIVE}]})
        e = caught.value
        assert isinstance(e, HTTPStatusError) and e.status == 400
        assert (e.request_id, e.nbr, e.error) == ("req-5", 2, "imp[0].id is required")
        assert "imp[0].id is required" in str(e)
        with pytest.raises(AuctionError) as not_json:
            client.auction("this is not JSON")
        assert not_json.value.nbr == 2 and "JSON" in not_json.value.error
        # the connection goes on
        assert client.auction(bid_request("req-6", native_imp("1"))) is not None
    with HTTPClient(http_server.http_url, origin="http://evil.test") as refused:
        with pytest.raises(HTTPStatusError) as forbidden:
            refused.auction(bid_request("req-7", native_imp("1")))
        assert forbidden.value.status == 403 and not isinstance(forbidden.value, AuctionError)
