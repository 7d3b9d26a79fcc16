"""The projector drawing onto the printed board, at 1080p: the warp after a roll (only the projector boxes a
roll's changed rectangles reach), the whole picture (first frame, another game, the overlay turned on or
off), the same without the mask, and the index map built once per calibration.

The warp is the last step of every frame shown on a calibrated table. After a roll it must stay a small part
of the frame budget (issue 16): at most 4 ms. The roll's frames come from a real Kansas game played on the
box's parts (``build_table``: the session, its loop, the ROLL button, decisions through the buttons) and are
drawn by the real ProjectorRenderer into a ProjectorView whose TableProjection is timed, warping the
rectangles the renderer reports as changed (``renderer.dirty``), as the box does. A whole warp happens once per game or
overlay change, and after every roll with the risk overlay on (the heat moves across the whole board); its
target is the build machine's figure with room for a machine shared with other work: on a Pi 4 (about four
times slower) that is a few frames late at a game change, never one during play with the overlay off.
"""

from __future__ import annotations

import tempfile
import time
from pathlib import Path
from typing import Any

import numpy as np

from benchmarks._table import Row, percentile, summary, time_calls
from companion.commands.snapshot import frame_for, seeded_state
from companion.games import load_game

SIZE = (1920, 1080)
REPEAT = 40
ROLLS = 150
FULL_TARGET = 20.0
"""A whole warp: the first frame, another game or board, the overlay on or off (ms, p99)."""
PAIRS = ((160.0, 140.0, 70.0, 60.0), (1640.0, 180.0, 1870.0, 40.0), (1600.0, 940.0, 1830.0, 1050.0),
         (120.0, 1000.0, 90.0, 1020.0))
"""A projector a little off square above the board: the board fills most of its picture."""


class _TimedTable:
    """The view's TableProjection, timed: the warp of each frame from the renderer's changed rectangles."""

    def __init__(self, table: Any) -> None:
        self.table = table
        self.samples: list[float] | None = None
        self.cpu: list[float] = []
        """The loop thread's CPU time of each timed warp: a wall time far above it is the machine's other work."""
        self.boxes: list[int] = []

    @property
    def dirty(self) -> list[Any]:
        return self.table.dirty

    def project(self, renderer: Any, frame: Any) -> Any:
        start, cpu = time.perf_counter(), time.thread_time()
        out = self.table.project(renderer, frame, renderer.dirty)
        took, cpu = (time.perf_counter() - start) * 1000, (time.thread_time() - cpu) * 1000
        if self.samples is not None and out is not None:
            self.samples.append(took)
            self.cpu.append(cpu)
            self.boxes.append(len(self.table.dirty))
        return out


def roll_rows(area: str, overlay: bool = False) -> list[Row]:
    """A Kansas game on the box's parts: ``rolls`` rolls, each warped from its changed rectangles."""
    import random

    from benchmarks.bench_service import _decide
    from companion.journal import Journal
    from companion.sim import build_table, sim_config
    from companion.views.projector import ProjectorRenderer
    from companion.views.projector.view import ProjectorView
    from companion.views.projector.warp import Calibration, TableProjection

    timed = _TimedTable(TableProjection(Calibration({"kansas": PAIRS}, SIZE), SIZE))
    view = ProjectorView(ProjectorRenderer(SIZE), None, timed)
    rolls: list[float] = []
    rng = random.Random(5)
    with tempfile.TemporaryDirectory(prefix="bench-warp-") as tmp, Journal(Path(tmp) / "j.sqlite") as journal, \
            build_table(journal, sim_config(headless=True), views=[view]) as table:
        session, loop = table.session, table.loop

        def settle(condition: Any) -> None:
            deadline = time.monotonic() + 10
            while not condition():
                if time.monotonic() > deadline:
                    raise RuntimeError(f"the table did not answer: {session.panel.message!r}")
                loop.step(timeout=0.05)

        session.start("kansas", {"players": 4}, resume=False)
        session.overlay = overlay
        session.refresh()
        loop.show()
        while len(rolls) < ROLLS:
            run = session.current
            assert run is not None
            prompt = session.prompt()
            if prompt is not None and prompt.done:
                session.new_game("kansas", {"players": 4})
                session.refresh()
                loop.show()
                continue
            if not session.wanted():
                _decide(session, table, settle, rng)
                continue
            before, shown = len(run.live), view.shown
            timed.samples = rolls
            table.driver.press("ROLL")
            settle(lambda shown=shown, run=run, before=before: view.shown > shown and len(run.live) > before)
            timed.samples = None
    if overlay:  # the heat map moves across the board with each roll: many boxes, often a whole warp
        return summary(area, "warp, a roll with the risk overlay on at 1080p", rolls, f"<= {FULL_TARGET:g}",
                       p99=FULL_TARGET)
    return [*summary(area, "warp, a roll's changed rectangles at 1080p", rolls, "<= 4", p99=4.0),
            Row(area, "warp, a roll's changed rectangles, CPU time p99", percentile(timed.cpu, 99), "ms",
                "the loop thread's own time (wall minus waiting for a core)"),
            Row(area, "warp, a roll's projector boxes (mean)", float(np.mean(timed.boxes)), "boxes")]


def run() -> list[Row]:
    import pygame

    from companion.views.projector import ProjectorRenderer
    from companion.views.projector.warp import Calibration, TableProjection, Warp

    pygame.font.init()
    area = "projector_warp"
    rows = roll_rows(area) + roll_rows(area, overlay=True)
    game = load_game("kansas")
    frame = frame_for(game, seeded_state(game, 3, 11))
    renderer = ProjectorRenderer(SIZE)
    renderer.render(frame)
    table = TableProjection(Calibration({"kansas": PAIRS}, SIZE), SIZE)
    homography = table.calibration.for_game("kansas", SIZE)
    assert homography is not None
    rows += summary(area, "index map built (once per calibration)", time_calls(
        lambda: Warp(homography * 1, SIZE, SIZE, renderer.layout.map.as_tuple()),
        5), p99=2000.0)
    table.project(renderer, frame)  # the index map and the bare board, once

    def whole() -> Any:
        table._synced = None  # as after another game or a frame drawn flat: nothing to build on
        return table.project(renderer, frame)

    rows += summary(area, "warp, the whole picture 1080p (board masked)", time_calls(whole, REPEAT),
                    p99=FULL_TARGET)
    warp = table.warp_for("kansas", renderer.layout.map.as_tuple())
    assert warp is not None
    out = pygame.Surface(SIZE, 0, renderer.surface)
    rows += summary(area, "warp alone, the whole picture 1080p (no mask)",
                    time_calls(lambda: warp.apply(renderer.surface, out), REPEAT), p99=FULL_TARGET)

    return rows
