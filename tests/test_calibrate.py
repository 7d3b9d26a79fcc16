"""Storms on the table itself: the perspective transform from four point pairs, the warped frame (board
points where they belong, black off the board, the printed board itself unlit), the configuration and
``companion calibrate`` driven by posted key and mouse events."""

from __future__ import annotations

import numpy as np
import pygame
import pytest

from companion.cli import main
from companion.commands.calibrate import Marks
from companion.commands.snapshot import frame_for
from companion.config import load_config, to_toml
from companion.errors import DataError
from companion.games import load_game
from companion.views.projector.renderer import ProjectorRenderer
from companion.views.projector.warp import (
    Calibration,
    TableProjection,
    Warp,
    fit_homography,
    load_calibration,
    project,
    write_calibration,
)

SIZE = (960, 540)
TRUE_H = np.array([[0.92, 0.06, 40.0], [-0.03, 0.88, 30.0], [0.00004, -0.00006, 1.0]])
"""A projector a little off square above the table: tilted, turned, its picture foreshortened."""


def test_four_pairs_fit_the_transform_and_board_points_land_within_a_pixel():
    src = [(80.0, 70.0), (820.0, 90.0), (800.0, 470.0), (60.0, 500.0)]
    h = fit_homography(src, project(TRUE_H, src))
    assert np.allclose(project(h, src), project(TRUE_H, src), atol=1e-6)  # exact on the four
    grid = [(x, y) for x in range(0, 960, 37) for y in range(0, 540, 29)]  # every other point of the frame
    assert np.abs(project(h, grid) - project(TRUE_H, grid)).max() < 1.0


def test_three_points_in_a_line_fit_nothing():
    with pytest.raises(ValueError, match="three of the four points lie on one line"):
        fit_homography([(0, 0), (10, 10), (20, 20), (0, 30)], [(0, 0), (1, 0), (1, 1), (0, 1)])


@pytest.fixture
def kansas_frame():
    pygame.font.init()
    game = load_game("kansas")
    from companion.commands.snapshot import seeded_state

    state = seeded_state(game, 3, 11)  # a tornado on the map: markers and a track
    renderer = ProjectorRenderer(SIZE)
    frame = frame_for(game, state)
    renderer.render(frame)
    return game, state, frame, renderer


def inside_polygon(points, polygon):
    """Whether each (x, y) lies inside a convex polygon (corners in order), by the sign of the cross products."""
    p = np.asarray(points, dtype=float)
    signs = []
    for (ax, ay), (bx, by) in zip(polygon, np.roll(polygon, -1, axis=0), strict=True):
        signs.append((bx - ax) * (p[:, 1] - ay) - (by - ay) * (p[:, 0] - ax))
    s = np.array(signs)
    return np.all(s >= 0, axis=0) | np.all(s <= 0, axis=0)


def test_the_warped_frame_puts_the_marks_on_the_board_and_is_black_elsewhere(kansas_frame):
    game, state, frame, renderer = kansas_frame
    layout = renderer.layout
    hexes = sorted(layout.shape.centre(h) for h in game.board.terrain) if hasattr(layout, "shape") else []
    assert hexes
    table = TableProjection(Calibration({"kansas": tuple((x, y, *project(TRUE_H, [(x, y)])[0])
                                                          for x, y in [(80, 70), (820, 90), (800, 470), (60, 500)])},
                                        SIZE), SIZE)
    out = table.project(renderer, frame)
    pixels = pygame.surfarray.array3d(out).transpose(1, 0, 2)  # [y, x, rgb]
    m = layout.map
    quad = project(TRUE_H, [(m.x, m.y), (m.x + m.w, m.y), (m.x + m.w, m.y + m.h), (m.x, m.y + m.h)])
    ys, xs = np.mgrid[0:SIZE[1], 0:SIZE[0]]
    centres = np.column_stack([xs.ravel() + 0.5, ys.ravel() + 0.5])
    grown = quad + np.sign(quad - quad.mean(axis=0)) * 2  # a pixel's width of rounding either side
    outside = ~inside_polygon(centres, grown)
    assert outside.sum() > 20_000 and not pixels.reshape(-1, 3)[outside].any()  # black off the board
    lit = pixels.reshape(-1, 3).any(axis=1)
    assert 0 < lit.sum() < 0.5 * (~outside).sum()  # the printed board itself stays dark

    tornado = state.tornadoes[-1]
    start = tornado.markers[0]
    fx, fy = (round(v) for v in layout.centre(start))
    px, py = (int(v) for v in np.floor(project(TRUE_H, [(fx + 0.5, fy + 0.5)])[0]))
    near = {tuple(renderer.surface.get_at((fx + dx, fy + dy))[:3]) for dx in (-1, 0, 1) for dy in (-1, 0, 1)}
    assert tuple(pixels[py, px]) in near and tuple(pixels[py, px]) != (0, 0, 0)  # the start, within a pixel
    quiet = next(h for h in sorted(game.board.terrain) if state.markers_at(h) == 0 and h not in tornado.markers
                 and game.board.place_at(h) is None and all(state.markers_at(n) == 0 for n in h.neighbours()))
    qx, qy = layout.shape.probe(quiet)
    qpx, qpy = (int(v) for v in np.floor(project(TRUE_H, [(qx + 0.5, qy + 0.5)])[0]))
    assert renderer.surface.get_at((qx, qy))[:3] != (0, 0, 0) and tuple(pixels[qpy, qpx]) == (0, 0, 0)


