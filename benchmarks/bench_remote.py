"""The phones' page: a tap -> the box's new frame on every connected phone, the page's size, the added memory.

Every box here has the box's own views: the OLED on luma's dummy device and the projector's 1080p map drawn
headless (the phones' picture is that map scaled down to 960x540). The tap's figure runs the real box in this
process (the simulated table's session, loop, journal and views, the page on a loopback port) with eight
phones as aiohttp websocket clients on this process's own event loop: from one phone sending a tap (the dice or
the first option the frame asks for) to the moment all eight hold the new frame's words and picture (a PNG of
960x540). The phones share this process's GIL with the box, so the figure includes their own reading; a real
phone reads on its own CPU.

The memory figure runs the box in processes of its own (:func:`serve`), without the page, with the page and no
phone, and with the page and eight phones connected, plays the same 30 ROLL presses and compares their
resident sets (VmRSS) at the end. Where the page's memory goes is measured in one more box (:func:`stages`):
its resident set after each step of starting the page (the imports, the server), then with one phone and with
eight. This module imports asyncio only where its phones need it: the boxes import it (through this module)
only with the page on, as the box does, so its import is counted as the page's.
"""

from __future__ import annotations

import contextlib
import itertools
import json
import os
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

from benchmarks._table import Row, summary

AREA = "remote"
PHONES = 8
TAPS = 150
ROLLS = 30


def run() -> list[Row]:
    from companion.remote import assets

    taps, picture = tap_latency()
    rows = summary(AREA, f"tap -> new frame on all {PHONES} phones", taps, "p99 <= 150 ms here", p99=150.0)
    rows.append(Row(AREA, "page size (HTML + CSS + JS)", assets.total_size() / 1024, "KB", most=64.0))
    rows.append(Row(AREA, "picture per frame (PNG, 960x540)", picture / 1024, "KB", "pushed on change"))
    without, idle, watched = rss_mb(False), rss_mb(True, 0), rss_mb(True)
    rows.append(Row(AREA, "box resident memory without the page", without[0], "MB"))
    rows.append(Row(AREA, "added resident memory, page on, no phone", idle[0] - without[0], "MB", most=10.0))
    rows.append(Row(AREA, f"added resident memory, page on, {PHONES} phones", watched[0] - without[0], "MB", most=10.0))
    rows.append(Row(AREA, f"added anonymous memory, page on, {PHONES} phones", watched[1] - without[1], "MB",
                    "the heap alone"))
    steps = stages()
    for (_, before), (what, after) in itertools.pairwise(steps):
        rows.append(Row(AREA, f"  of which {what}", after - before, "MB", "one box, step by step"))
    return rows


STAGES = (("asyncio", "asyncio's import"),
          ("tornado.web tornado.websocket tornado.httpserver", "the web framework's import (Tornado)"),
          ("companion.remote.wiring", "the page's own modules' import"))


def stages(phones: int = PHONES) -> list[tuple[str, float]]:
    """One box's resident set (MB) after each step of starting the page: the box alone (90 rolls), each import
    of :data:`STAGES`, the server started, then 30 rolls with one phone and 30 more with ``phones``."""
    import asyncio

    env = {**os.environ, "PYGAME_HIDE_SUPPORT_PROMPT": "1"}
    proc = subprocess.Popen([sys.executable, "-c", "from benchmarks.bench_remote import serve_stages; serve_stages()"],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
                            cwd=Path(__file__).resolve().parent.parent, env=env)
    assert proc.stdin is not None and proc.stdout is not None
    try:
        steps = [("the box alone", float(proc.stdout.readline()))]
        for _, what in STAGES:
            steps.append((what, float(proc.stdout.readline())))
        port, code, started = proc.stdout.readline().split()
        steps.append(("the server started (its thread, loop and socket)", float(started)))
        one = asyncio.run(_played_with_phones(proc, int(port), code, 1))[0]
        steps.append(("the first phone (its picture, the PNG encoder)", one))
        more = asyncio.run(_played_with_phones(proc, int(port), code, phones))[0]
        steps.append((f"{phones - 1} more phones", more))
        return steps
    finally:
        _stop_box(proc)


