"""The page's HTTP layer (Tornado) on the real box: what its parser refuses is one warning line, bytes that never
make a request are closed after the header timeout, a body past the HTTP layer's bound is refused before any
handler, and the websocket checks the Host like every other request."""

from __future__ import annotations

import asyncio
import logging
import socket

import aiohttp
import pytest
from remote_box import Box

from companion.remote.server import HEADER_TIMEOUT, HTTP_BODY_LIMIT


@pytest.fixture
def box(tmp_path):
    b = Box(tmp_path, "kansas", {"players": 4})
    yield b
    b.close()


def exchange(box, data: bytes, timeout: float = 10.0) -> bytes:
    with socket.create_connection(("127.0.0.1", box.remote.server.port), timeout=timeout) as raw:
        raw.sendall(data)
        return raw.recv(4096)


def test_what_the_parser_refuses_is_a_400_and_one_warning_line(box, caplog):
    caplog.set_level(logging.INFO)
    answer = exchange(box, b"GARBAGE\r\n\r\n")
    assert answer.split(b"\r\n")[0] == b"HTTP/1.1 400 Bad Request"
    box.wait(lambda: any("Malformed HTTP" in r.getMessage() for r in caplog.records))
    lines = [r for r in caplog.records if "Malformed HTTP" in r.getMessage()]
    assert len(lines) == 1 and lines[0].levelno == logging.WARNING and not lines[0].exc_info
    assert lines[0].getMessage().startswith("remote: ") and "127.0.0.1" in lines[0].getMessage()


def test_a_body_past_the_http_layers_bound_is_refused_before_it_is_read(box):
    answer = exchange(box, b"POST /join HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                           b"Content-Length: %d\r\n\r\n" % (HTTP_BODY_LIMIT + 1))
    assert answer.split(b"\r\n")[0] == b"HTTP/1.1 400 Bad Request"


def test_bytes_that_never_make_a_request_are_closed_after_the_header_timeout(box):
    hello = b"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03" + b"\x00" * 64  # a TLS hello on the plain port
    assert exchange(box, hello, timeout=HEADER_TIMEOUT + 5) == b""


def test_the_websocket_checks_the_host_name_too(box, caplog):
    async def go():
        async with aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True)) as s:
            r = await s.post(f"{box.url}/join", json={"code": box.code, "seat": ""}, headers={"Origin": box.url})
            csrf = (await r.json())["csrf"]
            with pytest.raises(aiohttp.WSServerHandshakeError) as err:
                await s.ws_connect(f"{box.url}/ws?csrf={csrf}", origin="http://evil.example:8080",
                                   headers={"Host": "evil.example:8080"})
            assert err.value.status == 421
            ws = await s.ws_connect(f"{box.url}/ws?csrf={csrf}", origin=box.url)  # the box's own name: fine
            await ws.close()

    asyncio.run(asyncio.wait_for(go(), 30))
    assert "unknown host name" in caplog.text
