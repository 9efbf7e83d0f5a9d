#!/usr/bin/env python3
"""Writes the fuzzers' seed corpora, Fuzz/corpus/<target>/seed-*, from the repository's test
vectors: the OpenRPC examples (Sources/NativeAdsRPC/Resources/openrpc-examples.json: every
method, in order, naming the ads a server seeded with 1 loads), the README's stdio session, the JSON
documents the end-to-end suite and the schemas use, the JSON parser tests' cases, and framing
cases from the framer tests; and the libFuzzer dictionaries, Fuzz/dict/*.dict. Run it again
after changing the vectors; the seeds are checked in
(regression-*, inputs the fuzzers found, are added by hand and never rewritten here).

Usage: Fuzz/make-seeds.py   (from the repository root)
"""
import glob
import hashlib
import json
import os
import shutil

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CORPUS = os.path.join(ROOT, "Fuzz", "corpus")
MAX_SEED = 16 * 1024  # larger documents are left out (libFuzzer's -max_len is 16 KiB)

# Session control bytes (see Fuzz/Session/SessionFuzz.swift).
def to(connection):
    return bytes([0x1E, connection])

def wait(ms):
    return bytes([0x1F, ms // 50])

def close(connection):
    return bytes([0x1D, connection])

TOGGLE = bytes([0x1C])


def compact(value):
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False).encode()


def request(id, method, params=None):
    message = {"jsonrpc": "2.0", "id": id, "method": method}
    if params is not None:
        message["params"] = params
    return compact(message)


def notification(method, params=None):
    message = {"jsonrpc": "2.0", "method": method}
    if params is not None:
        message["params"] = params
    return compact(message)


def ndjson(messages, newline=b"\n"):
    return b"".join(m + newline for m in messages)


def content_length(messages):
    return b"".join(b"Content-Length: %d\r\n\r\n" % len(m) + m for m in messages)


def examples():
    path = os.path.join(ROOT, "Sources/NativeAdsRPC/Resources/openrpc-examples.json")
    with open(path) as f:
        return json.load(f)["exchanges"]


# JSON texts: the parser tests' cases (valid and invalid), by hand from
# Tests/JSONRPCTests/JSONParserTests.swift, JSONRefTests.swift and IdRoundTripTests.swift.
PARSER_CASES = [
    b"null", b"true", b"false", b"0", b"-12.5e+3", b'""', b'"abc"', b"[]", b"{}",
    b" \t\r\n 42 \n\t",
    b'{"s":"x","n":-1.5,"t":true,"f":false,"z":null,"a":[1,[],{}],"o":{"k":"v"}}',
    b' { "a" : [ 1 , 2 ] , "b" :\n{ }\t} ',
    b"18446744073709551617", b"-18446744073709551617", b"1.50", b"-0", b"1E+2", b"1e-7",
    b"0.0", b"123456789012345678901234567890.123456789e-300", b"1e400",
    b'"\x7f"', b'"\xc2\x80"', b'"\xc3\xa9"', b'"\xdf\xbf"', b'"\xe0\xa0\x80"', b'"\xe2\x82\xac"',
    b'"\xed\x9f\xbf"', b'"\xee\x80\x80"', b'"\xef\xbf\xbf"', b'"\xf0\x90\x80\x80"',
    b'"\xf0\x9f\x98\x80"', b'"\xf4\x8f\xbf\xbf"',
    b'"\\"\\\\\\/\\b\\f\\n\\r\\t"', b'"\\u00e9\\u20AC\\ud83d\\ude00"', b'"\\u0000"',
    b'{"a":1,"a":2}', b'{"\\u0061":1,"a":2}', b'{"K":1,"\\u212a":2}', b'{"\\u212A":"2.0"}',
    b'{"e\xcc\x81":1,"\xc3\xa9":2}', b'"\\u212Aind"',
    # Rejected:
    b"", b" ", b"[1,", b"[1,]", b"{,}", b'{"a"}', b'{"a":}', b'{"a" 1}', b"[1 2]", b"01",
    b"-", b"1.", b".5", b"1e", b"1e+", b"+1", b"0x10", b"NaN", b"Infinity", b"tru", b"nul",
    b"falsey", b'"abc', b'"\\x"', b'"\\u12"', b'"\\u12G4"', b'"\\ud800"', b'"\\udc00"',
    b'"\\ud800\\u0041"', b'"\x01"', b'"\x80"', b'"\xc0\xaf"', b'"\xe0\x80\xaf"',
    b'"\xed\xa0\x80"', b'"\xf4\x90\x80\x80"', b'"\xf5\x80\x80\x80"', b'"\xc3"', b"[]]",
    b"{} {}", b"\xef\xbb\xbf{}", b"[" * 129 + b"]" * 129, b"[" * 5 + b"]" * 5,
    b'{"a":' * 6 + b"1" + b"}" * 6,
]


def json_documents():
    """Small JSON files of the repository: schemas, test stores, vendored schemas."""
    paths = sorted(
        glob.glob(os.path.join(ROOT, "schemas/*.json"))
        + glob.glob(os.path.join(ROOT, "Tests/EndToEnd/stores/*.json"))
        + glob.glob(os.path.join(ROOT, "Tests/EndToEnd/vendor/openrpc/*.json")))
    for path in paths:
        with open(path, "rb") as f:
            data = f.read()
        if len(data) <= MAX_SEED:
            yield data


def parser_seeds():
    seeds = list(PARSER_CASES)
    seeds += list(json_documents())
    for e in examples():
        seeds.append(request(1, e["method"], e.get("params")))
        if "result" in e:
            seeds.append(compact(e["result"])[:MAX_SEED])
    return seeds


# The README's stdio session.
README_SESSION = [
    request(1, "loadAd", {"adUnitID": "/21775744923/example/native",
                          "options": {"disableImageLoading": True}}),
    request(2, "recordImpression", {"adId": "ad-1cc520-1"}),
    request(3, "recordImpression", {"adId": "ad-1cc520-1"}),
]


def example_requests():
    return [request(n + 1, e["method"], e.get("params")) for n, e in enumerate(examples())]


def framer_seeds():
    messages = README_SESSION + example_requests()[:6]
    nd = [
        ndjson(messages), ndjson(messages, b"\r\n"), b"\n\r\n \t \n\r\r\n",
        ndjson([b"{}", b"", b"   ", b"[1]"]), b"[" + b"1," * 30 + b"1]\n{}\n",
        b'{"a":1}\r\r\n' + b" " * 40 + b"\n[]", b"{}\n[]",
    ]
    cl = [
        content_length(messages),
        b"content-length: 2\r\n\r\n{}",
        b"Content-Type: application/vscode-jsonrpc; charset=utf-8\r\nContent-Length: 2\r\n\r\n[]",
        b"Content-Length:  2 \r\nX-Other: 1\r\n\r\n{}Content-Length: 0\r\n\r\n",
        b"\r\nContent-Length: 2\r\n\r\n{}", b"Content-Length: 2x\r\n\r\n{}",
        b"Content-Length: \r\n\r\n", b"X: 1\r\n\r\n", b"garbage\r\n\r\n",
        b"Content-Length: 99999999999999999999\r\n\r\n", b"Content-Length: 30\r\n\r\n" + b"x" * 30,
        b"Content-Length: 2\r\n" + b"X-Pad: " + b"p" * 50 + b"\r\n\r\n{}",
    ]
    return nd, cl


def session_seeds():
    reqs = example_requests()
    ex = examples()
    seeds = {
        "readme": ndjson(README_SESSION),
        "examples-ndjson": ndjson(reqs),
        "examples-content-length": content_length(reqs),
        "examples-crlf": ndjson(reqs, b"\r\n"),
        "batch": compact([json.loads(r) for r in reqs[:3]]) + b"\n",
        "notifications": ndjson([notification(e["method"], e.get("params")) for e in ex]),
        "errors": ndjson([
            b"{", b"[]", b"[1]", b'{"jsonrpc":"2.0"}', b'{"jsonrpc":"1.0","id":1,"method":"x"}',
            b'{"jsonrpc":"2.0","id":[1],"method":"loadAd"}',
            b'{"jsonrpc":"2.0","id":1,"method":"noSuchMethod"}',
            b'{"jsonrpc":"2.0","id":1,"method":"loadAd","params":[1]}',
            b'{"jsonrpc":"2.0","id":18446744073709551617,"method":"rpc.discover"}',
            b'{"jsonrpc":"2.0","id":"\\u00e9","method":"getEvents","params":{"limit":-1}}',
            b'{"jsonrpc":"2.0","id":1.50,"method":"lo\\u0061dAd","params":{}}',
            b'{"jsonrpc":"2.0","id":null,"result":1}',
            b"[" * 40 + b"]" * 40,
        ]),
        "discover": ndjson([request(1, "rpc.discover"),
                            request(2, "formats.schema", {"format": "native"})]),
        "sample-waterfall": ndjson([request(1, "loadAd", {
            "adUnitID": "native-ads/mediation/sample-waterfall",
            "options": {"disableImageLoading": True}, "request": {"seed": 3}})])
        + wait(2500) + ndjson([request(2, "recordImpression", {"adId": "ad-1cc520-1"})]),
        "adapter": to(1) + ndjson([
            request("a1", "mediation.registerAdapter", {"adapterClassName": "ExampleNet"}),
            request("a2", "store.putAdUnit", {"adUnit": {
                "id": "/1234/mediated", "creatives": ["native-app-install-1"],
                "waterfall": [{"type": "customEvent", "adapterClassName": "ExampleNet",
                               "parameter": "p", "eCPM": 2, "timeoutMs": 500},
                              {"type": "inventory", "eCPM": 0.5}]}}),
        ]) + to(0) + ndjson([request(1, "loadAd", {"adUnitID": "/1234/mediated",
                                                   "options": {"disableImageLoading": True}})])
        + to(1) + ndjson([compact({"jsonrpc": "2.0", "id": "native-ads:1", "result": {"ad": {
            "headline": "Mapped", "body": "b", "images": [
                {"url": "https://example.com/i.png", "width": 4, "height": 3}]}}})])
        + to(0) + ndjson([request(2, "recordImpression", {"adId": "ad-1cc520-1"}),
                          request(3, "performClickOnAsset", {"adId": "ad-1cc520-1",
                                                             "key": "headline"})])
        + to(1) + ndjson([request("a3", "adapter.reportClick", {"adId": "ad-1cc520-1"})])
        + close(1) + wait(1000),
        "adapter-timeout": to(1) + ndjson([
            request(1, "mediation.registerAdapter", {"adapterClassName": "SlowNet"}),
            request(2, "store.putAdUnit", {"adUnit": {
                "id": "/1234/slow", "creatives": [],
                "waterfall": [{"type": "customEvent", "adapterClassName": "SlowNet",
                               "parameter": "p", "eCPM": 2, "timeoutMs": 100}]}})])
        + to(0) + ndjson([request(1, "loadAd", {"adUnitID": "/1234/slow"})]) + wait(150)
        + to(1) + ndjson([compact({"jsonrpc": "2.0", "id": "native-ads:1",
                                   "error": {"code": 3, "message": "late"}})]),
        "backpressure": TOGGLE + ndjson(README_SESSION) + ndjson(reqs[1:4]) + TOGGLE,
        "close-mid-load": ndjson([request(1, "loadAd", {
            "adUnitID": "native-ads/mediation/sample-waterfall"})]) + close(0) + wait(3000),
        "lifecycle": ndjson([
            request(1, "loadAd", {"adUnitID": "native-ads/mediation/sample-waterfall"}),
            notification("$/cancelRequest", {"id": 1}),
            request(2, "shutdown"), request(3, "getEvents", {"limit": 1})])
        + wait(3000) + ndjson([notification("exit")]) + to(1)
        + ndjson([request(1, "loadAd", {"adUnitID": "native-ads/mediation/sample-waterfall"}),
                  notification("$/cancelRequest", {"id": 99}), request(2, "exit")]),
        "two-clients": ndjson(README_SESSION[:1]) + to(2)
        + content_length([request(7, "recordImpression", {"adId": "ad-1cc520-1"}),
                          request(8, "getEvents", {"limit": 5})]) + to(0)
        + ndjson([request(4, "releaseAd", {"adId": "ad-1cc520-1"})]),
    }
    for n, r in enumerate(reqs):
        seeds["method-%02d-%s" % (n + 1, ex[n]["method"])] = r + b"\n"
    return seeds


def write(target, seeds):
    directory = os.path.join(CORPUS, target)
    os.makedirs(directory, exist_ok=True)
    for old in glob.glob(os.path.join(directory, "seed-*")):
        os.remove(old)
    if isinstance(seeds, dict):
        items = sorted(seeds.items())
    else:
        items = [(hashlib.sha1(s).hexdigest()[:12], s) for s in seeds]
    for name, data in items:
        with open(os.path.join(directory, "seed-" + name), "wb") as f:
            f.write(data)
    print("%s: %d seeds" % (target, len(items)))


JSON_TOKENS = [b"{", b"}", b"[", b"]", b":", b",", b'"', b"true", b"false", b"null", b"-0",
               b"1e+9", b"0.5", b"\\u", b"\\ud83d\\ude00", b"\\ud800", b"\\u212a",
               b"\\n", b"\xc3\xa9", b"\xf0\x9f\x98\x80", b"\xed\xa0\x80", b" ", b"\r\n"]
FRAMING_TOKENS = [b"\r\n", b"\r\n\r\n", b"\n", b"\r", b"Content-Length: ", b"content-length:",
                  b"Content-Type: x", b"{}", b"[]", b" ", b"\t", b"99999999999999999999"]


def keys_and_words(value, out):
    if isinstance(value, dict):
        for k, v in value.items():
            out.add(compact(k) + b":")
            keys_and_words(v, out)
    elif isinstance(value, list):
        for v in value:
            keys_and_words(v, out)
    elif isinstance(value, str) and len(value) < 64:
        out.add(compact(value))


def session_tokens():
    words = set()
    for e in examples():
        words.add(compact(e["method"]))
        keys_and_words(e.get("params"), words)
    words |= {b'"jsonrpc":"2.0"', b'"id":', b'"method":', b'"params":', b'"result":',
              b'"error":', b'"native-ads:1"', b'"native-ads/mediation/sample-waterfall"',
              b'"adapter.loadNativeAd"', b'"adapter.reportImpression"', b'"waterfall":',
              b'"customEvent"', b'"timeoutMs":', b'"$/cancelRequest"', b'"shutdown"',
              b'"exit"', bytes([0x1E, 1]), bytes([0x1E, 2]),
              bytes([0x1F, 40]), bytes([0x1D, 1]), bytes([0x1C])}
    return sorted(words) + JSON_TOKENS


def write_dictionary(name, tokens):
    def quoted(token):
        return "".join(chr(b) if 0x20 <= b < 0x7F and b not in b'"\\' else "\\x%02x" % b
                       for b in token)
    directory = os.path.join(ROOT, "Fuzz", "dict")
    os.makedirs(directory, exist_ok=True)
    with open(os.path.join(directory, name + ".dict"), "w") as f:
        f.write("# libFuzzer dictionary, written by Fuzz/make-seeds.py.\n")
        for n, token in enumerate(dict.fromkeys(tokens)):
            f.write('t%d="%s"\n' % (n, quoted(token)))
    print("%s.dict: %d tokens" % (name, len(tokens)))


def main():
    write_dictionary("json", JSON_TOKENS)
    write_dictionary("framing", FRAMING_TOKENS)
    write_dictionary("session", session_tokens())
    nd, cl = framer_seeds()
    write("json-parser", parser_seeds())
    write("ndjson-framer", nd)
    write("content-length-framer", cl)
    write("message-framer", nd + cl + [b"  \r\n\t" + nd[0], b" \n" + cl[0], b"\n\n"])
    write("session", session_seeds())


if __name__ == "__main__":
    main()