def test_an_uncalibrated_game_is_drawn_flat_and_a_calibration_for_every_game_applies(kansas_frame):
    _, _, frame, renderer = kansas_frame
    pairs = ((80.0, 70.0, 90.0, 60.0), (820.0, 90.0, 830.0, 80.0), (800.0, 470.0, 790.0, 480.0),
             (60.0, 500.0, 70.0, 490.0))
    assert TableProjection(Calibration({"stormfury": pairs}, SIZE), SIZE).project(renderer, frame) is None
    assert TableProjection(Calibration({"*": pairs}, SIZE), SIZE).project(renderer, frame) is not None


def test_the_warp_without_a_reference_copies_the_map_area_exactly():
    frame = pygame.Surface(SIZE)
    rng = np.random.default_rng(1)
    pygame.surfarray.blit_array(frame, rng.integers(0, 255, (*SIZE, 3), dtype=np.uint8))
    out = pygame.Surface(SIZE, 0, frame)
    shift = np.array([[1.0, 0, 7], [0, 1, -5], [0, 0, 1]])
    Warp(shift, SIZE, SIZE, (100, 50, 600, 400)).apply(frame, out)
    a, b = pygame.surfarray.array3d(frame), pygame.surfarray.array3d(out)
    assert (b[107:707, 45:445] == a[100:700, 50:450]).all()  # moved 7 right, 5 up
    assert not b[:107].any() and not b[707:].any() and not b[:, :45].any() and not b[:, 445:].any()


def test_calibration_in_the_configuration_inline_or_as_a_file(tmp_path):
    config = tmp_path / "config.toml"
    config.write_text("[projector]\ncalibration = [[0, 0, 10, 10], [100, 0, 110, 12], [100, 80, 108, 90],"
                      " [0, 80, 12, 88]]\n")
    loaded = load_config(config)
    assert loaded.projector.calibration[1] == (100.0, 0.0, 110.0, 12.0)
    again = tmp_path / "again.toml"
    again.write_text(to_toml(loaded))
    assert load_config(again) == loaded
    config.write_text("[projector]\ncalibration = [[0, 0, 10, 10], [50, 50, 60, 60], [100, 100, 110, 110],"
                      " [0, 80, 12, 88]]\n")
    with pytest.raises(DataError) as bad:
        load_config(config)
    assert str(bad.value) == (f"{config}: projector.calibration: three of the four points lie on one line: "
                              "calibrate again")
    config.write_text("[projector]\ncalibration = [[0, 0, 10]]\n")
    with pytest.raises(DataError, match=r"projector\.calibration: expected four \[frame x, frame y, projector x"):
        load_config(config)

    file = tmp_path / "calibration.toml"
    pairs = [(0.0, 0.0, 10.0, 10.0), (100.0, 0.0, 110.0, 12.0), (100.0, 80.0, 108.0, 90.0), (0.0, 80.0, 12.0, 88.0)]
    write_calibration(file, "kansas", pairs, (1920, 1080), ["Goodland", "Kansas City", "Pittsburg", "Liberal"])
    write_calibration(file, "stormfury", pairs[::-1], (1920, 1080), ["A", "B", "C", "D"])
    calibration = load_calibration(str(file), (1920, 1080))
    assert calibration.pairs["kansas"] == tuple(pairs) and calibration.pairs["stormfury"] == tuple(pairs[::-1])
    h = calibration.for_game("kansas", (960, 540))  # measured at 1080p, used at half the size
    assert np.allclose(project(h, [(p[0] / 2, p[1] / 2) for p in pairs]), [(p[2] / 2, p[3] / 2) for p in pairs])
    file.write_text(file.read_text().replace("size = [1920, 1080]", "size = [1920]"))
    with pytest.raises(DataError, match=r"calibration\.toml: size: expected \[width, height\], got \[1920\]"):
        load_calibration(str(file), (1920, 1080))


