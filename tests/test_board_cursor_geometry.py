"""The plane the board cursor moves in is the one the projector draws: each place's position
(:func:`companion.places.position`) is where the projector's layout puts its centre, up to one scale for both axes
and a shift, so "right" for the arrows is right on the wall and the nearest place is the nearest there too."""

from __future__ import annotations

import math

import pytest

from companion.games import load_game
from companion.hexgrid import Hex
from companion.places import Board, Cell, HexBoard, Link, Location, SquareBoard, position
from companion.views.projector.layout import Layout


def drawn_as_placed(board: Board, places: list) -> None:
    """The layout's centres are the positions scaled by one positive factor and shifted."""
    layout = Layout.for_board(board, 1920, 1080)
    at = [position(p, board) for p in places]
    drawn = [layout.centre(p) for p in places]
    assert all(a is not None for a in at)
    (a0, d0), (a1, d1) = (at[0], drawn[0]), next((a, d) for a, d in zip(at, drawn, strict=True) if a != at[0])
    scale = math.dist(d0, d1) / math.dist(a0, a1)
    assert scale > 0
    for a, d in zip(at, drawn, strict=True):
        assert d[0] == pytest.approx(d0[0] + scale * (a[0] - a0[0]), abs=1e-6)
        assert d[1] == pytest.approx(d0[1] + scale * (a[1] - a0[1]), abs=1e-6)


def test_hexes_lie_where_the_projector_draws_them():
    hexes = [Hex(q, r) for q in range(-3, 5) for r in range(-2, 4)]
    drawn_as_placed(HexBoard({h: "plain" for h in hexes}), hexes)
    # flat-topped: the SE neighbour is to the right and below, N straight up, and two columns on is straight right
    assert position(Hex(1, 0))[0] > 0 and position(Hex(1, 0))[1] > 0
    assert position(Hex(0, -1)) == pytest.approx((0.0, -math.sqrt(3)))
    assert position(Hex(2, -1)) == pytest.approx((3.0, 0.0))


def test_cells_lie_where_the_projector_draws_them():
    cells = [Cell(x, y) for x in range(-2, 3) for y in range(-1, 2)]
    drawn_as_placed(SquareBoard({c: "tile" for c in cells}), cells)
    assert position(Cell(2, -1)) == (2.0, -1.0)  # east is right, north is up


@pytest.mark.parametrize("game", ["industry", "allegheny"])
def test_locations_and_links_lie_where_the_projector_draws_them(game):
    engine = load_game(game, None)
    state = engine.new_game({"players": 3})
    board = engine.board_for(state)
    sites = sorted(board.sites)
    places = [Location(k) for k in sites] + sorted(board.links)[:40]
    drawn_as_placed(board, places)
    link = sorted(board.links)[0]
    a, b = position(Location(link.a), board), position(Location(link.b), board)
    assert position(Link(link.b, link.a), board) == pytest.approx(((a[0] + b[0]) / 2, (a[1] + b[1]) / 2))


def test_a_place_the_board_does_not_have_has_no_position():
    assert position(Location("atlantis")) is None  # no board given
    engine = load_game("industry", None)
    board = engine.board_for(engine.new_game({"players": 3}))
    assert position(Location("atlantis"), board) is None
    assert position(Link("atlantis", sorted(board.sites)[0]), board) is None