def serve_stages() -> None:
    """The box of :func:`stages`, its loop turned on this thread all along (as on the box): 30 rolls, the page's
    modules imported and the page started one step at a time (each step's resident MB printed), then "roll"
    and "quit" from stdin as :func:`serve` takes them (read by a thread of their own)."""
    import importlib
    import queue

    from companion.config import RemoteConfig
    from companion.inputs import Press
    from companion.journal import Journal

    def memory() -> str:
        return f"{_vmrss(os.getpid())[0]:.2f}"

    with tempfile.TemporaryDirectory() as tmp, Journal(Path(tmp) / "journal.sqlite") as journal:
        table = kansas_box(journal, remote=False)

        def roll() -> int:
            before = table.loop.frames_shown
            table.inbox.put(Press("ROLL" if table.session.wanted() else "OK"))  # dice, else the first option
            return before

        for _ in range(3 * ROLLS):  # the game played as far as the phones will see it: each stage measures the page
            before = roll()
            while table.loop.frames_shown == before:
                table.loop.step(0.5)
        print(memory(), flush=True)
        for modules, _ in STAGES:
            for name in modules.split():
                importlib.import_module(name)
            print(memory(), flush=True)
        from companion.remote.wiring import attach_remote

        remote = attach_remote(table, RemoteConfig(enabled=True, port=0, bind="127.0.0.1"))
        assert remote is not None
        table.loop.show()  # the frame shown again through the page's views, as a box that starts with the page has
        print(remote.server.port, remote.joining.code, memory(), flush=True)
        commands: queue.Queue[str] = queue.Queue()

        def read() -> None:
            for line in sys.stdin:
                commands.put(line.strip())
            commands.put("quit")

        threading.Thread(target=read, daemon=True).start()
        waiting: int | None = None
        while True:
            table.loop.step(0.01)
            if waiting is not None and table.loop.frames_shown > waiting:
                print("shown", flush=True)
                waiting = None
            try:
                command = commands.get_nowait()
            except queue.Empty:
                continue
            if command == "quit":
                break
            waiting = roll()
        table.close()


def tap_latency() -> tuple[list[float], float]:
    import asyncio

    import aiohttp

    from companion.inputs import Quit
    from companion.journal import Journal

    with tempfile.TemporaryDirectory() as tmp, Journal(Path(tmp) / "journal.sqlite") as journal:
        table = kansas_box(journal, remote=True)
        remote = table.parts["remote-server"]
        url = f"http://127.0.0.1:{remote.server.port}"
        loop_thread = threading.Thread(target=table.loop.run, daemon=True)
        loop_thread.start()
        try:
            return asyncio.run(_phones(aiohttp, url, remote))
        finally:
            table.inbox.put(Quit())
            loop_thread.join(10)
            table.close()


