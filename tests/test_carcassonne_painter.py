"""The Carcassonne painter: each mark drawn where the engine's state says, at 720p and 1080p, and the
snapshot command seeding the game and pointing its cursor at a cell."""

from __future__ import annotations

import pygame
import pytest

from companion.cli import main
from companion.commands.snapshot import frame_for
from companion.dice import Choice
from companion.games.carcassonne import load
from companion.games.carcassonne import painter as carc
from companion.games.carcassonne.state import CarcState
from companion.places import Cell
from companion.session.drawn import painter_of
from companion.views.projector import palette, render_frame
from companion.views.projector.layout import Layout

SIZES = [(1280, 720), (1920, 1080)]


@pytest.fixture(scope="module")
def game():
    """Every step asked (as an older journal replays): a forced tornado move is drawn before it is made."""
    from companion.games.carcassonne.engine import CarcassonneGame

    return CarcassonneGame(load().data, fold=False)


def lay(game, state: CarcState, cell: Cell, kind: str) -> CarcState:
    """Lay ``kind`` on ``cell`` at the first turn that fits (the engine judges the fit)."""
    tile = game.catalog.by_key[kind]
    quarters = next(q for q in range(4) if not game.fits(state, cell, tile, q))
    return game.apply(state, Choice("lay", {"x": cell.x, "y": cell.y, "kind": kind, "quarters": quarters}))


def deploy(game, state: CarcState, kind: str | None) -> CarcState:
    """Deploy on the first segment of ``kind`` of the tile just laid, or pass."""
    if kind is None:
        return game.apply(state, Choice("pass"))
    cell = state.last
    segments = game.catalog.by_key[state.tiles[cell].kind].turned(state.tiles[cell].quarters)
    index = next(i for i, s in enumerate(segments) if s.kind == kind)
    return game.apply(state, Choice("deploy", {"x": cell.x, "y": cell.y, "segment": index}))


def draw(game, state, size):
    surface = render_frame(frame_for(game, state), size)
    painter = painter_of(game, state)  # handed the rules' answers for this state, as the renderer does
    layout = Layout.for_board(painter.map_data(state).shaped(), *size)
    return surface, painter, layout


def pixel(surface, at) -> tuple[int, int, int]:
    return tuple(surface.get_at((round(at[0]), round(at[1]))))[:3]


def share_of(surface, centre, radius, colour) -> float:
    """The share of the disc of ``radius`` around ``centre`` in exactly ``colour`` (a mark with a letter)."""
    cx, cy, r = round(centre[0]), round(centre[1]), int(radius)
    inside = [(x, y) for x in range(cx - r, cx + r + 1) for y in range(cy - r, cy + r + 1)
              if (x - cx) ** 2 + (y - cy) ** 2 <= r * r]
    return sum(tuple(surface.get_at(p))[:3] == colour for p in inside) / len(inside)


def near(a, b, tolerance: int = 40) -> bool:
    return all(abs(x - y) <= tolerance for x, y in zip(a, b, strict=True))


def test_the_spec_names_this_painter(game):
    assert isinstance(painter_of(game), carc.Painter)


@pytest.mark.parametrize("size", SIZES)
def test_tiles_stand_at_their_cells_and_a_follower_in_its_colour(game, size):
    state = game.new_game({"players": 3})
    state = deploy(game, lay(game, state, Cell(0, 1), "cloister"), "cloister")  # Red's monk south of the start
    surface, painter, layout = draw(game, state, size)
    r = layout.unit * carc.TILE_INSET
    x, y = layout.centre(Cell(0, 0))
    assert pixel(surface, (x, y - r * 0.9)) == carc.CITY  # the start tile's city reaches its north side
    x, y = layout.centre(Cell(0, 1))
    assert pixel(surface, (x - r * 0.8, y - r * 0.8)) == carc.FIELD  # the cloister's field, in the corner
    monk = painter.follower_point(layout, state, state.followers[0])
    assert monk == layout.centre(Cell(0, 1))
    assert share_of(surface, monk, layout.unit * 0.27, carc.player_colour("Red", 0)) > 0.4
    assert pixel(surface, layout.probe(Cell(1, 1))) == palette.BACKGROUND  # an empty space stays empty


