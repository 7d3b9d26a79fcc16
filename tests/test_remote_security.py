"""The phones' page refuses what a button could not do: wrong or old codes, old tokens, other origins and
host names, bad CSRF tokens, oversized and malformed requests and messages, floods of joins. Run against the
real box (its session, loop and page on a loopback port) with aiohttp's client; each refusal is logged in one
line, never a traceback, and the game is untouched."""

from __future__ import annotations

import asyncio
import json
import logging

import aiohttp
import pytest
from remote_box import Box

from companion.dice import DiceRolled
from companion.inputs import Press
from companion.remote.app import CLOSE_REVOKED, COOKIE, MAX_BAD
from companion.remote.limits import JoinLimits


@pytest.fixture
def box(tmp_path):
    b = Box(tmp_path, "kansas", {"players": 4})
    yield b
    b.close()


def run(coro):
    return asyncio.run(asyncio.wait_for(coro, 60))


def client():
    return aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True))  # cookies for 127.0.0.1


async def join(s, box, code=None, origin=None, seat=""):
    return await s.post(f"{box.url}/join", json={"code": box.code if code is None else code, "seat": seat},
                        headers={"Origin": box.url if origin is None else origin})


async def connect(s, box, csrf, origin=None):
    return await s.ws_connect(f"{box.url}/ws?csrf={csrf}", origin=box.url if origin is None else origin)


async def state(ws):
    """The next state message (pictures skipped)."""
    while True:
        msg = await ws.receive(timeout=10)
        if msg.type == aiohttp.WSMsgType.TEXT:
            data = json.loads(msg.data)
            if data["t"] == "state":
                return data
        elif msg.type != aiohttp.WSMsgType.BINARY:
            raise AssertionError(f"closed: {msg}")


async def refused(ws):
    while True:
        msg = await ws.receive(timeout=10)
        if msg.type == aiohttp.WSMsgType.TEXT and json.loads(msg.data)["t"] == "refused":
            return json.loads(msg.data)["why"]
        if msg.type not in (aiohttp.WSMsgType.TEXT, aiohttp.WSMsgType.BINARY):
            raise AssertionError(f"closed: {msg}")


async def closed(ws):
    """Read (pictures, refusals) until the box closes the connection (bounded)."""
    for _ in range(200):
        msg = await ws.receive(timeout=10)
        if msg.type in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED, aiohttp.WSMsgType.CLOSING):
            return
    raise AssertionError("the box did not close the connection")


def no_tracebacks(caplog):
    assert not [r for r in caplog.records if r.exc_info or r.levelno >= logging.ERROR]


def test_joining_gives_an_httponly_strict_cookie_and_the_page_is_locked_down(box):
    async def go():
        async with client() as s:
            page = await s.get(box.url + "/")
            assert page.status == 200
            policy = page.headers["Content-Security-Policy"]
            assert "default-src 'none'" in policy and "script-src 'self'" in policy
            assert "frame-ancestors 'none'" in policy
            assert page.headers["X-Content-Type-Options"] == "nosniff"
            body = await page.text()
            assert "http" not in body.replace(box.url, "")  # nothing fetched from elsewhere
            r = await join(s, box, seat="Blue")
            assert r.status == 200 and (await r.json())["name"] == "Blue's phone"
            cookie = r.headers["Set-Cookie"]
            assert f"{COOKIE}=" in cookie and "HttpOnly" in cookie and "SameSite=Strict" in cookie
    run(go())


def test_only_the_pages_files_are_served(box, caplog):
    async def go():
        async with client() as s:
            for path in ("/../../etc/passwd", "/page/app.js", "/companion/remote/app.py", "/%2e%2e/pyproject.toml",
                         "/config.toml", "/J/../../etc/passwd", "/journal.sqlite"):
                r = await s.get(box.url + path)
                assert r.status == 404, path
                assert "root:" not in await r.text()
            for method in ("PUT", "DELETE", "PATCH"):
                r = await s.request(method, box.url + "/join")
                assert r.status == 405
    run(go())
    no_tracebacks(caplog)


def test_a_wrong_code_or_an_old_one_is_refused(box, caplog):
    async def go():
        async with client() as s:
            wrong = "".join("A" if c != "A" else "C" for c in box.code)
            r = await join(s, box, wrong)
            assert r.status == 403 and (await r.json())["error"] == "wrong code" and COOKIE not in r.cookies
            old = box.code
            box.remote.joining.renew()  # "New code" from the box's menu
            r = await join(s, box, old)  # replayed
            assert r.status == 403
            r = await join(s, box, box.code.lower())  # the new one, typed in lower case
            assert r.status == 200
    run(go())
    assert "wrong code" in caplog.text
    no_tracebacks(caplog)


