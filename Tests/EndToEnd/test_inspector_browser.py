"""The inspector page (`GET /` of `--http`, contract section 9) in a real headless Chromium
(Debian `chromium` and `chromium-driver`, driven by Selenium; chromedriver is started on a free
loopback port by Selenium's Service and stopped by pid when the module is done):

- the page loads with no console error;
- an ad loaded on another connection appears within a second;
- both templates (small and medium) draw each built-in ad, their elements where the SDK's
  templates put them, and custom-format ads drawn from their assets;
- clicking the headline records a click that `getEvents` shows;
- the AdChoices icon sits in the requested corner, and indirect ads carry the "Ad" badge;
- an OpenRTB response pasted in the load form is drawn, and its trackers are logged.
"""
from __future__ import annotations

import os
import shutil
import time

import pytest

from e2e_support import ADMOB_UNIT, BACKFILL_UNIT, CUSTOM_FORMAT, NATIVE_UNIT, WAIT, get_events, load_unchecked

# Installed by make test (Tests/EndToEnd/requirements.txt): a missing one fails, never skips.
from selenium import webdriver
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

CHROMIUM = os.environ.get("NATIVE_ADS_CHROMIUM", shutil.which("chromium") or "/usr/bin/chromium")
CHROMEDRIVER = os.environ.get("NATIVE_ADS_CHROMEDRIVER", shutil.which("chromedriver") or "/usr/bin/chromedriver")
VIDEO_UNIT = "/21775744923/example/native-video"


@pytest.fixture(scope="module")
def inspector_server(tmp_path_factory):
    from e2e_support import Server

    srv = Server(str(tmp_path_factory.mktemp("inspector")), stdio=False, tcp=True, http=True, spread=False)
    yield srv
    srv.stop()


@pytest.fixture(scope="module")
def browser():
    assert os.path.exists(CHROMIUM) and os.path.exists(CHROMEDRIVER), (
        f"{CHROMIUM} and {CHROMEDRIVER} are installed by make test (Debian chromium, chromium-driver)")
    options = Options()
    options.binary_location = CHROMIUM
    for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                "--window-size=1440,1000", "--no-first-run", "--disable-extensions"):
        options.add_argument(arg)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    service = Service(CHROMEDRIVER)  # a free port of its own; stopped (by pid) at quit
    driver = webdriver.Chrome(service=service, options=options)
    driver.set_page_load_timeout(WAIT * 3)
    yield driver
    driver.quit()


@pytest.fixture
def page(browser, inspector_server):
    """The inspector, opened afresh and ready (its first `inspector.watch` answered and drawn)."""
    browser.get(f"http://127.0.0.1:{inspector_server.http_port}/")
    WebDriverWait(browser, WAIT * 2).until(
        lambda d: d.find_element(By.TAG_NAME, "body").get_attribute("data-ready") == "true")
    browser.get_log("browser")  # start each test's console check afresh
    return browser


def console_errors(driver) -> list[dict]:
    return [e for e in driver.get_log("browser") if e["level"] in ("SEVERE", "ERROR")]


def card(driver, ad_id: str, timeout: float = WAIT):
    return WebDriverWait(driver, timeout).until(
        lambda d: (d.find_elements(By.CSS_SELECTOR, f'[data-ad-id="{ad_id}"]') or [None])[0])


def rect(element) -> dict:
    return element.rect  # x, y, width, height in CSS pixels


def visible(element) -> bool:
    r = rect(element)
    return element.is_displayed() and r["width"] > 0 and r["height"] > 0


def template(driver, ad_id: str, name: str):
    view = card(driver, ad_id).find_element(By.CSS_SELECTOR, f'[data-template="{name}"]')
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", view)
    return view


def test_the_page_loads_without_console_errors(page):
    assert page.title, "the page has a title"
    assert console_errors(page) == []


