"""Client helpers for the native-ads end-to-end tests.

Everything here talks to the real binary over real pipes and sockets:

* ``FrameParser`` splits what the server writes into frames, strictly: a byte that is not part
  of a well-formed NDJSON line or Content-Length frame is a protocol violation (this is how the
  suite checks that stdout carries protocol bytes only).
* ``Conn`` is one JSON-RPC connection (the server's stdio, one TCP socket or one Unix socket)
  in one framing.
  A reader thread parses frames as they arrive; requests wait for the reply with their id while
  server-initiated notifications (``adEvent``, ``customClick``) are kept in ``conn.notifications``.
* ``Server`` starts ``native-ads`` with the given flags, finds its TCP port and Unix socket
  from the ``listening on ...`` lines on stderr, and stops it.
* Checks for the shapes of the wire contract (ads, images with real PNG bytes, response info).

The binary path comes from ``NATIVE_ADS_BIN`` (default ``/work/main/.build/debug/native-ads``).
"""
from __future__ import annotations

import base64
import collections
import datetime as _dt
import itertools
import json
import os
import re
import signal
import socket
import struct
import subprocess
import tempfile
import threading
import time
import zlib
from dataclasses import dataclass
from typing import Any, Callable, Iterable

BIN = os.environ.get("NATIVE_ADS_BIN", "/work/main/.build/debug/native-ads")
WAIT = float(os.environ.get("NATIVE_ADS_E2E_WAIT", "10"))
#: With NATIVE_ADS_E2E_FLEET=<redis URL>, every server the suite starts joins one fleet there
#: (NATIVE_ADS_E2E_FLEET_NAME, default "e2e"): the whole contract, held by a fleet.
FLEET_REDIS = os.environ.get("NATIVE_ADS_E2E_FLEET", "")
FLEET_NAME = os.environ.get("NATIVE_ADS_E2E_FLEET_NAME", "e2e")
#: With NATIVE_ADS_E2E_FLEET_SIZE=N (N > 1) as well, each server the suite starts with a socket
#: (TCP or Unix) is a fleet of N processes: the one started with the test's flags, and N - 1
#: companions with the same flags serving the same kinds of socket. The server's connections
#: go to its processes in turn (the first to the first process), so that a test's second
#: connection uses, on another process, what its first loaded. Its stdio, signals, stderr and
#: exit code are the first process's.
FLEET_SIZE = max(1, int(os.environ.get("NATIVE_ADS_E2E_FLEET_SIZE", "1"))) if FLEET_REDIS else 1

NATIVE_UNIT = "/21775744923/example/native"
BACKFILL_UNIT = "/21775744923/example/native-backfill"
ADMOB_UNIT = "ca-app-pub-3940256099942544/3986624511"
CUSTOM_FORMAT = "10063170"

TRANSPORTS = ["stdio-ndjson", "stdio-lsp", "tcp-ndjson", "tcp-lsp", "unix-ndjson", "unix-lsp"]
#: What the `conn` fixture runs a test on: those, and a WebSocket at `--http`'s `GET /rpc`
#: (contract section 9: in every other respect a connection like a TCP one).
CONN_TRANSPORTS = TRANSPORTS + ["ws-websocket"]
NDJSON_TRANSPORTS = ["stdio-ndjson", "tcp-ndjson", "unix-ndjson"]
LSP_TRANSPORTS = ["stdio-lsp", "tcp-lsp", "unix-lsp"]
TCP_TRANSPORTS = ["tcp-ndjson", "tcp-lsp"]
UNIX_TRANSPORTS = ["unix-ndjson", "unix-lsp"]
SOCKET_TRANSPORTS = TCP_TRANSPORTS + UNIX_TRANSPORTS

MISSING = object()
_counter = itertools.count(1)


def split_transport(transport: str) -> tuple[str, str]:
    kind, framing = transport.split("-")
    assert transport == "ws-websocket" or kind in ("stdio", "tcp", "unix") and framing in ("ndjson", "lsp"), transport
    return kind, framing


# --------------------------------------------------------------------------------------------
# Errors


class ProtocolViolation(AssertionError):
    """The server wrote bytes that are not a well-formed frame of the connection's framing."""


class ConnectionClosed(AssertionError):
    """The server closed the connection while the test was waiting for something."""


class RpcError(Exception):
    def __init__(self, response: dict):
        err = response.get("error") or {}
        self.response = response
        self.code = err.get("code")
        self.message = err.get("message")
        self.data = err.get("data")
        super().__init__(f"JSON-RPC error {self.code} {self.message!r} data={self.data!r}")


# --------------------------------------------------------------------------------------------
# JSON helpers


def dumps(obj: Any) -> bytes:
    """Compact UTF-8 JSON, the way the tests send it."""
    return json.dumps(obj, ensure_ascii=False, separators=(",", ":"), allow_nan=False).encode("utf-8")


def _reject_constant(name: str):
    raise ValueError(f"{name} is not JSON")


def decode_json_strict(raw: bytes, where: str) -> Any:
    try:
        text = raw.decode("utf-8")  # strict: rejects invalid UTF-8 and encoded surrogates
    except UnicodeDecodeError as e:
        raise ProtocolViolation(f"{where} is not valid UTF-8 ({e}): {raw[:300]!r}") from None
    try:
        return json.loads(text, parse_constant=_reject_constant)
    except ValueError as e:
        raise ProtocolViolation(f"{where} is not JSON ({e}): {raw[:300]!r}") from None


def same_id(a: Any, b: Any) -> bool:
    """Ids are equal only with the same JSON type (1 != 1.0 != True != "1")."""
    if a is None or b is None:
        return a is None and b is None
    if isinstance(a, bool) or isinstance(b, bool):
        return False
    if isinstance(a, str) or isinstance(b, str):
        return isinstance(a, str) and isinstance(b, str) and a == b
    return type(a) is type(b) and a == b


def is_number(x: Any) -> bool:
    return isinstance(x, (int, float)) and not isinstance(x, bool)


def is_int(x: Any) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


def check_response(msg: Any) -> None:
    """Every reply: jsonrpc 2.0, an id member, exactly one of result and error."""
    assert isinstance(msg, dict), f"a response must be an object, got {msg!r}"
    assert msg.get("jsonrpc") == "2.0", f"response without jsonrpc 2.0: {msg!r}"
    assert "id" in msg, f"response without an id member: {msg!r}"
    assert msg["id"] is None or isinstance(msg["id"], str) or is_number(msg["id"]), msg
    assert ("result" in msg) != ("error" in msg), f"a response has exactly one of result/error: {msg!r}"
    if "error" in msg:
        err = msg["error"]
        assert isinstance(err, dict), msg
        assert is_int(err.get("code")), f"error.code must be an integer: {msg!r}"
        assert isinstance(err.get("message"), str), f"error.message must be a string: {msg!r}"


def check_reply_frame(msg: Any) -> None:
    if isinstance(msg, list):
        assert msg, "a batch reply is never an empty array"
        for m in msg:
            check_response(m)
    else:
        check_response(msg)


def check_notification(msg: dict) -> None:
    assert msg.get("jsonrpc") == "2.0", msg
    assert isinstance(msg.get("method"), str), msg
    if msg["method"] in ("adEvent", "customClick"):
        assert "id" not in msg, f"{msg['method']} must be a notification (no id): {msg!r}"
        assert isinstance(msg.get("params"), dict), msg


def raw_id_pattern(token: bytes) -> re.Pattern:
    """Matches `"id": <token>` in raw reply bytes, the token ending at `,` or `}`."""
    return re.compile(rb'"id"\s*:\s*' + re.escape(token) + rb"\s*[,}]")


def request_bytes(id_token: bytes | None, method: str = "e2e.noSuchMethod", params: Any = MISSING) -> bytes:
    body = b'{"jsonrpc":"2.0"'
    if id_token is not None:
        body += b',"id":' + id_token
    body += b',"method":' + dumps(method)
    if params is not MISSING:
        body += b',"params":' + dumps(params)
    return body + b"}"


# --------------------------------------------------------------------------------------------
# Framing


@dataclass
class Frame:
    raw: bytes  # the JSON text exactly as the server wrote it (NDJSON line without \n, or LSP body)
    msg: Any

    @property
    def is_server_message(self) -> bool:
        return isinstance(self.msg, dict) and "method" in self.msg


def ws_frame(opcode: int, payload: bytes, *, fin: bool = True, mask: bool = True, rsv: int = 0) -> bytes:
    """One WebSocket frame as a client writes it (masked unless told otherwise)."""
    head = bytes([(0x80 if fin else 0) | (rsv << 4) | opcode])
    n = len(payload)
    m = 0x80 if mask else 0
    if n < 126:
        head += bytes([m | n])
    elif n <= 0xFFFF:
        head += bytes([m | 126]) + struct.pack(">H", n)
    else:
        head += bytes([m | 127]) + struct.pack(">Q", n)
    if not mask:
        return head + payload
    key = os.urandom(4)
    return head + key + bytes(b ^ key[i & 3] for i, b in enumerate(payload))


def frame_body(framing: str, body: bytes) -> bytes:
    if framing == "ndjson":
        assert b"\n" not in body, "an NDJSON body cannot contain a newline"
        return body + b"\n"
    if framing == "websocket":
        return ws_frame(0x1, body)
    return b"Content-Length: %d\r\n\r\n" % len(body) + body


_HEADER_LINE = re.compile(rb"^[A-Za-z0-9-]+:[ \t]*[\x21-\x7e][\x20-\x7e]*$")


