"""The domain (Sources/NativeAds) speaks of ads, assets and rules, never of the wire.

JSON-RPC vocabulary belongs to NativeAdsRPC, which turns the domain's typed errors into param
paths, messages and codes. This test reads every domain source file and fails on:
- wire method names in string literals or quoted in comments (`loadAd`, "store.putCreative");
- param paths (`images[0].width`, "clickableAssets[1]", `creatives[3].assets`);
- JSON type words in string literals ("must be an integer", "a JSON object", "null").
Swift identifiers that are the SDK's own names (recordImpression, muteThisAd) are domain words
and stay.
"""

import pathlib
import re

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
DOMAIN = ROOT / "Sources" / "NativeAds"

WIRE_METHODS = [
    "loadAd", "stringForKey", "imageForKey", "performClickOnAsset", "recordImpression",
    "setCustomClickHandler", "releaseAd", "registerAdView", "unregisterAdView",
    "reportVisibility", "reportScreenDismissed", "muteThisAd", "videoControl", "getVideoState",
    "getEvents", "store.defineFormat", "store.putCreative", "store.putAdUnit", "store.remove",
    "store.list", "mediation.registerAdapter", "mediation.unregisterAdapter",
    "adapter.loadNativeAd", "adapter.reportImpression", "adapter.reportClick",
    "adapter.reportVideoEvent", "adapter.reportFullScreen", "adapter.didRecordImpression",
    "adapter.didRecordClickOnAsset", "rpc.discover", "formats.schema",
]
STRING = re.compile(r'"(?:[^"\\]|\\.)*"')
QUOTED = re.compile(r"(?<!`)`([^`]+)`(?!`)")
PARAM_PATH = re.compile(r"[A-Za-z_]\w*\[(?:\d+|\\\()[^\]]*\](?:\.\w+)*")
JSON_TYPES = re.compile(
    r"\b(?:must be (?:an? )?(?:integer|string|object|array|boolean|number)|JSON|null)\b", re.I)


def swift_files():
    files = sorted(DOMAIN.rglob("*.swift"))
    assert len(files) > 40, "the domain sources were not found"
    return files


def split(line: str) -> tuple[str, str]:
    """The code part and the comment part of a line (a `//` outside a string starts a comment)."""
    in_string = False
    i = 0
    while i < len(line):
        c = line[i]
        if c == "\\" and in_string:
            i += 2
            continue
        if c == '"':
            in_string = not in_string
        elif not in_string and line.startswith("//", i):
            return line[:i], line[i:]
        i += 1
    return line, ""


def findings(path: pathlib.Path):
    for number, line in enumerate(path.read_text().splitlines(), 1):
        code, comment = split(line)
        literals = [m.group(0)[1:-1] for m in STRING.finditer(code)]
        quoted = QUOTED.findall(comment)
        for text in literals + quoted:
            if text in WIRE_METHODS or any(f"{m}" == text.split("(")[0] for m in WIRE_METHODS):
                yield number, f"wire method name {text!r}"
            if PARAM_PATH.search(text):
                yield number, f"param path in {text!r}"
        for text in literals:
            if JSON_TYPES.search(text):
                yield number, f"JSON type word in {text!r}"


@pytest.mark.parametrize("path", swift_files(), ids=lambda p: str(p.relative_to(DOMAIN)))
def test_the_domain_source_has_no_wire_vocabulary(path):
    found = [f"{path.relative_to(ROOT)}:{n}: {what}" for n, what in findings(path)]
    assert found == [], "\n".join(found)


def test_the_checker_catches_each_kind_of_wire_word(tmp_path):
    sample = tmp_path / "Sample.swift"
    sample.write_text(
        'let a = "images[0].width must be a positive integer"\n'
        "/// Answers `getEvents`.\n"
        'let b = "options must be an object"\n'
        'let c = "fine: the headline is empty" // the `headline` asset\n'
    )
    kinds = [what.split(" ")[0] + " " + what.split(" ")[1] for _, what in findings(sample)]
    assert kinds == ["param path", "wire method", "JSON type"]