async def _phones(aiohttp: Any, url: str, remote: Any) -> tuple[list[float], float]:
    import asyncio

    sessions, sockets = [], []
    for _ in range(PHONES):
        s = aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True))
        sessions.append(s)
        r = await s.post(f"{url}/join", json={"code": remote.joining.code, "seat": ""}, headers={"Origin": url})
        csrf = (await r.json())["csrf"]
        sockets.append(await s.ws_connect(f"{url}/ws?csrf={csrf}", origin=url, max_msg_size=0))
    latest = [await _frame(ws, -1) for ws in sockets]
    samples: list[float] = []
    sizes: list[int] = []
    from companion.remote.app import MESSAGE_RATE  # here: the memory figures' boxes import this module too

    last_tap = [0.0] * PHONES
    try:
        for tap in range(TAPS):
            # the phones take turns, and none taps faster than the page lets a person (its message pace): a table
            # of players tapping, not one phone flooding (which the box refuses by design)
            phone = tap % PHONES
            wait = last_tap[phone] + 1.0 / MESSAGE_RATE - time.perf_counter()
            if wait > 0:
                await asyncio.sleep(wait)
            state = latest[phone][0]
            if state["dice"]:
                message = {"t": "dice", "frame": state["frame"], "dice": [[k, 2] for k in state["dice"]]}
            elif state["options"]:
                message = {"t": "pick", "frame": state["frame"], "option": 0}
            elif state["question"]:
                message = {"t": "answer", "frame": state["frame"], "yes": True}
            else:
                break
            start = time.perf_counter()
            last_tap[phone] = start
            await sockets[phone].send_str(json.dumps(message))
            late: list[str] = []
            latest = await asyncio.gather(*(_frame(ws, state["frame"], late) for ws in sockets))
            if late:  # a frame of the box's own came first (a notice): the tap was refused, no sample; tap again
                continue
            samples.append((time.perf_counter() - start) * 1000)
            sizes.append(latest[0][1])
    finally:
        for ws in sockets:
            await ws.close()
        for s in sessions:
            await s.close()
    if len(samples) < 20:
        raise RuntimeError(f"only {len(samples)} taps were answered")
    return samples, sum(sizes) / len(sizes)


async def _frame(ws: Any, after: int, late: list[str] | None = None) -> tuple[dict[str, Any], int]:
    """The first frame newer than ``after`` with its picture: (its words, the picture's size). A tap the box
    refuses as made on an old frame is noted in ``late`` (when given) and the newer frame waited for."""
    import aiohttp

    state: dict[str, Any] | None = None
    while True:
        msg = await ws.receive(timeout=30)
        if msg.type == aiohttp.WSMsgType.TEXT:
            data = json.loads(msg.data)
            if data["t"] == "state" and data["frame"] > after:
                state = data
            elif data["t"] == "refused" and late is not None and data["why"] == "the table moved on: look again":
                late.append(data["why"])
            elif data["t"] == "refused":
                raise RuntimeError(f"tap refused: {data['why']}")
        elif msg.type == aiohttp.WSMsgType.BINARY:
            if state is not None and int.from_bytes(msg.data[:8], "big") == state["frame"]:
                return state, len(msg.data) - 8
        else:
            raise RuntimeError(f"phone closed: {msg}")


def rss_mb(remote: bool, phones: int = PHONES) -> tuple[float, float]:
    """The resident set of a box (:func:`serve`) after 30 ROLL presses (and, with the page, ``phones`` watching):
    all of it and its anonymous part, in MB."""
    import asyncio

    proc = subprocess.Popen([sys.executable, "-c", f"from benchmarks.bench_remote import serve; serve({remote})"],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
                            cwd=Path(__file__).resolve().parent.parent)
    assert proc.stdin is not None and proc.stdout is not None
    try:
        port, code = proc.stdout.readline().split()
        if remote and phones:
            return asyncio.run(_played_with_phones(proc, int(port), code, phones))
        for _ in range(ROLLS):
            _roll(proc)
        return _vmrss(proc.pid)
    finally:
        _stop_box(proc)


def kansas_box(journal: Any, remote: bool) -> Any:
    """The simulated table every measured box is: the box's own views (the OLED on luma's dummy device, drawn by
    Pillow as on the box; the projector's 1080p map drawn headless), the phones' page on a free loopback port when
    ``remote``, a 4-player Kansas game started. The caller closes it."""
    from luma.core.device import dummy

    from companion.config import Config, RemoteConfig
    from companion.session.views import OledView
    from companion.sim import build_table, sim_config
    from companion.views.oled import render
    from companion.views.projector import ProjectorRenderer, ProjectorView
    from hardware.oled import Display, OledSettings

    settings = OledSettings()
    display = Display(settings, device=dummy(width=settings.width, height=settings.height, mode="1"))
    views = [OledView(display, render), ProjectorView(ProjectorRenderer((1920, 1080)))]
    config = Config(remote=RemoteConfig(enabled=remote, port=0, bind="127.0.0.1"))
    table = build_table(journal, sim_config(config, headless=True), tick=0.05, views=views)
    table.closers.append(display.close)
    table.session.start("kansas", {"players": 4})
    return table


