"""The HTTP client (``native_ads.http.HTTPClient``) against a real server's ``POST /rpc``
(``--http``): the same methods and errors as the other clients, ads that outlive each request,
batches and notifications, and the server's Host/Origin refusal seen as ``HTTPStatusError``."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from native_ads import AdNotFound, InvalidAdRequestError, Server
from native_ads.http import HTTPClient, HTTPStatusError

from conftest import BIN

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
