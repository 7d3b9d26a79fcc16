"""The web app: the page, joining with the code, and each phone's websocket (aiohttp, on the server's thread).

Nothing else is reachable: four fixed files, ``POST /join``, ``GET /session`` and ``GET /ws``. Every request
is checked before its handler runs: the Host must be the box's address (an IP address, ``localhost`` or the
box's own name, so a page elsewhere cannot rebind a name of its own onto the box), and a request that changes
anything (joining, the websocket) must come from the box's own page (its Origin) and carry the phone's CSRF
token with its cookie. Sizes are bounded (a request body, a message), joins are rate-limited, and a request
or message that fails a check is refused with a one-line reason and logged once, never a traceback.
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
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from aiohttp import WSCloseCode, WSMsgType, web

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


def encode_png(snapshot: Snapshot) -> bytes:
    """The snapshot's picture as PNG (lossless: the phone shows the projector's pixels), frame number first."""
    from PIL import Image

    out = io.BytesIO()
    out.write(snapshot.frame.to_bytes(8, "big"))
    Image.frombytes("RGB", snapshot.size, snapshot.rgb).save(out, "PNG", compress_level=1)
    return out.getvalue()


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
        self.sockets: dict[web.WebSocketResponse, Phone] = {}
        self.snapshot: Snapshot | None = None
        self.picture: bytes | None = None
        self.sent = 0
        """Snapshots sent to every phone so far."""
        self.refused = 0
        self.loop: asyncio.AbstractEventLoop | None = None
        self._wake: asyncio.Event | None = None
        self._task: asyncio.Task[None] | None = None
        self._tasks: set[asyncio.Task[None]] = set()
        self._encoder = ThreadPoolExecutor(max_workers=1, thread_name_prefix="remote-png")
        """One thread encodes the pictures (Pillow lets go of the GIL meanwhile): the default pool's several
        threads each grew a malloc arena of their own, megabytes of resident memory for one job."""
        self._locks: dict[web.WebSocketResponse, asyncio.Lock] = {}
        self._frames: dict[web.WebSocketResponse, int] = {}
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
            self.loop.call_soon_threadsafe(self._revoked)

    def _revoked(self) -> None:
        task = asyncio.ensure_future(self._close_all())
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    # -- on the server's loop ----------------------------------------------------------------------

    def start(self) -> None:
        self.loop = asyncio.get_running_loop()
        self._wake = asyncio.Event()
        self._task = asyncio.ensure_future(self._sender())

    def _new_snapshot(self, snapshot: Snapshot) -> None:
        self.snapshot = snapshot
        self.picture = None
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
        if self.picture is None or int.from_bytes(self.picture[:8], "big") != snapshot.frame:
            if not self.sockets:
                return b""
            picture = await asyncio.get_running_loop().run_in_executor(self._encoder, encode_png, snapshot)
            if snapshot is self.snapshot:
                self.picture = picture
            return picture
        return self.picture

    async def _send(self, ws: web.WebSocketResponse, snapshot: Snapshot, picture: bytes) -> None:
        """One frame to one phone: its words then its picture, never older than what the phone has (the
        sender and a new phone's first frame may race; each phone's sends take turns)."""
        lock = self._locks.setdefault(ws, asyncio.Lock())
        async with lock:
            if self._frames.get(ws, -1) >= snapshot.frame:
                return
            self._frames[ws] = snapshot.frame
            try:
                await ws.send_str(json.dumps(snapshot.public()))
                if picture:
                    await ws.send_bytes(picture)
            except (ConnectionError, RuntimeError):
                pass  # the phone went away; its handler cleans up

    async def welcome(self, ws: web.WebSocketResponse) -> None:
        """A new phone's first frame: the newest (encoded unless it is already)."""
        snapshot = self.snapshot
        while snapshot is not None:
            picture = await self._picture(snapshot)
            if snapshot is self.snapshot:
                await self._send(ws, snapshot, picture)
                return
            snapshot = self.snapshot

    def forget(self, ws: web.WebSocketResponse) -> None:
        self.sockets.pop(ws, None)
        self._locks.pop(ws, None)
        self._frames.pop(ws, None)

    async def _close_all(self) -> None:
        for ws in list(self.sockets):
            if self.joining.phone(self.sockets[ws].token) is None:
                await ws.close(code=CLOSE_REVOKED, message=b"new code")

    def tell(self, phone: Phone, why: str) -> None:
        """Say ``why`` to ``phone`` (an action refused), without holding up its messages."""
        task = asyncio.ensure_future(_tell(self, phone, why))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def close(self) -> None:
        if self._task is not None:
            self._task.cancel()
        for ws in list(self.sockets):
            await ws.close(code=WSCloseCode.GOING_AWAY, message=b"box stopping")
        self._encoder.shutdown(wait=False, cancel_futures=True)

    # -- checks ------------------------------------------------------------------------------------

    def same_origin(self, request: web.Request) -> bool:
        """The request comes from the box's own page: its Origin is the box's scheme and Host."""
        origin = request.headers.get("Origin", "")
        return bool(origin) and origin == f"{request.scheme}://{request.host}"

    def phone_of(self, request: web.Request) -> Phone | None:
        return self.joining.phone(request.cookies.get(COOKIE))


