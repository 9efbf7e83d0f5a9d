"""Shared bits of the client tests."""

from __future__ import annotations

import base64
import sys
import uuid
from pathlib import Path
from typing import Any

NATIVE_UNIT = "/21775744923/example/native"
BACKFILL_UNIT = "/21775744923/example/native-backfill"
ADMOB_UNIT = "ca-app-pub-3940256099942544/3986624511"
VIDEO_UNIT = "/21775744923/example/native-video"
CUSTOM_FORMAT = "10063170"
CUSTOM_VIDEO_FORMAT = "12406343"

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def unique(prefix: str) -> str:
    """An id no other test (or run against the shared TCP server) uses."""
    return f"{prefix}-{uuid.uuid4().hex[:10]}"


def png_size(data_b64: str) -> tuple[int, int]:
    raw = base64.b64decode(data_b64)
    assert raw.startswith(PNG_SIGNATURE), raw[:16]
    return int.from_bytes(raw[16:20], "big"), int.from_bytes(raw[20:24], "big")


def house_creative(creative_id: str, **extra: Any) -> dict[str, Any]:
    creative: dict[str, Any] = {
        "id": creative_id,
        "kind": "native",
        "priority": 1,
        "eCPM": 0.5,
        "assets": {
            "headline": f"House ad {creative_id}",
            "body": "Shown when the network has nothing.",
            "images": [{"url": f"https://example.com/{creative_id}.png", "width": 1200, "height": 627}],
        },
        "landingPageURL": f"https://example.com/{creative_id}",
    }
    creative.update(extra)
    return creative


def mapped_ad(headline: str = "Rocket Boots 3000", tracks: bool = False, **extra: Any) -> dict[str, Any]:
    ad: dict[str, Any] = {
        "headline": headline,
        "body": "Run faster than the roadrunner.",
        "callToAction": "Buy now",
        "icon": {"url": "https://cdn.acme.example/logo.png", "width": 128, "height": 128},
        "images": [{"url": "https://cdn.acme.example/wide.png", "width": 1200, "height": 627}],
        "starRating": 4.5,
        "price": "$19.99",
        "advertiser": "ACME Corporation",
        "extraAssets": {"acmeCampaign": "desert-2024"},
        "landingPageURL": "https://acme.example/click",
        "handlesUserClicks": tracks,
        "handlesUserImpressions": tracks,
    }
    ad.update(extra)
    return ad


# A stand-in server (NDJSON over stdio) that answers the first request, closing its stdin before
# the reply: from then on every write of the client fails (EPIPE), while its stdout stays open,
# so the client's reader sees no end of stream. It runs until it is killed.
_STDIN_CLOSING_SERVER = """\
import json, os, signal, sys
request = json.loads(sys.stdin.buffer.readline())
os.close(0)
reply = {"jsonrpc": "2.0", "id": request["id"], "error": {"code": -32601, "message": "Method not found"}}
sys.stdout.write(json.dumps(reply) + "\\n")
sys.stdout.flush()
signal.pause()
"""


def stdin_closing_server(directory: Path) -> Path:
    """Writes the stand-in server above as an executable into ``directory``."""
    script = directory / "stdin-closing-server"
    script.write_text(f"#!{sys.executable}\n{_STDIN_CLOSING_SERVER}")
    script.chmod(0o755)
    return script
