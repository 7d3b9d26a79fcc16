"""The projector as a board: text legible from across a room, terrain patterns, shallows and coasts,
rivers from the map data (validated like the rest), roads, a key naming every symbol, and a side
panel that says what just happened and what is asked."""

from __future__ import annotations

from dataclasses import replace

import pygame
import pytest

from companion.commands.snapshot import frame_for, seeded_state
from companion.games import load_game
from companion.games.kansas import load as load_kansas
from companion.games.kansas.painter import KansasPainter
from companion.games.stormfury.painter import StormfuryPainter
from companion.hexgrid import Hex
from companion.views.panel import Panel
from companion.views.projector import Layout, ProjectorRenderer, palette, text, textures
from companion.views.projector.key import key_rows
from companion.views.projector.layout import PANEL_SHARE, regions
from companion.views.projector.shapes import HexShape

SIZES = [(1280, 720), (1920, 1080)]


def pixel(surface, at) -> tuple[int, int, int]:
    return tuple(surface.get_at((round(at[0]), round(at[1]))))[:3]


@pytest.fixture
def drawn(monkeypatch):
    """Every text.draw call through the real renderer: (words, pixel size)."""
    calls: list[tuple[str, int]] = []
    real = text.draw

    def record(surface, words, pos, size, colour, **kw):
        calls.append((words, size))
        return real(surface, words, pos, size, colour, **kw)

    monkeypatch.setattr(text, "draw", record)
    return calls


def frames():
    """Every game at the points the docs show, with and without the overlay, a lasting notice in the strip,
    and the end of the game."""
    out = []
    for key, events, options in (("kansas", 11, {}), ("kansas", 20, {"forecaster": 2}), ("kansas", 0, {}),
                                 ("stormfury", 8, {}), ("stormfury", 14, {}), ("stormfury", 0, {}),
                                 ("carcassonne", 130, {"players": 3, "river": "yes"}),
                                 ("allegheny", 20, {"players": 4}), ("allegheny", 154, {"players": 4}),
                                 ("industry", 120, {}), ("industry", 60, {"map": "Minnesota"})):
        game = load_game(key)
        state = seeded_state(game, 7, events, options)
        frame = frame_for(game, state)
        notice = replace(frame.panel, notices=("projector: no display",))
        out += [frame, replace(frame, overlay=True), replace(frame, panel=notice)]
    return out


@pytest.mark.parametrize("size", SIZES)
def test_every_text_is_at_least_one_percent_of_the_image_width(drawn, size):
    """20 mm characters on a 2 m image read at 4 m (the 1/200 rule of thumb): 1 % of the width."""
    for frame in frames():
        ProjectorRenderer(size).render(frame)
    assert len(drawn) > 200
    least = min(s for _, s in drawn)
    assert least >= 0.01 * size[0], [(w, s) for w, s in drawn if s < 0.01 * size[0]][:5]
    assert least >= text.minimum(size[1]) and text.px(0.01, size[1]) == text.minimum(size[1])


def test_the_side_panel_says_what_just_happened_and_what_is_asked(drawn):
    game = load_game("kansas")
    state = seeded_state(game, 7, 11)
    ProjectorRenderer((1920, 1080)).render(frame_for(game, state))
    words = [w for w, _ in drawn]
    assert "Just happened" in words and "Now" in words
    assert state.recent[0] in words
    prompt = " ".join(w for w in words if w and w[0].isalpha())  # the prompt, wrapped over lines
    assert "roll 2D6" in prompt
    big = text.px(text.BODY, 1080)
    assert all(s >= big for w, s in drawn if w in state.recent)  # not small print


@pytest.mark.parametrize("key, painter", [("kansas", KansasPainter), ("stormfury", StormfuryPainter)])
def test_the_key_names_every_symbol_on_the_map(drawn, key, painter):
    game = load_game(key)
    state = seeded_state(game, 7, 8)
    layout = Layout.fit(painter(game).map_data().hexes, 1920, 1080)
    ProjectorRenderer((1920, 1080)).render(frame_for(game, state))
    words = {w for w, _ in drawn}
    data = painter(game).map_data()
    rows = key_rows(data)
    assert {label for _, _, label in rows} <= words
    assert {e.label for e in painter(game).key_entries(layout)} <= words
    kinds = {k for what, k, _ in rows if what == "spot"}
    assert kinds == {p.kind for p in data.places}
    if key == "kansas":
        assert ("river", "", "river") in rows and ("area", "river", "river hex") in rows
        assert kinds == {"city", "town"}
    else:
        assert {"shallows", "coast", "road"} <= {what for what, _, _ in rows}
        assert kinds == {"city", "port", "power plant"}  # the white squares say what they are
        assert len({data.mark(k) for k in kinds}) == 3