def refuse(request: web.Request, status: int, why: str) -> web.Response:
    """A refusal: one log line naming the address and the reason, a short JSON answer."""
    log.warning("remote: refused %s %s from %s: %s", request.method, request.path, request.remote, why)
    return web.json_response({"error": why}, status=status)


HUB: web.AppKey[Hub] = web.AppKey("hub", Hub)
Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


def make_app(hub: Hub) -> web.Application:
    @web.middleware
    async def guard(request: web.Request, handler: Handler) -> web.StreamResponse:
        if not host_allowed(request.host, hub.names):
            return refuse(request, 421, "unknown host name")
        try:
            response = await handler(request)
        except web.HTTPException as exc:
            if exc.status >= 400:
                level = logging.INFO if exc.status == 404 else logging.WARNING  # a favicon is no attack
                log.log(level, "remote: refused %s %s from %s: %s", request.method, request.path, request.remote,
                        exc.reason)
            raise
        except Exception as exc:  # a bug here must not show a traceback to a phone or stop the server
            log.error("remote: %s %s failed: %s: %s", request.method, request.path, type(exc).__name__, exc)
            return web.json_response({"error": "internal error"}, status=500)
        if not response.prepared:
            response.headers.update(SECURITY_HEADERS)
        return response

    app = web.Application(middlewares=[guard], client_max_size=MAX_BODY)
    app[HUB] = hub
    app.router.add_get("/", page)
    for name in assets.FILES:
        if name != "index.html":
            app.router.add_get(f"/{name}", page)
    app.router.add_get("/J/{code:[A-Za-z0-9]{1,8}}", page)  # the QR code's link: the page, the code filled in
    app.router.add_post("/join", join)
    app.router.add_get("/session", session_info)
    app.router.add_get("/ws", websocket)

    async def on_startup(_app: web.Application) -> None:
        hub.start()

    async def on_shutdown(_app: web.Application) -> None:
        await hub.close()

    app.on_startup.append(on_startup)
    app.on_shutdown.append(on_shutdown)
    return app


async def page(request: web.Request) -> web.Response:
    name = request.path.lstrip("/")
    if not name or name.startswith("J/"):
        name = "index.html"
    body, kind = assets.get(name)
    return web.Response(body=body, content_type=kind, charset="utf-8")


