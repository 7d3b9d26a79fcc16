"""The projector map's pixels where they matter: fitting, damage, footprint, risk colours, legend, cursor,
incremental redraws that equal a full one, and the end-of-game chart."""

from __future__ import annotations

from dataclasses import replace

import pygame
import pytest

from companion.commands.snapshot import frame_for, seeded_state
from companion.games.stormfury import StormfuryGame, load
from companion.hexgrid import Hex
from companion.views.panel import Panel
from companion.views.projector import Layout, ProjectorRenderer, palette, render_frame
from companion.views.projector.chart import paint_damage_chart
from companion.views.projector.layout import Rect
from companion.views.projector.overlay import legend_bar, legend_rect
from tests.conftest import REPO

SIZE = (1280, 720)


@pytest.fixture(scope="module")
def game():
    return load(REPO / "maps")


@pytest.fixture(scope="module")
def playing(game):
    """Turn 2, player phase: a forecast on the table (seeded, reproducible)."""
    state = seeded_state(game, 7, 8)
    assert state.phase == "players" and state.forecast
    return state


def pixel(surface, at) -> tuple[int, int, int]:
    return tuple(surface.get_at(at))[:3]


def same(a, b) -> bool:
    return pygame.image.tobytes(a, "RGB") == pygame.image.tobytes(b, "RGB")


@pytest.mark.parametrize("size", [(1280, 720), (1920, 1080)])
def test_the_board_fits_the_map_area_and_fills_it(game, size):
    layout = Layout.fit(game.board.hexes, *size)
    area = layout.map
    xs = [x for h in game.board.hexes for x, _ in layout.polygon(h)]
    ys = [y for h in game.board.hexes for _, y in layout.polygon(h)]
    assert area.x - 1 <= min(xs) and max(xs) <= area.x + area.w + 1
    assert area.y - 1 <= min(ys) and max(ys) <= area.y + area.h + 1
    assert (max(xs) - min(xs)) >= 0.97 * area.w or (max(ys) - min(ys)) >= 0.97 * area.h
    assert area.x + area.w <= layout.side.x and area.y >= layout.status.y + layout.status.h
    for h in game.board.hexes:  # hex <-> pixel agree with companion.hexgrid both ways
        assert layout.hex_at(*layout.centre(h)) == h
    surface = render_frame(frame_for(game, game.new_game({})), size)
    assert surface.get_size() == size


def test_a_damaged_space_differs_from_a_clean_one(game):
    clean = game.new_game({})
    space = game.board.cities[3].infrastructure[0]
    damaged = replace(clean, destroyed=frozenset({space.id}))
    layout = Layout.fit(game.board.hexes, *SIZE)
    x, y = layout.centre(space.hex)
    arm = (round(x + 0.25 * layout.hex_size), round(y + 0.25 * layout.hex_size))  # on the cross
    a, b = render_frame(frame_for(game, clean), SIZE), render_frame(frame_for(game, damaged), SIZE)
    assert pixel(a, arm) != pixel(b, arm)
    assert pixel(b, arm) == palette.DAMAGE
    other = game.board.cities[6].infrastructure[0].hex  # an untouched space looks the same in both
    ox, oy = layout.centre(other)
    assert pixel(a, (round(ox), round(oy))) == pixel(b, (round(ox), round(oy)))


def test_the_footprint_covers_exactly_the_hexes_within_the_category_radius(game):
    state = game.new_game({})
    radius = game.board.rules.radius[state.category - 1]
    surface = render_frame(frame_for(game, state), SIZE)
    layout = Layout.fit(game.board.hexes, *SIZE)
    near = [h for h in game.board.ocean if h.distance(state.centre) <= radius + 2]
    inside = [h for h in near if h.distance(state.centre) <= radius]
    assert len(inside) >= 10
    for h in near:
        colour = pixel(surface, layout.probe(h))
        if h in inside:
            assert colour != palette.terrain("ocean"), h
        else:
            assert colour == palette.terrain("ocean"), h
    bigger = render_frame(frame_for(game, replace(state, category=5)), SIZE)  # radius 3 now
    ring = [h for h in game.board.ocean if h.distance(state.centre) == radius + 1]
    assert all(pixel(bigger, layout.probe(h)) != palette.terrain("ocean") for h in ring)


class FixedRisk(StormfuryGame):
    """The real engine with the risk pinned to known values, to read the overlay's colours exactly."""

    def __init__(self, board, risk: dict[Hex, float]) -> None:
        super().__init__(board)
        self.risk = risk

    def risk_map(self, state):
        return self.risk


def test_the_overlay_colour_follows_the_probabilities(game):
    far = sorted(h for h in game.board.ocean if h.distance(game.board.start) >= 4
                 and all(h.distance(c.population_centre) >= 3 for c in game.board.cities))[:5]
    pinned = FixedRisk(game.board, dict(zip(far, (0.05, 0.3, 0.5, 0.8, 1.0), strict=True)))
    state = pinned.new_game({})
    on = render_frame(frame_for(pinned, state, overlay=True), SIZE)
    off = render_frame(frame_for(pinned, state, overlay=False), SIZE)
    layout = Layout.fit(game.board.hexes, *SIZE)
    for h, p in pinned.risk.items():
        assert pixel(on, layout.probe(h)) == palette.heat(p)
        assert pixel(off, layout.probe(h)) == palette.terrain("ocean")
    lum = [sum(pixel(on, layout.probe(h))) for h in far]
    assert lum == sorted(lum)  # higher probability, lighter colour: readable in greyscale too