def serve(remote: bool) -> None:
    """A box in this process for the memory figure: the simulated table with the box's views (:func:`kansas_box`),
    the page on a free loopback port when ``remote``. Prints the port and the code, then takes "roll" (the ROLL
    button, answered once the frame is shown) and "quit" on stdin."""
    from companion.inputs import Press, Quit
    from companion.journal import Journal

    with tempfile.TemporaryDirectory() as tmp, Journal(Path(tmp) / "journal.sqlite") as journal:
        table = kansas_box(journal, remote)
        thread = threading.Thread(target=table.loop.run, daemon=True)
        thread.start()
        _until(lambda: table.loop.frames_shown > 0)
        server = table.parts.get("remote-server")
        print(server.server.port if server else 0, server.joining.code if server else "-", flush=True)
        for line in sys.stdin:
            if line.strip() == "quit":
                break
            before = table.loop.frames_shown
            table.inbox.put(Press("ROLL" if table.session.wanted() else "OK"))  # dice, else the first option
            _until(lambda before=before: table.loop.frames_shown > before)
            print("shown", flush=True)
        table.inbox.put(Quit())
        thread.join(10)
        table.close()


async def _played_with_phones(proc: subprocess.Popen[str], port: int, code: str, phones: int) -> tuple[float, float]:
    import asyncio

    import aiohttp

    url = f"http://127.0.0.1:{port}"
    sessions, sockets = [], []
    try:
        for _ in range(phones):
            s = aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True))
            sessions.append(s)
            r = await s.post(f"{url}/join", json={"code": code, "seat": ""}, headers={"Origin": url})
            csrf = (await r.json())["csrf"]
            sockets.append(await s.ws_connect(f"{url}/ws?csrf={csrf}", origin=url, max_msg_size=0))
        frames = [await _frame(ws, -1) for ws in sockets]
        for _ in range(ROLLS):
            before = max(f[0]["frame"] for f in frames)
            await asyncio.get_running_loop().run_in_executor(None, _roll, proc)
            frames = await asyncio.gather(*(_frame(ws, before) for ws in sockets))
        return _vmrss(proc.pid)
    finally:
        for ws in sockets:
            await ws.close()
        for s in sessions:
            await s.close()


def _roll(proc: subprocess.Popen[str]) -> None:
    """One press (ROLL for dice, else OK for the first option), returned once the box has shown its frame."""
    assert proc.stdin is not None and proc.stdout is not None
    proc.stdin.write("roll\n")
    proc.stdin.flush()
    if proc.stdout.readline().strip() != "shown":
        raise RuntimeError("the box did not show the roll")


def _until(condition: Any, seconds: float = 30.0) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            raise RuntimeError("the box did not show a new frame")
        time.sleep(0.002)


def _vmrss(pid: int) -> tuple[float, float]:
    """The process's resident set and the anonymous part of it (its own heap, not shared libraries), in MB."""
    fields = dict(line.split(":", 1) for line in Path(f"/proc/{pid}/status").read_text().splitlines())
    return int(fields["VmRSS"].split()[0]) / 1024, int(fields["RssAnon"].split()[0]) / 1024


def _free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _stop_box(proc: subprocess.Popen[str]) -> None:
    """Ask a measured box to quit as the table would (``quit`` on its stdin), killed if it does not within 20 s."""
    with contextlib.suppress(OSError):
        assert proc.stdin is not None
        proc.stdin.write("quit\n")
        proc.stdin.flush()
    try:
        proc.wait(20)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait(5)
