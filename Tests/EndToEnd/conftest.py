"""Fixtures of the native-ads end-to-end suite.

* ``conn``: a connection to a running server, parametrized over the six transport x framing
  combinations (stdio, tcp and unix, each in ndjson and lsp framing). Servers are shared by
  the tests (one per stdio framing, one for TCP, one for the Unix socket) and restarted if one
  dies; every test starts with a
  round trip that drops whatever earlier tests left on the wire. Use
  ``@pytest.mark.parametrize("conn", SUBSET, indirect=True)`` to run on fewer transports.
* ``server_factory``: starts a private server with its own flags (stopped at teardown).
* ``open_conn``: a connection of a given transport to a private server with given flags.
* ``tcp_server``: the shared TCP server (for tests that open raw connections to it).

The client helper itself lives in e2e_support.py.
"""
from __future__ import annotations

import os

import pytest

from e2e_support import BIN, CONN_TRANSPORTS, Server, split_transport
from http_support import WebSocketConn
from redis_support import RedisClusterServers, RedisServer


def pytest_collection_modifyitems(config, items):
    if not (os.path.isfile(BIN) and os.access(BIN, os.X_OK)):
        skip = pytest.mark.skip(reason=f"native-ads binary not found at {BIN} (set NATIVE_ADS_BIN)")
        for item in items:
            item.add_marker(skip)


class SharedServers:
    def __init__(self, workdir: str):
        self.workdir = workdir
        self._servers: dict[str, Server] = {}

    def _get(self, key: str, **kw) -> Server:
        s = self._servers.get(key)
        broken = s is not None and (
            not all(p.alive() for p in [s, *s.companions])
            or s.stdio.violation is not None
            or (s.serves_stdio and s.stdio.closed_by_peer)
        )
        if s is None or broken:
            if s is not None:
                s.stop()
            s = Server(self.workdir, **kw)
            self._servers[key] = s
        return s

    def stdio(self, framing: str) -> Server:
        return self._get(f"stdio-{framing}", stdio=True, framing=framing)

    def tcp(self) -> Server:
        return self._get("tcp", stdio=False, tcp=True)

    def unix(self) -> Server:
        return self._get("unix", stdio=False, unix=True)

    def http(self) -> Server:
        return self._get("http", stdio=False, http=True)

    def close_all(self) -> None:
        for s in self._servers.values():
            s.stop()


@pytest.fixture(scope="session")
def shared_servers(tmp_path_factory):
    shared = SharedServers(str(tmp_path_factory.mktemp("shared-servers")))
    yield shared
    shared.close_all()


@pytest.fixture(params=CONN_TRANSPORTS)
def conn(request, shared_servers):
    kind, framing = split_transport(request.param)
    if kind == "stdio":
        srv = shared_servers.stdio(framing)
        c = srv.stdio
    elif kind == "ws":
        srv = shared_servers.http()
        c = WebSocketConn(srv.http_port)
        srv.tcp_conns.append(c)
    elif kind == "unix":
        srv = shared_servers.unix()
        c = srv.connect_unix(framing, sync=False)
    else:
        srv = shared_servers.tcp()
        c = srv.connect(framing, sync=False)
    c.server = srv
    c.sync()
    yield c
    if kind != "stdio":
        c.close()
    problems = []
    for process in [srv, *srv.companions]:
        if not process.alive():
            problems.append(f"the server died during this test: {process.describe()}")
    if c.violation is not None:
        problems.append(f"protocol violation on {c.name}: {c.violation}")
    for process in [srv, *srv.companions] if kind != "stdio" else []:
        if process.stdio.received_bytes:
            problems.append(f"a socket-only server wrote {process.stdio.received_bytes} bytes to stdout")
    if problems:
        pytest.fail("\n".join(problems))


@pytest.fixture
def tcp_server(shared_servers):
    return shared_servers.tcp()


@pytest.fixture
def server_factory(tmp_path):
    servers: list[Server] = []

    def make(**kw) -> Server:
        s = Server(str(tmp_path), **kw)
        servers.append(s)
        return s

    yield make
    problems = []
    for server in servers:
        server.stop()
        for s in [server, *server.companions]:
            if s.stdio.violation is not None:
                problems.append(f"stdout of {' '.join(s.cmd)}: {s.stdio.violation}")
            if not s.serves_stdio and s.stdio.received_bytes:
                problems.append(f"{' '.join(s.cmd)} wrote {s.stdio.received_bytes} bytes to stdout without --stdio")
    if problems:
        pytest.fail("\n".join(problems))


@pytest.fixture
def open_conn(server_factory):
    def make(transport: str, args=(), *, sync: bool = True):
        kind, framing = split_transport(transport)
        if kind == "stdio":
            s = server_factory(stdio=True, framing=framing, args=args)
            c = s.stdio
        elif kind == "unix":
            s = server_factory(stdio=False, unix=True, args=args)
            c = s.connect_unix(framing, sync=False)
        else:
            s = server_factory(stdio=False, tcp=True, args=args)
            c = s.connect(framing, sync=False)
        c.server = s
        if sync:
            c.sync()
        return c

    return make


@pytest.fixture(scope="session")
def redis_server():
    """One real redis-server for the fleet tests (each test uses fleets of its own names)."""
    server = RedisServer()
    yield server
    server.close()


@pytest.fixture(scope="session")
def redis_cluster():
    """A real 3-master Redis Cluster for the fleet's cluster tests."""
    cluster = RedisClusterServers(3)
    yield cluster
    cluster.close()


@pytest.fixture
def private_redis():
    """A redis-server of the test's own, for tests that stop, freeze or restart it."""
    server = RedisServer()
    yield server
    server.close()


_fleet_names = iter(range(1, 1 << 30))


@pytest.fixture
def fleet_redis(request):
    """The Redis that fleet_factory's fleets use by default: the single server, or with
    ``@pytest.mark.parametrize("fleet_redis", ["redis", "cluster"], indirect=True)`` the
    3-master cluster as well."""
    kind = getattr(request, "param", "redis")
    assert kind in ("redis", "cluster"), kind
    return request.getfixturevalue("redis_cluster" if kind == "cluster" else "redis_server")


@pytest.fixture
def private_cluster():
    """A 3-master Redis Cluster of the test's own (AOF fsynced on every write), for tests that
    kill and restart its nodes."""
    cluster = RedisClusterServers(3, durable=True)
    yield cluster
    cluster.close()


@pytest.fixture
def fleet_factory(server_factory, fleet_redis, request):
    """Starts `n` processes of a fleet (a name of the test's own) on TCP."""

    def make(n: int = 3, *, redis=None, name: str | None = None, args=()):
        fleet = name or f"{request.node.name[:40]}-{next(_fleet_names)}"
        url = (redis or fleet_redis).url
        return [server_factory(stdio=False, tcp=True, args=["--redis", url, "--fleet", fleet, *args])
                for _ in range(n)]

    return make
