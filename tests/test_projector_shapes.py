"""The projector's board shapes: square grids and graphs fitted, drawn, pointed at and heated with the
same parts as hex boards; each kind a symbol that differs by more than colour, and a key naming it."""

from __future__ import annotations

import math
from dataclasses import replace
from itertools import combinations

import pygame
import pytest

from companion.hexgrid import Hex
from companion.places import Cell, GraphBoard, HexBoard, Link, Location, Site, SquareBoard
from companion.session.core import Frame
from companion.session.drawn import painter_of
from companion.views.panel import Panel
from companion.views.projector import Layout, ProjectorRenderer, palette, render_frame
from companion.views.projector.board import MapData, label_place
from companion.views.projector.cursor import RING_SCALE
from companion.views.projector.key import key_rows
from companion.views.projector.painters import BoardPainter
from companion.views.projector.shapes import GraphShape, SquareShape, fit
from companion.views.projector.shapes.graphs import MAX_UNIT_SHARE, RADIUS
from companion.views.projector.symbols import letters, line_styles, mark_shapes

SIZE = (1280, 720)

GRAPH = GraphBoard(
    {"lee": Site("Leeds", 0, 0, "city"), "yor": Site("York", 3, -1, "city"), "hul": Site("Hull", 6, 0, "port"),
     "sel": Site("Selby", 3, 2, "town"), "gol": Site("Goole", 4.2, 1.4, "town")},
    {Link("lee", "yor"): "canal", Link("yor", "hul"): "rail", Link("lee", "sel"): "rail",
     Link("sel", "hul"): "sea_lane", Link("sel", "gol"): "rail"},
)


class BoardGame:
    """A game with nothing but a board and its risk: the shared painter draws it."""

    key = "board-only"
    title = "Board only"

    def __init__(self, board, risk=None) -> None:
        self.board = board
        self.risk = risk or {}

    def board_for(self, state):
        return self.board

    def risk_map(self, state):
        return self.risk


def frame(game, cursor=None, overlay=False) -> Frame:
    return Frame(Panel(game=game.title), game, "state", cursor, overlay)


def pixel(surface, at) -> tuple[int, int, int]:
    return tuple(surface.get_at((round(at[0]), round(at[1]))))[:3]


def same(a, b) -> bool:
    return pygame.image.tobytes(a, "RGB") == pygame.image.tobytes(b, "RGB")


def inside(layout: Layout, points) -> bool:
    m = layout.map
    return all(m.x - 1 <= x <= m.x + m.w + 1 and m.y - 1 <= y <= m.y + m.h + 1 for x, y in points)


@pytest.mark.parametrize("size", [(1280, 720), (1920, 1080), (640, 360)])
def test_a_graph_fits_the_map_area_with_room_and_no_outlines_touch(size):
    layout = Layout.for_board(GRAPH, *size)
    assert isinstance(layout.shape, GraphShape)
    places = [Location(k) for k in GRAPH.sites]
    for place in places:
        x, y = layout.centre(place)
        assert inside(layout, layout.outline(place, 2.0))  # outline and a name's room above it
        assert layout.holds(place) and math.dist(layout.probe(place), (x, y)) > 0.42 * layout.unit
    for a, b in combinations(places, 2):
        assert math.dist(layout.centre(a), layout.centre(b)) >= 2 * RADIUS * layout.unit
    xs = [layout.centre(p)[0] for p in places]
    assert max(xs) - min(xs) >= 0.75 * layout.map.w  # it fills the area, not a corner of it
    assert layout.unit <= MAX_UNIT_SHARE * min(layout.map.w, layout.map.h) + 1e-9
    assert not layout.holds(Location("nowhere")) and not layout.holds(Hex(0, 0))


def test_a_square_grid_fits_what_is_laid_and_a_margin_of_open_cells():
    board = SquareBoard({Cell(x, 0): "road" for x in range(-4, 5)})
    layout = Layout.for_board(board, *SIZE)
    assert isinstance(layout.shape, SquareShape)
    for cell in [*board.cells, *board.open_cells(), Cell(-5, -1), Cell(5, 1)]:  # margin: one cell all round
        assert inside(layout, layout.outline(cell))
    assert 11 * 2 * layout.unit >= 0.97 * layout.map.w  # 9 laid + 2 margin across fill the width
    for cell in board.cells:
        assert layout.shape.at(*layout.centre(cell)) == cell
    small = fit(SquareBoard({Cell(0, 0): "city"}), layout.map)
    assert small.unit * 2 * 5 <= layout.map.h + 1e-9  # one tile still shows 5 cells down, not one giant cell