class FrameParser:
    """Strict parser of what the server writes."""

    def __init__(self, framing: str):
        assert framing in ("ndjson", "lsp", "websocket")
        self.framing = framing
        self.buf = bytearray()
        #: WebSocket control frames the server sent, in order: (opcode, payload).
        self.controls: list[tuple[int, bytes]] = []

    def feed(self, data: bytes) -> list[Frame]:
        self.buf += data
        out = []
        while True:
            f = self._next()
            if f is None:
                return out
            out.append(f)

    def _next_websocket(self) -> Frame | None:
        """Server frames: unmasked, no reserved bits; text messages whole (this server never
        fragments); control frames kept in `controls`; nothing after a close."""
        while True:
            if len(self.buf) < 2:
                return None
            if any(op == 0x8 for op, _ in self.controls):
                raise ProtocolViolation(f"bytes after a close frame: {bytes(self.buf[:100])!r}")
            b0, b1 = self.buf[0], self.buf[1]
            if b0 & 0x70 or b1 & 0x80:
                raise ProtocolViolation(f"a server frame with reserved bits or a mask: {bytes(self.buf[:16])!r}")
            n, at = b1 & 0x7F, 2
            if n == 126:
                if len(self.buf) < 4:
                    return None
                n, at = struct.unpack(">H", self.buf[2:4])[0], 4
            elif n == 127:
                if len(self.buf) < 10:
                    return None
                n, at = struct.unpack(">Q", self.buf[2:10])[0], 10
            if len(self.buf) < at + n:
                return None
            payload = bytes(self.buf[at : at + n])
            del self.buf[: at + n]
            opcode = b0 & 0x0F
            if opcode in (0x8, 0x9, 0xA):
                self.controls.append((opcode, payload))
                continue
            if opcode != 0x1 or not b0 & 0x80:
                raise ProtocolViolation(f"a server data frame that is not one whole text frame (byte {b0:#x})")
            return Frame(payload, decode_json_strict(payload, "WebSocket text frame"))

    def _next(self) -> Frame | None:
        if self.framing == "websocket":
            return self._next_websocket()
        if self.framing == "ndjson":
            i = self.buf.find(b"\n")
            if i < 0:
                return None
            line = bytes(self.buf[:i])
            del self.buf[: i + 1]
            if line.endswith(b"\r"):
                line = line[:-1]
            if not line.strip():
                raise ProtocolViolation("an empty line in an NDJSON stream")
            return Frame(line, decode_json_strict(line, "NDJSON line"))
        i = self.buf.find(b"\r\n\r\n")
        if i < 0:
            if self.buf and not bytes(self.buf[:1]).isalpha():  # headers start with a letter
                raise ProtocolViolation(f"bytes outside any LSP frame: {bytes(self.buf[:300])!r}")
            if len(self.buf) > 8192:
                raise ProtocolViolation(f"no end of LSP headers within 8 KiB: {bytes(self.buf[:300])!r}")
            return None
        header = bytes(self.buf[:i])
        length = None
        for line in header.split(b"\r\n"):
            if not _HEADER_LINE.match(line):
                raise ProtocolViolation(f"malformed LSP header line {line!r} in {header[:300]!r}")
            name, _sep, value = line.partition(b":")
            if name.strip().lower() == b"content-length":
                v = value.strip()
                if not v.isdigit():
                    raise ProtocolViolation(f"bad Content-Length {v!r}")
                length = int(v)
        if length is None:
            raise ProtocolViolation(f"LSP frame without Content-Length: {header!r}")
        if len(self.buf) < i + 4 + length:
            return None
        body = bytes(self.buf[i + 4 : i + 4 + length])
        del self.buf[: i + 4 + length]
        return Frame(body, decode_json_strict(body, "LSP body"))


def parse_all(framing: str, data: bytes) -> list[Frame]:
    """Parses a complete byte stream; trailing partial frames are a violation."""
    p = FrameParser(framing)
    frames = p.feed(data)
    if p.buf:
        raise ProtocolViolation(f"truncated frame at the end of the stream: {bytes(p.buf[:300])!r}")
    return frames


# --------------------------------------------------------------------------------------------
# Connections


class Conn:
    """One JSON-RPC connection. Subclasses provide _read_chunk, send_raw and close."""

    def __init__(self, name: str, framing: str):
        self.name = name
        self.framing = framing
        self._parser = FrameParser(framing)
        self._cond = threading.Condition()
        self._frames: collections.deque[Frame] = collections.deque()
        self._eof = False
        self._reset = False
        self._violation: ProtocolViolation | None = None
        self.received_bytes = 0
        self.notifications: list[dict] = []  # server-initiated messages, in arrival order
        self._consumed: set[int] = set()  # indexes of notifications returned by wait_notification
        self._stash: list[Any] = []  # replies received while waiting for another id
        self._ids = itertools.count(1)

    # -- reading ---------------------------------------------------------------------------

    def _start_reader(self) -> None:
        self._reader = threading.Thread(target=self._reader_loop, name=f"reader-{self.name}", daemon=True)
        self._reader.start()

    def _read_chunk(self) -> bytes:  # pragma: no cover - abstract
        raise NotImplementedError

    def _reader_loop(self) -> None:
        while True:
            try:
                data = self._read_chunk()
            except (ConnectionResetError, BrokenPipeError):
                with self._cond:
                    self._reset = True
                break
            except OSError:
                break
            if not data:
                break
            with self._cond:
                self.received_bytes += len(data)
                try:
                    frames = self._parser.feed(data)
                except ProtocolViolation as e:
                    self._violation = e
                    self._cond.notify_all()
                    break
                self._frames.extend(frames)
                self._cond.notify_all()
        with self._cond:
            self._eof = True
            self._cond.notify_all()

    @property
    def violation(self) -> ProtocolViolation | None:
        return self._violation

    @property
    def closed_by_peer(self) -> bool:
        return self._eof

    def next_frame(self, timeout: float = WAIT) -> Frame:
        deadline = time.monotonic() + timeout
        with self._cond:
            while True:
                if self._frames:
                    return self._frames.popleft()
                if self._violation is not None:
                    raise ProtocolViolation(f"{self.name}: {self._violation}")
                if self._eof:
                    raise ConnectionClosed(
                        f"{self.name}: the server closed the connection"
                        f" (unparsed bytes: {bytes(self._parser.buf[:200])!r})"
                    )
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    raise TimeoutError(
                        f"{self.name}: nothing received within {timeout} s ({self.received_bytes} bytes"
                        f" received in all; unparsed: {bytes(self._parser.buf[:200])!r})"
                    )
                self._cond.wait(remaining)

    def next_reply(self, timeout: float = WAIT) -> Frame:
        """The next frame that is a reply (server notifications are kept aside)."""
        deadline = time.monotonic() + timeout
        while True:
            f = self.next_frame(max(0.0, deadline - time.monotonic()))
            if f.is_server_message:
                check_notification(f.msg)
                self.notifications.append(f.msg)
                continue
            check_reply_frame(f.msg)
            return f

    def wait_reply(self, id: Any, timeout: float = WAIT) -> dict:
        for i, m in enumerate(self._stash):
            if isinstance(m, dict) and same_id(m.get("id"), id):
                return self._stash.pop(i)
        deadline = time.monotonic() + timeout
        while True:
            f = self.next_reply(max(0.0, deadline - time.monotonic()))
            if isinstance(f.msg, dict) and "id" in f.msg and same_id(f.msg["id"], id):
                return f.msg
            self._stash.append(f.msg)

    def read_until_closed(self, timeout: float = WAIT, allow_partial_after_reset: bool = False) -> list[Frame]:
        """Every frame until the server closes the connection; a truncated last frame fails
        (unless the connection was reset and allow_partial_after_reset is set)."""
        deadline = time.monotonic() + timeout
        with self._cond:
            while not self._eof:
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    raise TimeoutError(f"{self.name}: the server did not close the connection within {timeout} s")
                self._cond.wait(remaining)
            if self._violation is not None:
                raise ProtocolViolation(f"{self.name}: {self._violation}")
            frames = list(self._frames)
            self._frames.clear()
            if self._parser.buf and not (allow_partial_after_reset and self._reset):
                raise ProtocolViolation(
                    f"{self.name}: truncated frame at close: {bytes(self._parser.buf[:300])!r}"
                )
            return frames

    @property
    def was_reset(self) -> bool:
        return self._reset

    @property
    def pending_bytes(self) -> int:
        """Bytes received that do not (yet) form a complete frame."""
        with self._cond:
            return len(self._parser.buf)

    # -- writing ---------------------------------------------------------------------------

    def send_raw(self, data: bytes) -> None:  # pragma: no cover - abstract
        raise NotImplementedError

    def close(self) -> None:  # pragma: no cover - abstract
        raise NotImplementedError

    def frame(self, body: bytes) -> bytes:
        return frame_body(self.framing, body)

    def send_body(self, body: bytes) -> None:
        self.send_raw(self.frame(body))

    def send(self, obj: Any) -> None:
        self.send_body(dumps(obj))

    def new_id(self) -> int:
        return next(self._ids)

    def request(self, method: str, params: Any = MISSING, *, id: Any = MISSING, timeout: float = WAIT) -> dict:
        """Sends a request and returns the whole response object."""
        if id is MISSING:
            id = self.new_id()
        msg: dict[str, Any] = {"jsonrpc": "2.0", "id": id, "method": method}
        if params is not MISSING:
            msg["params"] = params
        self.send(msg)
        return self.wait_reply(id, timeout)

    def call(self, method: str, params: dict | None = None, **kw: Any) -> Any:
        """Sends a request and returns its result; a JSON-RPC error raises RpcError."""
        p = dict(params or {})
        p.update(kw)
        resp = self.request(method, p)
        if "error" in resp:
            raise RpcError(resp)
        return resp["result"]

    def error(self, method: str, params: Any = MISSING, **kw: Any) -> dict:
        """Sends a request that must fail and returns its error object."""
        if kw:
            params = dict({} if params is MISSING else params, **kw)
        resp = self.request(method, params)
        assert "error" in resp, f"{method} {params!r} should have failed, got {resp!r}"
        return resp["error"]

    def notify(self, method: str, params: Any = MISSING) -> None:
        msg: dict[str, Any] = {"jsonrpc": "2.0", "method": method}
        if params is not MISSING:
            msg["params"] = params
        self.send(msg)

    # -- notifications ----------------------------------------------------------------------

    def wait_notification(
        self, method: str, predicate: Callable[[dict], bool] = lambda p: True, timeout: float = WAIT
    ) -> dict:
        """Params of the first not-yet-returned notification `method` matching predicate."""
        deadline = time.monotonic() + timeout
        scanned = 0
        while True:
            for i in range(scanned, len(self.notifications)):
                n = self.notifications[i]
                if i not in self._consumed and n.get("method") == method and predicate(n.get("params") or {}):
                    self._consumed.add(i)
                    return n.get("params")
            scanned = len(self.notifications)
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise TimeoutError(
                    f"{self.name}: no {method} notification matching the test within {timeout} s;"
                    f" got {self.notifications!r}"
                )
            f = self.next_frame(remaining)
            if f.is_server_message:
                check_notification(f.msg)
                self.notifications.append(f.msg)
            else:
                check_reply_frame(f.msg)
                self._stash.append(f.msg)

    def ad_events(self, ad_id: str | None = None) -> list[dict]:
        return [
            n["params"]
            for n in self.notifications
            if n.get("method") == "adEvent" and (ad_id is None or (n.get("params") or {}).get("adId") == ad_id)
        ]

    def barrier(self) -> None:
        """A round trip: everything the server sent before it has been read."""
        self.request("e2e.barrier")

    def sync(self) -> None:
        """Round trip and forget everything received so far (start of a test)."""
        token = f"e2e-sync-{next(_counter)}"
        self.send({"jsonrpc": "2.0", "id": token, "method": "e2e.sync"})
        deadline = time.monotonic() + WAIT
        skipped: list[bytes] = []
        while True:
            try:
                f = self.next_frame(max(0.0, deadline - time.monotonic()))
            except TimeoutError as e:
                # Say what did arrive (a reply to the sync that was not recognised, say).
                server = getattr(self, "server", None)
                state = server.describe() if server is not None else "(no server attached)"
                raise TimeoutError(
                    f"{e}; waiting for the reply to {token!r}, skipped {len(skipped)} frame(s):"
                    f" {[b[:200] for b in skipped[-5:]]!r}; server: {state}"
                ) from None
            if isinstance(f.msg, dict) and f.msg.get("id") == token and "method" not in f.msg:
                break
            skipped.append(f.raw)
        self.notifications.clear()
        self._consumed.clear()
        self._stash.clear()


