"""The two framings of the wire (docs/wire-format.md, "Framing"), for blocking and asyncio streams."""

from __future__ import annotations

import asyncio
import json
from typing import IO, Any

from .types import Framing

__all__ = ["FRAMINGS", "check_framing", "encode", "read_frame", "read_frame_async", "FramingError", "MAX_HEADER_BYTES"]

FRAMINGS: tuple[Framing, ...] = ("ndjson", "content-length")
MAX_HEADER_BYTES = 8192


class FramingError(ValueError):
    """The peer sent bytes that do not form a frame (a header block without Content-Length)."""


def check_framing(framing: str) -> Framing:
    if framing == "ndjson":
        return "ndjson"
    if framing == "content-length" or framing.lower() in ("lsp", "content_length", "contentlength", "headers"):
        return "content-length"
    raise ValueError(f"framing must be 'ndjson' or 'content-length', not {framing!r}")


def encode(message: Any, framing: Framing) -> bytes:
    """One message, framed."""
    body = json.dumps(message, ensure_ascii=False, separators=(",", ":"), allow_nan=False).encode("utf-8")
    if framing == "ndjson":
        return body + b"\n"
    return b"Content-Length: %d\r\n\r\n" % len(body) + body


def _content_length(headers: list[bytes]) -> int:
    for line in headers:
        name, sep, value = line.partition(b":")
        if sep and name.strip().lower() == b"content-length":
            try:
                n = int(value.strip())
            except ValueError:
                break
            if n >= 0:
                return n
    raise FramingError(f"header block without a usable Content-Length: {b''.join(headers)!r}")


def read_frame(stream: IO[bytes], framing: Framing) -> bytes | None:
    """The next frame's body from a blocking binary stream; None at end of stream."""
    if framing == "ndjson":
        while True:
            line = stream.readline()
            if not line:
                return None
            if line.strip():
                return line
    headers: list[bytes] = []
    size = 0
    while True:
        line = stream.readline(MAX_HEADER_BYTES + 1)
        if not line:
            return None
        size += len(line)
        if size > MAX_HEADER_BYTES:
            raise FramingError("header block longer than 8 KiB")
        if line in (b"\r\n", b"\n"):
            if not headers:
                continue  # stray blank line between frames
            break
        headers.append(line)
    n = _content_length(headers)
    body = stream.read(n)
    if body is None or len(body) < n:
        return None
    return body


async def read_frame_async(reader: asyncio.StreamReader, framing: Framing) -> bytes | None:
    """The next frame's body from an asyncio stream; None at end of stream."""
    if framing == "ndjson":
        while True:
            try:
                line = await reader.readuntil(b"\n")
            except asyncio.IncompleteReadError as e:
                line = e.partial
                if not line.strip():
                    return None
            if line.strip():
                return line
    headers: list[bytes] = []
    size = 0
    while True:
        try:
            line = await reader.readuntil(b"\n")
        except asyncio.IncompleteReadError:
            return None
        size += len(line)
        if size > MAX_HEADER_BYTES:
            raise FramingError("header block longer than 8 KiB")
        if line in (b"\r\n", b"\n"):
            if not headers:
                continue
            break
        headers.append(line)
    n = _content_length(headers)
    try:
        return await reader.readexactly(n)
    except asyncio.IncompleteReadError:
        return None
