"""Fixtures of the Python client's tests, and the schema check of every reply they receive.

- The binary: ``NATIVE_ADS_BIN`` (default ``<repo>/.build/debug/native-ads``).
- Every test that talks to the server runs six times: over stdio, TCP and a Unix domain socket,
  each in both framings (``stdio-ndjson``, ``stdio-content-length``, ``tcp-ndjson``, ...,
  ``unix-content-length``; the Unix runs skip when the binary has no ``--unix``).
  The ``net`` fixture gives the test its main connection in that transport (``net.client`` /
  ``await net.aclient()``) and further connections to the same server (``net.other()``, over
  TCP in the same framing (a stdio server is spawned with ``--tcp 127.0.0.1:0`` for that), or
  over the Unix socket for the Unix runs).
- Schema check: a global trace hook sees every message any client receives. Each reply's
  ``result`` is validated against its method's ``result.schema`` in ``schemas/openrpc.json``
  (``$ref``s resolved with a ``referencing`` registry holding every file of ``schemas/``), each
  loaded ad against ``schemas/native-ad.schema.json`` or its custom format's schema, and
  notifications and the server's ``adapter.loadNativeAd`` params against their components.
  Failures are collected and fail the test that received the reply. When ``openrpc.json`` does
  not exist the check is skipped (said in the header and the summary), the hook stays.
"""

from __future__ import annotations

import asyncio
import json
import os
import threading
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from features import require_unix, short_socket_path

import native_ads
from native_ads import AsyncClient, Client, Server

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent.parent
BIN = os.environ.get("NATIVE_ADS_BIN") or str(REPO / ".build" / "debug" / "native-ads")
SCHEMAS = Path(os.environ.get("NATIVE_ADS_SCHEMAS") or REPO / "schemas")

TRANSPORTS = [
    ("stdio", "ndjson"),
    ("stdio", "content-length"),
    ("tcp", "ndjson"),
    ("tcp", "content-length"),
    ("unix", "ndjson"),
    ("unix", "content-length"),
]
TRANSPORT_IDS = [f"{t}-{f}" for t, f in TRANSPORTS]

#: Contract section 8's methods and notifications, which the client sends by hand (not generated
#: methods): ``close()`` sends ``shutdown`` and ``exit``, a cancelled call ``$/cancelRequest``.
LIFECYCLE_METHODS = ("shutdown", "exit", "$/cancelRequest")

# the tests below use the binary through NATIVE_ADS_BIN, as a user would
os.environ["NATIVE_ADS_BIN"] = BIN


# ----------------------------------------------------------------------------------------------
# Schema validation of every received reply


