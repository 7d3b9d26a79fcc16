"""The web app: the page, joining with the code, and each phone's websocket (Tornado, on the server's thread).

Nothing else is reachable: three fixed files, ``/J/<code>``, ``POST /join``, ``GET /session`` and ``GET /ws``.
Every request is checked before its handler runs (:meth:`Guarded.prepare`): the Host must be the box's address
(an IP address, ``localhost`` or the box's own name, so a page elsewhere cannot rebind a name of its own onto
the box), and a request that changes anything (joining, the websocket) must come from the box's own page (its
Origin) and carry the phone's CSRF token with its cookie. Sizes are bounded (a request body, a message), joins
are rate-limited, and a request or message that fails a check is refused with a one-line reason and logged
once, never a traceback.

Tornado rather than a larger framework: its server, router and websockets are the page's whole need, and its
import costs the box about a third of the memory (docs/remote.md, "Memory").
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import ipaddress
import json
import logging
import socket
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from tornado import web, websocket
from tornado.iostream import StreamClosedError

from companion.malloc import give_back
from companion.remote import assets
from companion.remote.codes import SEATS, Joining, Phone
from companion.remote.limits import Bucket, JoinLimits
from companion.remote.messages import MAX_MESSAGE, Refused, parse
from companion.remote.source import PhoneInputs
from companion.remote.view import Snapshot

log = logging.getLogger("companion.remote")

COOKIE = "companion_phone"
MAX_BODY = 1024
MAX_SOCKETS = 16
MAX_BAD = 20
"""Bad messages a phone may send before its connection is closed (a page that misbehaves, not a player)."""
MESSAGE_BURST = 20
MESSAGE_RATE = 10.0
"""A phone's messages: 20 at once, then 10 a second (a person taps a few times a second); more are refused and
count as bad messages."""
PING_EVERY = 30.0
"""Seconds between the server's pings on a quiet websocket (a phone that went to sleep is noticed)."""
CLOSE_GOING_AWAY = 1001
CLOSE_POLICY_VIOLATION = 1008
CLOSE_REVOKED = 4001
SECURITY_HEADERS = {
    "Content-Security-Policy": ("default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' blob:; "
                                "connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'"),
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "no-referrer",
    "Cache-Control": "no-store",
    "Cross-Origin-Opener-Policy": "same-origin",
    "Cross-Origin-Resource-Policy": "same-origin",
}
GONE = (websocket.WebSocketClosedError, StreamClosedError)
"""What writing to a phone that went away raises (its handler cleans up)."""


def encode_png(snapshot: Snapshot) -> bytes:
    """The snapshot's picture as PNG (lossless: the phone shows the projector's pixels), frame number first;
    the encoder's freed buffers are given back to the system once it is made (memory.py)."""
    from PIL import Image

    out = io.BytesIO()
    out.write(snapshot.frame.to_bytes(8, "big"))
    Image.frombytes("RGB", snapshot.size, snapshot.rgb).save(out, "PNG", compress_level=1)
    picture = out.getvalue()
    del out
    give_back()
    return picture


def host_allowed(host: str, names: frozenset[str]) -> bool:
    """Whether a request's Host names the box: an IP address, or one of the box's own names (with any port)."""
    if not host or len(host) > 255:
        return False
    if host.startswith("["):
        name = host[1:].split("]", 1)[0]
    else:
        name = host.rsplit(":", 1)[0] if host.count(":") == 1 else host
    try:
        ipaddress.ip_address(name)
        return True
    except ValueError:
        return name.lower() in names