def test_a_graph_board_draws_links_by_kind_sites_by_mark_and_every_symbol_in_the_key():
    game = BoardGame(GRAPH)
    assert isinstance(painter_of(game), BoardPainter)
    surface = render_frame(frame(game), SIZE)
    layout = Layout.for_board(GRAPH, *SIZE)
    styles = line_styles(GRAPH.links.values())
    canal = styles["canal"]
    assert canal.dash == () and pixel(surface, layout.centre(Link("lee", "yor"))) == canal.colour  # solid
    rail = styles["rail"]
    a, b = layout.shape.ends(Link("yor", "hul"))
    along = [pixel(surface, (a[0] + (b[0] - a[0]) * t / 50, a[1] + (b[1] - a[1]) * t / 50)) for t in range(5, 46)]
    assert rail.colour in along and palette.CITY_EDGE in along  # dashed: colour, then the casing between dashes
    for key in GRAPH.sites:
        assert pixel(surface, layout.centre(Location(key))) == palette.CITY  # every location has its white mark
    data = MapData.of(GRAPH)
    assert [(w, k) for w, k, _ in key_rows(data)] == [("spot", "city"), ("spot", "port"), ("spot", "town"),
                                                      ("link", "canal"), ("link", "rail"), ("link", "sea_lane")]
    assert [label for _, _, label in key_rows(data)][-1] == "sea lane"  # words, not code keys
    side = layout.side
    in_key = {pixel(surface, (x, y)) for x in range(side.x, side.x + side.w, 2) for y in range(side.y, side.y + 300, 2)}
    assert {s.colour for s in styles.values()} <= in_key


def test_the_cursor_rings_a_location_and_lies_along_a_link():
    game = BoardGame(GRAPH)
    layout = Layout.for_board(GRAPH, *SIZE)
    york = Location("yor")
    on_york = render_frame(frame(game, york), SIZE)
    x, y = layout.centre(york)
    ring = (x, y + RING_SCALE * RADIUS * layout.unit)  # the ring's bottom (the name sits above)
    assert pixel(on_york, ring) == palette.CURSOR
    link = Link("sel", "hul")
    on_link = render_frame(frame(game, link), SIZE)
    assert pixel(on_link, layout.centre(link)) == palette.CURSOR
    assert pixel(on_link, ring) != palette.CURSOR
    renderer = ProjectorRenderer(SIZE)
    first = frame(game)
    renderer.render(first)
    for cursor in (york, link, Location("lee"), Link("lee", "yor"), Hex(3, 3), None):
        moved = replace(first, cursor=cursor)
        surface = renderer.render(moved)
        assert renderer.full_redraws == 1
        assert same(surface, render_frame(moved, SIZE))  # restoring the old cursor's pixels leaves nothing behind
    assert same(render_frame(frame(game, Hex(3, 3)), SIZE), render_frame(first, SIZE))  # not on this board: none


def test_risk_heats_locations_and_links_by_their_exact_chance():
    risk = {Location("hul"): 0.8, Link("lee", "sel"): 0.4, Location("gone"): 1.0, Hex(0, 0): 1.0}
    game = BoardGame(GRAPH, risk)
    on = render_frame(frame(game, overlay=True), SIZE)
    off = render_frame(frame(game), SIZE)
    layout = Layout.for_board(GRAPH, *SIZE)
    hull = layout.probe(Location("hul"))
    assert pixel(on, hull) == palette.heat(0.8) and pixel(off, hull) == palette.BACKGROUND
    mid = layout.centre(Link("lee", "sel"))
    assert pixel(on, mid) == palette.heat(0.4) and pixel(off, mid) != palette.heat(0.4)
    assert pixel(on, layout.centre(Location("hul"))) == palette.CITY  # the mark stays above the heat


def test_a_hex_board_from_board_for_gets_terrain_letters_and_names():
    board = HexBoard({Hex(q, r): ("ocean" if q < 2 else "plains") for q in range(5) for r in range(3)},
                     {Hex(3, 1): "Salina"})
    game = BoardGame(board, {Hex(0, 0): 0.5})
    surface = render_frame(frame(game, Hex(1, 1)), SIZE)
    layout = Layout.for_board(board, *SIZE)
    assert pixel(surface, layout.probe(Hex(0, 2))) == palette.terrain("ocean")
    assert pixel(surface, layout.probe(Hex(4, 2))) == palette.terrain("plains")
    assert pixel(surface, layout.centre(Hex(3, 1))) == palette.CITY
    assert letters(board.terrain.values()) == {"ocean": "O", "plains": "P"}
    heated = render_frame(frame(game, overlay=True), SIZE)
    assert pixel(heated, layout.probe(Hex(0, 0))) == palette.heat(0.5)


def test_symbols_differ_by_more_than_colour():
    kinds = ["rail", "road", "river", "canal", "sea_lane"]
    styles = line_styles(kinds)
    for a, b in combinations(sorted(kinds)[:4], 2):  # four patterns: the first four kinds differ in both
        assert styles[a].colour != styles[b].colour and styles[a].dash != styles[b].dash
    assert letters(kinds) == {"canal": "C", "rail": "Ra", "river": "Ri", "road": "Ro", "sea_lane": "S"}
    marks = mark_shapes(["city", "town", "port", "mine", "farm"])
    assert marks["city"] == "circle" and marks["town"] == "square" and len(set(marks.values())) == 5


def test_names_never_overlap_a_name_already_drawn():
    pygame.font.init()
    board = GraphBoard({"a": Site("Middlesbrough", 0, 0, "city"), "b": Site("Stockton", 0.6, 0.05, "city"),
                        "c": Site("Far Away", 10, 6, "town")}, {})
    layout = Layout.for_board(board, *SIZE)
    surface = pygame.Surface(SIZE)
    data = MapData.of(board)
    taken: list = []
    for spot in data.places:
        rect = label_place(surface, layout, spot, taken)
        assert rect.collidelist(taken) < 0
        assert layout.map.x <= rect.left and rect.right <= layout.map.x + layout.map.w
        taken.append(rect)