class TcpConn(Conn):
    def __init__(self, host: str, port: int, framing: str, name: str | None = None, rcvbuf: int | None = None):
        super().__init__(name or f"tcp-{framing}", framing)
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        if rcvbuf:
            self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, rcvbuf)
        self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.sock.settimeout(WAIT)
        self.sock.connect((host, port))
        self.sock.settimeout(None)
        self._closed = False
        self._start_reader()

    def _read_chunk(self) -> bytes:
        return self.sock.recv(262144)

    def send_raw(self, data: bytes) -> None:
        self.sock.sendall(data)

    def shutdown_write(self) -> None:
        self.sock.shutdown(socket.SHUT_WR)

    def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        try:
            self.sock.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
        # The reader must be done with the descriptor before it is closed: the next socket
        # opened gets the same number, and a reader still on its way into recv() would read
        # (and swallow) that connection's replies.
        self._reader.join(WAIT)
        self.sock.close()


class UnixConn(TcpConn):
    """One connection to the server's Unix domain socket (``--unix PATH``)."""

    def __init__(self, path: str, framing: str, name: str | None = None):
        Conn.__init__(self, name or f"unix-{framing}", framing)
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.settimeout(WAIT)
        self.sock.connect(path)
        self.sock.settimeout(None)
        self._closed = False
        self._start_reader()


def short_socket_path(name: str = "s.sock") -> str:
    """A socket path in a fresh directory under /tmp: sockaddr_un holds 107 bytes at most, and
    pytest's temporary directories can be longer than that."""
    return os.path.join(tempfile.mkdtemp(prefix="na-", dir="/tmp"), name)


class StdioConn(Conn):
    """The server's stdin/stdout. Always attached to stdout (to check it stays pure)."""

    def __init__(self, proc: subprocess.Popen, framing: str, name: str = "stdio"):
        super().__init__(f"{name}-{framing}", framing)
        self.proc = proc
        self._stdout_fd = proc.stdout.fileno()
        self._start_reader()

    def _read_chunk(self) -> bytes:
        return os.read(self._stdout_fd, 262144)

    def send_raw(self, data: bytes) -> None:
        assert self.proc.stdin is not None, "stdin is not a pipe"
        fd = self.proc.stdin.fileno()
        view = memoryview(data)
        while view:
            n = os.write(fd, view)
            view = view[n:]

    def close_stdin(self) -> None:
        if self.proc.stdin is not None and not self.proc.stdin.closed:
            try:
                self.proc.stdin.close()
            except OSError:
                pass

    def close(self) -> None:
        self.close_stdin()


# --------------------------------------------------------------------------------------------
# Server process


