"""The table warp done in parts: after each of a real Kansas game's frames (cursor moves, rolls, the overlay
turned on and off) the warp built from the changed rectangles alone equals a whole warp of the same frame,
pixel for pixel, on the warped surface and on the screen the view updates rectangle by rectangle; the boxes
a changed rectangle reaches hold every projector pixel that shows it."""

from __future__ import annotations

import random

import numpy as np
import pygame
import pytest

from companion.commands.snapshot import frame_for
from companion.dice import DiceSource
from companion.games import load_game
from companion.session.choices import options_for
from companion.views.projector.renderer import ProjectorRenderer
from companion.views.projector.view import ProjectorView
from companion.views.projector.warp import Calibration, TableProjection, Warp, merge_boxes, project

SIZE = (960, 540)
TRUE_H = np.array([[0.92, 0.06, 40.0], [-0.03, 0.88, 30.0], [0.00004, -0.00006, 1.0]])
CORNERS = [(80, 70), (820, 90), (800, 470), (60, 500)]


def calibration() -> Calibration:
    return Calibration({"kansas": tuple((x, y, *project(TRUE_H, [(x, y)])[0]) for x, y in CORNERS)}, SIZE)


def changed_rects(before: np.ndarray, after: np.ndarray, tile: int) -> list[tuple[int, int, int, int]]:
    """The (x, y, w, h) rectangles of ``tile``-pixel tiles holding a changed pixel of two (rows, columns)
    pictures, each row of tiles merged into runs: a second source of rectangles besides the renderer's."""
    h, w = after.shape
    th, tw = -(-h // tile), -(-w // tile)
    diff = np.zeros((th * tile, tw * tile), bool)
    diff[:h, :w] = before != after
    tiles = np.asarray(diff.reshape(th, tile, tw, tile).any(axis=(1, 3)))
    rects = []
    for ty in np.flatnonzero(tiles.any(axis=1)):
        row = np.concatenate([[False], tiles[ty], [False]])
        edges = np.flatnonzero(row[1:] != row[:-1])
        for a, b in zip(edges[::2], edges[1::2], strict=True):
            rects.append((int(a) * tile, int(ty) * tile, int(b - a) * tile, tile))
    return rects


def pixels(surface) -> np.ndarray:
    return pygame.surfarray.array2d(surface).T.copy()


def game_frames(game, steps: int):
    """Frames of a Kansas game as the box shows them: after each event a few cursor moves over the board's
    hexes, the overlay turned on for a stretch and off again."""
    dice, rng = DiceSource(4), random.Random(4)
    state = game.new_game({"players": 4})
    hexes = sorted(game.board.terrain)
    overlay = False
    for step in range(steps):
        for _ in range(2):
            yield "cursor", frame_for(game, state, overlay=overlay, cursor=rng.choice(hexes))
        if step % 7 == 3:
            overlay = not overlay
            yield "overlay", frame_for(game, state, overlay=overlay)
        prompt = game.prompt(state)
        if prompt.done:
            return
        event, kind = dice.answer(prompt), "roll"
        if event is None:
            event, kind = options_for(game, state, prompt)[0].event, "choice"
        state = game.apply(state, event)
        yield kind, frame_for(game, state, overlay=overlay)


def test_the_warp_in_parts_equals_the_whole_warp_after_a_game_of_frames():
    pygame.font.init()
    game = load_game("kansas")
    renderer = ProjectorRenderer(SIZE)
    by_renderer = TableProjection(calibration(), SIZE)  # the box's path: the renderer's own dirty list
    by_diff = TableProjection(calibration(), SIZE)  # a renderer that reports a roll's rectangles alone
    whole = TableProjection(calibration(), SIZE)
    before = None
    kinds = set()
    for kind, frame in game_frames(game, 40):
        renderer.render(frame)
        after = pixels(renderer.surface)
        rects = changed_rects(before, after, 16) if before is not None else [renderer.surface.get_rect()]
        before = after
        partial_before = by_diff.partial_warps
        a = pixels(by_renderer.project(renderer, frame))
        b = pixels(by_diff.project(renderer, frame, rects))
        c = pixels(whole.project(renderer, frame, [renderer.surface.get_rect()]))
        assert (a == c).all() and (b == c).all(), kind
        if by_diff.partial_warps > partial_before:
            kinds.add(kind)
            total = sum(r.w * r.h for r in by_diff.dirty)
            assert total < 0.5 * SIZE[0] * SIZE[1]
    assert {"cursor", "roll"} <= kinds  # both were done in parts, not by the whole warp
    assert by_renderer.partial_warps > 0 and whole.partial_warps == 0
    assert c.any() and not c[:20].any()  # something lit; the top rows (off the board) black


def test_the_view_updates_only_the_warped_boxes_and_the_screen_matches_the_whole_warp(monkeypatch):
    monkeypatch.setenv("SDL_VIDEODRIVER", "offscreen")
    pygame.display.init()
    try:
        screen = pygame.display.set_mode(SIZE)
        game = load_game("kansas")
        view = ProjectorView(ProjectorRenderer(SIZE), screen, TableProjection(calibration(), SIZE))
        whole = TableProjection(calibration(), SIZE)
        updated: list[list[pygame.Rect]] = []
        real_update = pygame.display.update
        monkeypatch.setattr(pygame.display, "update", lambda rects: (updated.append(list(rects)),
                                                                     real_update(rects)))
        for kind, frame in game_frames(game, 12):
            view.show(frame)
            expected = pixels(whole.project(view.renderer, frame, [view.renderer.surface.get_rect()]))
            assert (pixels(screen) == expected).all(), kind
        small = [u for u in updated if sum(r.w * r.h for r in u) < 0.1 * SIZE[0] * SIZE[1]]
        assert small and all(r != screen.get_rect() for u in small for r in u)  # cursor moves: a few boxes
    finally:
        pygame.display.quit()


@pytest.mark.parametrize("rect", [(300, 200, 1, 1), (100, 60, 200, 40), (700, 400, 30, 90), (0, 30, 960, 40)])
def test_the_boxes_of_a_rectangle_hold_every_projector_pixel_that_shows_it(rect):
    warp = Warp(TRUE_H, SIZE, SIZE, (20, 40, 900, 480))
    x, y, w, h = rect
    shows = warp.onboard & (warp.src_x >= x) & (warp.src_x < x + w) & (warp.src_y >= y) & (warp.src_y < y + h)
    boxes = warp.boxes_of([rect])
    held = np.zeros_like(shows)
    for x0, y0, x1, y1 in boxes:
        held[y0:y1, x0:x1] = True
    assert shows.any() and not (shows & ~held).any()
    assert sum((b[2] - b[0]) * (b[3] - b[1]) for b in boxes) <= (w + 8) * (h + 8) * 1.3  # and little more


def test_a_rectangle_off_the_map_reaches_nothing_and_overlapping_boxes_join():
    warp = Warp(TRUE_H, SIZE, SIZE, (20, 40, 900, 480))
    assert warp.boxes_of([(0, 0, 960, 40), (920, 40, 40, 480)]) == []  # the status strip, the side panel
    assert merge_boxes([(0, 0, 10, 10), (5, 0, 15, 10), (40, 40, 50, 50)]) == [(0, 0, 15, 10), (40, 40, 50, 50)]
    assert merge_boxes([(0, 0, 100, 2), (98, 0, 100, 100)]) == [(0, 0, 100, 2), (98, 0, 100, 100)]  # an L
