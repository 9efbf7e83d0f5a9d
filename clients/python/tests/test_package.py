"""The package itself: generated methods, sync/async parity, framing, the schema hook, the README.

The README example is run as printed (it spawns the server over stdio, NDJSON); the framing
tests run every framing on in-memory streams. Everything else here needs no server.
"""

from __future__ import annotations

import asyncio
import inspect
import io
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import BIN, LIFECYCLE_METHODS, SCHEMAS, VALIDATOR, ReplyValidator

import native_ads
from native_ads import AsyncClient, Client
from native_ads._framing import FRAMINGS, FramingError, encode, read_frame, read_frame_async

ROOT = Path(__file__).resolve().parent.parent


def test_generated_methods_are_fresh() -> None:
    proc = subprocess.run(
        [sys.executable, str(ROOT / "tools" / "gen_methods.py"), "--check"], capture_output=True, text=True
    )
    assert proc.returncode == 0, proc.stderr


def test_sync_and_async_clients_have_the_same_methods() -> None:
    for py_name in native_ads.METHOD_NAMES:
        sync = getattr(Client, py_name)
        coro = getattr(AsyncClient, py_name)
        assert not inspect.iscoroutinefunction(sync), py_name
        assert inspect.iscoroutinefunction(coro), py_name
        assert inspect.signature(sync) == inspect.signature(coro), py_name
    for name in (
        "call",
        "notify",
        "serve_adapter",
        "stop_serving_adapter",
        "close",
        "subscribe",
        "on",
        "off",
        "shutdown",
        "exit",
        "connect_unix",
        "unix_path",
    ):
        assert hasattr(Client, name) and hasattr(AsyncClient, name), name


@pytest.mark.skipif(not (SCHEMAS / "openrpc.json").exists(), reason="schemas/openrpc.json does not exist yet")
def test_every_documented_method_has_a_client_method() -> None:
    doc = json.loads((SCHEMAS / "openrpc.json").read_text(encoding="utf-8"))
    documented = {m["name"] for m in doc["methods"]} - set(LIFECYCLE_METHODS)  # written by hand
    client = set(native_ads.METHOD_NAMES.values())
    assert documented - client == set(), "methods without a Python method"
    assert client - documented == set(), "Python methods the OpenRPC document does not list"
    for name in ("shutdown", "exit"):
        assert hasattr(Client, name) and hasattr(AsyncClient, name), name


@pytest.mark.parametrize("framing", FRAMINGS)
def test_framing_round_trip(framing: str) -> None:
    messages = [{"jsonrpc": "2.0", "id": 1, "result": {"s": "é\n\u2028"}}, {"jsonrpc": "2.0", "method": "adEvent"}]
    data = b"".join(encode(m, framing) for m in messages)  # type: ignore[arg-type]
    if framing == "content-length":
        data = b"\r\n" + data.replace(b"\r\n\r\n", b"\r\nX-Other: 1\r\n\r\n", 1)  # stray blank line, extra header
    else:
        data = data.replace(b"\n", b"\r\n\n")  # CRLF and blank lines
    stream = io.BytesIO(data)
    got = []
    while (frame := read_frame(stream, framing)) is not None:  # type: ignore[arg-type]
        got.append(json.loads(frame))
    assert got == messages

    async def read_async() -> list[object]:
        reader = asyncio.StreamReader()
        reader.feed_data(data)
        reader.feed_eof()
        out = []
        while (frame := await read_frame_async(reader, framing)) is not None:  # type: ignore[arg-type]
            out.append(json.loads(frame))
        return out

    assert asyncio.run(read_async()) == messages


def test_framing_errors() -> None:
    with pytest.raises(FramingError):
        read_frame(io.BytesIO(b"X-Nothing: 1\r\n\r\n{}"), "content-length")
    with pytest.raises(ValueError):
        Client.connect("127.0.0.1", 1, "xml")  # type: ignore[arg-type]


