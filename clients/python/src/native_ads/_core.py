"""What the sync and the asyncio clients share: callbacks, trace hooks, message helpers."""

from __future__ import annotations

import logging
import os
import re
import shutil
import threading
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Literal, Protocol, overload

from ._framing import check_framing
from .types import (
    AdapterAdNotification,
    AdapterClickNotification,
    AdapterRenderNotification,
    AdEvent,
    CustomClick,
    Framing,
    VideoEvent,
)

log = logging.getLogger("native_ads")

Unsubscribe = Callable[[], None]
Direction = Literal["send", "recv"]


class TraceHook(Protocol):
    """Sees every message a client sends or receives (decoded JSON).

    ``method`` is the message's method for requests and notifications, and for a response the
    method of the request it answers (None when no request matches, e.g. ``"id": null``).
    Hooks run on the thread (or task) that sends or receives; an exception in a hook is logged
    and otherwise ignored.
    """

    def __call__(self, direction: Direction, message: Any, method: str | None) -> None: ...


_GLOBAL_HOOKS: list[TraceHook] = []
_GLOBAL_LOCK = threading.Lock()


def add_global_trace_hook(hook: TraceHook) -> Unsubscribe:
    """Adds a hook to every client, existing and future (test suites use it to validate replies)."""
    with _GLOBAL_LOCK:
        _GLOBAL_HOOKS.append(hook)

    def remove() -> None:
        with _GLOBAL_LOCK:
            if hook in _GLOBAL_HOOKS:
                _GLOBAL_HOOKS.remove(hook)

    return remove


LISTENING = re.compile(r"listening on (?!unix:|http://)(\S+):(\d+)")
LISTENING_UNIX = re.compile(r"listening on unix:(.+?)\s*$")
LISTENING_HTTP = re.compile(r"listening on (http://\S+:\d+)")
DEFAULT_BINARY = "native-ads"

#: The lifecycle messages of contract section 8 (as in LSP).
CANCEL_REQUEST = "$/cancelRequest"
SHUTDOWN = "shutdown"
EXIT = "exit"
#: How many cancelled or timed-out request ids a client remembers, to drop their late answers
#: quietly (the oldest are forgotten first; a forgotten one's answer is logged as unmatched).
ABANDONED_LIMIT = 10_000


def resolve_binary(path: str | os.PathLike[str] | None) -> str:
    """The server executable: ``path``, else ``$NATIVE_ADS_BIN``, else ``native-ads`` on the PATH."""
    candidate = os.fspath(path) if path is not None else os.environ.get("NATIVE_ADS_BIN") or DEFAULT_BINARY
    if os.sep in candidate or (os.altsep and os.altsep in candidate):
        if not os.path.exists(candidate):
            raise FileNotFoundError(
                f"native-ads binary not found at {candidate!r} (build it with `swift build` or "
                "`make release`, or set NATIVE_ADS_BIN)"
            )
        return candidate
    found = shutil.which(candidate)
    if found is None:
        raise FileNotFoundError(
            f"{candidate!r} is not on the PATH: pass path=..., or set NATIVE_ADS_BIN to the binary "
            "(e.g. .build/release/native-ads after `make release`)"
        )
    return found


def _has_flag(args: Sequence[str], flag: str) -> bool:
    return any(a == flag or a.startswith(flag + "=") for a in args)


def server_argv(binary: str, args: Sequence[str], stdio: bool, watch_parent: bool = True) -> list[str]:
    """The command line of a server this process starts: ``--stdio`` added for a stdio server,
    and ``--parent-pid`` (this process) unless ``args`` name one or ``watch_parent`` is false, so
    that the server stops when this process ends, however it ends, instead of outliving it (a
    stdio server would see its stdin close, but one that also serves TCP, or a TCP server, would
    not)."""
    argv = [binary, *args]
    if stdio and "--stdio" not in args:
        argv.insert(1, "--stdio")
    if watch_parent and not _has_flag(args, "--parent-pid"):
        argv += ["--parent-pid", str(os.getpid())]
    return argv


def parse_listening(line: str) -> tuple[str, int] | None:
    """The TCP address of a ``listening on HOST:PORT`` line."""
    m = LISTENING.search(line)
    if m is None:
        return None
    return m.group(1), int(m.group(2))


def parse_listening_http(line: str) -> str | None:
    """The URL of a ``listening on http://HOST:PORT`` line (``--http``)."""
    m = LISTENING_HTTP.search(line)
    return m.group(1) if m is not None else None


def parse_listening_unix(line: str) -> str | None:
    """The socket path of a ``listening on unix:PATH`` line."""
    m = LISTENING_UNIX.search(line)
    return m.group(1) if m is not None else None