def test_the_overlay_shows_the_engines_exact_risk(game, playing):
    risk = game.risk_map(playing)
    assert risk and max(risk.values()) == 1.0
    surface = render_frame(frame_for(game, playing, overlay=True), SIZE)
    layout = Layout.fit(game.board.hexes, *SIZE)
    matched = [h for h, p in risk.items() if pixel(surface, layout.probe(h)) == palette.heat(p)]
    assert len(matched) >= 0.9 * len(risk)  # the rest lie under a label, a road or a path


def test_the_legend_exists_only_with_the_overlay(game, playing):
    with_legend = render_frame(frame_for(game, playing, overlay=True), SIZE)
    without = render_frame(frame_for(game, playing, overlay=False), SIZE)
    layout = Layout.fit(game.board.hexes, *SIZE)
    bar, box = legend_bar(layout), legend_rect(layout)
    for i in (1, bar.w // 4, bar.w // 2, bar.w - 2):
        assert pixel(with_legend, (bar.x + i, bar.y + bar.h // 2)) == palette.heat(i / (bar.w - 1))
    plain = {pixel(without, (x, y)) for x in range(box.x, box.x + box.w, 3) for y in range(box.y, box.y + box.h, 3)}
    assert palette.heat(1.0) not in plain


def test_the_cursor_rings_its_hex(game, playing):
    h = game.board.cities[2].population_centre
    layout = Layout.fit(game.board.hexes, *SIZE)
    surface = render_frame(frame_for(game, playing, cursor=h), SIZE)
    x, y = layout.centre(h)
    ring = (round(x), round(y - 1.08 * layout.hex_size * 3 ** 0.5 / 2))  # middle of the ring's north edge
    assert pixel(surface, ring) == palette.CURSOR
    assert pixel(render_frame(frame_for(game, playing), SIZE), ring) != palette.CURSOR


def test_incremental_updates_equal_a_full_redraw_and_touch_little(game, playing):
    renderer = ProjectorRenderer(SIZE)
    first = frame_for(game, playing)
    renderer.render(first)
    assert renderer.full_redraws == 1
    renderer.render(first)
    assert renderer.dirty == []  # nothing changed: nothing drawn
    for cursor in (Hex(5, 3), Hex(9, -1), None):
        frame = replace(first, cursor=cursor)
        surface = renderer.render(frame)
        assert renderer.full_redraws == 1
        assert sum(r.w * r.h for r in renderer.dirty) < 0.05 * SIZE[0] * SIZE[1]
        assert same(surface, render_frame(frame, SIZE))
    frame = replace(first, panel=replace(first.panel, message="need D8, got D6=3"))
    surface = renderer.render(frame)
    status = pygame.Rect(renderer.layout.status.as_tuple())
    assert renderer.full_redraws == 1 and renderer.dirty and all(status.contains(r) for r in renderer.dirty)
    assert same(surface, render_frame(frame, SIZE))
    renderer.render(replace(frame, overlay=True))
    assert renderer.full_redraws == 2


def test_the_status_line_and_idle_screen(game, playing):
    layout = Layout.fit(game.board.hexes, *SIZE)
    a = render_frame(frame_for(game, playing, tower="connected"), SIZE)
    b = render_frame(frame_for(game, playing, tower="away"), SIZE)
    strip = layout.status
    right = [(x, y) for x in range(strip.x + strip.w * 3 // 4, strip.w) for y in range(strip.h)]
    assert any(pixel(a, p) != pixel(b, p) for p in right)  # the tower's state is on the strip
    assert any(pixel(b, p) == palette.DAMAGE for p in right)
    from companion.session.core import Frame

    idle = render_frame(Frame(Panel(tower="waiting")), SIZE)
    assert idle.get_size() == SIZE and pixel(idle, (SIZE[0] // 2, SIZE[1] - 5)) == palette.BACKGROUND


def test_the_end_of_game_chart_by_city_and_kind(game):
    over = seeded_state(game, 7, 0)
    assert over.phase == "over" and over.damage
    layout = Layout.fit(game.board.hexes, *SIZE)
    surface = render_frame(frame_for(game, over), SIZE)
    side = layout.side
    colours = {pixel(surface, (x, y)) for x in range(side.x, side.x + side.w, 2)
               for y in range(side.y, side.y + side.h, 2)}
    by_kind = game.summary(over)["by_kind"]
    assert sum(by_kind.values()) > 0
    for kind, colour in palette.KIND_COLOURS.items():
        assert colour in colours, kind  # the kind's legend swatch at least
    playing = render_frame(frame_for(game, seeded_state(game, 7, 3)), SIZE)
    assert not same(surface.subsurface(side.as_tuple()), playing.subsurface(side.as_tuple()))


def test_chart_bars_are_proportional():
    pygame.font.init()
    surface = pygame.Surface((400, 300))
    surface.fill(palette.PANEL)
    rows = [("A", {"infrastructure": 2}), ("B", {"infrastructure": 4, "road": 1})]
    paint_damage_chart(surface, Rect(0, 0, 400, 300), "Damage", rows, ("infrastructure", "population", "road"), 720)
    colour = palette.KIND_COLOURS["infrastructure"]
    runs = []
    for y in range(300):
        n = sum(pixel(surface, (x, y)) == colour for x in range(400))
        if n > 20 and (not runs or runs[-1][0] != n):
            runs.append((n, y))
    widths = sorted({n for n, _ in runs})
    assert len(widths) >= 2 and abs(widths[-1] - 2 * widths[0]) <= 2