class ReplyValidator:
    """Validates replies against schemas/ (jsonschema + referencing)."""

    def __init__(self, schemas: Path) -> None:
        self.schemas = schemas
        self.enabled = False
        self.reason = ""
        self.lock = threading.Lock()
        self.failures: list[str] = []
        self.mismatches = 0
        self.validated: Counter[str] = Counter()
        self.methods_seen: Counter[str] = Counter()
        self.undocumented: Counter[str] = Counter()
        self.method_validators: dict[str, Any] = {}
        self.component_validators: dict[str, Any] = {}
        self.ad_validators: dict[str, Any] = {}
        self._load()

    def _load(self) -> None:
        openrpc_path = self.schemas / "openrpc.json"
        if not openrpc_path.exists():
            self.reason = f"{openrpc_path} does not exist yet: replies are NOT validated against schemas"
            return
        try:
            from jsonschema import Draft202012Validator
            from referencing import Registry, Resource
            from referencing.jsonschema import DRAFT202012
        except ImportError as e:  # pragma: no cover
            self.reason = f"jsonschema is not installed ({e}): replies are NOT validated"
            return
        registry: Registry[Any] = Registry()
        base = self.schemas.resolve().as_uri() + "/"
        documents: dict[str, Any] = {}
        for path in sorted(self.schemas.glob("*.json")):
            contents = json.loads(path.read_text(encoding="utf-8"))
            documents[path.name] = contents
            resource = Resource.from_contents(contents, default_specification=DRAFT202012)
            registry = registry.with_resource(base + path.name, resource)
            if isinstance(contents, dict) and isinstance(contents.get("$id"), str):
                registry = registry.with_resource(contents["$id"], resource)
        registry = registry.crawl()
        openrpc = documents["openrpc.json"]
        openrpc_uri = base + "openrpc.json"

        def validator(ref: str) -> Any:
            return Draft202012Validator({"$ref": ref}, registry=registry)

        for i, method in enumerate(openrpc.get("methods", [])):
            if "result" in method and "schema" in method["result"]:
                self.method_validators[method["name"]] = validator(f"{openrpc_uri}#/methods/{i}/result/schema")
        for name in openrpc.get("components", {}).get("schemas", {}):
            self.component_validators[name] = validator(f"{openrpc_uri}#/components/schemas/{name}")
        if "native-ad.schema.json" in documents:
            self.ad_validators["native"] = validator(base + "native-ad.schema.json")
        for name in documents:
            if name.startswith("custom-format-") and name.endswith(".schema.json"):
                format_id = name[len("custom-format-") : -len(".schema.json")]
                self.ad_validators[f"customNative:{format_id}"] = validator(base + name)
        self.enabled = True
        self.reason = (
            f"replies validated against {openrpc_path} ({len(self.method_validators)} methods)"
            + (", ads against native-ad.schema.json" if "native" in self.ad_validators else "")
            + f", {sum(1 for k in self.ad_validators if k.startswith('customNative'))} custom format schemas"
        )

    def fail(self, text: str) -> None:
        with self.lock:
            self.failures.append(text)
            self.mismatches += 1

    def check(self, what: str, validator: Any, instance: Any) -> None:
        errors = sorted(validator.iter_errors(instance), key=lambda e: list(e.absolute_path))
        with self.lock:
            self.validated[what.split(" ")[0]] += 1
        if errors:
            shown = "; ".join(f"at /{'/'.join(map(str, e.absolute_path))}: {e.message[:300]}" for e in errors[:5])
            self.fail(f"{what} does not match its schema: {shown}\n    instance: {json.dumps(instance)[:600]}")

    def hook(self, direction: str, message: Any, method: str | None) -> None:
        if direction != "recv":
            return
        if not isinstance(message, dict):
            self.fail(f"received a non-object message: {message!r}")
            return
        if message.get("jsonrpc") != "2.0":
            self.fail(f"received a message without jsonrpc 2.0: {message!r}")
        if "method" in message:
            self._check_server_message(message)
            return
        if method is None:
            return  # a reply that matches no request (late, or id null): nothing to validate against
        with self.lock:
            self.methods_seen[method] += 1
        if "error" in message:
            error = message["error"]
            if not (
                isinstance(error, dict) and isinstance(error.get("code"), int) and isinstance(error.get("message"), str)
            ):
                self.fail(f"{method}: malformed error object {error!r}")
            return
        if not self.enabled:
            return
        result = message.get("result")
        v = self.method_validators.get(method)
        if v is None and method in LIFECYCLE_METHODS:
            # the lifecycle methods are answered by the client's stand-in servers too, and by a
            # server that may not document them yet: test_openrpc_documents_the_lifecycle says so
            with self.lock:
                self.undocumented[method] += 1
            return
        if v is None:
            self.fail(f"{method}: the server answers it but openrpc.json has no result schema for it")
            return
        self.check(f"{method} result", v, result)
        if method == "loadAd" and isinstance(result, dict):
            for i, ad in enumerate(result.get("ads", [])):
                self._check_ad(f"loadAd ads[{i}]", ad)

    def _check_ad(self, what: str, ad: Any) -> None:
        if not isinstance(ad, dict):
            return
        if ad.get("kind") == "native" and "native" in self.ad_validators:
            self.check(f"{what} (native-ad.schema.json)", self.ad_validators["native"], ad)
        elif ad.get("kind") == "customNative":
            self.check_custom(what, ad, None)

    def check_custom(self, what: str, ad: dict[str, Any], assets: dict[str, Any] | None) -> bool:
        """Validates a custom native ad (and optionally its assets) against its format's schema.

        A format's schema describes ``{"ad": CustomNativeAd, "assets": {name: value}}``.
        Returns False when schemas/ has no schema for the format.
        """
        format_id = ad.get("formatID")
        v = self.ad_validators.get(f"customNative:{format_id}")
        if v is None:
            return False
        instance: dict[str, Any] = {"ad": ad}
        if assets is not None:
            instance["assets"] = assets
        self.check(f"{what} (custom-format-{format_id}.schema.json)", v, instance)
        return True

    NOTIFICATION_COMPONENTS = {
        "adEvent": "AdEventParams",
        "videoEvent": "VideoEventParams",
        "customClick": "CustomClickParams",
        "adapter.loadNativeAd": "AdapterLoadParams",
    }

    def _check_server_message(self, message: dict[str, Any]) -> None:
        method = message["method"]
        if not self.enabled:
            return
        component = self.NOTIFICATION_COMPONENTS.get(method)
        if component and component in self.component_validators:
            self.check(f"{method} params", self.component_validators[component], message.get("params"))