def test_an_ad_loaded_on_another_connection_appears_within_a_second(page, inspector_server):
    tcp = inspector_server.connect()
    ad = load_unchecked(tcp, NATIVE_UNIT)["ads"][0]
    card(page, ad["adId"], timeout=1.0)
    tcp.call("releaseAd", adId=ad["adId"])
    assert console_errors(page) == []


@pytest.mark.parametrize("unit", [NATIVE_UNIT, BACKFILL_UNIT, ADMOB_UNIT, VIDEO_UNIT])
def test_both_templates_draw_each_built_in_native_ad_where_the_sdk_puts_its_assets(page, inspector_server, unit):
    tcp = inspector_server.connect()
    ads = load_unchecked(tcp, unit, options={"numberOfAds": 5})["ads"]
    natives = [a for a in ads if a["kind"] == "native"]
    assert natives, ads
    for ad in natives:
        small = template(page, ad["adId"], "small")
        medium = template(page, ad["adId"], "medium")
        for view in (small, medium):
            headline = view.find_element(By.CSS_SELECTOR, '[data-asset="headline"]')
            assert headline.text.strip() == ad["headline"], (ad["adId"], headline.text)
            if ad["icon"]:
                icon = view.find_element(By.CSS_SELECTOR, '[data-asset="icon"]')
                assert visible(icon)
                # The icon comes before the headline, on its left.
                assert rect(icon)["x"] < rect(headline)["x"], (rect(icon), rect(headline))
            if ad["callToAction"]:
                cta = view.find_element(By.CSS_SELECTOR, '[data-asset="callToAction"]')
                assert cta.text.strip().lower() == ad["callToAction"].lower()
        # Medium: the media below the headline with the media's aspect ratio, the call to
        # action below the media.
        media = medium.find_element(By.CSS_SELECTOR, '[data-asset="image"], [data-asset="mediaView"]')
        m, h = rect(media), rect(medium.find_element(By.CSS_SELECTOR, '[data-asset="headline"]'))
        assert m["y"] >= h["y"] + h["height"] - 1, (m, h)
        ratio = ad["mediaContent"]["aspectRatio"]
        if ratio:
            assert abs(m["width"] / m["height"] - ratio) / ratio < 0.05, (m, ratio)
        if ad["callToAction"]:
            c = rect(medium.find_element(By.CSS_SELECTOR, '[data-asset="callToAction"]'))
            assert c["y"] >= m["y"] + m["height"] - 1, (c, m)
        # The "Ad" attribution for indirect ads only.
        badges = [b for b in card(page, ad["adId"]).find_elements(By.CSS_SELECTOR, "[data-attribution]") if visible(b)]
        assert bool(badges) == (ad["adChoices"] is not None), (ad["adId"], ad["adChoices"])
        if badges:
            assert badges[0].text.strip() in ("Ad", "Advertisement", "Sponsored")
    for ad in ads:
        tcp.call("releaseAd", adId=ad["adId"])
    assert console_errors(page) == []


def test_a_custom_format_ad_is_drawn_from_its_assets(page, inspector_server):
    tcp = inspector_server.connect()
    ad = load_unchecked(tcp, NATIVE_UNIT, adTypes=["customNative"], customNativeAdFormatIDs=[CUSTOM_FORMAT])["ads"][0]
    view = card(page, ad["adId"])
    headline = tcp.call("stringForKey", adId=ad["adId"], key="Headline")
    WebDriverWait(page, WAIT).until(
        lambda d: any(e.text.strip() == headline for e in view.find_elements(By.CSS_SELECTOR, '[data-asset="Headline"]')))
    image = view.find_element(By.CSS_SELECTOR, '[data-asset="MainImage"]')
    assert visible(image)
    tcp.call("releaseAd", adId=ad["adId"])
    assert console_errors(page) == []