class Server:
    def __init__(
        self,
        workdir: str,
        *,
        stdio: bool = True,
        tcp: bool = False,
        unix: bool | str = False,
        http: bool = False,
        framing: str = "ndjson",
        args: Iterable[Any] = (),
        stdin: Any = MISSING,
        spread: bool = True,
        _companion: bool = False,
    ):
        """`spread=False` keeps every connection on the first process of a suite's fleet (see
        FLEET_SIZE), for tests of what belongs to one process: its limits, its defences, and the
        custom event adapters registered on its connections, which serve its loads only."""
        self.serves_stdio = stdio
        self.cmd = [BIN]
        if stdio:
            self.cmd.append("--stdio")
        if tcp:
            self.cmd += ["--tcp", "127.0.0.1:0"]
        self.unix_path = (unix if isinstance(unix, str) else short_socket_path()) if unix else None
        if self.unix_path:
            self.cmd += ["--unix", self.unix_path]
        if http:
            self.cmd += ["--http", "127.0.0.1:0"]
        args = [str(a) for a in args]
        n = next(_counter)
        in_suite_fleet = bool(FLEET_REDIS) and "--redis" not in args and not _companion
        if in_suite_fleet:
            # The suite against fleets: each server it starts keeps its ads and events in a
            # fleet of its own on the run's Redis, so that it behaves as one process must.
            args += ["--redis", FLEET_REDIS, "--fleet", f"{FLEET_NAME}-{os.getpid()}-{n}"]
        self.cmd += args
        self.stderr_path = os.path.join(workdir, f"native-ads-{n}.stderr")
        self._stderr = open(self.stderr_path, "wb")
        if stdin is MISSING:
            stdin = subprocess.PIPE if stdio else subprocess.DEVNULL
        self.proc = subprocess.Popen(
            self.cmd, stdin=stdin, stdout=subprocess.PIPE, stderr=self._stderr, bufsize=0
        )
        # stdout is always read: for a stdio server it is the protocol, otherwise it must stay empty.
        self.stdio = StdioConn(self.proc, framing)
        self.host = "127.0.0.1"
        self.tcp_conns: list[TcpConn] = []
        # The other processes of its fleet (NATIVE_ADS_E2E_FLEET_SIZE), started beside it with
        # the same flags and kinds of socket; connections go to the processes in turn.
        self.companions: list[Server] = []
        if in_suite_fleet and FLEET_SIZE > 1 and (tcp or unix):
            self.companions = [
                Server(workdir, stdio=False, tcp=tcp, unix=bool(unix), args=args, _companion=True)
                for _ in range(FLEET_SIZE - 1)
            ]
        self._turns = itertools.cycle([self, *self.companions] if spread else [self])
        self.port = self._wait_for_port() if tcp else None
        if self.unix_path:
            self._wait_for_line(f"listening on unix:{self.unix_path}")
        self.http_port = self._wait_for_port("http://") if http else None

    @property
    def pid(self) -> int:
        return self.proc.pid

    def stderr_text(self) -> str:
        try:
            with open(self.stderr_path, "rb") as f:
                return f.read().decode("utf-8", "replace")
        except OSError:
            return ""

    def describe(self) -> str:
        tail = self.stderr_text()[-2000:]
        return f"{' '.join(self.cmd)} (exit code {self.proc.poll()}); stderr tail:\n{tail}"

    def _wait_for_port(self, scheme: str = "") -> int:
        """The port of the `listening on HOST:PORT` line (`http://HOST:PORT` for `--http`)."""
        deadline = time.monotonic() + WAIT
        pat = re.compile(rf"listening on {scheme}(?!http://)(\S+):(\d+)")
        while time.monotonic() < deadline:
            m = pat.search(self.stderr_text())
            if m:
                return int(m.group(2))
            if self.proc.poll() is not None:
                raise AssertionError(f"the server exited before listening: {self.describe()}")
            time.sleep(0.01)
        raise AssertionError(f"no 'listening on HOST:PORT' line on stderr within {WAIT} s: {self.describe()}")

    def _wait_for_line(self, text: str) -> None:
        deadline = time.monotonic() + WAIT
        while time.monotonic() < deadline:
            if text in self.stderr_text():
                return
            if self.proc.poll() is not None:
                raise AssertionError(f"the server exited before {text!r}: {self.describe()}")
            time.sleep(0.01)
        raise AssertionError(f"no {text!r} line on stderr within {WAIT} s: {self.describe()}")

    def connect_unix(self, framing: str = "ndjson", *, sync: bool = True, name: str | None = None) -> UnixConn:
        assert self.unix_path is not None, "this server does not serve a Unix socket"
        c = UnixConn(next(self._turns).unix_path, framing, name=name)
        self.tcp_conns.append(c)
        if sync:
            c.sync()
        return c

    def connect_to(self, kind: str, framing: str = "ndjson", **kw: Any) -> Conn:
        """A connection of `kind` ("tcp" or "unix")."""
        return self.connect_unix(framing, **kw) if kind == "unix" else self.connect(framing, **kw)

    def connect(self, framing: str = "ndjson", *, sync: bool = True, name: str | None = None,
                rcvbuf: int | None = None) -> TcpConn:
        assert self.port is not None, "this server does not serve TCP"
        c = TcpConn(self.host, next(self._turns).port, framing, name=name, rcvbuf=rcvbuf)
        self.tcp_conns.append(c)
        if sync:
            c.sync()
        return c

    def alive(self) -> bool:
        return self.proc.poll() is None

    def signal(self, sig: int) -> None:
        self.proc.send_signal(sig)

    def wait(self, timeout: float = WAIT) -> int:
        try:
            return self.proc.wait(timeout)
        except subprocess.TimeoutExpired:
            raise AssertionError(f"the server did not exit within {timeout} s: {' '.join(self.cmd)}") from None

    def vmrss_kb(self) -> int:
        with open(f"/proc/{self.pid}/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
        raise AssertionError("no VmRSS in /proc status")

    def stop(self) -> int | None:
        """Best-effort stop for fixture teardown."""
        for c in self.tcp_conns:
            c.close()
        for companion in self.companions:
            companion.stop()
        if self.proc.poll() is None:
            self.stdio.close_stdin()
            try:
                self.proc.send_signal(signal.SIGTERM)
            except ProcessLookupError:
                pass
            try:
                self.proc.wait(5)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(5)
        self._stderr.close()
        return self.proc.returncode


# --------------------------------------------------------------------------------------------
# Contract shape checks

IMAGE_URL = re.compile(r"^https://static\.native-ads\.test/\S+\.png$")
CREATIVE_IMAGE_URL = re.compile(r"^https://static\.native-ads\.test/creatives/[^/\s]+/[^/\s]+\.png$")
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
_ADAM7 = [(0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2)]


def png_size(data: bytes) -> tuple[int, int]:
    """Validates a PNG (signature, chunk CRCs, IHDR, IDAT size) and returns (width, height)."""
    assert data[:8] == PNG_SIGNATURE, f"not a PNG signature: {data[:8]!r}"
    pos = 8
    ihdr = None
    idat = bytearray()
    seen_end = False
    while pos + 12 <= len(data):
        length, ctype = struct.unpack(">I4s", data[pos : pos + 8])
        chunk = data[pos + 8 : pos + 8 + length]
        assert len(chunk) == length, f"truncated {ctype!r} chunk"
        (crc,) = struct.unpack(">I", data[pos + 8 + length : pos + 12 + length])
        assert zlib.crc32(ctype + chunk) & 0xFFFFFFFF == crc, f"bad CRC in {ctype!r} chunk"
        pos += 12 + length
        if ctype == b"IHDR":
            ihdr = struct.unpack(">IIBBBBB", chunk)
        elif ctype == b"IDAT":
            idat += chunk
        elif ctype == b"IEND":
            seen_end = True
            break
    assert ihdr is not None, "PNG without IHDR"
    assert seen_end, "PNG without IEND"
    w, h, depth, color, _comp, _filt, interlace = ihdr
    channels = {0: 1, 2: 3, 3: 1, 4: 2, 6: 4}[color]
    raw = zlib.decompress(bytes(idat))

    def row_bytes(width: int) -> int:
        return (width * channels * depth + 7) // 8

    if interlace == 0:
        expected = h * (1 + row_bytes(w))
    else:
        expected = 0
        for x0, y0, dx, dy in _ADAM7:
            pw = (w - x0 + dx - 1) // dx if w > x0 else 0
            ph = (h - y0 + dy - 1) // dy if h > y0 else 0
            if pw and ph:
                expected += ph * (1 + row_bytes(pw))
    assert len(raw) == expected, f"IDAT holds {len(raw)} bytes, a {w}x{h} PNG needs {expected}"
    return w, h


def check_image(img: Any, width: int | None = None, height: int | None = None, *, loaded: bool = True,
                scale: float | None = None, creative: bool = False) -> dict:
    """An Image; `creative` images (icon, images, media, custom image assets) live under
    /creatives/<creativeID>/<name>.png."""
    assert isinstance(img, dict), f"an Image is an object, got {img!r}"
    pattern = CREATIVE_IMAGE_URL if creative else IMAGE_URL
    assert isinstance(img.get("url"), str) and pattern.match(img["url"]), f"unexpected image url: {img.get('url')!r}"
    assert is_number(img.get("scale")) and img["scale"] > 0, img
    assert is_int(img.get("width")) and is_int(img.get("height")), img
    if width is not None:
        assert (img["width"], img["height"]) == (width, height), img
    if scale is not None:
        assert img["scale"] == scale, img
    if loaded:
        assert img.get("mimeType") == "image/png", {k: v for k, v in img.items() if k != "data"}
        assert isinstance(img.get("data"), str), "a loaded Image carries base64 data"
        png = base64.b64decode(img["data"], validate=True)
        assert png_size(png) == (img["width"], img["height"]), "PNG size differs from the Image's width/height"
    else:
        assert "data" not in img and "mimeType" not in img, (
            f"with disableImageLoading an Image has no data/mimeType: { {k: v for k, v in img.items() if k != 'data'} }"
        )
    return img


def check_ad_network_info(info: Any) -> None:
    assert isinstance(info, dict), info
    assert isinstance(info.get("adNetworkClassName"), str), info
    assert isinstance(info.get("adSourceName"), str), info
    assert is_number(info.get("latency")) and info["latency"] >= 0, info
    assert "error" in info, info
    err = info["error"]
    if err is not None:
        assert is_int(err.get("code")) and isinstance(err.get("domain"), str) and isinstance(err.get("message"), str), err


def check_response_info(ri: Any) -> None:
    assert isinstance(ri, dict), ri
    assert isinstance(ri.get("responseIdentifier"), str) and ri["responseIdentifier"], ri
    assert "loadedAdNetworkResponseInfo" in ri, ri
    if ri["loadedAdNetworkResponseInfo"] is not None:
        check_ad_network_info(ri["loadedAdNetworkResponseInfo"])
    assert isinstance(ri.get("adNetworkInfoArray"), list), ri
    for info in ri["adNetworkInfoArray"]:
        check_ad_network_info(info)


_RFC3339_UTC = re.compile(r"^(\d{4}-\d\d-\d\d)[Tt](\d\d:\d\d:\d\d)(\.\d+)?(Z|z|\+00:00)$")


def parse_rfc3339_utc(s: Any) -> float:
    assert isinstance(s, str), s
    m = _RFC3339_UTC.match(s)
    assert m, f"not an RFC 3339 UTC time: {s!r}"
    frac = (m.group(3) or "")[:7]  # '.' + at most 6 digits
    dt = _dt.datetime.fromisoformat(f"{m.group(1)}T{m.group(2)}{frac}+00:00")
    return dt.timestamp()


NATIVE_ONLY = ("headline", "body", "callToAction", "store", "price", "advertiser", "starRating", "icon", "images",
               "extraAssets")
CUSTOM_ONLY = ("formatID", "availableAssetKeys")


def check_media_content(mc: Any, *, loaded: bool = True) -> None:
    assert isinstance(mc, dict), mc
    assert is_number(mc.get("aspectRatio")) and mc["aspectRatio"] >= 0, mc
    assert isinstance(mc.get("hasVideoContent"), bool), mc
    assert is_number(mc.get("duration")), mc
    assert is_number(mc.get("currentTime")), mc
    assert "mainImage" in mc, mc
    if mc["mainImage"] is not None:
        check_image(mc["mainImage"], loaded=loaded, creative=True)


def check_ad(ad: Any, *, loaded: bool = True, loaded_between: tuple[float, float] | None = None) -> dict:
    """Checks the common Ad shape of contract section 4."""
    assert isinstance(ad, dict), ad
    assert isinstance(ad.get("adId"), str) and ad["adId"], ad
    assert ad.get("kind") in ("native", "customNative"), ad
    if ad["kind"] == "native":
        assert isinstance(ad.get("headline"), str), ad
        for k in ("body", "callToAction", "store", "price", "advertiser"):
            assert k in ad and (ad[k] is None or isinstance(ad[k], str)), (k, ad.get(k))
        assert "starRating" in ad and (ad["starRating"] is None or (is_number(ad["starRating"]) and 0 <= ad["starRating"] <= 5))
        assert "icon" in ad
        if ad["icon"] is not None:
            check_image(ad["icon"], loaded=loaded, creative=True)
        assert isinstance(ad.get("images"), list), ad
        for img in ad["images"]:
            check_image(img, loaded=loaded, creative=True)
        assert isinstance(ad.get("extraAssets"), dict), ad
        for k in CUSTOM_ONLY:
            assert k not in ad, f"a native ad has no {k}"
    else:
        assert isinstance(ad.get("formatID"), str), ad
        assert isinstance(ad.get("availableAssetKeys"), list) and all(isinstance(k, str) for k in ad["availableAssetKeys"])
        for k in NATIVE_ONLY:
            assert k not in ad, f"a customNative ad has no {k}"
    check_media_content(ad.get("mediaContent"), loaded=loaded)
    assert "adChoices" in ad, ad
    if ad["adChoices"] is not None:
        ac = ad["adChoices"]
        assert ac.get("position") in ("topRight", "topLeft", "bottomRight", "bottomLeft"), ac
        check_image(ac.get("image"), loaded=loaded)
        assert isinstance(ac.get("clickURL"), str), ac
    check_response_info(ad.get("responseInfo"))
    expires = parse_rfc3339_utc(ad.get("expiresAt"))
    if loaded_between is not None:
        lo, hi = loaded_between
        assert lo + 3600 - 30 <= expires <= hi + 3600 + 30, (
            f"expiresAt {ad['expiresAt']} is not one hour after the load"
        )
    return ad


def load_ads(conn: Conn, unit: str = NATIVE_UNIT, **params: Any) -> dict:
    """loadAd; checks the result shape and every ad in it."""
    p = {"adUnitID": unit}
    p.update(params)
    before = time.time()
    result = conn.call("loadAd", p)
    after = time.time()
    assert isinstance(result, dict) and isinstance(result.get("ads"), list), result
    assert result["ads"], "a successful load has at least one ad"
    check_response_info(result.get("responseInfo"))
    loaded = not ((params.get("options") or {}).get("disableImageLoading") or False)
    for ad in result["ads"]:
        check_ad(ad, loaded=loaded, loaded_between=(before, after))
    return result


def load_one(conn: Conn, unit: str = NATIVE_UNIT, **params: Any) -> dict:
    result = load_ads(conn, unit, **params)
    assert len(result["ads"]) == 1, [a.get("headline") for a in result["ads"]]
    return result["ads"][0]


def load_custom(conn: Conn, **params: Any) -> dict:
    ad = load_one(conn, NATIVE_UNIT, adTypes=["customNative"], customNativeAdFormatIDs=[CUSTOM_FORMAT], **params)
    assert ad["kind"] == "customNative", ad
    return ad


def assert_error(err: Any, code: int, message: str | None = None) -> dict:
    assert isinstance(err, dict), err
    assert err.get("code") == code, f"expected error {code}, got {err!r}"
    if message is not None:
        assert err.get("message") == message, f"expected message {message!r}, got {err.get('message')!r}"
    return err


def assert_ad_not_found(err: dict) -> None:
    assert_error(err, 2001)
    data = err.get("data")
    if isinstance(data, dict) and "name" in data:
        assert data["name"] == "adNotFound", err


def wait_until(predicate: Callable[[], bool], timeout: float = WAIT, interval: float = 0.05, what: str = "") -> None:
    deadline = time.monotonic() + timeout
    while True:
        if predicate():
            return
        if time.monotonic() >= deadline:
            raise AssertionError(f"timed out waiting for {what or predicate}")
        time.sleep(interval)


def tcp_queues(local_port: int, remote_port: int) -> tuple[int, int] | None:
    """(tx_queue, rx_queue) of the socket local_port<->remote_port from /proc/net/tcp*."""
    for path in ("/proc/net/tcp", "/proc/net/tcp6"):
        try:
            with open(path) as f:
                lines = f.read().splitlines()[1:]
        except OSError:
            continue
        for line in lines:
            parts = line.split()
            if len(parts) < 5:
                continue
            lp = int(parts[1].rsplit(":", 1)[1], 16)
            rp = int(parts[2].rsplit(":", 1)[1], 16)
            if lp == local_port and rp == remote_port:
                tx, rx = parts[4].split(":")
                return int(tx, 16), int(rx, 16)
    return None


# --------------------------------------------------------------------------------------------
# Beyond the core (contract section 7, docs/sdk-behaviour.md): options, targeting, the ad view,
# AdChoices, video, Mute This Ad, expiry, full-screen events, the event log and the store.

VIDEO_UNIT = "/21775744923/example/native-video"
VIDEO_FORMAT = "12406343"
ADCHOICES_PAGE = "https://adssettings.google.com/whythisad"
MUTE_REASONS = ["Not interested in this ad", "Seen this ad multiple times", "Ad covered content", "Irrelevant"]
# Asset identifiers (contract section 7) and the canonical names they alias.
ASSET_IDS = {
    "3001": "headline", "3002": "callToAction", "3003": "icon", "3004": "body", "3005": "advertiser",
    "3006": "store", "3007": "price", "3008": "image", "3009": "starRating", "3010": "mediaView",
}
HERE = os.path.dirname(os.path.abspath(__file__))
STORES_DIR = os.path.join(HERE, "stores")
STORE_SCHEMA = os.path.normpath(os.path.join(HERE, "..", "..", "schemas", "store.schema.json"))
RFC3339_MILLIS = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}(Z|\+00:00)$")
_NO_REASON = object()