VALIDATOR = ReplyValidator(SCHEMAS)
_remove_hook = native_ads.add_global_trace_hook(VALIDATOR.hook)


def pytest_report_header(config: pytest.Config) -> list[str]:
    return [f"native-ads binary: {BIN}", f"schema check: {VALIDATOR.reason}"]


def pytest_terminal_summary(terminalreporter: Any) -> None:
    tr = terminalreporter
    tr.section("native-ads schema check")
    tr.write_line(VALIDATOR.reason)
    if VALIDATOR.enabled:
        total = sum(VALIDATOR.validated.values())
        tr.write_line(
            f"{total} schema validations, {VALIDATOR.mismatches} problems found; by method: "
            + ", ".join(f"{k} {v}" for k, v in sorted(VALIDATOR.validated.items()))
        )
    if VALIDATOR.undocumented:
        tr.write_line(
            "answers not validated, openrpc.json has no such method: "
            + ", ".join(f"{k} {v}" for k, v in sorted(VALIDATOR.undocumented.items()))
        )
    seen = set(VALIDATOR.methods_seen)
    missing = sorted(set(native_ads.METHOD_NAMES.values()) - seen)
    tr.write_line(f"methods with replies received: {len(seen)}; client methods never exercised: {missing or 'none'}")


@pytest.fixture(autouse=True)
def schema_check() -> Iterator[None]:
    """Fails the test when a reply it received did not match the schemas."""
    with VALIDATOR.lock:
        VALIDATOR.failures.clear()
    yield
    with VALIDATOR.lock:
        failures = list(VALIDATOR.failures)
        VALIDATOR.failures.clear()
    if failures:
        pytest.fail("replies that do not match schemas/:\n  " + "\n  ".join(failures), pytrace=False)


# ----------------------------------------------------------------------------------------------
# Servers and connections


@pytest.fixture(scope="session")
def tcp_server() -> Iterator[Server]:
    server = Server.start(BIN)
    yield server
    assert server.stop() == 0, server.stderr_lines[-10:]


@pytest.fixture(scope="session")
def unix_server() -> Iterator[Server]:
    """A server on a Unix domain socket (and TCP, which the Unix runs do not use)."""
    require_unix()
    server = Server.start(BIN, unix=short_socket_path())
    yield server
    assert server.stop() == 0, server.stderr_lines[-10:]