async def join(request: web.Request) -> web.Response:
    hub: Hub = request.app[HUB]
    if not hub.same_origin(request):
        return refuse(request, 403, "not from the box's page")
    if not hub.limits.allow(request.remote or "?"):
        return refuse(request, 429, "too many tries: wait a minute")
    if request.content_type != "application/json":
        return refuse(request, 415, "expected JSON")
    try:
        data = json.loads(await request.text())
    except (ValueError, UnicodeDecodeError, RecursionError):
        return refuse(request, 400, "not JSON")
    if (not isinstance(data, dict) or set(data) != {"code", "seat"} or not isinstance(data["code"], str)
            or not isinstance(data["seat"], str) or len(data["code"]) > 16
            or (data["seat"] and data["seat"] not in SEATS)):
        return refuse(request, 400, "expected a code and a seat")
    phone = hub.joining.join(data["code"], data["seat"])
    if phone is None:
        return refuse(request, 403, "wrong code")
    hub.limits.joined(request.remote or "?")
    log.info("remote: %s joined from %s", phone.name, request.remote)
    hub.inputs.say(f"{phone.name} joined")
    response = web.json_response({"csrf": phone.csrf, "name": phone.name})
    response.set_cookie(COOKIE, phone.token, httponly=True, samesite="Strict", path="/")
    return response


async def session_info(request: web.Request) -> web.Response:
    """The page's own CSRF token after a reload (readable only by the box's own page: no CORS)."""
    hub: Hub = request.app[HUB]
    phone = hub.phone_of(request)
    if phone is None:
        return web.json_response({"error": "join with the code"}, status=401)
    return web.json_response({"csrf": phone.csrf, "name": phone.name, "seats": list(SEATS)})


async def websocket(request: web.Request) -> web.StreamResponse:
    hub: Hub = request.app[HUB]
    if not hub.same_origin(request):
        return refuse(request, 403, "not from the box's page")
    phone = hub.phone_of(request)
    if phone is None:
        return refuse(request, 401, "join with the code")
    if request.query.get("csrf", "") != phone.csrf:
        return refuse(request, 403, "bad CSRF token")
    if len(hub.sockets) >= MAX_SOCKETS:
        return refuse(request, 503, "too many phones")
    ws = web.WebSocketResponse(max_msg_size=4 * MAX_MESSAGE, heartbeat=30.0, compress=False)
    await ws.prepare(request)
    hub.sockets[ws] = phone
    bad = 0
    pace = Bucket(MESSAGE_BURST, MESSAGE_RATE, MESSAGE_BURST, time.monotonic())
    try:
        await hub.welcome(ws)
        async for msg in ws:
            if hub.joining.phone(phone.token) is None:
                await ws.close(code=CLOSE_REVOKED, message=b"new code")
                break
            if not pace.take(time.monotonic()):
                log.warning("remote: refused a message from %s: too many messages", phone.name)
                why = "too many messages: slow down"
            else:
                why = _one(hub, phone, msg)
            if why:
                bad += why != "taken"
                if why != "taken":
                    with contextlib.suppress(ConnectionError, RuntimeError):  # the phone is going away
                        await ws.send_str(json.dumps({"t": "refused", "why": why}))
                if bad >= MAX_BAD:
                    log.warning("remote: closed %s's connection: %d bad messages", phone.name, bad)
                    await ws.close(code=WSCloseCode.POLICY_VIOLATION, message=b"too many bad messages")
                    break
    except ConnectionError as exc:
        log.info("remote: %s's connection lost: %s", phone.name, exc)
    else:
        if ws.exception() is not None:
            log.warning("remote: %s's connection closed: %s", phone.name, ws.exception())
    finally:
        hub.forget(ws)
    return ws


def _one(hub: Hub, phone: Phone, msg: Any) -> str:
    """Handle one websocket message: "" when acted on, else why not ("taken": refused by the game's state,
    said to the phone, not a bad message)."""
    if msg.type == WSMsgType.ERROR:
        return "connection error"
    if msg.type != WSMsgType.TEXT:
        log.warning("remote: refused a message from %s: expected a text message", phone.name)
        return "expected a text message"
    try:
        action = parse(msg.data)
    except Refused as exc:
        log.warning("remote: refused a message from %s: %s", phone.name, exc)
        return str(exc)
    why = hub.inputs.act(phone, action)
    if why:
        hub.tell(phone, why)
        return "taken"
    return ""


async def _tell(hub: Hub, phone: Phone, why: str) -> None:
    for ws, who in list(hub.sockets.items()):
        if who is phone:
            with contextlib.suppress(ConnectionError, RuntimeError):
                await ws.send_str(json.dumps({"t": "refused", "why": why}))