class Hub:
    """The phones connected, the newest snapshot and its picture, and the checks; lives on the server's loop."""

    def __init__(self, joining: Joining, inputs: PhoneInputs, limits: JoinLimits | None = None) -> None:
        self.joining = joining
        self.inputs = inputs
        self.limits = limits or JoinLimits()
        self.sockets: dict[PhoneSocket, Phone] = {}
        self.snapshot: Snapshot | None = None
        self.picture: bytes | None = None
        self.sent = 0
        """Snapshots sent to every phone so far."""
        self.refused = 0
        self.loop: asyncio.AbstractEventLoop | None = None
        self._wake: asyncio.Event | None = None
        self._task: asyncio.Task[None] | None = None
        self._tasks: set[asyncio.Task[None]] = set()
        self._encoding: tuple[Snapshot, asyncio.Future[bytes]] | None = None
        """The snapshot whose PNG is being made, and the job: a phone that comes meanwhile waits for it too."""
        self._encoder = ThreadPoolExecutor(max_workers=1, thread_name_prefix="remote-png")
        """One thread encodes the pictures (Pillow lets go of the GIL meanwhile): the default pool's several
        threads each grew a malloc arena of their own, megabytes of resident memory for one job."""
        self._locks: dict[PhoneSocket, asyncio.Lock] = {}
        self._frames: dict[PhoneSocket, int] = {}
        self.on_sent: Callable[[int], None] | None = None
        """Called with a frame's number once it went to every phone (the benchmark's stopwatch)."""
        host = socket.gethostname().lower()
        self.names = frozenset({"localhost", host, f"{host}.local"})

    # -- from the box's loop (any thread) ----------------------------------------------------------

    def publish(self, snapshot: Snapshot) -> None:
        """A new frame: the inputs check against it at once; the phones get it from the server's loop."""
        self.inputs.update(snapshot)
        if self.loop is not None:
            self.loop.call_soon_threadsafe(self._new_snapshot, snapshot)

    def revoke(self) -> None:
        """Every token was revoked (a new code): close every phone's connection."""
        if self.loop is not None:
            self.loop.call_soon_threadsafe(self._close_revoked)

    # -- on the server's loop ----------------------------------------------------------------------

    def start(self) -> None:
        self.loop = asyncio.get_running_loop()
        self._wake = asyncio.Event()
        self._task = asyncio.ensure_future(self._sender())

    def _new_snapshot(self, snapshot: Snapshot) -> None:
        self.snapshot = snapshot
        self.picture = None
        self._encoding = None
        if self._wake is not None:
            self._wake.set()

    async def _sender(self) -> None:
        """Sends the newest snapshot to every phone; one that arrives meanwhile replaces any not sent yet."""
        assert self._wake is not None
        while True:
            await self._wake.wait()
            self._wake.clear()
            snapshot = self.snapshot
            if snapshot is None:
                continue
            try:
                picture = await self._picture(snapshot)
                if snapshot is self.snapshot and self.sockets:
                    await asyncio.gather(*(self._send(ws, snapshot, picture) for ws in list(self.sockets)))
                self.sent += 1
                if self.on_sent is not None:
                    self.on_sent(snapshot.frame)
            except Exception as exc:  # a phone's trouble must never stop the others' pictures
                log.warning("remote: sending frame %d failed: %s", snapshot.frame, exc)

    async def _picture(self, snapshot: Snapshot) -> bytes:
        """The snapshot's PNG, encoded once however many phones wait for it (b"" while no phone is there)."""
        if self.picture is not None and int.from_bytes(self.picture[:8], "big") == snapshot.frame:
            return self.picture
        if not self.sockets:
            return b""
        if self._encoding is None or self._encoding[0] is not snapshot:
            job = asyncio.get_running_loop().run_in_executor(self._encoder, encode_png, snapshot)
            self._encoding = (snapshot, job)
        picture = await asyncio.shield(self._encoding[1])
        if snapshot is self.snapshot and self.picture is None:
            self.picture = picture
            self._encoding = None
            if isinstance(snapshot.rgb, bytearray):
                snapshot.rgb.clear()  # the PNG stands for the pixels from now on: 1.5 MB given back
        return picture

    async def _send(self, ws: PhoneSocket, snapshot: Snapshot, picture: bytes) -> None:
        """One frame to one phone: its words then its picture, never older than what the phone has (the
        sender and a new phone's first frame may race; each phone's sends take turns)."""
        lock = self._locks.setdefault(ws, asyncio.Lock())
        async with lock:
            if self._frames.get(ws, -1) >= snapshot.frame:
                return
            self._frames[ws] = snapshot.frame
            with contextlib.suppress(*GONE):  # the phone went away; its handler cleans up
                await ws.write_message(json.dumps(snapshot.public()))
                if picture:
                    await ws.write_message(picture, binary=True)

    async def welcome(self, ws: PhoneSocket) -> None:
        """A new phone's first frame: the newest (encoded unless it is already)."""
        snapshot = self.snapshot
        while snapshot is not None:
            picture = await self._picture(snapshot)
            if snapshot is self.snapshot:
                await self._send(ws, snapshot, picture)
                return
            snapshot = self.snapshot

    def forget(self, ws: PhoneSocket) -> None:
        self.sockets.pop(ws, None)
        self._locks.pop(ws, None)
        self._frames.pop(ws, None)

    def _close_revoked(self) -> None:
        for ws, phone in list(self.sockets.items()):
            if self.joining.phone(phone.token) is None:
                ws.close(CLOSE_REVOKED, "new code")

    def tell(self, phone: Phone, why: str) -> None:
        """Say ``why`` to ``phone`` (an action refused), without holding up its messages."""
        task = asyncio.ensure_future(self._tell(phone, why))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _tell(self, phone: Phone, why: str) -> None:
        for ws, who in list(self.sockets.items()):
            if who is phone:
                with contextlib.suppress(*GONE):
                    await ws.write_message(json.dumps({"t": "refused", "why": why}))

    async def close(self, timeout: float = 1.0) -> None:
        """Every phone told the box is stopping (their connections closed, for ``timeout`` at most)."""
        if self._task is not None:
            self._task.cancel()
        for ws in list(self.sockets):
            ws.close(CLOSE_GOING_AWAY, "box stopping")
        deadline = time.monotonic() + timeout
        while self.sockets and time.monotonic() < deadline:
            await asyncio.sleep(0.01)  # each phone's answer to the close, on this loop
        self._encoder.shutdown(wait=False, cancel_futures=True)

    # -- checks ------------------------------------------------------------------------------------

    def same_origin(self, request: Any) -> bool:
        """The request comes from the box's own page: its Origin is the box's scheme and Host."""
        origin = request.headers.get("Origin", "")
        return bool(origin) and origin == f"{request.protocol}://{request.host}"