class Net:
    """One test's connections, in the transport it is parametrized with."""

    def __init__(self, transport: str, framing: str, server: Server | None) -> None:
        self.transport = transport
        self.framing = framing
        self._server = server  # the session's TCP or Unix socket server (None for stdio)
        self._client: Client | None = None
        self._clients: list[Client] = []
        self._aclients: list[AsyncClient] = []
        self._address: tuple[str, int] | None = None

    def __repr__(self) -> str:
        return f"Net({self.transport}, {self.framing})"

    # sync

    @property
    def client(self) -> Client:
        """The main connection: a spawned server over stdio, or TCP to the shared server."""
        if self._client is None:
            self._client = self.new_main()
        return self._client

    def new_main(self) -> Client:
        if self.transport == "stdio":
            c = Client.spawn(BIN, ["--tcp", "127.0.0.1:0"], framing=self.framing, timeout=20)
            self._address = c.tcp_address()
        elif self.transport == "unix":
            assert self._server is not None
            c = self._server.connect_unix(self.framing, timeout=20)
        else:
            assert self._server is not None
            c = self._server.connect(self.framing, timeout=20)
            self._address = self._server.address
        self._clients.append(c)
        return c

    @property
    def address(self) -> tuple[str, int]:
        if self._address is None:
            _ = self.client
        assert self._address is not None
        return self._address

    def other(self) -> Client:
        """Another connection to the main connection's server (TCP, or the Unix socket of the
        Unix runs; same framing)."""
        if self.transport == "unix":
            assert self._server is not None
            c = self._server.connect_unix(self.framing, timeout=20)
        else:
            host, port = self.address
            c = Client.connect(host, port, self.framing, timeout=20)
        self._clients.append(c)
        return c

    def start_server(self) -> tuple[Server, Client]:
        """A server of its own (not the session's) and a connection to it in this transport's
        kind of socket (TCP for the stdio and TCP runs)."""
        if self.transport == "unix":
            server = Server.start(BIN, unix=short_socket_path())
            return server, server.connect_unix(self.framing)
        server = Server.start(BIN)
        return server, server.connect(self.framing)

    async def start_server_async(self) -> tuple[Server, AsyncClient]:
        if self.transport == "unix":
            server = Server.start(BIN, unix=short_socket_path())
            return server, await server.connect_unix_async(self.framing)
        server = Server.start(BIN)
        return server, await server.connect_async(self.framing)

    # asyncio (call from inside the test's event loop)

    async def aclient(self) -> AsyncClient:
        if self.transport == "stdio":
            c = await AsyncClient.spawn(BIN, ["--tcp", "127.0.0.1:0"], framing=self.framing, timeout=20)
            self._address = await c.tcp_address()
        elif self.transport == "unix":
            assert self._server is not None
            c = await self._server.connect_unix_async(self.framing, timeout=20)
        else:
            assert self._server is not None
            c = await self._server.connect_async(self.framing, timeout=20)
            self._address = self._server.address
        self._aclients.append(c)
        return c

    async def aother(self) -> AsyncClient:
        if self.transport == "unix":
            assert self._server is not None
            c = await self._server.connect_unix_async(self.framing, timeout=20)
        else:
            assert self._address is not None, "call aclient() first"
            c = await AsyncClient.connect(*self._address, framing=self.framing, timeout=20)
        self._aclients.append(c)
        return c

    async def aclose(self) -> None:
        for c in reversed(self._aclients):
            code = await c.close()
            if c.process is not None:
                assert code == 0, c.stderr_lines[-10:]
        self._aclients.clear()

    def close(self) -> None:
        for c in reversed(self._clients):
            code = c.close()
            if c.process is not None:
                assert code == 0, c.stderr_lines[-10:]
        self._clients.clear()


@pytest.fixture(params=TRANSPORTS, ids=TRANSPORT_IDS)
def net(request: pytest.FixtureRequest) -> Iterator[Net]:
    transport, framing = request.param
    server = request.getfixturevalue(f"{transport}_server") if transport != "stdio" else None
    n = Net(transport, framing, server)
    try:
        yield n
    finally:
        n.close()


def run(coro: Any) -> Any:
    """Runs an asyncio test body."""
    return asyncio.run(asyncio.wait_for(coro, 30))