def test_the_marks_move_with_the_buttons_take_fine_steps_and_refuse_a_line():
    marks = Marks(("A", "B", "C", "D"), ((100.0, 100.0), (800.0, 100.0), (800.0, 400.0), (100.0, 400.0)), SIZE)
    marks.press("RIGHT")
    marks.press("ROLL")
    marks.press("DOWN")
    assert marks.dst[0] == [108.0, 101.0] and "move it onto A" in marks.prompt()
    marks.press("OK")
    marks.move_to(1, (450.0, 250.0))  # between A and C: three in a line once C is placed on its diagonal
    marks.press("OK")
    marks.move_to(2, (792.0, 399.0))
    marks.press("OK")
    marks.press("OK")
    assert not marks.done and marks.active == 0 and marks.message.startswith("three marks are in a line")
    marks.move_to(1, (800.0, 100.0))
    for _ in range(4):
        marks.press("OK")
    assert marks.done and marks.pairs()[0] == (100.0, 100.0, 108.0, 101.0)
    assert marks.pick((790.0, 395.0)) and marks.active == 2
    assert not marks.pick((450.0, 250.0))


def test_companion_calibrate_with_keys_and_the_mouse_then_the_box_draws_on_the_board(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("COMPANION_CONFIG_DIR", str(tmp_path))
    config = tmp_path / "config.toml"
    config.write_text('[projector]\ndriver = "offscreen"\nfullscreen = false\nwidth = 960\nheight = 540\n'
                      "[buttons]\nenabled = false\n")
    pygame.display.init()
    try:
        for _ in range(3):
            pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_RIGHT, mod=0, unicode="", scancode=0))
        pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_RETURN, mod=0, unicode="", scancode=0))
        renderer = ProjectorRenderer(SIZE)
        game = load_game("kansas")
        state = game.new_game({})
        renderer.render(frame_for(game, state))
        from companion.commands.calibrate import known_places

        names, points = known_places(renderer, game, state)
        x, y = points[1]  # the second mark, dragged 20 px down with the mouse
        pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=(round(x) + 3, round(y)), button=1))
        pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=(round(x), round(y) + 20), rel=(0, 20),
                                             buttons=(1, 0, 0)))
        pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=(round(x), round(y) + 20), button=1))
        for _ in range(3):
            pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_RETURN, mod=0, unicode="", scancode=0))
        assert main(["calibrate", "kansas", "--config", str(config)]) == 0
    finally:
        pygame.display.quit()
    out = capsys.readouterr().out
    saved = tmp_path / "calibration.toml"
    assert f"saved {saved} (kansas: {', '.join(names)})" in out
    assert f'calibration = "{saved}"' in out
    calibration = load_calibration(str(saved), SIZE)
    pairs = calibration.pairs["kansas"]
    assert pairs[0] == (*(round(v, 1) for v in points[0]), round(points[0][0] + 24, 1), round(points[0][1], 1))
    assert pairs[1][2:] == (round(x), round(y) + 20)  # where the mouse let go
    assert pairs[2][:2] == pairs[2][2:] and pairs[3][:2] == pairs[3][2:]

    config.write_text(config.read_text().replace("[buttons]", f'calibration = "{saved}"\n[buttons]'))
    from companion.views.projector.outputs import open_projector

    view = open_projector(load_config(config).projector, print)
    assert view is not None and view.table is not None
    try:
        view.show(frame_for(game, state))
        shown = pygame.surfarray.array3d(view.screen)
        flat = pygame.surfarray.array3d(view.renderer.surface)
        assert not shown[:, :40].any()  # the status strip is not thrown onto the table
        assert flat[:, :40].any() and shown.any() and (shown != flat).any()
    finally:
        view.close()


def test_calibrate_names_a_board_without_four_places_in_one_line(monkeypatch, tmp_path, capsys):
    monkeypatch.setenv("COMPANION_CONFIG_DIR", str(tmp_path))
    config = tmp_path / "config.toml"
    config.write_text('[projector]\ndriver = "offscreen"\nfullscreen = false\nwidth = 640\nheight = 360\n'
                      "[buttons]\nenabled = false\n")
    assert main(["calibrate", "carcassonne", "--config", str(config)]) == 2
    assert capsys.readouterr().err.strip() == ("companion: calibrate: the carcassonne board has fewer than four "
                                               "named places to aim at")