class Guarded(web.RequestHandler):
    """Every request's checks and answers: the box's Host first, the security headers on every answer, and
    errors (no such path, no such method, a bug) as a short JSON and one log line, never a traceback."""

    hub: Hub

    def initialize(self, hub: Hub) -> None:
        self.hub = hub

    def set_default_headers(self) -> None:
        for name, value in SECURITY_HEADERS.items():
            self.set_header(name, value)
        self.clear_header("Server")

    def prepare(self) -> None:
        if not host_allowed(self.request.host, self.hub.names):
            self.refuse(421, "unknown host name")

    def refuse(self, status: int, why: str) -> None:
        """A refusal: one log line naming the address and the reason, a short JSON answer."""
        request = self.request
        log.warning("remote: refused %s %s from %s: %s", request.method, request.path, request.remote_ip, why)
        self.set_status(status)
        self.finish({"error": why})

    def phone(self) -> Phone | None:
        return self.hub.joining.phone(self.get_cookie(COOKIE))

    def write_error(self, status_code: int, **kwargs: Any) -> None:
        self.finish({"error": self._reason})

    def log_exception(self, typ: Any, value: Any, tb: Any) -> None:
        request = self.request
        if isinstance(value, web.HTTPError):
            level = logging.INFO if value.status_code == 404 else logging.WARNING  # a favicon is no attack
            log.log(level, "remote: refused %s %s from %s: %s", request.method, request.path, request.remote_ip,
                    value.reason or self._reason)
        else:  # a bug here must not show a traceback to a phone or stop the server
            log.error("remote: %s %s failed: %s: %s", request.method, request.path, typ.__name__, value)


class NotFound(Guarded):
    """Any other path: 404 (after the Host check)."""

    def prepare(self) -> None:
        super().prepare()
        if not self._finished:
            raise web.HTTPError(404)


class Page(Guarded):
    def get(self, name: str = "index.html") -> None:
        found = assets.get(name)
        if found is None:
            raise web.HTTPError(404)
        body, kind = found
        self.set_header("Content-Type", f"{kind}; charset=utf-8")
        self.finish(body)


class Join(Guarded):
    def post(self) -> None:
        hub = self.hub
        request = self.request
        why = self._check(hub, request)
        if why:
            self.refuse(*why)
            return
        data = json.loads(request.body.decode("utf-8"))
        phone = hub.joining.join(data["code"], data["seat"])
        if phone is None:
            self.refuse(403, "wrong code")
            return
        hub.limits.joined(request.remote_ip or "?")
        log.info("remote: %s joined from %s", phone.name, request.remote_ip)
        hub.inputs.say(f"{phone.name} joined")
        self.set_cookie(COOKIE, phone.token, httponly=True, samesite="Strict", path="/")
        self.finish({"csrf": phone.csrf, "name": phone.name})

    @staticmethod
    def _check(hub: Hub, request: Any) -> tuple[int, str] | None:
        """Why a join request is refused (its status and words), or None when it is a code and a seat."""
        if not hub.same_origin(request):
            return 403, "not from the box's page"
        if not hub.limits.allow(request.remote_ip or "?"):
            return 429, "too many tries: wait a minute"
        if request.headers.get("Content-Type", "").split(";")[0].strip().lower() != "application/json":
            return 415, "expected JSON"
        if len(request.body) > MAX_BODY:
            return 413, "request too large"
        try:
            data = json.loads(request.body.decode("utf-8"))
        except (ValueError, UnicodeDecodeError, RecursionError):
            return 400, "not JSON"
        if (not isinstance(data, dict) or set(data) != {"code", "seat"} or not isinstance(data["code"], str)
                or not isinstance(data["seat"], str) or len(data["code"]) > 16
                or (data["seat"] and data["seat"] not in SEATS)):
            return 400, "expected a code and a seat"
        return None


