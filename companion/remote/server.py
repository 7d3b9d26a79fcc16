"""The web server's own thread and event loop: the box's loop stays single-threaded and never waits on it.

``RemoteServer.start()`` binds the address (an error, such as a port already taken, is raised there, for
the box to say once and carry on without phones) and returns once the page is served.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import sys
import threading
from typing import Any

from aiohttp import web

from companion.remote.app import Hub, make_app

log = logging.getLogger("companion.remote")


class OneLine(logging.LoggerAdapter):  # type: ignore[type-arg,unused-ignore]
    """aiohttp's own server log as one line per event: a request the HTTP parser refuses (garbage, a TLS hello
    on the plain port) is a warning naming the error, never a traceback in the box's log."""

    def process(self, msg: Any, kwargs: Any) -> tuple[Any, Any]:
        info = kwargs.pop("exc_info", None)
        if info:
            exc = info if isinstance(info, BaseException) else sys.exc_info()[1]
            if exc is not None:
                words = (str(exc).splitlines() or [""])[0].replace("%", "%%")
                msg = f"{msg}: {type(exc).__name__}: {words}"
        return f"remote: {msg}", kwargs

    def log(self, level: int, msg: Any, *args: Any, **kwargs: Any) -> None:
        super().log(min(level, logging.WARNING), msg, *args, **kwargs)


class RemoteServer:
    def __init__(self, hub: Hub, host: str, port: int) -> None:
        self.hub = hub
        self.host = host
        self.port = port
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None
        self._ready = threading.Event()
        self._error: BaseException | None = None
        self._stop: asyncio.Event | None = None

    def start(self, timeout: float = 10.0) -> RemoteServer:
        self._thread = threading.Thread(target=self._run, name="remote-server", daemon=True)
        self._thread.start()
        if not self._ready.wait(timeout):
            raise OSError(f"the page did not start within {timeout:g} s")
        if self._error is not None:
            raise self._error
        return self

    def _run(self) -> None:
        loop = asyncio.new_event_loop()
        self._loop = loop
        asyncio.set_event_loop(loop)
        runner = web.AppRunner(make_app(self.hub), access_log=None, handle_signals=False,
                               logger=OneLine(logging.getLogger("companion.remote.http"), {}))
        try:
            loop.run_until_complete(runner.setup())
            site = web.TCPSite(runner, self.host, self.port, reuse_address=True)
            loop.run_until_complete(site.start())
            sockets: Any = getattr(site, "_server", None)
            if sockets is not None and sockets.sockets:
                self.port = sockets.sockets[0].getsockname()[1]
            self._stop = asyncio.Event()
        except BaseException as exc:
            self._error = exc
            self._ready.set()
            loop.run_until_complete(runner.cleanup())
            loop.close()
            return
        self._ready.set()
        try:
            loop.run_until_complete(self._stop.wait())
        finally:
            loop.run_until_complete(runner.cleanup())
            loop.close()

    def stop(self, timeout: float = 5.0) -> None:
        loop, stop = self._loop, self._stop
        if loop is not None and stop is not None and not loop.is_closed():
            with contextlib.suppress(RuntimeError):  # closed meanwhile
                loop.call_soon_threadsafe(stop.set)
        if self._thread is not None:
            self._thread.join(timeout)
            if self._thread.is_alive():
                log.warning("remote: the page's thread did not stop within %g s", timeout)
