#!/usr/bin/env python3
"""Runs a command beside a redis-server of its own (a Unix socket in a fresh /tmp directory,
nothing written to disk), with NATIVE_ADS_E2E_FLEET set to its URL; stops the server by pid afterwards and
exits with the command's status. `make test-e2e-fleet` runs the end-to-end suite this way."""
from __future__ import annotations

import os
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Tests", "EndToEnd"))
from redis_support import RedisServer  # noqa: E402


def main() -> int:
    if len(sys.argv) < 2:
        print("usage: with-redis.py COMMAND [ARGS...]", file=sys.stderr)
        return 2
    server = RedisServer(durable=False)
    try:
        env = dict(os.environ, NATIVE_ADS_E2E_FLEET=server.url)
        return subprocess.call(sys.argv[1:], env=env)
    finally:
        server.close()


if __name__ == "__main__":
    sys.exit(main())
