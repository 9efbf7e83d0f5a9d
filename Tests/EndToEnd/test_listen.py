"""The TCP listener: IPv4 and IPv6, the default loopback bind, port 0, and clear start-up errors."""
from __future__ import annotations

import json
import re
import signal
import socket
import subprocess
import time

import pytest

from e2e_support import BIN, NATIVE_UNIT, WAIT


def start(*args: str) -> tuple[subprocess.Popen, str, int]:
    proc = subprocess.Popen([BIN, *args], stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE)
    line = proc.stderr.readline().decode()
    m = re.fullmatch(r"listening on (\S+):(\d+)\n", line)
    assert m, f"expected 'listening on HOST:PORT', got {line!r}"
    return proc, m.group(1), int(m.group(2))


def stop(proc: subprocess.Popen) -> None:
    proc.send_signal(signal.SIGTERM)
    assert proc.wait(WAIT) == 0


def round_trip(family: int, host: str, port: int) -> dict:
    with socket.socket(family, socket.SOCK_STREAM) as s:
        s.settimeout(WAIT)
        s.connect((host, port))
        s.sendall(json.dumps({"jsonrpc": "2.0", "id": 7, "method": "loadAd",
                              "params": {"adUnitID": NATIVE_UNIT,
                                         "options": {"disableImageLoading": True}}}).encode() + b"\n")
        data = b""
        while not data.endswith(b"\n"):
            chunk = s.recv(65536)
            assert chunk, "connection closed before the reply"
            data += chunk
        return json.loads(data)


def ipv6_available() -> bool:
    try:
        with socket.socket(socket.AF_INET6, socket.SOCK_STREAM) as s:
            s.bind(("::1", 0))
        return True
    except OSError:
        return False


def test_an_ipv4_listener_on_port_zero_reports_its_port_and_serves():
    proc, host, port = start("--tcp", "127.0.0.1:0")
    try:
        assert host == "127.0.0.1" and port > 0
        assert round_trip(socket.AF_INET, host, port)["result"]["ads"][0]["headline"] == "Flood-It! 2"
    finally:
        stop(proc)


@pytest.mark.skipif(not ipv6_available(), reason="no IPv6 loopback on this machine")
def test_an_ipv6_listener_reports_a_bracketed_address_and_serves():
    proc, host, port = start("--tcp", "[::1]:0")
    try:
        assert host == "[::1]"
        assert round_trip(socket.AF_INET6, "::1", port)["id"] == 7
    finally:
        stop(proc)


def test_a_bare_port_binds_loopback_only():
    proc, host, port = start("--tcp", "0")
    try:
        assert host == "127.0.0.1"
        assert round_trip(socket.AF_INET, "127.0.0.1", port)["id"] == 7
    finally:
        stop(proc)


def test_an_address_in_use_stops_start_up_with_an_error_naming_it():
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        proc = subprocess.run([BIN, "--tcp", f"127.0.0.1:{port}"], stdin=subprocess.DEVNULL,
                              capture_output=True, timeout=WAIT)
    assert proc.returncode == 1
    assert proc.stdout == b""
    assert f"127.0.0.1:{port}" in proc.stderr.decode() and "EADDRINUSE" in proc.stderr.decode()


@pytest.mark.parametrize("address", ["nonsense", "127.0.0.1:99999", "999.1.1.1:80", "[::1"])
def test_a_bad_listen_address_is_refused_with_a_clear_message(address):
    proc = subprocess.run([BIN, "--tcp", address], stdin=subprocess.DEVNULL, capture_output=True,
                          timeout=WAIT)
    assert proc.returncode in (1, 2)
    assert proc.stdout == b""
    assert "error" in proc.stderr.decode() and address.split(":")[0].strip("[") in proc.stderr.decode()


@pytest.mark.parametrize("args", [["--max-batch", "0"], ["--max-depth", "x"], ["--bogus"],
                                  ["--write-low-water", "2000000"], ["--log-level", "loud"]])
def test_bad_options_exit_2_with_a_message_on_stderr(args):
    proc = subprocess.run([BIN, *args], stdin=subprocess.DEVNULL, capture_output=True, timeout=WAIT)
    assert proc.returncode == 2
    assert proc.stdout == b""
    assert proc.stderr.decode().startswith("native-ads: error: ")


def test_sigint_stops_an_idle_server_with_exit_code_zero():
    proc, _, _ = start("--tcp", "127.0.0.1:0")
    time.sleep(0.05)
    proc.send_signal(signal.SIGINT)
    assert proc.wait(WAIT) == 0
