"""The risk heat's colours: the lookup table gives the ramp's own colour for every probability, and the
overlay's pieces are the places with a chance, in the colour the ramp gives."""

from __future__ import annotations

import math
import random

import pytest

from companion.games.kansas import load
from companion.places import Cell
from companion.views.projector import Layout, palette
from companion.views.projector.overlay import KEPT, risk_pieces


def around(p: float) -> list[float]:
    return [math.nextafter(p, -math.inf), p, math.nextafter(p, math.inf)]


def test_the_table_gives_the_ramps_colour_at_every_step_and_either_side_of_it():
    breaks, colours = palette.heat_table()
    assert breaks == sorted(breaks) and len(colours) == len(breaks) + 1
    assert len(set(colours)) == len(colours)  # every entry is a change of colour
    for b in breaks:
        for p in around(b):
            assert palette.heat(p) == palette.heat_exact(p), p
        assert palette.heat_exact(math.nextafter(b, -math.inf)) != palette.heat_exact(b)  # a real step


def test_the_table_gives_the_ramps_colour_for_any_probability():
    rng = random.Random(16)
    samples = [rng.random() for _ in range(50_000)] + [rng.random() ** 12 for _ in range(10_000)]
    samples += [i / (w - 1) for w in (2, 3, 101, 317, 1000, 1921) for i in range(w)]  # legend columns
    for stop, _ in palette.CIVIDIS:
        samples += around(stop)
    for p in samples:
        assert palette.heat(p) == palette.heat_exact(p), p


@pytest.mark.parametrize("p", [0.0, -0.0, -1e-300, -3.0, 1.0, 1.5, 7e300, 5e-324, math.inf, -math.inf, math.nan])
def test_out_of_range_and_odd_floats_are_clamped_as_the_ramp_clamps_them(p):
    assert palette.heat(p) == palette.heat_exact(p)


def test_the_ends_of_the_ramp_are_cividis():
    assert palette.heat(0.0) == palette.CIVIDIS[0][1] and palette.heat(1.0) == palette.CIVIDIS[-1][1]


@pytest.fixture(scope="module")
def layout() -> Layout:
    return Layout.fit(list(load().board.terrain), 1280, 720)


def test_heat_pieces_are_the_places_with_a_chance_in_the_ramps_colour(layout):
    on_board = sorted(load().board.terrain, key=lambda h: (h.q, h.r))[:6]
    risk = {on_board[0]: 0.3, Cell(2, 3): 0.9,  # a square board's place: not on a hex board
             on_board[1]: 0.0, on_board[2]: 1.0, on_board[3]: math.nan,
            on_board[4]: 1e-9, on_board[5]: -0.2}
    pieces = risk_pieces(layout, risk, {})
    assert [p.key for p in pieces] == [("heat", on_board[0], palette.heat_exact(0.3)),
                                       ("heat", on_board[2], palette.heat_exact(1.0)),
                                       ("heat", on_board[4], palette.heat_exact(1e-9))]


def test_a_place_in_the_same_colour_is_the_same_piece_and_a_new_colour_a_new_one(layout):
    h = next(iter(load().board.terrain))
    store: dict = {}
    first = risk_pieces(layout, {h: 0.5}, store)
    same = risk_pieces(layout, {h: 0.5000000001}, store)  # the same colour on the ramp
    other = risk_pieces(layout, {h: 0.9}, store)
    assert same[0] is first[0] and other[0] is not first[0]
    assert other[0].key == ("heat", h, palette.heat_exact(0.9))
    assert len(store[KEPT].at(layout)) == 2


def test_the_kept_heat_pieces_stay_bounded(layout, monkeypatch):
    from companion.views.projector import overlay

    monkeypatch.setattr(overlay, "MAX_KEPT", 50)
    hexes = list(load().board.terrain)[:10]
    store: dict = {}
    for step in range(40):
        risk_pieces(layout, {h: (step * 10 + i + 1) / 500 for i, h in enumerate(hexes)}, store)
        assert len(store[KEPT].at(layout)) <= 50 + len(hexes)
