"""The phones' page within its memory: the phones' picture is the projector's own frame scaled down (no second
renderer), and large buffers go back to the system when freed (glibc's fixed mapping threshold)."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys

import aiohttp
import pygame
import pytest

from companion.journal import Journal
from companion.remote.view import RemoteView
from companion.session.core import Session
from companion.views.projector import ProjectorRenderer


@pytest.fixture
def carcassonne(tmp_path):
    with Journal(tmp_path / "j.sqlite") as journal:
        session = Session(journal)
        session.start("carcassonne", {"players": 2, "board": "tiles", "river": "no"})
        yield session


@pytest.mark.parametrize(("projector", "picture"), [((1920, 1080), (960, 540)), ((1024, 768), (720, 540)),
                                                    ((960, 540), (960, 540)), ((800, 480), (800, 480))])
def test_the_phones_picture_is_the_projectors_frame_scaled_down(carcassonne, projector, picture):
    frame = carcassonne.frame
    renderer = ProjectorRenderer(projector)
    drawn = renderer.render(frame)
    published = []
    view = RemoteView(carcassonne, published.append, (960, 540), drawn_by=lambda f: renderer if f is frame else None)
    view.show(frame)
    snap = published[-1]
    assert view.renderer is None  # no renderer of the phones' own
    assert snap.size == picture and len(snap.rgb) == picture[0] * picture[1] * 3
    expected = drawn if picture == projector else pygame.transform.smoothscale(drawn, picture)
    assert snap.rgb == pygame.image.tobytes(expected, "RGB")
    # each place's rectangle is where a renderer of the picture's own size puts that place: each one's middle
    # lies inside the other
    own: list = []
    RemoteView(carcassonne, own.append, picture).show(frame)
    placed = [(a.rect, b.rect) for a, b in zip(snap.options, own[-1].options, strict=True) if a.rect]
    assert placed
    for one, other in placed + [(b, a) for a, b in placed]:
        x, y = one[0] + one[2] / 2, one[1] + one[3] / 2
        assert other[0] <= x <= other[0] + other[2] and other[1] <= y <= other[1] + other[3], (one, other)


def test_a_frame_the_projector_did_not_draw_is_drawn_by_the_view_itself(carcassonne):
    published = []
    view = RemoteView(carcassonne, published.append, (480, 270), drawn_by=lambda f: None)
    view.show(carcassonne.frame)
    assert view.renderer is not None and published[-1].size == (480, 270)


def test_the_box_hands_the_projectors_renderer_to_the_phones_only_for_the_frame_it_drew(tmp_path):
    from remote_box import Box

    box = Box(tmp_path, "kansas", {"players": 4})
    try:
        box.wait(lambda: box.remote.drawn_by(box.table.session.frame) is not None)
        assert box.remote.drawn_by(box.table.session.frame) is box.projector.renderer
        assert box.remote.drawn_by(object()) is None  # a frame the projector never drew
    finally:
        box.close()


async def _picture(ws):
    """The next frame's words and picture from the box."""
    state = None
    while True:
        msg = await ws.receive(timeout=10)
        if msg.type == aiohttp.WSMsgType.TEXT and json.loads(msg.data)["t"] == "state":
            state = json.loads(msg.data)
        elif msg.type == aiohttp.WSMsgType.BINARY and state is not None:
            return state, msg.data
        elif msg.type not in (aiohttp.WSMsgType.TEXT, aiohttp.WSMsgType.BINARY):
            raise AssertionError(f"closed: {msg}")


def test_the_pixels_are_let_go_once_encoded_and_a_later_phone_gets_the_same_png(tmp_path):
    from remote_box import Box

    box = Box(tmp_path, "kansas", {"players": 4})

    async def join(s):
        r = await s.post(f"{box.url}/join", json={"code": box.code, "seat": ""}, headers={"Origin": box.url})
        return (await r.json())["csrf"]

    async def connect(s, csrf):
        return await s.ws_connect(f"{box.url}/ws?csrf={csrf}", origin=box.url, max_msg_size=0)

    async def go():
        async with aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True)) as s, \
                aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True)) as t:
            tokens = [await join(s), await join(t)]  # both joined first: the box says the same words for each
            first = await _picture(await connect(s, tokens[0]))
            snapshot = box.remote.hub.snapshot
            assert snapshot.frame == first[0]["frame"] and len(snapshot.rgb) == 0  # only the PNG is kept
            second = await _picture(await connect(t, tokens[1]))
            assert second == first  # the same frame, its PNG made once
            width, height = first[0]["size"]
            assert second[1][8:16] == b"\x89PNG\r\n\x1a\n" and (width, height) == box.projector.renderer.size

    try:
        asyncio.run(asyncio.wait_for(go(), 60))
    finally:
        box.close()


