"""What the server under test supports of contract section 8, found out by asking it.

The client's features need the server's: a test of them skips (at run time, saying why) when
the binary lacks one. Each probe runs once per session, only when a test needs it, and is
bounded.

- ``--unix``: the binary's ``--help`` names it.
- ``shutdown`` / ``exit``: a fresh ``--stdio`` server answers ``shutdown`` (not ``-32601``).
- ``$/cancelRequest``: a fresh ``--stdio`` server, registered as the adapter of its own waterfall
  unit, is sent a ``loadAd`` whose ``adapter.loadNativeAd`` it never answers, then the
  cancellation: a server that supports it answers ``-32800`` at once; one that does not answers
  when the source's timeout (2 s) passes.
"""

from __future__ import annotations

import atexit
import functools
import json
import os
import shutil
import subprocess
import tempfile
from typing import Any

import pytest

from native_ads._framing import encode, read_frame


def _bin() -> str:
    return os.environ["NATIVE_ADS_BIN"]


@functools.cache
def supports_unix() -> bool:
    proc = subprocess.run([_bin(), "--help"], capture_output=True, text=True, timeout=30)
    return "--unix" in proc.stdout + proc.stderr


class _Probe:
    """A raw NDJSON conversation with a fresh ``--stdio`` server."""

    def __init__(self) -> None:
        self.proc = subprocess.Popen(
            [_bin(), "--stdio"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL
        )

    def send(self, message: Any) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(encode(message, "ndjson"))
        self.proc.stdin.flush()

    def next(self) -> Any:
        assert self.proc.stdout is not None
        frame = read_frame(self.proc.stdout, "ndjson")
        if frame is None:
            raise EOFError("the probed server closed its stdout")
        return json.loads(frame)

    def reply_to(self, request_id: int) -> Any:
        """The response to ``request_id`` (requests and notifications before it are skipped)."""
        while True:
            message = self.next()
            if "method" not in message and message.get("id") == request_id:
                return message

    def close(self) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.close()
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        if self.proc.stdout is not None:
            self.proc.stdout.close()


@functools.cache
def supports_shutdown() -> bool:
    probe = _Probe()
    try:
        probe.send({"jsonrpc": "2.0", "id": 1, "method": "shutdown"})
        reply = probe.reply_to(1)
        return "error" not in reply or reply["error"].get("code") != -32601
    finally:
        probe.close()


@functools.cache
def supports_cancel() -> bool:
    probe = _Probe()
    try:
        register = {"adapterClassName": "P"}
        probe.send({"jsonrpc": "2.0", "id": 1, "method": "mediation.registerAdapter", "params": register})
        probe.reply_to(1)
        unit = {
            "id": "/probe/cancel",
            "deadlineMs": 5000,
            "waterfall": [
                {"type": "customEvent", "adapterClassName": "P", "parameter": "p", "eCPM": 1, "timeoutMs": 2000}
            ],
        }
        probe.send({"jsonrpc": "2.0", "id": 2, "method": "store.putAdUnit", "params": {"adUnit": unit}})
        probe.reply_to(2)
        probe.send({"jsonrpc": "2.0", "id": 3, "method": "loadAd", "params": {"adUnitID": "/probe/cancel"}})
        while probe.next().get("method") != "adapter.loadNativeAd":  # the load waits on us now
            pass
        probe.send({"jsonrpc": "2.0", "method": "$/cancelRequest", "params": {"id": 3}})
        reply = probe.reply_to(3)
        return bool(reply.get("error", {}).get("code") == -32800)
    finally:
        probe.close()


def require_unix() -> None:
    if not supports_unix():
        pytest.skip("the server under test has no --unix yet (its --help does not name it)")


def require_shutdown() -> None:
    if not supports_shutdown():
        pytest.skip("the server under test answers -32601 to shutdown: no shutdown/exit yet")


def short_socket_path(name: str = "native-ads.sock") -> str:
    """A socket path in a new private directory (removed at exit), short enough for sun_path."""
    directory = tempfile.mkdtemp(prefix="na-py-")
    atexit.register(shutil.rmtree, directory, True)
    return os.path.join(directory, name)