class SessionInfo(Guarded):
    """The page's own CSRF token after a reload (readable only by the box's own page: no CORS)."""

    def get(self) -> None:
        phone = self.phone()
        if phone is None:
            self.set_status(401)
            self.finish({"error": "join with the code"})
            return
        self.finish({"csrf": phone.csrf, "name": phone.name, "seats": list(SEATS)})


class PhoneSocket(websocket.WebSocketHandler, Guarded):
    """One phone's websocket: opened only from the box's page with the phone's cookie and CSRF token; each
    message checked and paced, and the connection closed after too many bad ones or once the token is gone."""

    _phone: Phone | None = None
    _bad = 0
    _closing = False

    def initialize(self, hub: Hub) -> None:
        super().initialize(hub)
        self._pace = Bucket(MESSAGE_BURST, MESSAGE_RATE, MESSAGE_BURST, time.monotonic())

    def prepare(self) -> None:
        Guarded.prepare(self)
        if self._finished:
            return
        hub = self.hub
        phone = self.phone()
        if not hub.same_origin(self.request):
            self.refuse(403, "not from the box's page")
        elif phone is None:
            self.refuse(401, "join with the code")
        elif self.get_query_argument("csrf", "") != phone.csrf:
            self.refuse(403, "bad CSRF token")
        elif len(hub.sockets) >= MAX_SOCKETS:
            self.refuse(503, "too many phones")
        else:
            self._phone = phone

    def check_origin(self, origin: str) -> bool:
        return True  # checked in prepare against the box's own Host, with a logged refusal

    def get_compression_options(self) -> None:
        return None  # the pictures are PNG already: deflating them again costs each phone's share of the CPU

    async def open(self, *args: str, **kwargs: str) -> None:
        assert self._phone is not None
        self.hub.sockets[self] = self._phone
        await self.hub.welcome(self)

    async def on_message(self, message: str | bytes) -> None:
        hub, phone = self.hub, self._phone
        if self._closing or phone is None:
            return
        if hub.joining.phone(phone.token) is None:
            self._close(CLOSE_REVOKED, "new code")
            return
        if not self._pace.take(time.monotonic()):
            log.warning("remote: refused a message from %s: too many messages", phone.name)
            why = "too many messages: slow down"
        else:
            why = _one(hub, phone, message)
        if not why:
            return
        if why != "taken":
            self._bad += 1
            with contextlib.suppress(*GONE):  # the phone is going away
                await self.write_message(json.dumps({"t": "refused", "why": why}))
        if self._bad >= MAX_BAD:
            log.warning("remote: closed %s's connection: %d bad messages", phone.name, self._bad)
            self._close(CLOSE_POLICY_VIOLATION, "too many bad messages")

    def _close(self, code: int, reason: str) -> None:
        self._closing = True
        self.close(code, reason)

    def on_close(self) -> None:
        self.hub.forget(self)
        if self._phone is not None and self.close_code not in (None, 1000, CLOSE_GOING_AWAY):
            log.info("remote: %s's connection closed: %s %s", self._phone.name, self.close_code,
                     self.close_reason or "")


def _one(hub: Hub, phone: Phone, message: str | bytes) -> str:
    """Handle one websocket message: "" when acted on, else why not ("taken": refused by the game's state,
    said to the phone, not a bad message)."""
    try:
        action = parse(message)
    except Refused as exc:
        log.warning("remote: refused a message from %s: %s", phone.name, exc)
        return str(exc)
    why = hub.inputs.act(phone, action)
    if why:
        hub.tell(phone, why)
        return "taken"
    return ""


def make_app(hub: Hub) -> web.Application:
    """The routes: the page (its three files and the QR code's link), joining, the session, the websocket."""
    files = "|".join(name.replace(".", r"\.") for name in assets.FILES if name != "index.html")
    args = {"hub": hub}
    return web.Application(
        [(r"/", Page, args), (rf"/({files})", Page, args),
         (r"/J/[A-Za-z0-9]{1,8}", Page, args),  # the QR code's link: the page, the code filled in
         (r"/join", Join, args), (r"/session", SessionInfo, args), (r"/ws", PhoneSocket, args)],
        default_handler_class=NotFound, default_handler_args=args,
        websocket_ping_interval=PING_EVERY, websocket_max_message_size=4 * MAX_MESSAGE,
        log_function=lambda handler: None,  # refusals are logged by the checks, in one line each
        compress_response=False, xsrf_cookies=False, serve_traceback=False)