class ClientBase:
    """Callback registry, trace hooks and adapter handlers (no I/O)."""

    framing: Framing

    def __init__(self, framing: str, name: str) -> None:
        self.framing = check_framing(framing)
        self.name = name
        self._cb_lock = threading.Lock()
        self._callbacks: dict[str, list[Callable[[Any], object]]] = {}
        self._any_callbacks: list[Callable[[str, Any], object]] = []
        self._hooks: list[TraceHook] = []
        self._adapter_handlers: dict[str, Any] = {}
        self._id_lock = threading.Lock()
        self._last_id = 0

    # -- notifications ---------------------------------------------------------------------

    @overload
    def on(self, method: Literal["adEvent"], callback: Callable[[AdEvent], object]) -> Unsubscribe: ...
    @overload
    def on(self, method: Literal["customClick"], callback: Callable[[CustomClick], object]) -> Unsubscribe: ...
    @overload
    def on(self, method: Literal["videoEvent"], callback: Callable[[VideoEvent], object]) -> Unsubscribe: ...
    @overload
    def on(
        self,
        method: Literal["adapter.didRecordImpression", "adapter.handleImpression", "adapter.didUntrackView"],
        callback: Callable[[AdapterAdNotification], object],
    ) -> Unsubscribe: ...
    @overload
    def on(
        self,
        method: Literal["adapter.didRecordClickOnAsset", "adapter.handleClick"],
        callback: Callable[[AdapterClickNotification], object],
    ) -> Unsubscribe: ...
    @overload
    def on(
        self, method: Literal["adapter.didRender"], callback: Callable[[AdapterRenderNotification], object]
    ) -> Unsubscribe: ...
    @overload
    def on(self, method: str, callback: Callable[[Any], object]) -> Unsubscribe: ...

    def on(self, method: str, callback: Callable[[Any], object]) -> Unsubscribe:
        """Calls ``callback(params)`` for every ``method`` notification; returns an unsubscribe function.

        Callbacks run on the client's event thread (asyncio: its event task), one at a time, in
        the order the notifications arrived. A notification that a request caused reaches its
        callbacks before that request's call returns. Callbacks may call the client.
        """
        with self._cb_lock:
            self._callbacks.setdefault(method, []).append(callback)
        return lambda: self.off(method, callback)

    def off(self, method: str, callback: Callable[[Any], object]) -> None:
        with self._cb_lock:
            callbacks = self._callbacks.get(method)
            if callbacks and callback in callbacks:
                callbacks.remove(callback)

    def on_notification(self, callback: Callable[[str, Any], object]) -> Unsubscribe:
        """Calls ``callback(method, params)`` for every notification, whatever its method."""
        with self._cb_lock:
            self._any_callbacks.append(callback)

        def remove() -> None:
            with self._cb_lock:
                if callback in self._any_callbacks:
                    self._any_callbacks.remove(callback)

        return remove

    def _listeners(self, method: str) -> tuple[list[Callable[[Any], object]], list[Callable[[str, Any], object]]]:
        with self._cb_lock:
            return list(self._callbacks.get(method, ())), list(self._any_callbacks)

    # -- tracing -----------------------------------------------------------------------------

    def add_trace_hook(self, hook: TraceHook) -> Unsubscribe:
        """Adds a hook that sees every message this client sends and receives."""
        with self._cb_lock:
            self._hooks.append(hook)

        def remove() -> None:
            with self._cb_lock:
                if hook in self._hooks:
                    self._hooks.remove(hook)

        return remove

    def _trace(self, direction: Direction, message: Any, method: str | None) -> None:
        with self._cb_lock:
            hooks = list(self._hooks)
        with _GLOBAL_LOCK:
            hooks.extend(_GLOBAL_HOOKS)
        for hook in hooks:
            try:
                hook(direction, message, method)
            except Exception:  # noqa: BLE001 - a hook must not break the client
                log.exception("native_ads: trace hook %r failed", hook)

    # -- requests ----------------------------------------------------------------------------

    def _new_id(self) -> int:
        with self._id_lock:
            self._last_id += 1
            return self._last_id

    @staticmethod
    def _request_message(request_id: int, method: str, params: Mapping[str, Any] | None) -> dict[str, Any]:
        msg: dict[str, Any] = {"jsonrpc": "2.0", "id": request_id, "method": method}
        if params is not None:
            msg["params"] = dict(params)
        return msg

    def _remember_abandoned(self, abandoned: dict[Any, str], request_id: Any, method: str) -> None:
        """Records a request whose answer is no longer awaited (its late answer is dropped)."""
        abandoned[request_id] = method
        while len(abandoned) > ABANDONED_LIMIT:
            del abandoned[next(iter(abandoned))]

    @staticmethod
    def _cancel_message(request_id: Any) -> dict[str, Any]:
        return {"jsonrpc": "2.0", "method": CANCEL_REQUEST, "params": {"id": request_id}}

    @staticmethod
    def _notification_message(method: str, params: Mapping[str, Any] | None) -> dict[str, Any]:
        msg: dict[str, Any] = {"jsonrpc": "2.0", "method": method}
        if params is not None:
            msg["params"] = dict(params)
        return msg

    def _adapter_handler(self, params: Any) -> tuple[str, Any]:
        """The handler for an ``adapter.loadNativeAd`` request (class name, handler or None)."""
        class_name = params.get("adapterClassName") if isinstance(params, Mapping) else None
        with self._cb_lock:
            if isinstance(class_name, str):
                return class_name, self._adapter_handlers.get(class_name)
            if len(self._adapter_handlers) == 1:
                return next(iter(self._adapter_handlers.items()))
        return str(class_name), None


def classify(message: Any) -> Literal["request", "notification", "response", "invalid"]:
    if not isinstance(message, dict):
        return "invalid"
    if isinstance(message.get("method"), str):
        return "request" if "id" in message else "notification"
    if "id" in message and ("result" in message or "error" in message):
        return "response"
    return "invalid"