MAPPED = """
import ctypes, json
from companion.malloc import return_large_buffers

class Info(ctypes.Structure):
    _fields_ = [(n, ctypes.c_size_t) for n in ("arena", "ordblks", "smblks", "hblks", "hblkhd", "usmblks",
                                               "fsmblks", "uordblks", "fordblks", "keepcost")]

libc = ctypes.CDLL(None)
libc.mallinfo2.restype = Info
libc.malloc.restype = ctypes.c_void_p
libc.malloc.argtypes = (ctypes.c_size_t,)
libc.free.argtypes = (ctypes.c_void_p,)
if FIX:
    assert return_large_buffers()
libc.free(libc.malloc(4 << 20))  # a large block freed: glibc's own rule raises its threshold past 1 MB
before = libc.mallinfo2().hblks
block = libc.malloc(1 << 20)
mapped = libc.mallinfo2().hblks - before
libc.free(block)
print(json.dumps(mapped))
"""


@pytest.mark.parametrize("fixed", [False, True])
def test_large_buffers_keep_a_mapping_of_their_own_once_the_threshold_is_fixed(fixed):
    script = MAPPED.replace("FIX", str(fixed))
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60, check=True)
    assert json.loads(out.stdout) == (1 if fixed else 0)  # mapped: given back to the system when freed


TRIMMED = """
import ctypes
from companion.malloc import give_back, return_large_buffers

def resident():
    fields = dict(line.split(":", 1) for line in open("/proc/self/status").read().splitlines())
    return int(fields["VmRSS"].split()[0]) // 1024

libc = ctypes.CDLL(None)
libc.malloc.restype = ctypes.c_void_p
libc.malloc.argtypes = (ctypes.c_size_t,)
libc.free.argtypes = (ctypes.c_void_p,)
assert return_large_buffers()
blocks = [libc.malloc(64 << 10) for _ in range(400)]  # 25 MB in blocks the heap serves (under the threshold)
for block in blocks:
    ctypes.memset(block, 1, 64 << 10)
pin = libc.malloc(64 << 10)  # above them: the heap's top cannot shrink past it
ctypes.memset(pin, 1, 64 << 10)
before = resident()
for block in blocks:
    libc.free(block)
freed = resident()
give_back()
print(before - freed, before - resident())
"""


def test_freed_memory_inside_the_heap_goes_back_to_the_system_once_given_back():
    out = subprocess.run([sys.executable, "-c", TRIMMED], capture_output=True, text=True, timeout=60, check=True)
    freed, given_back = map(int, out.stdout.split())
    assert freed < 5  # freed, yet resident: the heap keeps it
    assert given_back >= 20  # MB: given back


ARENAS = """
import ctypes, os, tempfile, threading
from companion.malloc import return_large_buffers

if FIX:
    assert return_large_buffers()
libc = ctypes.CDLL(None)
libc.malloc.restype = ctypes.c_void_p
libc.malloc.argtypes = (ctypes.c_size_t,)
libc.fopen.restype = ctypes.c_void_p
libc.fopen.argtypes = (ctypes.c_char_p, ctypes.c_char_p)
libc.malloc_info.argtypes = (ctypes.c_int, ctypes.c_void_p)
libc.fclose.argtypes = (ctypes.c_void_p,)
start, done = threading.Barrier(7), threading.Barrier(7)

def work():
    start.wait()  # all six allocate at once, as the page's threads do beside the loop's
    kept = [libc.malloc(4096) for _ in range(200)]
    done.wait()

threads = [threading.Thread(target=work) for _ in range(6)]
for t in threads:
    t.start()
start.wait()
done.wait()
for t in threads:
    t.join()
with tempfile.TemporaryDirectory() as tmp:
    path = os.path.join(tmp, "info.xml").encode()
    out = libc.fopen(path, b"w")
    libc.malloc_info(0, out)
    libc.fclose(out)
    print(open(path).read().count("<heap nr="))
"""


@pytest.mark.parametrize("fixed", [False, True])
def test_the_threads_share_two_heaps_once_the_page_starts(fixed):
    """Each thread that allocates would get a heap of its own (glibc's arenas, 8 per core at most), its free
    pages resident; the page caps them at two, as it starts (companion/malloc.py)."""
    script = ARENAS.replace("FIX", str(fixed))
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60, check=True)
    heaps = int(out.stdout)
    assert heaps <= 2 if fixed else heaps > 2