def test_error_classes_by_code() -> None:
    cases = {
        -32700: native_ads.ParseError,
        -32600: native_ads.InvalidRequest,
        -32601: native_ads.MethodNotFound,
        -32602: native_ads.InvalidParams,
        -32603: native_ads.InternalError,
        -32001: native_ads.MessageTooLarge,
        -32002: native_ads.TooManyConnections,
        -32050: native_ads.ProtocolError,
        1000: native_ads.InvalidAdRequestError,
        1001: native_ads.NoFillError,
        1002: native_ads.NetworkError,
        1003: native_ads.ServerError,
        1005: native_ads.AdLoadTimeoutError,
        1008: native_ads.MediationAdapterError,
        1011: native_ads.AdInternalError,
        1012: native_ads.InvalidArgumentError,
        1013: native_ads.ReceivedInvalidResponseError,
        1099: native_ads.AdLoadError,
        2001: native_ads.AdNotFound,
        2002: native_ads.AssetNotFound,
        2003: native_ads.WrongAdKind,
        2004: native_ads.MuteNotOffered,
        2099: native_ads.AdObjectError,
        42: native_ads.NativeAdsError,
    }
    for code, cls in cases.items():
        e = native_ads.error_for({"code": code, "message": "m", "data": {"field": "f"}}, "loadAd", {"adId": "a"})
        assert type(e) is cls, code
        assert (e.code, e.message, e.data, e.method) == (code, "m", {"field": "f"}, "loadAd")
    assert native_ads.error_for({"code": 1005, "message": "t", "data": {"gadErrorCode": 5}}).gad_error_code == 5  # type: ignore[attr-defined]
    invalid = native_ads.error_for(
        {
            "code": 1013,
            "message": "Invalid ad response: native.link is required",
            "data": {
                "gadErrorCode": 13,
                "name": "receivedInvalidResponse",
                "field": "native.link",
                "responseInfo": {
                    "responseIdentifier": "r",
                    "loadedAdNetworkResponseInfo": None,
                    "adNetworkInfoArray": [],
                },
            },
        },
        "loadAd",
    )
    assert isinstance(invalid, native_ads.AdLoadError) and isinstance(invalid, native_ads.ReceivedInvalidResponseError)
    assert (invalid.gad_error_code, invalid.name, invalid.field) == (13, "receivedInvalidResponse", "native.link")
    assert invalid.response_info is not None and invalid.response_info["responseIdentifier"] == "r"
    assert native_ads.error_for({"code": 1001, "message": "m", "data": {}}).field is None  # type: ignore[attr-defined]
    adapter_error = native_ads.AdapterError(3, "no fill", network_error=True, domain="com.acme")
    assert adapter_error.to_error() == {
        "code": 3,
        "message": "no fill",
        "data": {"networkError": True, "domain": "com.acme"},
    }


@pytest.mark.skipif(not VALIDATOR.enabled, reason=VALIDATOR.reason or "schema check disabled")
def test_the_schema_hook_rejects_a_bad_reply() -> None:
    v = ReplyValidator(SCHEMAS)
    v.hook("recv", {"jsonrpc": "2.0", "id": 1, "result": {"recorded": "yes"}}, "recordImpression")
    v.hook("recv", {"jsonrpc": "2.0", "id": 2, "result": {"ads": [{"adId": 1}], "responseInfo": {}}}, "loadAd")
    v.hook("recv", {"jsonrpc": "2.0", "method": "adEvent", "params": {"adId": "a"}}, "adEvent")
    v.hook("recv", {"jsonrpc": "2.0", "id": 3, "result": {}}, "noSuchMethod")
    assert len(v.failures) == 4, v.failures
    v.failures.clear()
    v.hook("recv", {"jsonrpc": "2.0", "id": 4, "result": {"recorded": True}}, "recordImpression")
    assert v.failures == []


def readme_example() -> tuple[str, str]:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    code = re.search(r"```python\n(.*?)```", text, re.S)
    output = re.search(r"```console\n\$ python3 example\.py\n(.*?)```", text, re.S)
    assert code and output, "README.md must have a ```python example and its ```console output"
    return code.group(1), output.group(1)


def test_readme_example_runs_as_printed(tmp_path: Path) -> None:
    code, expected = readme_example()
    assert len(code.strip().splitlines()) <= 10, "the README example is ten lines at most"
    (tmp_path / "example.py").write_text(code, encoding="utf-8")
    env = dict(os.environ, NATIVE_ADS_BIN=BIN, PYTHONPATH=str(ROOT / "src"))
    proc = subprocess.run(
        [sys.executable, "example.py"], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=30
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == expected
