#!/usr/bin/env python3
"""Writes the inspector's pictures to docs/images/ (`make screenshots`): a server started
with --tcp and --http on free ports, a few ads loaded over TCP (direct-sold, indirect with
AdChoices, a custom format, a click and an impression recorded), and the page at `GET /`
photographed in headless Chromium (Debian chromium + chromium-driver, through Selenium).
Everything it starts, it stops by pid."""
from __future__ import annotations

import argparse
import os
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "Tests", "EndToEnd"))

from e2e_support import BACKFILL_UNIT, CUSTOM_FORMAT, NATIVE_UNIT, Server, load_unchecked  # noqa: E402
from selenium import webdriver  # noqa: E402
from selenium.webdriver.chrome.options import Options  # noqa: E402
from selenium.webdriver.chrome.service import Service  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.support.ui import WebDriverWait  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--out", default=os.path.join(HERE, "..", "docs", "images"))
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)
    srv = Server(tempfile.mkdtemp(prefix="na-shots-"), stdio=False, tcp=True, http=True)
    options = Options()
    options.binary_location = "/usr/bin/chromium"
    for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--window-size=1440,1000",
                "--hide-scrollbars", "--force-device-scale-factor=1"):
        options.add_argument(arg)
    driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
    try:
        tcp = srv.connect()
        # Opened first, so that its feed shows the loads as they happen.
        driver.get(f"http://127.0.0.1:{srv.http_port}/")
        WebDriverWait(driver, 20).until(
            lambda d: d.find_element(By.TAG_NAME, "body").get_attribute("data-ready") == "true")
        tcp.request("loadAd", {"adUnitID": "/no/such/unit"})  # a failed load, in the feed too
        ads = [load_unchecked(tcp, NATIVE_UNIT, adTypes=["customNative"],
                              customNativeAdFormatIDs=[CUSTOM_FORMAT])["ads"][0],
               load_unchecked(tcp, NATIVE_UNIT)["ads"][0],
               load_unchecked(tcp, BACKFILL_UNIT, options={"adChoicesPosition": "topRight"})["ads"][0]]
        tcp.call("performClickOnAsset", adId=ads[2]["adId"], key="headline")
        WebDriverWait(driver, 20).until(
            lambda d: all(d.find_elements(By.CSS_SELECTOR, f'[data-ad-id="{a["adId"]}"]') for a in ads))
        driver.execute_script("document.fonts && document.fonts.ready")
        path = os.path.join(args.out, "inspector.png")
        driver.save_screenshot(path)
        print(f"wrote {os.path.relpath(path)}", file=sys.stderr)
        first = driver.find_element(By.CSS_SELECTOR, f'[data-ad-id="{ads[2]["adId"]}"]')
        driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", first)
        path = os.path.join(args.out, "inspector-ad.png")
        first.screenshot(path)
        print(f"wrote {os.path.relpath(path)}", file=sys.stderr)
    finally:
        driver.quit()
        srv.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