def test_an_old_token_after_a_new_code_is_refused_and_its_phone_disconnected(box):
    async def go():
        async with client() as s:
            csrf = (await (await join(s, box)).json())["csrf"]
            ws = await connect(s, box, csrf)
            await state(ws)
            box.remote.joining.renew()
            await closed(ws)
            assert ws.close_code == CLOSE_REVOKED
            assert (await s.get(box.url + "/session")).status == 401
            with pytest.raises(aiohttp.WSServerHandshakeError) as refused_ws:
                await connect(s, box, csrf)
            assert refused_ws.value.status == 401
    run(go())


def test_a_new_game_revokes_every_token(box):
    async def go():
        async with client() as s:
            await join(s, box)
            assert (await s.get(box.url + "/session")).status == 200
            code = box.code
            first = box.table.session.current.game_id
            box.table.inbox.put(Press("BACK"))  # the box's menu, then "New: Kansas" and its setup question
            box.wait(lambda: box.table.session.panel.menu is not None and box.table.session.panel.prompt is None)
            items = box.table.session.panel.menu.items
            for _ in range(items.index("New: Kansas")):
                box.table.inbox.put(Press("DOWN"))
            box.table.inbox.put(Press("OK"))
            box.wait(lambda: "players" in box.table.session.panel.menu.title)
            box.table.inbox.put(Press("OK"))
            # then how the seats are named (numbers, the first option): OK again
            box.wait(lambda: "players" not in (box.table.session.panel.menu.title if box.table.session.panel.menu
                                               else ""))
            if box.table.session.panel.menu is not None and box.table.session.current.game_id == first:
                box.table.inbox.put(Press("OK"))
            box.wait(lambda: box.table.session.current.game_id != first)
            box.wait(lambda: box.code != code)
            assert (await s.get(box.url + "/session")).status == 401
    run(go())


def test_another_origin_another_host_name_or_a_bad_csrf_token_is_refused(box, caplog):
    async def go():
        async with client() as s:
            assert (await join(s, box, origin="http://evil.example")).status == 403
            r = await s.post(f"{box.url}/join", json={"code": box.code, "seat": ""})  # no Origin at all
            assert r.status == 403
            r = await s.get(f"{box.url}/", headers={"Host": "evil.example:8080"})  # a rebound name
            assert r.status == 421
            csrf = (await (await join(s, box)).json())["csrf"]
            for origin, token in (("http://evil.example", csrf), (box.url, "forged"), (box.url, "")):
                with pytest.raises(aiohttp.WSServerHandshakeError) as err:
                    await connect(s, box, token, origin=origin)
                assert err.value.status == 403
        async with client() as other:  # no cookie: the CSRF token alone is not enough
            with pytest.raises(aiohttp.WSServerHandshakeError) as err:
                await connect(other, box, csrf)
            assert err.value.status == 401
    run(go())
    assert "not from the box's page" in caplog.text and "bad CSRF token" in caplog.text
    no_tracebacks(caplog)


def test_oversized_and_malformed_requests_and_messages_are_refused(box, caplog):
    before = box.table.session.digest()

    async def go():
        async with client() as s:
            r = await s.post(f"{box.url}/join", data="x" * 20_000, headers={"Origin": box.url,
                                                                           "Content-Type": "application/json"})
            assert r.status == 413
            for body in ("{", "[]", '{"code": 1, "seat": ""}', '{"code": "A", "seat": "Mauve"}',
                         '{"code": "A", "seat": "", "admin": true}'):
                r = await s.post(f"{box.url}/join", data=body, headers={"Origin": box.url,
                                                                       "Content-Type": "application/json"})
                assert r.status == 400, body
            box.remote.hub.limits = JoinLimits()  # the tries above used this address's allowance
            csrf = (await (await join(s, box)).json())["csrf"]
            ws = await connect(s, box, csrf)
            frame = (await state(ws))["frame"]
            bad = ["not json", "[1, 2]", json.dumps({"t": "shell", "frame": frame}),
                   json.dumps({"t": "pick", "frame": frame, "option": 0, "extra": 1}),
                   json.dumps({"t": "pick", "frame": True, "option": 0}),
                   json.dumps({"t": "dice", "frame": frame, "dice": [["d8", 9]]}),
                   json.dumps({"t": "dice", "frame": frame, "dice": [["d20", 1]]}),
                   json.dumps({"t": "bid", "frame": frame, "amount": -5}),
                   json.dumps({"t": "pick", "frame": frame, "option": 0, "pad": "x" * 900})]
            for message in bad:
                await ws.send_str(message)
                why = await refused(ws)
                assert why and "Traceback" not in why, message
            await ws.send_bytes(b"\x00\x01")
            assert await refused(ws) == "expected a text message"
            await ws.send_str(json.dumps({"t": "pick", "frame": frame, "option": 3}))  # fits, but no decision asked
            assert await refused(ws) == "no such option now"
            await ws.send_str(json.dumps({"t": "dice", "frame": frame - 1, "dice": [["d8", 2]]}))  # an old picture
            assert await refused(ws) == "the table moved on: look again"
            for _ in range(MAX_BAD):
                await ws.send_str("{")
            await closed(ws)
            assert ws.close_code == aiohttp.WSCloseCode.POLICY_VIOLATION
            ws = await connect(s, box, csrf)  # a message past aiohttp's own bound closes the connection
            await state(ws)
            await ws.send_str("x" * 10_000)
            await closed(ws)
            # Tornado writes its 1009 close frame and drops the connection without reading the rest of the message;
            # the kernel then resets the connection, and the client may see the reset (1006) before the frame.
            assert ws.close_code in (aiohttp.WSCloseCode.MESSAGE_TOO_BIG, aiohttp.WSCloseCode.ABNORMAL_CLOSURE)
            ws = await connect(s, box, csrf)  # the box is still there for the same phone
            assert (await state(ws))["frame"] >= frame
    run(go())
    assert box.table.session.digest() == before  # the game never moved
    assert "not JSON" in caplog.text and "message too long" in caplog.text
    no_tracebacks(caplog)


