"""Kansas on the projector, pixels where they matter: marker stacks with counts, the tornado drawn
hex by hex as its rolls arrive, earlier tornadoes fainter, a re-rolled move, and the forecast's
candidate starts and chosen start highlighted."""

from __future__ import annotations

import math
from dataclasses import replace

import pygame
import pytest

from companion.commands.snapshot import frame_for
from companion.dice import Choice
from companion.games.kansas import KansasGame, KansasState, load
from companion.games.kansas.painter import EARLIER_FADE, FORECAST, KansasPainter, track_offset
from companion.hexgrid import Hex
from companion.session.drawn import painter_of
from companion.views.projector import Layout, palette, render_frame
from tests.conftest import REPO
from tests.test_kansas_rules import d6, d8, play

SIZE = (1920, 1080)


@pytest.fixture(scope="module")
def game() -> KansasGame:
    return load(REPO / "maps")


@pytest.fixture(scope="module")
def layout(game) -> Layout:
    return Layout.fit(KansasPainter(game).map_data().hexes, *SIZE)


def draw(game: KansasGame, state: KansasState, overlay: bool = False):
    return render_frame(frame_for(game, state, overlay=overlay), SIZE)


def pixel(surface, at) -> tuple[int, int, int]:
    return tuple(surface.get_at((round(at[0]), round(at[1]))))[:3]


def count_colour(surface, layout: Layout, h: Hex, colour) -> int:
    box = pygame.Rect(layout.box(h).as_tuple())
    return sum(1 for x in range(box.left, box.right) for y in range(box.top, box.bottom)
               if tuple(surface.get_at((x, y)))[:3] == colour)


def midpoint(layout: Layout, a: Hex, b: Hex, off: float = 0.0) -> tuple[float, float]:
    (ax, ay), (bx, by) = layout.centre(a), layout.centre(b)
    return (ax + bx) / 2 + off, (ay + by) / 2 + off


def bottom_edge(layout: Layout, h: Hex, scale: float = 0.86) -> tuple[float, float]:
    x, y = layout.centre(h)
    return x, y + layout.hex_size * scale * math.sqrt(3) / 2


def test_kansas_has_its_own_painter_and_board(game):
    painter = painter_of(game)
    assert isinstance(painter, KansasPainter)
    data = painter.map_data()
    assert dict(data.terrain) == game.board.terrain
    kinds = {p.name: p.kind for p in data.places}
    assert kinds["Kansas City"] == "city" and kinds["Dodge City"] == "city" and kinds["Great Bend"] == "town"
    assert len(data.places) == len(game.board.places)


def test_a_marker_stack_shows_and_grows_with_its_count(game, layout):
    clean = game.new_game({"players": 4})
    plain = next(h for h in sorted(game.board.terrain, key=lambda h: (h.q, h.r))
                 if game.board.place_at(h) is None and h.q > 3)
    one = replace(clean, markers=((plain, 1),))
    three = replace(clean, markers=((plain, 3),))
    nothing = count_colour(draw(game, clean), layout, plain, palette.DAMAGE)
    single = count_colour(draw(game, one), layout, plain, palette.DAMAGE)
    stacked = count_colour(draw(game, three), layout, plain, palette.DAMAGE)
    assert nothing == 0
    assert single > 0 and stacked > single  # more discs, more of the stack shows
    assert count_colour(draw(game, three, overlay=True), layout, plain, palette.DAMAGE) > 0  # facts over the heat


def test_the_tornado_is_drawn_hex_by_hex_as_its_rolls_arrive(game, layout):
    # the rule text's example: Dodge City, then 7 NE, 3 N, 6 NE, 11 S
    state = play(game, game.new_game({"players": 4}), d8(7), d8(3))
    t = state.current
    assert t is not None and t.start == game.board.grid[(7, 3)]
    for roll in (d6(4, 3), d6(1, 2), d6(1, 5), d6(5, 6)):
        before_at = state.current.position
        after = game.apply(state, roll)
        now = after.tornadoes[0]
        segment = midpoint(layout, before_at, now.markers[-1])
        assert pixel(draw(game, state), segment) != palette.TRACK
        assert pixel(draw(game, after), segment) == palette.TRACK
        state = after