def test_river_hexes_are_land_with_a_river_line_not_blue_lakes():
    game = load_kansas()
    board = game.board
    size = (1920, 1080)
    surface = ProjectorRenderer(size).render(frame_for(game, game.new_game({"players": 4})))
    layout = Layout.fit(board.terrain, *size)
    river_hexes = [h for h, k in board.terrain.items() if k == "river"]
    assert river_hexes and {h for r in board.rivers for h in r.hexes} == set(river_hexes)

    def blue(h: Hex) -> int:
        box = pygame.Rect(layout.box(h, 0.8).as_tuple())
        return sum(1 for x in range(box.left, box.right, 2) for y in range(box.top, box.bottom, 2)
                   if pixel(surface, (x, y)) == palette.RIVER)

    fills = [pixel(surface, layout.probe(h)) for h in river_hexes]
    assert sum(f == palette.terrain("river") for f in fills) >= 0.7 * len(fills)  # the rest: a name, the river
    assert palette.TERRAIN["ocean"] not in fills and palette.SHALLOWS not in fills  # land, not a lake
    assert all(blue(h) > 0 for h in river_hexes)  # the river runs through each
    plain = [h for h, k in board.terrain.items() if k == "plain" and all(n not in river_hexes for n in h.neighbours())]
    assert plain and all(blue(h) == 0 for h in plain)


def test_terrain_kinds_carry_patterns_and_the_fill_shows_at_the_probe():
    game = load_kansas()
    size = (1920, 1080)
    surface = ProjectorRenderer(size).render(frame_for(game, game.new_game({"players": 4})))
    layout = Layout.fit(game.board.terrain, *size)
    for kind in ("plain", "hill"):
        h = next(h for h, k in sorted(game.board.terrain.items()) if k == kind and game.board.place_at(h) is None)
        fill = palette.terrain(kind)
        assert pixel(surface, layout.probe(h)) == fill
        box = pygame.Rect(layout.box(h, 0.6).as_tuple())
        marks = {pixel(surface, (x, y)) for x in range(box.left, box.right) for y in range(box.top, box.bottom)}
        assert len(marks - {fill}) >= 2, kind  # a pattern in other shades, not a flat fill
    assert textures.texture_of("plain") != textures.texture_of("hill") != textures.texture_of("ocean")


def test_the_gulf_has_shallows_a_coastline_and_open_sea():
    game = load_game("stormfury")
    board = game.board
    size = (1280, 720)
    surface = ProjectorRenderer(size).render(frame_for(game, game.new_game({})))
    layout = Layout.fit(board.hexes, *size)
    terrain = StormfuryPainter(game).map_data().terrain
    depth = textures.sea_depth(terrain)
    shallow = [h for h, d in depth.items() if d == 1]
    open_sea = [h for h, d in depth.items() if d >= 3 and h.distance(board.start) > 4]
    assert shallow and open_sea and set(depth) == set(board.ocean)
    seen = [pixel(surface, layout.probe(h)) for h in shallow]
    assert sum(c == palette.SHALLOWS for c in seen) >= 0.7 * len(seen)  # the rest lie under a city, a road, a name
    assert all(pixel(surface, layout.probe(h)) == palette.terrain("ocean") for h in open_sea)
    edges = textures.coast_edges(layout, terrain)
    assert len(edges) >= 24
    on_line = [pixel(surface, ((a[0] + b[0]) / 2, (a[1] + b[1]) / 2)) == palette.COAST for _, a, b in edges]
    assert sum(on_line) >= 0.8 * len(on_line)  # the rest lie under a road, a mark or the storm


def test_a_board_the_height_limits_gives_its_spare_width_to_the_side_panel():
    storm = Layout.fit(load_game("stormfury").board.hexes, 1920, 1080)
    kansas = Layout.fit(load_kansas().board.terrain, 1920, 1080)
    assert storm.side.w > round(1920 * PANEL_SHARE) and kansas.side.w == round(1920 * PANEL_SHARE)
    hexes = load_game("stormfury").board.hexes
    xs = [x for h in hexes for x, _ in storm.polygon(h)]
    assert max(xs) <= storm.map.x + storm.map.w + 1 and storm.map.x + storm.map.w <= storm.side.x
    default = HexShape.fit(hexes, regions(1920, 1080)[1])
    assert storm.hex_size == pytest.approx(default.unit)  # the board keeps its size: the panel took spare width


def test_a_lasting_notice_and_the_prompt_do_not_overlap_in_the_strip(drawn):
    game = load_game("kansas")
    frame = frame_for(game, seeded_state(game, 7, 11))
    surface = ProjectorRenderer((1280, 720)).render(replace(frame, panel=Panel(
        game="Kansas", status="Turn 1", notices=("projector: no display",), tower="connected")))
    assert surface.get_size() == (1280, 720)
    sizes = {w: s for w, s in drawn}
    assert sizes["projector: no display"] >= 0.01 * 1280
