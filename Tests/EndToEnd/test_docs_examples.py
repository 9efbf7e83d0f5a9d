"""Every store example in docs/ loads as printed, validates against schemas/store.schema.json,
and serves."""
from __future__ import annotations

import json
import pathlib
import re
import subprocess
import sys

import jsonschema
import pytest

from e2e_support import BIN, WAIT

ROOT = pathlib.Path(__file__).resolve().parents[2]
SCHEMA = json.loads((ROOT / "schemas" / "store.schema.json").read_text())


def store_examples() -> list[tuple[str, dict]]:
    found = []
    for doc in sorted((ROOT / "docs").glob("*.md")):
        for i, block in enumerate(re.findall(r"```json\n(.*?)```", doc.read_text(), re.S)):
            try:
                value = json.loads(block)
            except json.JSONDecodeError:
                continue
            if isinstance(value, dict) and {"creatives", "adUnits"} & value.keys():
                found.append((f"{doc.name}#{i}", value))
    return found


EXAMPLES = store_examples()


def test_the_docs_hold_store_examples():
    assert EXAMPLES, "docs/ should show at least one store file"


def test_the_built_in_store_file_validates_against_the_schema():
    builtin = json.loads((ROOT / "Sources/NativeAdsRPC/Resources/builtin-store.json").read_text())
    jsonschema.Draft202012Validator(SCHEMA).validate(builtin)


@pytest.mark.parametrize("name,example", EXAMPLES, ids=[n for n, _ in EXAMPLES])
def test_a_store_example_in_the_docs_validates_loads_and_serves(tmp_path, name, example):
    jsonschema.Draft202012Validator(SCHEMA).validate(example)
    path = tmp_path / "store.json"
    path.write_text(json.dumps(example))
    requests = [{"jsonrpc": "2.0", "id": i, "method": "loadAd",
                 "params": {"adUnitID": unit["id"], "adTypes": ["native", "customNative"],
                            "customNativeAdFormatIDs": [f["id"] for f in example.get("formats", [])] or None}}
                for i, unit in enumerate(example["adUnits"])]
    stdin = "".join(json.dumps(r) + "\n" for r in requests)
    proc = subprocess.run([BIN, "--stdio", "--store", str(path)], input=stdin.encode(),
                          capture_output=True, timeout=WAIT)
    assert proc.returncode == 0, proc.stderr.decode()
    replies = [json.loads(line) for line in proc.stdout.splitlines()]
    assert len(replies) == len(requests)
    for reply in replies:
        assert "result" in reply and reply["result"]["ads"], reply


def test_the_readme_stdio_example_prints_what_the_readme_shows():
    readme = (ROOT / "README.md").read_text()
    block = readme[readme.index("$ printf '%s\\n' \\"):]
    block = block[:block.index("```")]
    requests = re.findall(r"^\s+'(\{.*\})' \\$", block, re.M)
    assert len(requests) == 3
    shown = [line for line in block.splitlines() if line.startswith("{")]
    proc = subprocess.run([BIN, "--stdio", "--seed", "1"], input=("\n".join(requests) + "\n").encode(),
                          capture_output=True, timeout=WAIT)
    printed = proc.stdout.decode().splitlines()
    assert len(printed) == len(shown)
    for got, expected in zip(printed, shown):
        if "…" in expected:  # the README elides the long loadAd reply
            head = expected.split("…")[0]
            assert got.startswith(head), (got[:120], head)
        else:
            assert got == expected


def test_every_test_named_in_facts_to_tests_exists():
    # docs/facts-to-tests.md maps the SDK facts to their tests; a renamed or removed test must
    # not leave a stale name behind.
    root = pathlib.Path(__file__).resolve().parents[2]
    done = subprocess.run([sys.executable, str(root / "tools" / "check-facts-to-tests.py")],
                          capture_output=True, text=True, timeout=WAIT)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "0 unresolved" in done.stdout, done.stdout