@pytest.mark.parametrize("size", SIZES)
def test_the_tornado_rings_the_end_of_each_legal_move_and_shows_its_path(game, size):
    """"Each player ... moving the tornado 2 spaces orthogonally": the ring marks where a move of 2 ends."""
    state = game.new_game({"players": 3})
    state = deploy(game, lay(game, state, Cell(0, 1), "cloister"), "cloister")
    state = lay(game, state, Cell(1, 1), "tornado_field")  # Blue lays a tornado beside the monk
    assert state.phase == "tornado"
    surface, painter, layout = draw(game, state, size)
    assert painter.tornado_targets(state) == [Cell(0, 0)]
    ring = layout.outline(Cell(0, 0), 0.72)
    top = ((ring[0][0] + ring[1][0]) / 2, ring[0][1])
    assert pixel(surface, top) == carc.TARGET
    assert pixel(surface, layout.centre(Cell(1, 1))) == carc.TORNADO  # the funnel stands on its tile
    state = game.apply(state, Choice("tornado", {"path": [[0, 1], [0, 0]]}))
    assert state.tornado is not None and state.tornado.inside == 0  # Red's monk swept in
    surface, painter, layout = draw(game, state, size)
    (a, b), *_ = painter.tornado_segments(layout, state)
    along = (a[0] + (b[0] - a[0]) * 0.65, a[1] + (b[1] - a[1]) * 0.65)  # past its arrow, clear of the next ring
    assert pixel(surface, along) == carc.TORNADO
    lines = dict(painter.disaster_lines(state))["Tornado"]
    assert "Inside: Red's follower" in lines and game.rules.readings()[0] in lines


@pytest.mark.parametrize("size", SIZES)
def test_the_earthquake_zone_is_drawn_from_the_moment_it_is_laid_with_the_city_it_hits(game, size):
    state = lay(game, game.new_game({"players": 2}), Cell(0, -1), "earthquake")
    surface, painter, layout = draw(game, state, size)
    zone = game.quake_zone(state)
    assert len(zone) == 13 and Cell(0, -1) in zone
    edges = carc._zone_edges(layout, zone)
    (ax, ay), (bx, by) = edges[0]
    along = [pixel(surface, (ax + (bx - ax) * k / 40, ay + (by - ay) * k / 40)) for k in range(5, 36)]
    assert 0.3 < along.count(carc.QUAKE) / len(along) < 1  # the zone's edge: vermillion dashes
    (hit,) = painter.quake_hits(state)
    assert {c for c, _ in hit} == {Cell(0, 0), Cell(0, -1)}  # the start's city and the quake's own: one city
    assert "quake_hit" in painter.key_rows(state) and "quake_zone" in painter.key_rows(state)
    assert "it hits 1 city" in dict(painter.disaster_lines(state))["Earthquake"][0]


@pytest.mark.parametrize("size", SIZES)
def test_the_meteor_rings_every_tile_it_may_land_on(game, size):
    state = game.new_game({"players": 2})
    state = deploy(game, lay(game, state, Cell(0, 1), "cloister"), None)
    state = game.apply(state, Choice("meteor"))
    surface, painter, layout = draw(game, state, size)
    assert painter.meteor_targets(state) == [Cell(0, 1)]  # never the start tile
    corner = layout.outline(Cell(0, 1), 0.78)[0]
    assert pixel(surface, (corner[0] + 2, corner[1])) == carc.METEOR


@pytest.mark.parametrize("size", SIZES)
def test_the_flood_covers_its_3x3_once_it_spreads(game, size):
    state = game.new_game({"players": 2, "river": "yes"})
    state = deploy(game, lay(game, state, Cell(0, 1), "river"), None)           # Red
    state = game.apply(state, Choice("flood"))                                    # Blue drew the flood
    state = game.apply(state, Choice("aim", {"x": 0, "y": 1}))
    state = deploy(game, lay(game, state, Cell(-1, 0), "cloister_road"), None)   # Red
    assert state.phase == "flood_spread"
    before, painter, layout = draw(game, state, size)
    assert pixel(before, layout.probe(Cell(1, 1))) == palette.BACKGROUND
    assert "flood_area" in painter.key_rows(state)
    state = game.apply(state, Choice("spread"))
    after, painter, layout = draw(game, state, size)
    r, g, b = pixel(after, layout.probe(Cell(1, 1)))
    assert b > r + 20 and (r, g, b) != palette.BACKGROUND  # tinted blue: under the flood
    x, y = layout.centre(Cell(0, 1))
    assert near(pixel(after, (x + layout.unit * 0.8, y - layout.unit * 0.8)), carc.FLOOD, 60)
    assert dict(painter.disaster_lines(state))["Flood"][0].startswith("spread")