def creative_image(creative_id: str, name: str, width: int, height: int, **extra: Any) -> dict:
    """A store Image at the conventional creative URL (so check_ad accepts it)."""
    img = {"url": f"https://static.native-ads.test/creatives/{creative_id}/{name}.png", "width": width,
           "height": height}
    img.update(extra)
    return img


def make_png(width: int, height: int, rgb: tuple[int, int, int] = (0x33, 0x66, 0x99)) -> bytes:
    """A valid, solid-colour, 8-bit RGB PNG."""
    def chunk(ctype: bytes, body: bytes) -> bytes:
        return struct.pack(">I", len(body)) + ctype + body + struct.pack(">I", zlib.crc32(ctype + body) & 0xFFFFFFFF)

    row = b"\x00" + bytes(rgb) * width
    return (PNG_SIGNATURE + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(row * height)) + chunk(b"IEND", b""))


def store_path(name: str) -> str:
    """A fixture store file of Tests/EndToEnd/stores/."""
    path = os.path.join(STORES_DIR, name)
    assert os.path.isfile(path), path
    return path


def read_store(name: str) -> dict:
    with open(store_path(name), encoding="utf-8") as f:
        return json.load(f)


def write_json(path: str, obj: Any) -> str:
    with open(path, "w", encoding="utf-8") as f:
        json.dump(obj, f, ensure_ascii=False, indent=1)
    return path


def store_schema() -> dict | None:
    """schemas/store.schema.json, or None while it does not exist."""
    if not os.path.isfile(STORE_SCHEMA):
        return None
    with open(STORE_SCHEMA, encoding="utf-8") as f:
        return json.load(f)


def run_once(args: Iterable[Any], timeout: float = WAIT) -> subprocess.CompletedProcess:
    """Runs the binary on stdio with stdin at EOF: it either refuses to start or exits 0."""
    return subprocess.run([BIN, "--stdio", *[str(a) for a in args]], stdin=subprocess.DEVNULL,
                          capture_output=True, timeout=timeout)


def start_private(workdir: str, args: Iterable[Any] = (), framing: str = "ndjson") -> Server:
    """A stdio server of its own (for module-scoped fixtures); stop it with .stop()."""
    srv = Server(workdir, stdio=True, framing=framing, args=args)
    srv.stdio.server = srv
    srv.stdio.sync()
    return srv


def load_unchecked(conn: Conn, unit: str, **params: Any) -> dict:
    """loadAd with the shape checks of check_ad except the one-hour expiresAt."""
    p = {"adUnitID": unit}
    p.update(params)
    result = conn.call("loadAd", p)
    assert isinstance(result, dict) and isinstance(result.get("ads"), list) and result["ads"], result
    loaded = not ((params.get("options") or {}).get("disableImageLoading") or False)
    for ad in result["ads"]:
        check_ad(ad, loaded=loaded)
    return result


def ad_names(conn: Conn, ads: list[dict], custom_key: str = "Title") -> list[str]:
    """Each ad's headline; for a custom ad, its `custom_key` text asset (read with stringForKey)."""
    out = []
    for a in ads:
        if a["kind"] == "native":
            out.append(a["headline"])
        else:
            out.append(conn.call("stringForKey", adId=a["adId"], key=custom_key))
    return out


def assert_invalid_params(err: Any, field: str | None) -> dict:
    """-32602 whose message starts with `Invalid params` and whose data.field is `field`."""
    assert_error(err, -32602)
    assert err["message"].startswith("Invalid params"), err
    if field is not None:
        data = err.get("data")
        assert isinstance(data, dict) and data.get("field") == field, f"expected data.field {field!r}: {err!r}"
        assert field in err["message"], f"the message should name {field!r}: {err!r}"
    return err


def not_recorded_click(reason: str) -> dict:
    return {"recorded": False, "action": "none", "url": None, "reason": reason}


def assert_not_recorded_impression(result: Any, reason: str) -> None:
    assert isinstance(result, dict) and result.get("recorded") is False and result.get("reason") == reason, result


