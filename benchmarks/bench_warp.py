"""The projector drawing onto the printed board, at 1080p: the warp of one frame (the index map applied and
the bare board masked out), the same without the mask, and the index map built once per calibration.

The warp is the last step of every frame shown on a calibrated table, so it must stay a small part of the
frame budget: at most 4 ms. Building the map happens once per calibration, game and resolution.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from benchmarks._table import Row, summary, time_calls
from companion.commands.snapshot import frame_for, seeded_state
from companion.games import load_game

SIZE = (1920, 1080)
REPEAT = 40
PAIRS = ((160.0, 140.0, 70.0, 60.0), (1640.0, 180.0, 1870.0, 40.0), (1600.0, 940.0, 1830.0, 1050.0),
         (120.0, 1000.0, 90.0, 1020.0))
"""A projector a little off square above the board: the board fills most of its picture."""


def run() -> list[Row]:
    import pygame

    from companion.views.projector import ProjectorRenderer
    from companion.views.projector.warp import Calibration, TableProjection, Warp

    pygame.font.init()
    game = load_game("kansas")
    frame = frame_for(game, seeded_state(game, 3, 11))
    renderer = ProjectorRenderer(SIZE)
    renderer.render(frame)
    table = TableProjection(Calibration({"kansas": PAIRS}, SIZE), SIZE)
    area = "projector_warp"
    homography = table.calibration.for_game("kansas", SIZE)
    assert homography is not None
    rows = summary(area, "index map built (once per calibration)", time_calls(
        lambda: Warp(homography * 1, SIZE, SIZE, renderer.layout.map.as_tuple()),
        5), p99=2000.0)
    table.project(renderer, frame)  # the index map and the bare board, once
    rows += summary(area, "warped frame 1080p (board masked)", time_calls(lambda: table.project(renderer, frame),
                                                                          REPEAT), p99=4.0)
    warp = table.warp_for("kansas", renderer.layout.map.as_tuple())
    assert warp is not None
    out = pygame.Surface(SIZE, 0, renderer.surface)
    rows += summary(area, "warp alone 1080p (no mask)", time_calls(lambda: warp.apply(renderer.surface, out),
                                                                   REPEAT), p99=4.0)

    def rendered_and_warped() -> Any:  # a new state: the map layer rebuilt, then warped
        renderer.render(replace(frame, state=replace(frame.state)))
        return table.project(renderer, frame)

    rows += summary(area, "new state drawn + warped 1080p", time_calls(rendered_and_warped, 15), p99=100.0)
    return rows
