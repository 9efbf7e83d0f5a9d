"""Real Redis servers for the fleet's tests: each in a directory of its own under /tmp,
listening on a Unix socket there (no port to race for), with AOF on and fsync'd on every write
(so that a restart keeps everything a server acknowledged), stopped by pid."""
from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import tempfile
import time

WAIT = float(os.environ.get("NATIVE_ADS_E2E_WAIT", "10"))


def redis_binary() -> str:
    found = shutil.which("redis-server") or ("/usr/bin/redis-server" if os.access("/usr/bin/redis-server", os.X_OK) else None)
    if not found:
        raise RuntimeError("redis-server not found: `make deps` installs it (Debian redis-server)")
    return found


class RedisServer:
    def __init__(self, *extra: str, durable: bool = True, fsync: str = "always"):
        """`durable`: AOF on, fsync'd `fsync` (on every write by default: what the fleet's
        durability tests need); without, nothing is written to disk (for runs that test
        something else)."""
        self.dir = tempfile.mkdtemp(prefix="na-redis-", dir="/tmp")
        self.socket = os.path.join(self.dir, "redis.sock")
        self.durable = durable
        self.fsync = fsync
        self.extra = list(extra)
        self.proc: subprocess.Popen | None = None
        self.start()

    @property
    def url(self) -> str:
        return "unix:" + self.socket

    def start(self) -> None:
        assert self.proc is None
        cmd = [redis_binary(), "--port", "0", "--unixsocket", self.socket, "--unixsocketperm", "700",
               "--dir", self.dir, "--save", "",
               *(["--appendonly", "yes", "--appendfsync", self.fsync] if self.durable else ["--appendonly", "no"]),
               "--logfile", os.path.join(self.dir, "redis.log"), "--daemonize", "no"] + self.extra
        self.proc = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                     stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + WAIT
        while not self.accepts():
            if self.proc.poll() is not None or time.monotonic() > deadline:
                log = self.log()[-2000:]
                self.stop()
                raise RuntimeError(f"redis-server did not start: {log}")
            time.sleep(0.005)

    def accepts(self) -> bool:
        try:
            with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as s:
                s.settimeout(1)
                s.connect(self.socket)
                s.sendall(b"PING\r\n")
                return s.recv(16).startswith(b"+PONG")
        except OSError:
            return False

    def command(self, *args: str) -> bytes:
        """One command over a fresh connection; the raw RESP reply (for assertions on keys)."""
        body = b"*%d\r\n" % len(args) + b"".join(b"$%d\r\n%s\r\n" % (len(a.encode()), a.encode()) for a in args)
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as s:
            s.settimeout(WAIT)
            s.connect(self.socket)
            s.sendall(body)
            return s.recv(1 << 20)

    def log(self) -> str:
        try:
            with open(os.path.join(self.dir, "redis.log"), encoding="utf-8", errors="replace") as f:
                return f.read()
        except OSError:
            return ""

    def suspend(self) -> None:
        assert self.proc is not None
        self.proc.send_signal(signal.SIGSTOP)

    def resume(self) -> None:
        assert self.proc is not None
        self.proc.send_signal(signal.SIGCONT)

    def stop(self, sig: int = signal.SIGTERM) -> None:
        """Stops the server (SIGTERM: a clean stop that keeps the AOF; SIGKILL: a crash)."""
        if self.proc is None:
            return
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGCONT)
            self.proc.send_signal(sig)
            try:
                self.proc.wait(WAIT)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(WAIT)
        self.proc = None

    def close(self) -> None:
        self.stop(signal.SIGKILL)
        shutil.rmtree(self.dir, ignore_errors=True)


def _free_port_pair() -> int:
    """A loopback port P with P + 10000 (a cluster node's bus port) free too."""
    for _ in range(200):
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            port = s.getsockname()[1]
        if port + 10000 > 65535:
            continue
        try:
            with socket.socket() as a, socket.socket() as b:
                a.bind(("127.0.0.1", port))
                b.bind(("127.0.0.1", port + 10000))
            return port
        except OSError:
            continue
    raise RuntimeError("no free port pair for a cluster node")