def wait_ad_event(conn: Conn, ad_id: str, event: str, timeout: float = WAIT) -> dict:
    params = conn.wait_notification("adEvent", lambda p: p.get("adId") == ad_id and p.get("event") == event, timeout)
    assert set(params) >= {"adId", "event", "assetKey"}, params
    return params


def wait_video_event(conn: Conn, ad_id: str, event: str, timeout: float = WAIT) -> dict:
    params = conn.wait_notification("videoEvent", lambda p: p.get("adId") == ad_id and p.get("event") == event,
                                    timeout)
    assert set(params) >= {"adId", "event"}, params
    return params


def notes(conn: Conn, method: str, ad_id: str | None = None) -> list[dict]:
    """Params of every `method` notification received so far (for `ad_id` when given)."""
    return [n["params"] for n in conn.notifications
            if n.get("method") == method and (ad_id is None or (n.get("params") or {}).get("adId") == ad_id)]


def check_event(e: Any) -> dict:
    """One entry of getEvents."""
    assert isinstance(e, dict), e
    assert is_int(e.get("sequence")) and e["sequence"] >= 1, e
    assert isinstance(e.get("time"), str) and RFC3339_MILLIS.match(e["time"]), f"time is not RFC 3339 with ms: {e!r}"
    assert isinstance(e.get("adId"), str), e
    assert e.get("type") in ("adEvent", "videoEvent"), e
    assert isinstance(e.get("event"), str), e
    assert "assetKey" in e and (e["assetKey"] is None or isinstance(e["assetKey"], str)), e
    return e


def get_events(conn: Conn, **filters: Any) -> dict:
    """getEvents with shape checks: events oldest first, sequences increasing."""
    result = conn.call("getEvents", filters)
    assert isinstance(result, dict) and isinstance(result.get("events"), list), result
    assert is_int(result.get("lastSequence")), result
    seqs = [check_event(e)["sequence"] for e in result["events"]]
    assert seqs == sorted(seqs) and len(set(seqs)) == len(seqs), f"events not oldest first: {seqs}"
    times = [parse_rfc3339_utc(e["time"]) for e in result["events"]]
    assert times == sorted(times), "event times go backwards"
    if seqs:
        assert result["lastSequence"] >= seqs[-1], result["lastSequence"]
    return result


def check_video_controller(vc: Any) -> dict:
    assert isinstance(vc, dict), vc
    for k in ("isMuted", "customControlsEnabled", "clickToExpandEnabled"):
        assert isinstance(vc.get(k), bool), (k, vc)
    assert vc.get("playbackState") in ("stopped", "playing", "paused", "ended"), vc
    return vc


def video_control(conn: Conn, ad_id: str, action: str) -> dict:
    result = conn.call("videoControl", adId=ad_id, action=action)
    assert isinstance(result, dict) and isinstance(result.get("applied"), bool), result
    check_video_controller(result.get("videoController"))
    assert is_number(result.get("currentTime")) and is_number(result.get("duration")), result
    assert 0 <= result["currentTime"] <= result["duration"], result
    if result["applied"]:
        assert result.get("reason") is None, result
    else:
        assert isinstance(result.get("reason"), str), result
    return result


def video_state(conn: Conn, ad_id: str) -> dict:
    result = conn.call("getVideoState", adId=ad_id)
    assert isinstance(result, dict), result
    check_video_controller(result.get("videoController"))
    assert is_number(result.get("currentTime")) and is_number(result.get("duration")), result
    assert 0 <= result["currentTime"] <= result["duration"], result
    return result


# --------------------------------------------------------------------------------------------
# Mediation (contract section 7, docs/mediation.md): waterfalls, SampleCustomEvent and external
# adapters served by a client connection.
#
# ``ExternalAdapter`` turns a Conn into an adapter provider: it registers class names with
# ``mediation.registerAdapter`` and answers the server's ``adapter.loadNativeAd`` requests in
# background threads, following a policy (an action, or a callable params -> action):
#
#     fill(ad)            answer {"ad": ad}
#     fail(code, ...)     answer a JSON-RPC error (data.domain, data.networkError)
#     NEVER               never answer
#     after(w, action)    wait (seconds, or a threading.Event to be set by the test), then act
#     twice(a, b)         answer twice (the completion called twice)
#     CLOSE               close the connection (TCP) while the load waits
#
# Server requests never reach the test's reply/notification machinery; the adapter.*
# notifications do (``conn.wait_notification``, ``adapter.notes``).

MEDIATION_UNIT = "native-ads/mediation/sample-waterfall"
SAMPLE_CLASS = "SampleCustomEvent"
GOOGLE_CLASS = "GADMAdapterGoogleAdMobAds"
ADMOB_DOMAIN = "com.google.admob"
SAMPLE_DOMAIN = "com.google.mediation.sample"
SERVER_REQUEST_ID = re.compile(r"^native-ads:\d+$")
LOAD_ERROR_NAMES = {1000: "invalidRequest", 1001: "noFill", 1002: "networkError", 1003: "serverError",
                    1005: "timeout", 1008: "mediationAdapterError", 1011: "internalError",
                    1012: "invalidArgument"}

NEVER = ("never",)
CLOSE = ("close",)


def fill(ad: dict) -> tuple:
    return ("fill", ad)


def fail(code: int = 3, message: str = "no ad from the network", domain: str | None = "com.e2e.network",
         network_error: bool = False, data: dict | None = None) -> tuple:
    err: dict[str, Any] = {"code": code, "message": message}
    d = dict(data or {})
    if domain is not None:
        d["domain"] = domain
    if network_error:
        d["networkError"] = True
    if d:
        err["data"] = d
    return ("error", err)


def after(wait: float | threading.Event, action: tuple) -> tuple:
    return ("after", wait, action)


def twice(first: tuple, second: tuple) -> tuple:
    return ("seq", [first, second])


def raw_answer(obj: dict) -> tuple:
    """Sends obj with the request's id as the whole response (e.g. a malformed result)."""
    return ("raw", obj)


class _InterceptingParser(FrameParser):
    """A FrameParser that hands the server's requests (method + id) to a callback instead of
    queueing them as frames."""

    def __init__(self, framing: str, buf: bytearray, on_request: Callable[[dict], None]):
        super().__init__(framing)
        self.buf = buf
        self._on_request = on_request

    def feed(self, data: bytes) -> list[Frame]:
        keep = []
        for f in super().feed(data):
            m = f.msg
            if isinstance(m, dict) and "method" in m and "id" in m:
                self._on_request(m)
            else:
                keep.append(f)
        return keep


class ExternalAdapter:
    """A client connection that provides adapters (docs/mediation.md "Adapters in any language")."""

    def __init__(self, conn: Conn, class_names: str | Iterable[str] = (), policy: Any = NEVER, *,
                 sync: bool = True, max_wait: float = 3 * WAIT):
        self.conn = conn
        self.policy = policy
        self.max_wait = max_wait
        self.requests: list[dict] = []  # every server request, as received
        self.answers: list[dict] = []  # {"id", "loadId", "response"} for every answer sent
        self.closed_mid_load = False
        self.unexpected: list[dict] = []  # server requests that are not adapter.loadNativeAd
        self._lock = threading.Condition()
        self._send_lock = threading.Lock()
        self._threads: list[threading.Thread] = []
        orig_send_raw = conn.send_raw

        def locked_send_raw(data: bytes) -> None:
            with self._send_lock:
                orig_send_raw(data)

        conn.send_raw = locked_send_raw  # type: ignore[method-assign]
        with conn._cond:
            conn._parser = _InterceptingParser(conn.framing, conn._parser.buf, self._on_request)
        if sync:
            conn.sync()
        names = [class_names] if isinstance(class_names, str) else list(class_names)
        for name in names:
            self.register(name)

    # -- registration -------------------------------------------------------------------------

    def register(self, name: str) -> None:
        result = self.conn.call("mediation.registerAdapter", adapterClassName=name)
        assert result == {"registered": True}, result

    def unregister(self, name: str) -> bool:
        result = self.conn.call("mediation.unregisterAdapter", adapterClassName=name)
        assert isinstance(result, dict) and isinstance(result.get("unregistered"), bool), result
        return result["unregistered"]

    # -- loads --------------------------------------------------------------------------------

    @property
    def loads(self) -> list[dict]:
        """Params of every adapter.loadNativeAd received, in arrival order."""
        with self._lock:
            return [r.get("params") for r in self.requests if r.get("method") == "adapter.loadNativeAd"]

    def loads_for(self, class_name: str) -> list[dict]:
        return [p for p in self.loads if isinstance(p, dict) and p.get("adapterClassName") == class_name]

    def load_classes(self) -> list[str]:
        return [p.get("adapterClassName") for p in self.loads if isinstance(p, dict)]

    def wait_loads(self, n: int, timeout: float = WAIT) -> list[dict]:
        deadline = time.monotonic() + timeout
        with self._lock:
            while sum(1 for r in self.requests if r.get("method") == "adapter.loadNativeAd") < n:
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    raise TimeoutError(f"{self.conn.name}: fewer than {n} adapter.loadNativeAd requests "
                                       f"within {timeout} s; got {self.requests!r}")
                self._lock.wait(remaining)
        return self.loads

    def wait_answers(self, n: int, timeout: float = WAIT) -> list[dict]:
        deadline = time.monotonic() + timeout
        with self._lock:
            while len(self.answers) < n:
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    raise TimeoutError(f"{self.conn.name}: fewer than {n} answers sent within {timeout} s")
                self._lock.wait(remaining)
            return list(self.answers)

    def _on_request(self, msg: dict) -> None:  # the connection's reader thread
        with self._lock:
            self.requests.append(msg)
            self._lock.notify_all()
        if msg.get("method") != "adapter.loadNativeAd":
            self.unexpected.append(msg)
            return
        t = threading.Thread(target=self._serve, args=(msg,), daemon=True,
                             name=f"adapter-{self.conn.name}-{msg.get('id')}")
        self._threads.append(t)
        t.start()

    def _serve(self, msg: dict) -> None:
        params = msg.get("params") if isinstance(msg.get("params"), dict) else {}
        action = self.policy(params) if callable(self.policy) else self.policy
        try:
            self._perform(msg, action)
        except OSError:
            pass  # the connection is gone (a test closed it)

    def _perform(self, msg: dict, action: tuple) -> None:
        kind = action[0]
        if kind == "never":
            return
        if kind == "after":
            wait = action[1]
            if isinstance(wait, threading.Event):
                wait.wait(self.max_wait)
            else:
                time.sleep(wait)
            self._perform(msg, action[2])
        elif kind == "seq":
            for a in action[1]:
                self._perform(msg, a)
        elif kind == "close":
            self.closed_mid_load = True
            self.conn.close()
        elif kind == "fill":
            self._answer(msg, {"jsonrpc": "2.0", "id": msg["id"], "result": {"ad": action[1]}})
        elif kind == "error":
            self._answer(msg, {"jsonrpc": "2.0", "id": msg["id"], "error": action[1]})
        elif kind == "raw":
            self._answer(msg, dict(action[1], id=msg["id"]))
        else:  # pragma: no cover - a test bug
            raise AssertionError(f"unknown adapter action {action!r}")

    def _answer(self, msg: dict, response: dict) -> None:
        self.conn.send(response)
        params = msg.get("params") if isinstance(msg.get("params"), dict) else {}
        with self._lock:
            self.answers.append({"id": msg.get("id"), "loadId": params.get("loadId"), "response": response})
            self._lock.notify_all()

    # -- what the service told the adapter ----------------------------------------------------

    def notes(self, method: str, ad_id: str | None = None) -> list[dict]:
        """Params of every `method` notification received (after a round trip on this connection)."""
        self.conn.barrier()
        return notes(self.conn, method, ad_id)

    def replies_to_answers(self) -> list[Any]:
        """Replies the server sent to this connection that the test did not ask for (after a round
        trip): answers to responses would show up here."""
        self.conn.barrier()
        return list(self.conn._stash)

    def report(self, method: str, **params: Any) -> dict:
        """An adapter.report* sent as a request: the whole response."""
        return self.conn.request(method, params)


