"""Discovery: rpc.discover is the OpenRPC document of schemas/openrpc.json, valid against the
OpenRPC 1.3 meta-schema, and every example in it replays against a live server."""
from __future__ import annotations

import json
import pathlib
import subprocess

import jsonschema
import referencing
from referencing import Registry, Resource

from e2e_support import BIN, WAIT

ROOT = pathlib.Path(__file__).resolve().parents[2]
# Unmodified copies of the OpenRPC meta-schemas (Apache 2.0, see their LICENSE and README).
VENDOR = pathlib.Path(__file__).resolve().parent / "vendor" / "openrpc"
DOCUMENT = json.loads((ROOT / "schemas" / "openrpc.json").read_text())
# Fields that differ from one run to the next: measured latencies and wall-clock times.
VOLATILE = {"latency", "expiresAt", "time", "currentTime"}


def session(requests: list[dict], *args: str) -> list[dict]:
    stdin = "".join(json.dumps(r) + "\n" for r in requests)
    proc = subprocess.run([BIN, "--stdio", *args], input=stdin.encode(), capture_output=True,
                          timeout=WAIT)
    assert proc.returncode == 0, proc.stderr.decode()
    return [json.loads(line) for line in proc.stdout.splitlines()]


def meta_validator() -> jsonschema.Draft7Validator:
    meta = json.loads((VENDOR / "openrpc-1.3.schema.json").read_text())
    tools = json.loads((VENDOR / "json-schema-tools.schema.json").read_text())
    d7 = referencing.jsonschema.DRAFT7
    registry = Registry().with_resources([
        (uri, Resource.from_contents(tools, default_specification=d7))
        for uri in ("https://meta.json-schema.tools", "https://meta.json-schema.tools/")])
    return jsonschema.Draft7Validator(meta, registry=registry)


def result_validator(method: str) -> jsonschema.Draft202012Validator:
    (entry,) = [m for m in DOCUMENT["methods"] if m["name"] == method]
    schema = dict(entry["result"]["schema"])
    schema["components"] = DOCUMENT["components"]
    return jsonschema.Draft202012Validator(schema)


def strip(value):
    if isinstance(value, dict):
        return {k: strip(v) for k, v in value.items() if k not in VOLATILE}
    if isinstance(value, list):
        return [strip(v) for v in value]
    return value


def test_rpc_discover_is_the_checked_in_openrpc_document():
    (reply,) = session([{"jsonrpc": "2.0", "id": 1, "method": "rpc.discover"}])
    assert reply["result"] == DOCUMENT


def test_the_openrpc_document_validates_against_the_openrpc_meta_schema():
    errors = list(meta_validator().iter_errors(DOCUMENT))
    assert not errors, [f"{list(e.absolute_path)}: {e.message[:200]}" for e in errors[:5]]


def test_every_method_the_server_answers_is_documented_and_every_documented_one_answers():
    documented = [m["name"] for m in DOCUMENT["methods"]]
    assert len(documented) == len(set(documented))
    # Notifications (no result: `$/cancelRequest`, `exit`) are checked in test_lifecycle.py;
    # `shutdown` goes last, since every request after it is refused.
    requests = [{"jsonrpc": "2.0", "id": "unknown", "method": "surely.notAMethod"}]
    requests += [{"jsonrpc": "2.0", "id": i, "method": m["name"], "params": {}}
                 for i, m in enumerate(sorted(DOCUMENT["methods"], key=lambda m: m["name"] == "shutdown"))
                 if "result" in m]
    replies = {r["id"]: r for r in session(requests)}
    for request in requests[1:]:
        reply = replies[request["id"]]
        assert reply.get("error", {}).get("code") != -32601, f"{request['method']} is documented but not answered"
    assert replies["unknown"]["error"]["code"] == -32601
    assert {m["name"] for m in DOCUMENT["methods"] if "result" not in m} == {"$/cancelRequest", "exit"}


def test_every_example_replays_against_a_live_server_in_recorded_order():
    examples = []
    for method in DOCUMENT["methods"]:
        for example in method.get("examples", []):
            params = {p["name"]: p["value"] for p in example["params"]}
            examples.append((example["name"], method["name"], params, example["result"]["value"]))
    assert len(examples) >= 20
    examples.sort()  # names start with their position in the recorded session: e01, e02...
    requests = [{"jsonrpc": "2.0", "id": i, "method": m, "params": p}
                for i, (_, m, p, _) in enumerate(examples)]
    replies = {r["id"]: r for r in session(requests, "--seed", "1") if "id" in r}
    for i, (name, method, _, expected) in enumerate(examples):
        reply = replies[i]
        assert "result" in reply, (name, reply)
        result_validator(method).validate(reply["result"])
        assert strip(reply["result"]) == strip(expected), name


def test_formats_schema_answers_the_generated_format_schemas():
    replies = session([
        {"jsonrpc": "2.0", "id": 1, "method": "formats.schema", "params": {"formatID": "native"}},
        {"jsonrpc": "2.0", "id": 2, "method": "formats.schema", "params": {"formatID": "10063170"}},
    ])
    assert replies[0]["result"] == json.loads((ROOT / "schemas/native-ad.schema.json").read_text())
    assert replies[1]["result"] == json.loads(
        (ROOT / "schemas/custom-format-10063170.schema.json").read_text())


def test_loaded_ads_validate_against_the_ad_format_schemas():
    native_schema = json.loads((ROOT / "schemas/native-ad.schema.json").read_text())
    replies = session([
        {"jsonrpc": "2.0", "id": i, "method": "loadAd",
         "params": {"adUnitID": unit, "options": {"numberOfAds": 3}}}
        for i, unit in enumerate(["/21775744923/example/native-backfill",
                                  "ca-app-pub-3940256099942544/3986624511"])])
    for reply in replies:
        result_validator("loadAd").validate(reply["result"])
        for ad in reply["result"]["ads"]:
            jsonschema.Draft202012Validator(native_schema).validate(ad)