class RedisClusterServers:
    """A Redis Cluster of `masters` masters (no replicas) on loopback TCP ports, each node in a
    directory of its own under /tmp, created with `redis-cli --cluster create`; stopped by pid."""

    def __init__(self, masters: int = 3, *, durable: bool = False):
        self.dir = tempfile.mkdtemp(prefix="na-cluster-", dir="/tmp")
        self.durable = durable
        self.procs: list[subprocess.Popen] = []
        self.ports: list[int] = []
        try:
            for i in range(masters):
                self._start_node(i)
            cli = shutil.which("redis-cli") or "/usr/bin/redis-cli"
            subprocess.run([cli, "--cluster", "create", *[f"127.0.0.1:{p}" for p in self.ports],
                            "--cluster-replicas", "0", "--cluster-yes"],
                           check=True, capture_output=True, timeout=WAIT * 3)
            self._wait_ok()
        except BaseException:
            self.close()
            raise

    def _node_command(self, port: int) -> list[str]:
        node_dir = os.path.join(self.dir, str(port))
        os.makedirs(node_dir, exist_ok=True)
        return [redis_binary(), "--port", str(port), "--bind", "127.0.0.1", "--dir", node_dir,
                "--cluster-enabled", "yes", "--cluster-config-file", "nodes.conf",
                "--cluster-node-timeout", "5000", "--save", "", "--appendonly", "yes",
                *(["--appendfsync", "always"] if self.durable else []),
                "--logfile", os.path.join(node_dir, "redis.log"), "--daemonize", "no"]

    def _spawn(self, port: int) -> subprocess.Popen | None:
        """Starts the node on `port`; the process once it answers PING, else None."""
        proc = subprocess.Popen(self._node_command(port), stdin=subprocess.DEVNULL,
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + WAIT
        while time.monotonic() < deadline and proc.poll() is None:
            try:
                if self.command(port, "PING").startswith(b"+PONG"):
                    return proc
            except OSError:
                pass
            time.sleep(0.01)
        proc.kill()
        proc.wait()
        return None

    def _start_node(self, i: int) -> None:
        for _ in range(5):
            port = _free_port_pair()
            proc = self._spawn(port)
            if proc is not None:
                self.procs.append(proc)
                self.ports.append(port)
                return
        raise RuntimeError("a cluster node did not start")

    def kill_node(self, i: int) -> None:
        """Kills node `i` with SIGKILL (its AOF keeps what it acknowledged when durable)."""
        self.procs[i].kill()
        self.procs[i].wait()

    def restart_node(self, i: int) -> None:
        """Starts node `i` again on its port, from its AOF and nodes.conf, and waits until the
        cluster says it is whole."""
        proc = self._spawn(self.ports[i])
        if proc is None:
            raise RuntimeError(f"cluster node {self.ports[i]} did not start again")
        self.procs[i] = proc
        self._wait_ok()

    def _wait_ok(self) -> None:
        deadline = time.monotonic() + WAIT * 3
        while not all(b"cluster_state:ok" in self.command(p, "CLUSTER", "INFO") for p in self.ports):
            if time.monotonic() > deadline:
                raise RuntimeError("the cluster did not reach cluster_state:ok")
            time.sleep(0.05)

    def node_of(self, key: str) -> int:
        """The index of the master that serves `key` (its slot, from CLUSTER NODES)."""
        slot = int(self.command(self.ports[0], "CLUSTER", "KEYSLOT", key).strip()[1:])
        for line in self.command(self.ports[0], "CLUSTER", "NODES").decode().splitlines():
            fields = line.split()
            if len(fields) < 8:  # the bulk reply's "$length" line
                continue
            port = int(fields[1].split("@")[0].rsplit(":", 1)[1])
            for spec in fields[8:]:
                lo, _, hi = spec.partition("-")
                if lo.isdigit() and int(lo) <= slot <= int(hi or lo):
                    return self.ports.index(port)
        raise AssertionError(f"no master serves slot {slot} of {key!r}")

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.ports[0]}"

    @staticmethod
    def command(port: int, *args: str) -> bytes:
        body = b"*%d\r\n" % len(args) + b"".join(b"$%d\r\n%s\r\n" % (len(a.encode()), a.encode()) for a in args)
        with socket.create_connection(("127.0.0.1", port), timeout=WAIT) as s:
            s.sendall(body)
            return s.recv(1 << 20)

    def keys(self, port: int, pattern: str) -> list[str]:
        reply = self.command(port, "KEYS", pattern).decode("utf-8", "replace")
        return [line for line in reply.split("\r\n")[1:] if line and not line.startswith("$")]

    def close(self) -> None:
        for proc in self.procs:
            if proc.poll() is None:
                proc.kill()
            proc.wait()
        self.procs = []
        shutil.rmtree(self.dir, ignore_errors=True)
