"""The web server's own thread and event loop: the box's loop stays single-threaded and never waits on it.

``RemoteServer.start()`` binds the address (an error, such as a port already taken, is raised there, for
the box to say once and carry on without phones) and returns once the page is served.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import threading
from typing import Any

from tornado.httpserver import HTTPServer
from tornado.netutil import bind_sockets

from companion.remote.app import MAX_BODY, Hub, make_app

log = logging.getLogger("companion.remote")

HTTP_BODY_LIMIT = 64 * MAX_BODY
"""The largest body the HTTP layer reads at all (a larger one is a 400 before any handler); the join's own
limit (``MAX_BODY``, a 413) is checked on what is read."""
HEADER_LIMIT = 8 * 1024
"""The largest request head (line and headers) read at all: a phone's are a few hundred bytes."""
READ_CHUNK = 4 * 1024
"""What each connection reads at a time (Tornado's default is 64 KB a connection): a phone sends a few hundred
bytes at a time, and each connection's read buffer stays this small."""
HEADER_TIMEOUT = 5.0
"""Seconds a connection may take to send a request's headers (or stay idle between requests): bytes that
never end a request (a TLS hello on the plain port, a slow client) are closed after this."""


class OneLine(logging.Filter):
    """Tornado's own log as one line per event, a warning at most: a request the HTTP parser refuses (garbage,
    a body too large: a warning, as the page's own refusals) or a connection's error names the error, never a
    traceback in the box's log."""

    def filter(self, record: logging.LogRecord) -> bool:
        if record.levelno == logging.INFO and str(record.msg).startswith("Malformed HTTP"):
            record.levelno, record.levelname = logging.WARNING, "WARNING"
        if record.exc_info:
            exc = record.exc_info[1]
            if exc is not None:
                words = (str(exc).splitlines() or [""])[0]
                record.msg = f"{record.getMessage()}: {type(exc).__name__}: {words}"
                record.args = None
            record.exc_info = None
            record.exc_text = None
        if record.levelno > logging.WARNING:
            record.levelno, record.levelname = logging.WARNING, "WARNING"
        if not str(record.msg).startswith("remote: "):
            record.msg = f"remote: {record.msg}"
        return True


TORNADO_LOGS = ("tornado.general", "tornado.application", "tornado.access")


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
        one_line = OneLine()
        for name in TORNADO_LOGS:
            logger = logging.getLogger(name)
            if not any(isinstance(f, OneLine) for f in logger.filters):
                logger.addFilter(one_line)
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
        try:
            server = loop.run_until_complete(self._serve())
        except BaseException as exc:
            self._error = exc
            self._ready.set()
            loop.close()
            return
        self._ready.set()
        try:
            assert self._stop is not None
            loop.run_until_complete(self._stop.wait())
        finally:
            server.stop()
            loop.run_until_complete(self._shutdown(server))
            loop.close()

    async def _serve(self) -> HTTPServer:
        sockets = bind_sockets(self.port, self.host)
        try:
            server = HTTPServer(make_app(self.hub), max_body_size=HTTP_BODY_LIMIT, max_header_size=HEADER_LIMIT,
                                max_buffer_size=HTTP_BODY_LIMIT + HEADER_LIMIT, chunk_size=READ_CHUNK,
                                idle_connection_timeout=HEADER_TIMEOUT)
            server.add_sockets(sockets)
        except BaseException:
            for sock in sockets:
                sock.close()
            raise
        self.port = sockets[0].getsockname()[1]
        self.hub.start()
        self._stop = asyncio.Event()
        return server

    async def _shutdown(self, server: HTTPServer) -> None:
        await self.hub.close()
        with contextlib.suppress(asyncio.TimeoutError):
            await asyncio.wait_for(server.close_all_connections(), 2.0)
        current = asyncio.current_task()
        pending: list[Any] = [t for t in asyncio.all_tasks() if t is not current]
        for task in pending:
            task.cancel()
        await asyncio.gather(*pending, return_exceptions=True)

    def stop(self, timeout: float = 5.0) -> None:
        loop, stop = self._loop, self._stop
        if loop is not None and stop is not None and not loop.is_closed():
            with contextlib.suppress(RuntimeError):  # closed meanwhile
                loop.call_soon_threadsafe(stop.set)
        if self._thread is not None:
            self._thread.join(timeout)
            if self._thread.is_alive():
                log.warning("remote: the page's thread did not stop within %g s", timeout)
