"""Eight phones and the box's buttons acting at once on the real box, for a bounded time (15 s here;
``REMOTE_SOAK_SECONDS=600`` for the ten-minute run of docs/remote.md): every accepted event is journaled once
(the journal, resumed in a new session, is the live game), no frame is acted on twice, nothing is logged as an
error, and at the end every phone shows the projector's frame."""

from __future__ import annotations

import asyncio
import gc
import io
import json
import logging
import os
import random
import threading
import time

import aiohttp
import pygame
from PIL import Image
from remote_box import Box

from companion.inputs import Decide, Hold, Press, Roll
from companion.journal import Journal
from companion.remote.source import SPENT_FOR
from companion.session.core import Session

SECONDS = float(os.environ.get("REMOTE_SOAK_SECONDS", "15"))
PHONES = 8


async def phone(box, index, stop, final, seen, rng):
    async with aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True)) as s:
        r = await s.post(f"{box.url}/join", json={"code": box.code, "seat": ""}, headers={"Origin": box.url})
        csrf = (await r.json())["csrf"]
        async with s.ws_connect(f"{box.url}/ws?csrf={csrf}", origin=box.url) as ws:
            state = None
            acted, calm = -1, 0.0
            while not stop.is_set():
                try:
                    msg = await ws.receive(timeout=0.5)
                except TimeoutError:
                    msg = None
                if msg is not None and msg.type == aiohttp.WSMsgType.TEXT:
                    data = json.loads(msg.data)
                    if data["t"] == "state":
                        state = data
                        seen[index] = (data["frame"], seen[index][1])
                    continue
                if msg is not None and msg.type == aiohttp.WSMsgType.BINARY:
                    seen[index] = (seen[index][0], msg.data)
                elif msg is not None:
                    raise AssertionError(f"phone {index} closed: {msg}")
                if state is None or state["frame"] == acted or rng.random() < 0.3 or time.monotonic() < calm:
                    continue  # a person taps once per picture at most, and a few times a second
                if state["dice"]:
                    message = {"t": "dice", "dice": [[k, rng.randint(1, 6)] for k in state["dice"]]}
                elif state["options"]:
                    message = {"t": "pick", "option": rng.choice(playing_on(state["options"]))}
                elif state["question"]:
                    message = {"t": "answer", "yes": rng.random() < 0.5}
                elif state["undo"] and rng.random() < 0.05:
                    message = {"t": "undo"}
                else:
                    continue
                if not stop.is_set():  # the wait above may have outlasted the end
                    acted, calm = state["frame"], time.monotonic() + rng.uniform(0.12, 0.3)
                    await ws.send_str(json.dumps({**message, "frame": acted}))
            while not final.is_set():  # the end: keep reading until the box has gone quiet and all agree
                try:
                    msg = await ws.receive(timeout=0.1)
                except TimeoutError:
                    continue
                if msg.type == aiohttp.WSMsgType.TEXT and json.loads(msg.data)["t"] == "state":
                    seen[index] = (json.loads(msg.data)["frame"], seen[index][1])
                elif msg.type == aiohttp.WSMsgType.BINARY:
                    seen[index] = (seen[index][0], msg.data)


def agreed(box, seen):
    count = box.remote.view.count
    return all(frame == count and picture is not None and int.from_bytes(picture[:8], "big") == count
               for frame, picture in seen)


ENDS_THE_GAME = ("End game", "End: final scoring")
"""The labels of the options that end a game at once (Allegheny's, Carcassonne's; Kansas's on its last turn)."""


def playing_on(options):
    """The options a phone picks from: the table plays on, so not one that ends the game at once (a round of a
    few seconds could end before the buttons pressed anything), unless nothing else is offered."""
    going = [i for i, o in enumerate(options) if not o["label"].startswith(ENDS_THE_GAME)]
    return going or list(range(len(options)))


def buttons(box, stop, rng, pressed):
    while not stop.wait(rng.uniform(0.02, 0.2)):
        button = rng.choice(("ROLL", "ROLL", "ROLL", "DOWN", "UP"))
        box.table.driver.press(button)  # through the mock pins and the real Buttons code
        pressed.append(button)


GAMES = (("kansas", {"players": 4}), ("carcassonne", {"players": 3, "board": "tiles", "river": "no"}),
         ("allegheny", {"players": 4}))