def test_earlier_tornadoes_of_the_turn_are_fainter(game, layout):
    state = play(game, game.new_game({"players": 4}), d8(7), d8(3), d6(4, 3), d6(1, 2), d6(1, 5), d6(5, 6))
    first = state.tornadoes[0]
    state = play(game, state, d8(2), d8(8), d6(3, 3))  # tornado 2, far to the north-east, one move
    second = state.tornadoes[1]
    s = layout.hex_size
    surface = draw(game, state)
    old = midpoint(layout, first.markers[0], first.markers[1], track_offset(0, 2, s))
    new = midpoint(layout, second.markers[0], second.markers[1], track_offset(1, 2, s))
    assert pixel(surface, old) == palette.faded(palette.TRACK, EARLIER_FADE)
    assert pixel(surface, new) == palette.TRACK


def test_a_move_off_the_map_is_shown_crossed_out(game, layout):
    state = play(game, game.new_game({"players": 4}), d8(1), d8(1))
    start = state.current.position
    after = game.apply(state, d6(1, 2))  # 3 = N from the northern edge: off the map, roll again
    move = after.current.moves[-1]
    assert move.rerolled and move.to not in game.board.terrain
    (ax, ay), (bx, by) = layout.centre(start), layout.centre(move.to)
    cross = (ax + (bx - ax) * 0.8, ay + (by - ay) * 0.8)
    assert pixel(draw(game, after), cross) == palette.DAMAGE
    assert pixel(draw(game, state), cross) != palette.DAMAGE


def test_the_side_panel_ranks_the_open_forecast_choice_with_the_exact_risk(game):
    from companion.games.kansas.risk import forecast_lines, forecast_options

    def ranked(state):  # what the frame hands the painter, worked out by the session
        return frame_for(game, state).drawn.get("ranked")

    choosing = game.new_game({"players": 4, "forecaster": 2})
    assert choosing.phase == "forecast"
    lines = ranked(choosing)  # first the line, its place picked after the other roll
    assert [label for label, _ in lines] == [f"fix {'north-south' if o.line == 'ns' else 'west-east'}"
                                            for o in forecast_lines(game, choosing)]
    assert lines[0][1] <= lines[1][1]
    placing = play(game, choosing, Choice("forecast", {"tornado": 1, "line": "we"}), d8(4))
    places = ranked(placing)
    best = forecast_options(game, placing)
    assert len(places) == 8 and places[0] == (f"west-east {best[0].value}", best[0].on_places)
    assert [v for _, v in places] == sorted(v for _, v in places)
    assert ranked(play(game, placing, Choice("forecast_at", {"value": 1}))) == ()


def test_the_forecast_candidates_and_the_chosen_start_are_highlighted(game, layout):
    state = play(game, game.new_game({"players": 4, "forecaster": 2}),
                 Choice("forecast", {"tornado": 1, "line": "ns"}), d8(5))
    assert game.need(state) == "forecast_at"
    offered = {c.args["value"]: Hex(c.args["q"], c.args["r"]) for c in (o.event for o in game.choices(state))}
    assert frame_for(game, state).drawn.get("candidates") == offered and len(offered) == 8
    surface = draw(game, state)
    for h in offered.values():
        assert pixel(surface, bottom_edge(layout, h)) == FORECAST
    chosen = play(game, state, Choice("forecast_at", {"value": 6}))
    start = chosen.current.start
    assert start == game.board.grid[(6, 5)] and frame_for(game, chosen).drawn.get("candidates") == {}
    surface = draw(game, chosen)
    assert pixel(surface, bottom_edge(layout, start)) == FORECAST
    others = [h for h in offered.values() if h != start]
    assert all(pixel(surface, bottom_edge(layout, h)) != FORECAST for h in others)


def test_snapshot_options_set_the_seeded_game_and_bad_ones_are_one_line(tmp_path, capsys):
    from companion.cli import main

    out = tmp_path / "k.png"
    assert main(["snapshot", "kansas", "--events", "1", "--option", "players=6", "--out", str(out)]) == 0
    assert out.exists() and "Turn 1/6" in capsys.readouterr().out  # six players: six turns
    assert main(["snapshot", "kansas", "--option", "players", "--out", str(out)]) == 2
    err = capsys.readouterr().err.strip()
    assert "--option" in err and "KEY=VALUE" in err and len(err.splitlines()) == 1