def test_initials_tell_every_colour_apart():
    names = ["Red", "Blue", "Yellow", "Green", "Black", "Grey"]
    marks = carc.initials(names)
    assert len(set(marks)) == len(names) and marks[0] == "R"


@pytest.mark.parametrize("size", ["1280x720", "1920x1080"])
def test_the_snapshot_command_seeds_the_game_and_points_at_a_cell(tmp_path, size, capsys):
    out = tmp_path / "c.png"
    assert main(["snapshot", "carcassonne", "--seed", "1", "--events", "20", "--option", "players=3",
                 "--cursor", "0,-1", "--size", size, "--out", str(out)]) == 0
    assert "tornado 6 of 12 left, Yellow inside" in capsys.readouterr().out
    picture = pygame.image.load(str(out))
    assert picture.get_size() == tuple(int(v) for v in size.split("x"))
    assert main(["snapshot", "carcassonne", "--cursor", "north", "--out", str(tmp_path / "x.png")]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "--cursor" in err


@pytest.mark.parametrize("size", SIZES)
def test_the_light_mode_draws_the_followers_it_knows_and_the_tornados_way(game, size):
    """The light mode knows a few tiles: a follower's, the tornado's and those it crossed; each drawn where the
    table said, the follower in its colour, the earthquake's zone from its tile."""
    state = game.new_game({"players": 3, "board": "light"})
    for event in (Choice("follower", {"feature": "city"}), Choice("place", {"x": 3, "y": 0}),
                  Choice("disaster", {"kind": "earthquake"}), Choice("place", {"x": 0, "y": 2}), Choice("pass"),
                  Choice("disaster", {"kind": "tornado_field"}), Choice("place", {"x": 1, "y": 0}),
                  Choice("tornado", {"path": [[2, 0], [3, 0]]})):
        state = game.apply(state, event)
    assert state.tornado is not None and state.tornado.inside == 0 and Cell(2, 0) in state.tiles
    state = game.apply(state, Choice("stuck"))
    state = game.apply(state, Choice("land", {"segment": -1, "feature": "road"}))
    surface, painter, layout = draw(game, state, size)
    where = painter.follower_point(layout, state, state.followers[0])
    assert where == layout.centre(Cell(3, 0))
    assert share_of(surface, where, layout.unit * 0.27, carc.player_colour("Red", 0)) > 0.4
    assert pixel(surface, layout.probe(Cell(2, 1))) == palette.BACKGROUND  # a space it was never told of
    assert game.quake_zone(state) and "Earthquake" in dict(painter.disaster_lines(state))


def test_a_zone_is_shaded_on_a_layer_its_own_size_the_same_pixels_as_a_screen_sized_one(game):
    """The earthquake's hatching and the flood's tint are drawn on a see-through layer the size of the zone, at
    the zone's own coordinates: the same pixels as a layer the size of the screen, and no layer is kept."""
    size = (1920, 1080)
    state = lay(game, game.new_game({"players": 2}), Cell(0, -1), "earthquake")
    _, painter, layout = draw(game, state, size)
    cells = sorted(game.quake_zone(state))
    for shade in ("hatch", "tint"):
        ours, reference = pygame.Surface(size), pygame.Surface(size)
        for surface in (ours, reference):
            surface.fill(palette.BACKGROUND)
        layer = pygame.Surface(size, pygame.SRCALPHA)
        if shade == "hatch":
            painter._hatch(ours, layout, cells, carc.QUAKE)
            step, width = max(6, round(layout.unit * 0.3)), max(1, round(layout.unit * 0.05))
            for box in (layout.box(cell) for cell in cells):
                layer.set_clip(pygame.Rect(box.as_tuple()))
                for k in range(-box.h, box.w, step):
                    pygame.draw.line(layer, (*carc.QUAKE, 150), (box.x + k, box.y + box.h), (box.x + k + box.h, box.y),
                                     width)
            layer.set_clip(None)
        else:
            painter._tint(ours, layout, cells, carc.FLOOD, 90)
            for cell in cells:
                pygame.draw.polygon(layer, (*carc.FLOOD, 90), layout.outline(cell))
        reference.blit(layer, (0, 0))
        assert pygame.image.tobytes(ours, "RGB") == pygame.image.tobytes(reference, "RGB"), shade
        blank = pygame.Surface(size)
        blank.fill(palette.BACKGROUND)
        assert pygame.image.tobytes(ours, "RGB") != pygame.image.tobytes(blank, "RGB")  # something was shaded
    assert not [name for name, value in vars(painter).items() if isinstance(value, pygame.Surface)]