def check_load_request(params: Any, class_name: str | None = None, parameter: str | None = None) -> dict:
    """The params of adapter.loadNativeAd."""
    assert isinstance(params, dict), params
    assert isinstance(params.get("loadId"), str) and params["loadId"], params
    assert isinstance(params.get("adapterClassName"), str), params
    if class_name is not None:
        assert params["adapterClassName"] == class_name, params
    cfg = params.get("adConfiguration")
    assert isinstance(cfg, dict), params
    creds = cfg.get("credentials")
    assert isinstance(creds, dict) and isinstance(creds.get("settings"), dict), cfg
    assert isinstance(creds["settings"].get("parameter"), str), cfg
    if parameter is not None:
        assert creds["settings"]["parameter"] == parameter, cfg
    assert isinstance(cfg.get("options"), dict), cfg
    assert cfg.get("isTestRequest") is None or isinstance(cfg["isTestRequest"], bool), cfg
    return params


def check_any_image(img: Any, width: int | None = None, height: int | None = None, *, loaded: bool = True) -> dict:
    """An Image whose URL is not one of the store's (mapped ads, SampleCustomEvent)."""
    assert isinstance(img, dict), f"an Image is an object, got {img!r}"
    assert isinstance(img.get("url"), str) and img["url"], img
    assert is_number(img.get("scale")) and img["scale"] > 0, img
    assert is_int(img.get("width")) and is_int(img.get("height")), img
    if width is not None:
        assert (img["width"], img["height"]) == (width, height), {k: v for k, v in img.items() if k != "data"}
    if loaded:
        assert img.get("mimeType") == "image/png", {k: v for k, v in img.items() if k != "data"}
        assert isinstance(img.get("data"), str), "a loaded Image carries base64 data"
        png = base64.b64decode(img["data"], validate=True)
        assert png_size(png) == (img["width"], img["height"]), "PNG size differs from the Image's width/height"
    else:
        assert "data" not in img and "mimeType" not in img, {k: v for k, v in img.items() if k != "data"}
    return img


def check_mediated_ad(ad: Any, *, loaded: bool = True) -> dict:
    """check_ad for ads whose images may live anywhere (mapped ads, SampleCustomEvent)."""
    assert isinstance(ad, dict), ad
    assert isinstance(ad.get("adId"), str) and ad["adId"], ad
    assert ad.get("kind") == "native", ad
    assert isinstance(ad.get("headline"), str), ad
    for k in ("body", "callToAction", "store", "price", "advertiser"):
        assert k in ad and (ad[k] is None or isinstance(ad[k], str)), (k, ad.get(k))
    assert "starRating" in ad and (ad["starRating"] is None or (is_number(ad["starRating"]) and 0 <= ad["starRating"] <= 5))
    assert "icon" in ad
    if ad["icon"] is not None:
        check_any_image(ad["icon"], loaded=loaded)
    assert isinstance(ad.get("images"), list), ad
    for img in ad["images"]:
        check_any_image(img, loaded=loaded)
    assert isinstance(ad.get("extraAssets"), dict), ad
    mc = ad.get("mediaContent")
    assert isinstance(mc, dict), ad
    assert is_number(mc.get("aspectRatio")) and mc["aspectRatio"] >= 0, mc
    assert isinstance(mc.get("hasVideoContent"), bool), mc
    assert is_number(mc.get("duration")) and is_number(mc.get("currentTime")), mc
    assert "mainImage" in mc, mc
    if mc["mainImage"] is not None:
        check_any_image(mc["mainImage"], loaded=loaded)
    assert "adChoices" in ad, ad
    if ad["adChoices"] is not None:
        ac = ad["adChoices"]
        assert ac.get("position") in ("topRight", "topLeft", "bottomRight", "bottomLeft"), ac
        check_any_image(ac.get("image"), loaded=loaded)
        assert isinstance(ac.get("clickURL"), str), ac
    check_response_info(ad.get("responseInfo"))
    parse_rfc3339_utc(ad.get("expiresAt"))
    return ad


def mediated_load(conn: Conn, unit: str, **params: Any) -> dict:
    """loadAd that must succeed with one ad; returns the result (shape-checked)."""
    p = {"adUnitID": unit}
    p.update(params)
    resp = conn.request("loadAd", p)
    assert "result" in resp, f"loadAd {unit} should have filled: {resp!r}"
    result = resp["result"]
    assert isinstance(result, dict) and isinstance(result.get("ads"), list), result
    assert len(result["ads"]) == 1, f"a waterfall unit serves one ad: {result!r}"
    check_response_info(result.get("responseInfo"))
    loaded = not ((params.get("options") or {}).get("disableImageLoading") or False)
    check_mediated_ad(result["ads"][0], loaded=loaded)
    assert result["ads"][0]["responseInfo"] == result["responseInfo"], "the ad's responseInfo is the load's"
    return result


def mediated_load_error(conn: Conn, unit: str, code: int | None = None, **params: Any) -> dict:
    """loadAd that must fail; returns the error (data shape-checked, code checked when given)."""
    p = {"adUnitID": unit}
    p.update(params)
    resp = conn.request("loadAd", p)
    assert "error" in resp, f"loadAd {unit} should have failed: {str(resp)[:2000]}"
    err = resp["error"]
    if code is not None:
        assert err.get("code") == code, f"expected load error {code}, got {err!r}"
    data = err.get("data")
    assert isinstance(data, dict), err
    assert data.get("gadErrorCode") == err["code"] - 1000, err
    if err["code"] in LOAD_ERROR_NAMES:
        assert data.get("name") == LOAD_ERROR_NAMES[err["code"]], err
    check_response_info(data.get("responseInfo"))
    return err


def network_entries(response_info: dict) -> list[tuple[str, str]]:
    """(adNetworkClassName, adSourceName) of every source tried, in order."""
    return [(e["adNetworkClassName"], e["adSourceName"]) for e in response_info["adNetworkInfoArray"]]


def batch_requests(conn: Conn, calls: list[tuple[str, dict]], timeout: float = 6 * WAIT) -> list[dict]:
    """Sends calls as one JSON-RPC batch; returns the responses in request order."""
    base = f"batch-{next(_counter)}"
    ids = [f"{base}-{i}" for i in range(len(calls))]
    conn.send([{"jsonrpc": "2.0", "id": i, "method": m, "params": p} for i, (m, p) in zip(ids, calls)])
    deadline = time.monotonic() + timeout
    while True:
        f = conn.next_reply(max(0.0, deadline - time.monotonic()))
        if isinstance(f.msg, list):
            break
        conn._stash.append(f.msg)
    by_id = {m.get("id"): m for m in f.msg}
    assert [m.get("id") for m in f.msg] == ids, "batch replies come in request order"
    return [by_id[i] for i in ids]


# --------------------------------------------------------------------------------------------
# Hostile input, faults and load (test_hostile.py, test_exact_load.py, tools/soak.py): the
# server's memory and descriptors, a process whose stdin and stdout the test drives by hand,
# raw sockets read only when the test says so, and a well-behaved client's checked round.

