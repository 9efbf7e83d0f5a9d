"""The asyncio client: the same methods as coroutines, callbacks sync or async, the adapter role.

Every test runs over stdio, TCP and a Unix socket in both framings (``net``); bodies run with
``asyncio.run``.
"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from conftest import LIFECYCLE_METHODS, run
from helpers import (
    ADMOB_UNIT,
    BACKFILL_UNIT,
    CUSTOM_FORMAT,
    NATIVE_UNIT,
    VIDEO_UNIT,
    house_creative,
    mapped_ad,
    png_size,
    stdin_closing_server,
    unique,
)

import native_ads
from native_ads import (
    AdapterError,
    AdapterLoad,
    AdNotFound,
    AsyncClient,
    ConnectionClosedError,
    InvalidAdRequestError,
    InvalidParams,
    MethodNotFound,
    NoFillError,
    RequestTimeoutError,
    WrongAdKind,
)


def test_async_every_ad_method(net: Any) -> None:
    async def body() -> None:
        c = await net.aclient()
        try:
            events: list[Any] = []
            c.on("adEvent", events.append)
            result = await c.load_ad(NATIVE_UNIT)
            ad = result["ads"][0]
            ad_id = ad["adId"]
            assert png_size(ad["images"][0]["data"]) == (ad["images"][0]["width"], ad["images"][0]["height"])
            assert await c.string_for_key(ad_id, "headline") == ad["headline"]
            icon = await c.image_for_key(ad_id, "icon")
            assert icon is not None and icon["url"] == ad["icon"]["url"]  # type: ignore[index]
            reg = await c.register_ad_view(ad_id, clickable_assets=["headline"], nonclickable_assets=["body"])
            assert reg["clickableAssets"] == ["headline"]
            assert await c.report_visibility(ad_id, 5) == {"impressionRecorded": True}
            assert events[-1] == {"adId": ad_id, "event": "didRecordImpression", "assetKey": None}
            assert (await c.record_impression(ad_id))["recorded"] is False
            click = await c.perform_click_on_asset(ad_id, "headline")
            assert click["recorded"] is True and click["action"] == "landingPage"
            assert [e["event"] for e in events[-2:]] == ["didRecordClick", "willPresentScreen"]
            assert await c.report_screen_dismissed(ad_id) == {"dismissed": True}
            assert await c.unregister_ad_view(ad_id) == {"unregistered": True}
            log = await c.get_events(ad_id=ad_id)
            assert [e["event"] for e in log["events"]][:3] == [
                "didRecordImpression",
                "didRecordClick",
                "willPresentScreen",
            ]

            custom = (
                await c.load_ad(NATIVE_UNIT, ad_types=["customNative"], custom_native_ad_format_ids=[CUSTOM_FORMAT])
            )["ads"][0]
            clicks: list[Any] = []

            async def on_custom_click(params: Any) -> None:  # an async callback
                await asyncio.sleep(0)
                clicks.append(params)

            c.on("customClick", on_custom_click)
            assert await c.set_custom_click_handler(custom["adId"]) == {"enabled": True}
            assert (await c.perform_click_on_asset(custom["adId"], "Headline"))["action"] == "customClickHandler"
            assert clicks == [{"adId": custom["adId"], "assetID": "Headline"}]
            with pytest.raises(WrongAdKind):
                await c.set_custom_click_handler(ad_id, True)

            muteable = (await c.load_ad(ADMOB_UNIT))["ads"][0]
            assert await c.mute_this_ad(muteable["adId"]) == {"muted": True}
            assert events[-1]["event"] == "didMute"

            videos: list[Any] = []
            c.on("videoEvent", videos.append)
            video = (await c.load_ad(VIDEO_UNIT, options={"customControlsRequested": True}))["ads"][0]
            assert (await c.video_control(video["adId"], "play"))["applied"] is True
            state = await c.get_video_state(video["adId"])
            assert state is not None and state["videoController"]["playbackState"] == "playing"
            assert videos == [{"adId": video["adId"], "event": "didPlay"}]

            assert await c.release_ad(ad_id) == {"released": True}
            with pytest.raises(AdNotFound):
                await c.string_for_key(ad_id, "headline")
        finally:
            await net.aclose()

    run(body())


def test_async_store_discover_and_errors(net: Any) -> None:
    async def body() -> None:
        c = await net.aclient()
        try:
            fmt, creative_id, unit_id = unique("afmt"), unique("acreative"), unique("/py/async")
            assert (
                await c.store_define_format({"id": fmt, "assets": [{"name": "T", "type": "text", "required": True}]})
            )["formatID"] == fmt
            creative = house_creative(creative_id, targeting={"keywords": ["cars"]})
            assert (await c.store_put_creative(creative))["creativeID"] == creative_id  # type: ignore[arg-type]
            assert (await c.store_put_ad_unit({"id": unit_id, "creatives": [creative_id]}))["adUnitID"] == unit_id
            assert any(u["id"] == unit_id for u in (await c.store_list())["adUnits"])
            with pytest.raises(NoFillError) as nofill:
                await c.load_ad(unit_id, request={"keywords": ["boats"]})
            assert nofill.value.gad_error_code == 1 and nofill.value.response_info is not None
            with pytest.raises(InvalidParams) as bad:
                await c.load_ad(NATIVE_UNIT, options={"mediaAspectRatio": "round"})  # type: ignore[typeddict-item]
            assert bad.value.field == "options.mediaAspectRatio"
            with pytest.raises(InvalidAdRequestError):
                await c.load_ad("/no/such/unit")
            assert (await c.store_remove("adUnit", unit_id))["removed"] is True
            assert (await c.store_remove("format", fmt))["removed"] is True
            schema = await c.formats_schema(CUSTOM_FORMAT)
            assert schema["type"] == "object"
            doc = await c.discover()
            assert {m["name"] for m in doc["methods"]} <= {*native_ads.METHOD_NAMES.values(), *LIFECYCLE_METHODS}
        finally:
            await net.aclose()

    run(body())


def test_async_concurrency_and_close(net: Any) -> None:
    async def body() -> None:
        c = await net.aclient()
        try:
            ads = (await c.load_ad(NATIVE_UNIT, options={"numberOfAds": 2, "disableImageLoading": True}))["ads"]
            expected = {a["adId"]: a["headline"] for a in ads}
            ids = list(expected) * 50
            got = await asyncio.gather(*(c.string_for_key(i, "headline") for i in ids))
            assert got == [expected[i] for i in ids]
            sub = c.subscribe("adEvent")
            await c.record_impression(ids[0])
            assert (await sub.get())["event"] == "didRecordImpression"
            sub.close()
            # nested calls from an async callback
            nested: list[Any] = []

            async def on_event(params: Any) -> None:
                nested.append(await c.string_for_key(params["adId"], "headline"))

            c.on("adEvent", on_event)
            await c.perform_click_on_asset(ids[1], "headline")
            assert nested and nested[0] == expected[ids[1]]
        finally:
            await net.aclose()
        with pytest.raises(ConnectionClosedError):
            await c.store_list()

    run(body())


def test_async_adapter_role(net: Any) -> None:
    async def body() -> None:
        adapter = await net.aclient()
        app = await net.aother()
        try:
            name = unique("PyAsyncNet")
            loads: list[AdapterLoad] = []

            async def handler(load: AdapterLoad) -> dict[str, Any]:
                loads.append(load)
                await asyncio.sleep(0.01)
                if load.parameter == "fail":
                    raise AdapterError(3, "Acme: no fill", domain="com.acme")
                return mapped_ad(headline="Async Boots", tracks=load.parameter == "tracks")

            impressions = adapter.subscribe("adapter.didRecordImpression")
            handled: list[Any] = []

            async def on_handle_click(params: Any) -> None:
                handled.append(await adapter.report_click(params["adId"]))

            adapter.on("adapter.handleClick", on_handle_click)
            registration = await adapter.serve_adapter(name, handler)

            async def unit(parameter: str, inventory: bool = True) -> str:
                unit_id = unique("/py/async-waterfall")
                sources: list[dict[str, Any]] = [
                    {
                        "type": "customEvent",
                        "adapterClassName": name,
                        "parameter": parameter,
                        "eCPM": 2.0,
                        "timeoutMs": 2000,
                    }
                ]
                u: dict[str, Any] = {"id": unit_id, "waterfall": sources}
                if inventory:
                    cid = unique("ahouse")
                    await app.store_put_creative(house_creative(cid))  # type: ignore[arg-type]
                    u["creatives"] = [cid]
                    sources.append({"type": "inventory", "eCPM": 0.1})
                await app.store_put_ad_unit(u)  # type: ignore[arg-type]
                return unit_id

            ad = (await app.load_ad(await unit("plain")))["ads"][0]
            assert ad["headline"] == "Async Boots"
            assert loads[-1].parameter == "plain" and loads[-1].adapter_class_name == name
            await app.record_impression(ad["adId"])
            assert (await impressions.get())["adId"] == ad["adId"]

            tracked = (await app.load_ad(await unit("tracks")))["ads"][0]
            app_events = app.subscribe("adEvent")
            click = await app.perform_click_on_asset(tracked["adId"], "headline")
            assert click["action"] == "adapter"
            got = await app_events.wait_for(lambda e: e["event"] == "didRecordClick")
            assert got["adId"] == tracked["adId"]
            for _ in range(500):  # the adapter's callback resumes after the app sees the click
                if handled:
                    break
                await asyncio.sleep(0.01)
            assert handled == [{"recorded": True}]
            assert await adapter.report_full_screen(tracked["adId"], "willPresentScreen") == {"recorded": True}
            assert await adapter.report_video_event(tracked["adId"], "didMute") == {"recorded": True}

            fallback = await app.load_ad(await unit("fail"))
            entry = fallback["responseInfo"]["adNetworkInfoArray"][0]
            assert entry["error"] == {"code": 3, "domain": "com.acme", "message": "Acme: no fill"}
            assert fallback["ads"][0]["headline"].startswith("House ad")

            # the caller's timeout while an adapter takes its time
            async def slow(load: AdapterLoad) -> dict[str, Any]:
                await asyncio.sleep(0.5)
                return mapped_ad()

            slow_name = unique("PySlowAsync")
            await adapter.serve_adapter(slow_name, slow)
            slow_unit = unique("/py/async-slow")
            await app.store_put_ad_unit(
                {
                    "id": slow_unit,
                    "waterfall": [  # type: ignore[list-item]
                        {
                            "type": "customEvent",
                            "adapterClassName": slow_name,
                            "parameter": "p",
                            "eCPM": 1,
                            "timeoutMs": 3000,
                        }
                    ],
                }
            )
            with pytest.raises(RequestTimeoutError):
                await app.call("loadAd", {"adUnitID": slow_unit}, timeout=0.1)

            assert await registration.unregister() is True
        finally:
            await net.aclose()

    run(body())


def test_async_spawn_from_path_and_client_types(net: Any) -> None:
    """AsyncClient.spawn/connect return AsyncClient; a closed spawned server exits 0."""

    async def body() -> None:
        c = await net.aclient()
        assert isinstance(c, AsyncClient)
        assert c.framing == net.framing
        ad = (await c.load_ad(BACKFILL_UNIT, options={"disableImageLoading": True}))["ads"][0]
        assert ad["adChoices"] is not None and "data" not in ad["adChoices"]["image"]
        await net.aclose()
        assert c.closed

    run(body())


def test_async_server_going_away_closes_the_client_before_calls_fail(net: Any) -> None:
    # Repeated: the call's failed write and the reader task at the end of the stream race.
    async def body() -> None:
        for _ in range(30):
            if net.transport == "stdio":
                c = await AsyncClient.spawn(framing=net.framing)
                await c.load_ad(NATIVE_UNIT)
                assert c.process is not None
                c.process.kill()
                server = None
            else:
                server, c = await net.start_server_async()
                await c.load_ad(NATIVE_UNIT)
                assert server.stop() == 0
            try:
                with pytest.raises(ConnectionClosedError):
                    await c.call("store.list", timeout=10)
                assert c.closed
                with pytest.raises(ConnectionClosedError):
                    await c.store_list()
                with pytest.raises(ConnectionClosedError):
                    await c.notify("store.list")
                assert c.closed
            finally:
                await c.close()

    run(body())


def test_async_failed_write_closes_the_client_before_the_call_raises(tmp_path: Any) -> None:
    """As for the sync client: only the failed write can tell, and `closed` is True at once."""

    async def body() -> None:
        c = await AsyncClient.spawn(path=stdin_closing_server(tmp_path))
        try:
            with pytest.raises(MethodNotFound):
                await c.call("test.first")  # answered after the server closed its stdin
            with pytest.raises(ConnectionClosedError):
                await c.call("test.second", timeout=10)
            assert c.closed
            for _ in range(100):
                with pytest.raises(ConnectionClosedError):
                    await c.call("test.later")
                assert c.closed
        finally:
            assert c.process is not None
            c.process.kill()
            await c.close()

    run(body())


def test_async_failed_notification_closes_the_client_before_it_raises(tmp_path: Any) -> None:
    async def body() -> None:
        c = await AsyncClient.spawn(path=stdin_closing_server(tmp_path))
        try:
            with pytest.raises(MethodNotFound):
                await c.call("test.first")
            with pytest.raises(ConnectionClosedError):
                await c.notify("test.notification")
            assert c.closed
        finally:
            assert c.process is not None
            c.process.kill()
            await c.close()

    run(body())
