"""Projector frame times at 1080p, for each game: a full frame (a new state: the map layer rebuilt over
the cached board), the same with the risk overlay (the engine's exact risk included), the first frame
of a game (the board itself drawn), and the incremental updates (cursor move, new status line).

A full frame must stay well under the time people notice between a roll and the map (100 ms);
an incremental update should be a few milliseconds, so moving the cursor feels immediate.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from benchmarks._table import Row, summary, time_calls
from companion.commands.snapshot import frame_for, seeded_state
from companion.games import game_keys, load_game

SIZE = (1920, 1080)
REPEAT = 25


def _game_rows(key: str) -> list[Row]:
    import pygame

    from companion.views.projector import ProjectorRenderer

    pygame.font.init()
    game = load_game(key)
    states = [seeded_state(game, seed, 8) for seed in range(1, 6)]
    frames = [frame_for(game, s) for s in states]
    renderer = ProjectorRenderer(SIZE)
    renderer.render(frames[0])
    area = f"projector_{key}"
    rows: list[Row] = []
    turn = iter(range(10**6))

    def full() -> Any:  # a new state object each call: the map layer is rebuilt
        i = next(turn)
        frame = frames[i % len(frames)]
        return renderer.render(replace(frame, state=replace(frame.state)))

    rows += summary(area, "full frame 1080p", time_calls(full, REPEAT), p99=100.0)

    def with_overlay() -> Any:
        i = next(turn)
        frame = frames[i % len(frames)]
        return renderer.render(replace(frame, state=replace(frame.state), overlay=True))

    rows += summary(area, "full frame + risk overlay", time_calls(with_overlay, REPEAT), p99=150.0)
    rows += summary(area, "first frame (board drawn)", time_calls(lambda: ProjectorRenderer(SIZE).render(frames[0]),
                                                                   8), p99=300.0)
    base = frames[1]
    renderer.render(base)
    areas = sorted(renderer.board_for(game).data.terrain, key=repr)  # hexes, cells: whatever the board's shape
    cursors = [areas[i * 7 % len(areas)] for i in range(40)] if areas else [None]
    moves = iter(range(10**6))

    def cursor_move() -> Any:
        return renderer.render(replace(base, cursor=cursors[next(moves) % len(cursors)]))

    rows += summary(area, "incremental: cursor move", time_calls(cursor_move, 60), p99=10.0)
    messages = iter(range(10**6))

    def status_change() -> Any:
        return renderer.render(replace(base, panel=replace(base.panel, message=f"need D8, got D6={next(messages)}")))

    rows += summary(area, "incremental: status line", time_calls(status_change, 60), p99=10.0)
    return rows


def _kansas_forecast_rows() -> list[Row]:
    """Kansas while the forecaster picks a start: the side panel ranks the 8 choices by exact risk.
    The first such frame in a process also builds the risk chain (the cold row)."""
    from companion.views.projector import ProjectorRenderer

    game = load_game("kansas")
    state = seeded_state(game, 7, 20, {"forecaster": 2})
    frame = frame_for(game, state)
    renderer = ProjectorRenderer(SIZE)
    area = "projector_kansas"
    fresh = iter([frame_for(load_game("kansas"), state) for _ in range(3)])  # each game builds its own chain
    rows = summary(area, "forecast choice, cold (chain built)",
                   time_calls(lambda: ProjectorRenderer(SIZE).render(next(fresh)), 3), p99=1000.0)
    renderer.render(frame)
    rows += summary(area, "forecast choice frame", time_calls(
        lambda: renderer.render(replace(frame, state=replace(frame.state))), REPEAT), p99=100.0)
    return rows


def run() -> list[Row]:
    rows: list[Row] = []
    for key in game_keys():
        try:
            rows += _game_rows(key)
        except ImportError:  # an engine not installed here: nothing to draw
            continue
    if "kansas" in game_keys():
        rows += _kansas_forecast_rows()
    return rows