def test_a_flood_of_joins_is_held_and_the_box_stays_responsive(box, caplog):
    box.remote.hub.limits = JoinLimits(per_address=6, per_address_rate=0.1, overall=30, overall_rate=1.0)

    async def go():
        async with client() as s:
            statuses = []
            box.table.driver.throw(DiceRolled.of(("d8", 3)))  # a roll from the tower while the flood arrives
            for i in range(200):
                r = await join(s, box, "WRONG" + str(i % 10))
                statuses.append(r.status)
            assert statuses.count(403) <= 6 and statuses.count(429) >= 194
            r = await join(s, box)  # even the right code waits now
            assert r.status == 429
    run(go())
    box.wait(lambda: box.table.session.current.live and box.table.session.current.live[-1].event.source == "tower",
             what="the tower's roll did not reach the game during the flood")
    assert box.remote.hub.limits.refused >= 195
    no_tracebacks(caplog)


def test_a_phone_flooding_messages_is_slowed_then_closed(box, caplog):
    async def go():
        async with client() as s:
            csrf = (await (await join(s, box)).json())["csrf"]
            ws = await connect(s, box, csrf)
            frame = (await state(ws))["frame"]
            for _ in range(100):  # well-formed, each refused by the frame (no decision is asked): a flood
                await ws.send_str(json.dumps({"t": "pick", "frame": frame, "option": 0}))
            await closed(ws)
            assert ws.close_code == aiohttp.WSCloseCode.POLICY_VIOLATION
    run(go())
    assert "too many messages" in caplog.text
    no_tracebacks(caplog)


def test_phones_sharing_an_address_all_join():
    limits = JoinLimits(per_address=2, per_address_rate=0.0, overall=100, overall_rate=0.0, clock=lambda: 0.0)
    for _ in range(8):
        assert limits.allow("nat")
        limits.joined("nat")
    assert limits.allow("nat") and limits.allow("nat") and not limits.allow("nat")  # two wrong codes, then no more


def test_limits_refill_with_time_and_forget_old_addresses():
    now = [0.0]
    limits = JoinLimits(per_address=2, per_address_rate=0.5, overall=100, overall_rate=10, clock=lambda: now[0])
    assert limits.allow("a") and limits.allow("a") and not limits.allow("a")
    assert limits.allow("b")
    now[0] += 2.0  # one token back
    assert limits.allow("a") and not limits.allow("a")
    for i in range(5000):
        limits.allow(f"10.0.{i // 256}.{i % 256}")
    assert len(limits._addresses) <= 1024


def test_garbage_on_the_socket_is_a_400_not_a_traceback(box, caplog):
    import socket

    for garbage in (b"GARBAGE\r\n\r\n", b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: -4\r\n\r\n",
                    b"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03" + b"\x00" * 64):  # the last: a TLS hello
        with socket.create_connection(("127.0.0.1", box.remote.server.port), timeout=10) as raw:
            raw.sendall(garbage)
            answer = raw.recv(4096)
        assert answer == b"" or (answer.startswith(b"HTTP/1.") and b" 400 " in answer.split(b"\r\n")[0]), garbage
    no_tracebacks(caplog)
