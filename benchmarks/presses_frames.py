"""A press to its pictures at small and full boards, for the presses area: OLED image + 1080p projector frame.

Each game is played by the presses area's own table (:mod:`benchmarks.presses_play`) to a small board (a few turns
in) and to its full board (played to its end, then undone back to its last decision with a choice to make:
Carcassonne with every tile but the last laid, Age of Industry's Japan and Minnesota as built as a game gets,
Allegheny's late game). There, arrow presses (seeded, any of the four) go through ``Session.handle``, and each
sample runs from the press to the OLED image through luma's ssd1306 driver (its ``noop`` interface: the packing is
timed, the I2C wire is not) and the projector's frame from the real renderer at 1920x1080 (SDL's offscreen driver),
as the buttons_oled and projector areas draw them. Presses only move the cursor here: no event is entered, so the
figure is what a table waits for while it points.
"""

from __future__ import annotations

import importlib
import random
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from benchmarks._table import Row, percentile
from benchmarks.presses_play import play

SIZE = (1920, 1080)
PRESSES = 200
"""Timed presses per game and board size."""
ARROWS = ("UP", "DOWN", "LEFT", "RIGHT")
DECISIONS = 4
"""Decisions the presses are spread over (the last ones of the board: undone back one by one)."""
WARM = 10
"""Untimed presses first, in each process's renderer and display."""


@dataclass(frozen=True)
class Board:
    """A game and board size to time presses at."""

    name: str
    game: str
    options: dict[str, Any]
    small: Callable[[Any], bool]
    """Where the small board is: the first decision at which this holds of the state."""
    full: Callable[[Any], bool] | None = None
    """Where the full board is, when not at the game's end: the first decision at which this holds."""
    builder: str = ""
    """A table of ``benchmarks.bench_presses`` that fills the board, for the full board (default: the game's own)."""


INDUSTRY_TURNS = 80
"""Turns of building after which both Age of Industry maps are full (seed 1: every building space and every link,
68 and 28 on Japan, 47 and 42 on Minnesota)."""

BOARDS = (
    Board("Carcassonne", "carcassonne", {"players": 3}, lambda s: len(s.board) >= 10),
    Board("Age of Industry, Japan", "industry", {"map": "Japan", "players": 3}, lambda s: s.turn >= 4,
          lambda s: s.turn >= INDUSTRY_TURNS, "industry_builder"),
    Board("Age of Industry, Minnesota", "industry", {"map": "Minnesota", "players": 3}, lambda s: s.turn >= 4,
          lambda s: s.turn >= INDUSTRY_TURNS, "industry_builder"),
    Board("Allegheny", "allegheny", {"players": 3}, lambda s: s.phase != "offering" and len(s.tracks) >= 3),
    Board("Kansas", "kansas", {"players": 4}, lambda s: s.turn >= 2),
    Board("Stormfury", "stormfury", {"players": 2}, lambda s: s.turn >= 2),
)


def back_to_a_choice(session: Any) -> None:
    """Undo back to the latest decision that offers a choice (from a game played to its end, or just after one)."""
    while True:
        run = session.current
        if run.live and (run.prompt().done or len(session.options()) < 2 or session.wanted()):
            session.undo()
            continue
        session.refresh()
        return


def time_presses(session: Any, presses: int, seed: int, decisions: int = 1) -> list[tuple[float, float]]:
    """Milliseconds from each arrow press to its OLED image through ssd1306 and its 1080p projector frame (wall
    time, and the CPU time of the thread beside it: on a shared machine the wall's tail is mostly waiting for a
    core), at the decision open now and (undoing back) at the ``decisions - 1`` before it, the same share at each.

    The loop's own garbage collection is used (off while a press is drawn, the collections due run between
    presses, as in the loop's quiet turn between a table's presses), and a few presses are made untimed first
    (the fonts' and surfaces' first use in this process, not a press's cost)."""
    from luma.core.interface.serial import noop
    from luma.oled.device import ssd1306

    from companion.inputs import Press
    from companion.session.collector import collect_due, take_over
    from companion.views.oled import render
    from companion.views.projector import ProjectorRenderer
    from hardware.oled import Display

    rng = random.Random(seed)
    display = Display(device=ssd1306(noop()), background=False)
    renderer = ProjectorRenderer(SIZE)
    renderer.render(session.frame)  # the board drawn once, as when the game came on the table
    display.show(render(session.panel))

    def press() -> tuple[float, float]:
        button = rng.choice(ARROWS)
        cpu = time.thread_time()
        start = time.perf_counter()
        session.handle(Press(button))
        if not display.show(render(session.panel)):
            raise RuntimeError("the ssd1306 driver refused an image")
        renderer.render(session.frame)
        took = (time.perf_counter() - start) * 1000, (time.thread_time() - cpu) * 1000
        collect_due()
        return took

    samples: list[tuple[float, float]] = []
    give_back = take_over()
    try:
        for _ in range(WARM):
            press()
        for n in range(decisions):
            if n:
                session.undo()
                back_to_a_choice(session)
                renderer.render(session.frame)
                display.show(render(session.panel))
            samples += [press() for _ in range(presses // decisions)]
    finally:
        give_back()
        display.close()
    return samples


def frame_rows(area: str, scripts: dict[str, Any], seed: int = 1) -> list[Row]:
    import pygame

    from companion.journal import Journal
    from companion.session import Session

    pygame.font.init()
    rows: list[Row] = []
    for board in BOARDS:
        script = scripts[board.game]
        got: dict[str, tuple[list[tuple[float, float]], int]] = {}
        for size in ("small", "full"):
            with tempfile.TemporaryDirectory(prefix="bench-press-frames-") as tmp, \
                    Journal(Path(tmp) / "journal.sqlite") as journal:
                session = Session(journal)
                stop = board.small if size == "small" else board.full
                table = script.table() if size == "small" or not board.builder else \
                    getattr(importlib.import_module("benchmarks.bench_presses"), board.builder)()
                played = play(session, board.game, board.options, seed=seed, turn_of=script.turn_of,
                              choose=table, stop=stop, max_presses=100_000)
                if size == "full":
                    if board.full is None and not played.finished:
                        raise RuntimeError(f"{board.name}: the game did not end")
                    back_to_a_choice(session)
                session.refresh()
                events = len(session.current.live)
                got[size] = (time_presses(session, PRESSES, seed, DECISIONS), events)
        small_pairs, small_events = got["small"]
        full_pairs, full_events = got["full"]
        small, full = [w for w, _ in small_pairs], [w for w, _ in full_pairs]
        full_cpu = [c for _, c in full_pairs]
        what = f"{board.name}: arrow press -> OLED + 1080p frame"
        rows += [
            Row(area, f"{what}, small board ({small_events} events) p50", percentile(small, 50), "ms"),
            Row(area, f"{what}, small board ({small_events} events) p99", percentile(small, 99), "ms"),
            Row(area, f"{what}, full board ({full_events} events) p50", percentile(full, 50), "ms"),
            Row(area, f"{what}, full board ({full_events} events) p99", percentile(full, 99), "ms", most=4.0),
            Row(area, f"{what}, full board, CPU time p99", percentile(full_cpu, 99), "ms",
                "the press's own time (wall minus waiting for a core)"),
            Row(area, f"{board.name}: growth small -> full board, p50", percentile(full, 50) /
                max(percentile(small, 50), 1e-9), "x"),
        ]
    return rows