MEMORY_FIELDS = ("VmRSS", "RssAnon", "RssFile", "VmHWM")


def proc_memory_kb(pid: int) -> dict[str, int]:
    """VmRSS, RssAnon, RssFile and VmHWM of a process in kB, from /proc/PID/status."""
    out: dict[str, int] = {}
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            name, _sep, value = line.partition(":")
            if name in MEMORY_FIELDS:
                out[name] = int(value.split()[0])
    missing = [n for n in MEMORY_FIELDS if n not in out]
    assert not missing, f"no {missing} in /proc/{pid}/status"
    return out


def assert_memory_growth(pid: int, before: dict[str, int], bound_kb: int, why: str,
                         file_slack_kb: int = 8192) -> dict[str, int]:
    """The server's anonymous memory (RssAnon: its heap, where a leak or unbounded buffering
    shows) grew by at most `bound_kb` since `before`, and its resident set (VmRSS) by at most
    `bound_kb` + `file_slack_kb` (file-backed pages: code and data of the binary that the case
    touched for the first time are mapped in once, and are not a leak). `why` says why the
    bound is what it is; it is part of the failure message."""
    after = proc_memory_kb(pid)
    anon = after["RssAnon"] - before["RssAnon"]
    rss = after["VmRSS"] - before["VmRSS"]
    detail = (f"RssAnon {before['RssAnon']} -> {after['RssAnon']} kB (+{anon}), VmRSS {before['VmRSS']} -> "
              f"{after['VmRSS']} kB (+{rss}), peak VmHWM {after['VmHWM']} kB; bound +{bound_kb} kB: {why}")
    assert anon <= bound_kb, f"the server's heap grew beyond the bound: {detail}"
    assert rss <= bound_kb + file_slack_kb, f"the server's resident set grew beyond the bound: {detail}"
    return after


def open_fd_count(pid: int) -> int:
    return len(os.listdir(f"/proc/{pid}/fd"))


def raise_fd_limit(wanted: int) -> None:
    """Raises this process's soft RLIMIT_NOFILE to at least `wanted` (servers started later
    inherit it); fails when the hard limit does not allow it."""
    import resource

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft != resource.RLIM_INFINITY and soft < wanted:
        assert hard == resource.RLIM_INFINITY or hard >= wanted, (
            f"this test needs {wanted} descriptors; the hard limit is {hard}")
        resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))


def pipe_unread_bytes(fd: int) -> int:
    """Bytes written into a pipe and not yet read by the other end (FIONREAD on either end)."""
    import fcntl
    import termios

    buf = bytearray(4)
    fcntl.ioctl(fd, termios.FIONREAD, buf)
    return struct.unpack("i", bytes(buf))[0]


def recv_frames(sock: socket.socket, framing: str, count: int | None = None, timeout: float = WAIT,
                parser: FrameParser | None = None) -> tuple[list[Frame], bool]:
    """Reads frames from a raw socket until `count` frames arrived (None: until the peer
    closes). Returns (frames, closed). Fails on a protocol violation, on a truncated frame at
    the close, and when nothing arrives for `timeout` seconds."""
    parser = parser or FrameParser(framing)
    frames: list[Frame] = []
    closed = False
    while count is None or len(frames) < count:
        sock.settimeout(timeout)
        try:
            chunk = sock.recv(1 << 20)
        except ConnectionResetError:
            chunk = b""
        except socket.timeout:
            raise TimeoutError(f"nothing from the server for {timeout} s after {len(frames)} frames") from None
        if not chunk:
            closed = True
            assert not parser.buf, f"truncated frame at the close: {bytes(parser.buf[:300])!r}"
            break
        frames.extend(parser.feed(chunk))
    return frames, closed


class RawProcess:
    """native-ads on --stdio (and --tcp 127.0.0.1:0 unless tcp=False) whose stdin and stdout are
    pipes that only the test touches: nothing reads stdout behind its back (``Server`` always
    does). For a stdout nobody reads, and for replies held in the pipe until the test reads."""

    def __init__(self, workdir: str, args: Iterable[Any] = (), *, tcp: bool = True):
        self.cmd = [BIN, "--stdio"] + (["--tcp", "127.0.0.1:0"] if tcp else []) + [str(a) for a in args]
        self.stderr_path = os.path.join(workdir, f"native-ads-raw-{next(_counter)}.stderr")
        self._stderr = open(self.stderr_path, "wb")
        self.proc = subprocess.Popen(self.cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=self._stderr, bufsize=0)
        self.stdin_fd = self.proc.stdin.fileno()
        self.stdout_fd = self.proc.stdout.fileno()
        self.host = "127.0.0.1"
        self.tcp_conns: list[TcpConn] = []
        self.port = None
        if tcp:
            deadline = time.monotonic() + WAIT
            pat = re.compile(r"listening on (\S+):(\d+)")
            while self.port is None:
                m = pat.search(self.stderr_text())
                if m:
                    self.port = int(m.group(2))
                    break
                assert self.proc.poll() is None, f"the server exited before listening: {self.describe()}"
                assert time.monotonic() < deadline, f"no 'listening on' line within {WAIT} s: {self.describe()}"
                time.sleep(0.01)

    @property
    def pid(self) -> int:
        return self.proc.pid

    def stderr_text(self) -> str:
        with open(self.stderr_path, "rb") as f:
            return f.read().decode("utf-8", "replace")

    def describe(self) -> str:
        return f"{' '.join(self.cmd)} (exit code {self.proc.poll()}); stderr tail:\n{self.stderr_text()[-2000:]}"

    def alive(self) -> bool:
        return self.proc.poll() is None

    def connect(self, framing: str = "ndjson", *, name: str | None = None, sync: bool = True) -> TcpConn:
        assert self.port is not None, "this server does not serve TCP"
        c = TcpConn(self.host, self.port, framing, name=name)
        self.tcp_conns.append(c)
        if sync:
            c.sync()
        return c

    def write_stdin(self, data: bytes) -> None:
        """Blocking write of everything (blocks while the server does not read stdin)."""
        view = memoryview(data)
        while view:
            n = os.write(self.stdin_fd, view)
            view = view[n:]

    def close_stdin(self) -> None:
        if not self.proc.stdin.closed:
            try:
                self.proc.stdin.close()
            except OSError:
                pass

    def stdin_unread_bytes(self) -> int:
        """Bytes written to stdin that the server has not read yet."""
        return pipe_unread_bytes(self.stdin_fd)

    def read_stdout(self, framing: str, count: int | None = None, timeout: float = WAIT,
                    parser: FrameParser | None = None) -> tuple[list[Frame], bool]:
        """Frames from stdout until `count` arrived (None: until EOF); (frames, eof)."""
        import select

        parser = parser or FrameParser(framing)
        frames: list[Frame] = []
        while count is None or len(frames) < count:
            ready, _, _ = select.select([self.stdout_fd], [], [], timeout)
            if not ready:
                raise TimeoutError(f"nothing on stdout for {timeout} s after {len(frames)} frames")
            chunk = os.read(self.stdout_fd, 1 << 20)
            if not chunk:
                assert not parser.buf, f"truncated frame at EOF: {bytes(parser.buf[:300])!r}"
                return frames, True
            frames.extend(parser.feed(chunk))
        return frames, False

    def wait(self, timeout: float = WAIT) -> int:
        try:
            return self.proc.wait(timeout)
        except subprocess.TimeoutExpired:
            raise AssertionError(f"the server did not exit within {timeout} s: {' '.join(self.cmd)}") from None

    def stop(self) -> int | None:
        for c in self.tcp_conns:
            c.close()
        if self.proc.poll() is None:
            self.close_stdin()
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(5)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(5)
        for f in (self.proc.stdout, self.proc.stdin):
            try:
                f.close()
            except OSError:
                pass
        self._stderr.close()
        return self.proc.returncode


def witness_round(conn: Conn) -> None:
    """A well-behaved client's round, every answer checked against the contract: load a native
    ad, read an asset, record its impression (once), click it, the adEvents it was sent and the
    event log agree, release it (then it is unknown)."""
    ad = load_one(conn, NATIVE_UNIT, options={"disableImageLoading": True})
    ad_id = ad["adId"]
    assert conn.call("stringForKey", adId=ad_id, key="headline") == ad["headline"]
    assert conn.call("recordImpression", adId=ad_id) == {"recorded": True}
    assert_not_recorded_impression(conn.call("recordImpression", adId=ad_id), "alreadyRecorded")
    click = conn.call("performClickOnAsset", adId=ad_id, key="headline")
    assert click["recorded"] is True and click["action"] in ("landingPage", "deepLink"), click
    assert isinstance(click["url"], str) and click["url"], click
    wait_ad_event(conn, ad_id, "willPresentScreen")
    expected = [("didRecordImpression", None), ("didRecordClick", "headline"), ("willPresentScreen", None)]
    notified = [(e["event"], e["assetKey"]) for e in conn.ad_events(ad_id)]
    assert notified == expected, f"{conn.name}: adEvents for {ad_id}: {notified}"
    logged = [(e["event"], e["assetKey"]) for e in get_events(conn, adId=ad_id)["events"]]
    assert logged == expected, f"getEvents for {ad_id}: {logged}"
    assert conn.call("releaseAd", adId=ad_id) == {"released": True}
    assert_ad_not_found(conn.error("stringForKey", {"adId": ad_id, "key": "headline"}))
