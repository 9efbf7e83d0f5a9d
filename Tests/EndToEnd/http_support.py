"""HTTP and WebSocket clients for the end-to-end tests of `--http` (contract section 9), over
raw sockets so that tests control every byte: pipelined requests, chunked bodies, bad frames.

* ``http_exchange`` sends bytes and reads HTTP/1.1 responses (``Response``) strictly.
* ``post_rpc`` is one `POST /rpc` on a fresh connection.
* ``WebSocketConn`` is a JSON-RPC connection (``Conn``) over a WebSocket at `GET /rpc`: the
  same ``call``/``wait_reply``/``notifications`` as TCP, one message a text frame.
"""
from __future__ import annotations

import base64
import hashlib
import json
import os
import socket
import time
from dataclasses import dataclass, field

from e2e_support import WAIT, Conn, ProtocolViolation, TcpConn, ws_frame


@dataclass
class Response:
    status: int
    reason: str
    headers: dict[str, str] = field(default_factory=dict)
    body: bytes = b""

    def header(self, name: str) -> str | None:
        return self.headers.get(name.lower())

    def json(self):
        assert self.header("content-type") == "application/json", self
        return json.loads(self.body)


class ResponseReader:
    """Reads HTTP/1.1 responses from a socket: status line, headers, a Content-Length body
    (this server never chunks its responses)."""

    def __init__(self, sock: socket.socket):
        self.sock = sock
        self.buf = bytearray()

    def _fill(self, deadline: float) -> bool:
        self.sock.settimeout(max(0.01, deadline - time.monotonic()))
        try:
            data = self.sock.recv(65536)
        except socket.timeout:
            raise TimeoutError(f"no complete response within {WAIT} s; have {bytes(self.buf[:300])!r}") from None
        if not data:
            return False
        self.buf += data
        return True

    def read(self, *, head: bool = False) -> Response | None:
        """The next response, or None when the server closed the connection before one."""
        deadline = time.monotonic() + WAIT
        while b"\r\n\r\n" not in self.buf:
            if not self._fill(deadline):
                if self.buf:
                    raise ProtocolViolation(f"the connection closed inside a response: {bytes(self.buf[:300])!r}")
                return None
        i = self.buf.index(b"\r\n\r\n")
        lines = bytes(self.buf[:i]).decode("latin-1").split("\r\n")
        del self.buf[: i + 4]
        version, status, reason = (lines[0].split(" ", 2) + [""])[:3]
        assert version == "HTTP/1.1", lines[0]
        headers: dict[str, str] = {}
        for line in lines[1:]:
            name, sep, value = line.partition(":")
            assert sep and name and name == name.strip(), f"malformed header line {line!r}"
            assert name.lower() not in headers, f"header {name} twice"
            headers[name.lower()] = value.strip()
        status_code = int(status)
        length = int(headers.get("content-length", "0"))
        if head or status_code < 200 or status_code in (204, 304):
            length = 0
        while len(self.buf) < length:
            if not self._fill(deadline):
                raise ProtocolViolation("the connection closed inside a body")
        body = bytes(self.buf[:length])
        del self.buf[:length]
        return Response(status_code, reason, headers, body)

    def closed(self) -> bool:
        """Whether the server closes the connection (and sends nothing more)."""
        deadline = time.monotonic() + WAIT
        while True:
            if self.buf:
                return False
            try:
                if not self._fill(deadline):
                    return True
            except (ConnectionResetError, BrokenPipeError):
                return True


def connect(port: int, host: str = "127.0.0.1") -> socket.socket:
    s = socket.create_connection((host, port), timeout=WAIT)
    s.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    return s


def request_bytes(method: str, path: str, port: int, *, body: bytes | None = None, headers=None,
                  host: str | None = None, content_type: str | None = "application/json") -> bytes:
    """One request: `Host: 127.0.0.1:PORT` unless `host` says otherwise (None: no Host)."""
    lines = [f"{method} {path} HTTP/1.1"]
    h = {"Host": f"127.0.0.1:{port}"} if host is None else ({} if host == "" else {"Host": host})
    if body is not None:
        if content_type:
            h["Content-Type"] = content_type
        h["Content-Length"] = str(len(body))
    h.update(headers or {})
    lines += [f"{k}: {v}" for k, v in h.items()]
    return ("\r\n".join(lines) + "\r\n\r\n").encode() + (body or b"")


def http_exchange(port: int, data: bytes, count: int = 1, *, head: bool = False) -> list[Response]:
    """Sends `data` on a fresh connection and reads `count` responses."""
    with connect(port) as s:
        s.sendall(data)
        reader = ResponseReader(s)
        out = []
        for _ in range(count):
            r = reader.read(head=head)
            assert r is not None, f"the server closed after {len(out)} responses of {count}"
            out.append(r)
        return out


def post_rpc(port: int, message, **kw) -> Response:
    body = message if isinstance(message, bytes) else json.dumps(message).encode()
    return http_exchange(port, request_bytes("POST", "/rpc", port, body=body, **kw))[0]


def ws_key() -> str:
    return base64.b64encode(os.urandom(16)).decode()


def ws_accept(key: str) -> str:
    return base64.b64encode(hashlib.sha1((key + "258EAFA5-E914-47DA-95CA-C5AB0DC85B11").encode()).digest()).decode()


def ws_upgrade_bytes(port: int, key: str, *, origin: str | None = None, host: str | None = None,
                     extra=None) -> bytes:
    headers = {"Upgrade": "websocket", "Connection": "Upgrade", "Sec-WebSocket-Key": key,
               "Sec-WebSocket-Version": "13"}
    if origin:
        headers["Origin"] = origin
    headers.update(extra or {})
    return request_bytes("GET", "/rpc", port, headers=headers, host=host, content_type=None)


class WebSocketConn(TcpConn):
    """A JSON-RPC connection over a WebSocket at `GET /rpc` (its handshake checked); sending
    and closing as TCP's."""

    def __init__(self, port: int, *, origin: str | None = None, name: str = "websocket"):
        Conn.__init__(self, name, "websocket")
        self.sock = connect(port)
        key = ws_key()
        self.sock.sendall(ws_upgrade_bytes(port, key, origin=origin))
        reader = ResponseReader(self.sock)
        response = reader.read()
        assert response is not None and response.status == 101, response
        assert response.header("upgrade").lower() == "websocket", response
        assert response.header("sec-websocket-accept") == ws_accept(key), response
        self.sock.settimeout(None)
        self._closed = False
        self._leftover = bytes(reader.buf)
        self._start_reader()

    def _read_chunk(self) -> bytes:
        if self._leftover:
            data, self._leftover = self._leftover, b""
            return data
        return self.sock.recv(262144)

    @property
    def controls(self) -> list[tuple[int, bytes]]:
        """The control frames the server sent: (opcode, payload)."""
        with self._cond:
            return list(self._parser.controls)

    def wait_control(self, opcode: int, timeout: float = WAIT) -> bytes:
        deadline = time.monotonic() + timeout
        with self._cond:
            while True:
                for op, payload in self._parser.controls:
                    if op == opcode:
                        return payload
                if self._eof or time.monotonic() > deadline:
                    raise AssertionError(f"no control frame {opcode:#x}; got {self._parser.controls}")
                self._cond.wait(0.05)

    def close_code(self, timeout: float = WAIT) -> int:
        payload = self.wait_control(0x8, timeout)
        return int.from_bytes(payload[:2], "big") if len(payload) >= 2 else 1005

    def send_close(self, code: int = 1000) -> None:
        self.send_raw(ws_frame(0x8, code.to_bytes(2, "big")))