def test_clicking_the_headline_records_a_click_that_get_events_shows(page, inspector_server):
    tcp = inspector_server.connect()
    ad = load_unchecked(tcp, NATIVE_UNIT)["ads"][0]
    headline = template(page, ad["adId"], "medium").find_element(By.CSS_SELECTOR, '[data-asset="headline"]')
    headline.click()

    def clicks():
        return [e for e in get_events(tcp, adId=ad["adId"])["events"] if e["event"] == "didRecordClick"]

    deadline = time.monotonic() + WAIT
    while not clicks():
        assert time.monotonic() < deadline, f"no click recorded for {ad['adId']}: {get_events(tcp, adId=ad['adId'])}"
        time.sleep(0.05)
    assert clicks()[0]["assetKey"] == "headline", clicks()
    # Shown on screen, its impression was recorded too, as the SDK records it.
    events = [e["event"] for e in get_events(tcp, adId=ad["adId"])["events"]]
    assert "didRecordImpression" in events, events
    tcp.call("releaseAd", adId=ad["adId"])
    assert console_errors(page) == []


@pytest.mark.parametrize("corner", ["topRight", "topLeft", "bottomRight", "bottomLeft"])
def test_the_adchoices_icon_sits_in_the_requested_corner(page, inspector_server, corner):
    tcp = inspector_server.connect()
    ad = load_unchecked(tcp, BACKFILL_UNIT, options={"adChoicesPosition": corner})["ads"][0]
    assert ad["adChoices"]["position"] == corner
    for name in ("small", "medium"):
        view = template(page, ad["adId"], name)
        icon = view.find_element(By.CSS_SELECTOR, '[data-asset="_adChoices"]')
        assert icon.get_attribute("data-corner") == corner
        v, i = rect(view), rect(icon)
        slack = 16
        top = abs(i["y"] - v["y"]) <= slack
        bottom = abs((i["y"] + i["height"]) - (v["y"] + v["height"])) <= slack
        left = abs(i["x"] - v["x"]) <= slack
        right = abs((i["x"] + i["width"]) - (v["x"] + v["width"])) <= slack
        expected = {"topRight": top and right, "topLeft": top and left,
                    "bottomRight": bottom and right, "bottomLeft": bottom and left}[corner]
        assert expected, (name, corner, v, i)
    tcp.call("releaseAd", adId=ad["adId"])
    assert console_errors(page) == []


def test_an_openrtb_response_pasted_in_the_form_is_drawn_and_its_trackers_logged(page, inspector_server):
    """The load form's OpenRTB field sends adResponseString (docs/openrtb.md): the ad is drawn,
    and once shown (its impression recorded) the event log lists its impression trackers."""
    import json

    native = {"native": {"link": {"url": "https://shop.example.com/"},
                         "assets": [{"id": 1, "title": {"text": "Pasted from a bidder"}},
                                    {"id": 2, "img": {"type": 3, "url": "https://shop.example.com/a.png",
                                                      "w": 600, "h": 314}}],
                         "imptrackers": ["https://tracker.example.com/imp?from=inspector"]}}
    page.execute_script(
        "document.getElementById('f-rtb').open = true;"
        "document.getElementById('f-unit').value = arguments[0];"
        "document.getElementById('r-adResponseString').value = arguments[1];",
        "/inspector/openrtb", json.dumps(native))
    page.find_element(By.ID, "f-submit").click()
    WebDriverWait(page, WAIT).until(
        lambda d: "1 ad loaded" in d.find_element(By.ID, "f-result").text
        or d.find_element(By.ID, "f-result").get_attribute("class") == "err")
    assert page.find_element(By.ID, "f-result").get_attribute("class") == "ok", page.find_element(By.ID, "f-result").text
    headline = WebDriverWait(page, WAIT).until(lambda d: next(
        (e for e in d.find_elements(By.CSS_SELECTOR, '[data-asset="headline"]') if e.text == "Pasted from a bidder"), None))
    page.execute_script("arguments[0].scrollIntoView({block: 'center'})", headline)
    row = WebDriverWait(page, WAIT).until(lambda d: next(
        (r for r in d.find_elements(By.CSS_SELECTOR, '#ev-body tr[data-event="tracker"]')
         if "tracker.example.com/imp?from=inspector" in r.text), None))
    assert "impression tracker" in row.text, row.text
    assert console_errors(page) == []