def test_eight_phones_and_the_buttons_at_once(tmp_path, caplog):
    """Rounds of a game each (Kansas, Carcassonne, Allegheny in turn) until the time is up."""
    caplog.set_level(logging.WARNING)
    end = time.monotonic() + SECONDS
    rounds = []
    while not rounds or time.monotonic() < end:
        game, options = GAMES[len(rounds) % len(GAMES)]
        folder = tmp_path / f"round{len(rounds)}"
        folder.mkdir()
        rounds.append(play_round(folder, game, options, max(5.0, end - time.monotonic()), len(rounds)))
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR or r.exc_info]
    total = [sum(r[i] for r in rounds) for i in range(5)]
    assert total[0] > 20 and total[1] > 20, total
    print(f"\nload: {SECONDS:g} s, {len(rounds)} games, {total[0]} events live, {total[1]} phone inputs, "
          f"{total[2]} button presses, {total[3]} phone actions refused, {total[4]} frames")


def play_round(tmp_path, game, options, seconds, seed):
    box = Box(tmp_path, game, options)
    taken: list[tuple[int, float, object]] = []
    put = box.remote.inputs._put

    def recording(item):
        if isinstance(item, Decide | Roll | Hold | Press):
            taken.append((box.remote.inputs.snapshot.frame, time.monotonic(), item))
        put(item)

    box.remote.inputs._put = recording
    stop = threading.Event()
    final = threading.Event()
    pressed: list[str] = []
    seen = [(-1, None)] * PHONES
    rng = random.Random(seed)
    presser = threading.Thread(target=buttons, args=(box, stop, random.Random(seed + 1000), pressed), daemon=True)
    try:
        async def all_phones():
            tasks = [asyncio.ensure_future(phone(box, i, stop, final, seen, random.Random(rng.random())))
                     for i in range(PHONES)]
            presser.start()
            end = time.monotonic() + seconds
            while time.monotonic() < end and not box.table.session.current.prompt().done:
                done = [t for t in tasks if t.done()]
                for t in done:
                    t.result()  # a phone that failed fails the test now
                await asyncio.sleep(0.1)
            stop.set()
            presser.join(5)
            for _ in range(50):  # quiet: two turns of the loop with no input, every phone on the last frame, still
                quiet = box.table.loop.quiet_turns
                while box.table.loop.quiet_turns < quiet + 2:
                    await asyncio.sleep(0.02)
                count = box.remote.view.count
                deadline = time.monotonic() + 20
                while not agreed(box, seen):
                    assert time.monotonic() < deadline, "a phone is behind"
                    await asyncio.sleep(0.02)
                if box.remote.view.count == count and box.table.loop.quiet_turns >= quiet + 2:
                    break
            final.set()
            await asyncio.gather(*tasks)

        asyncio.run(asyncio.wait_for(all_phones(), seconds + 120))
        live = len(box.table.session.current.live)
        game_id = box.table.session.current.game_id
        digest = box.table.session.digest()
        surface = pygame.image.tobytes(box.projector.renderer.surface, "RGB")
        for frame, picture in seen:  # every phone shows the projector's frame
            assert frame == box.remote.view.count
            assert Image.open(io.BytesIO(picture[8:])).convert("RGB").tobytes() == surface
        by_frame: dict[int, float] = {}
        for frame, when, item in taken:  # one action per frame, unless the frame stood still for SPENT_FOR
            if frame in by_frame and not isinstance(item, Press):
                assert when - by_frame[frame] >= SPENT_FOR - 0.01, f"frame {frame} acted on twice"
            by_frame[frame] = when
        assert live and taken and pressed, (live, len(taken), len(pressed))
    finally:
        stop.set()
        box.close()
    try:
        with Journal(tmp_path / "journal.sqlite") as journal:  # every accepted event on disk, once, in order
            again = Session(journal)
            again.resume(next(g for g in journal.games() if g.id == game_id))
            assert again.digest() == digest and len(again.current.live) == live
    finally:
        gc.unfreeze()  # a resume from a snapshot freezes every object alive, this round's phones' too
    return live, len(taken), len(pressed), box.remote.inputs.refused, box.remote.view.count
