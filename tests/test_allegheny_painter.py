"""The Allegheny painter: track in its railroad's colour, development pips, the automatic target, the
auction and the P&LE in the side panel, at 720p and 1080p; the snapshot command seeds the game and
points its cursor at a location by name."""

from __future__ import annotations

import pytest

from companion.cli import main
from companion.commands.snapshot import frame_for
from companion.dice import Choice
from companion.games.allegheny import load
from companion.games.allegheny import painter as rail
from companion.places import Location
from companion.session.drawn import painter_of
from companion.views.projector import palette, render_frame
from companion.views.projector.layout import Layout

SIZES = [(1280, 720), (1920, 1080)]


@pytest.fixture(scope="module")
def game():
    return load()


def offered(game):
    """Three players; each of the five stocks goes to its opener for $1 + its place (the others pass)."""
    state = game.new_game({"players": 3})
    for k in range(5):
        state = game.apply(state, Choice("bid", {"amount": 1 + k}))
        while state.auction is not None and state.phase == "offering" and state.offered == k:
            state = game.apply(state, Choice("pass"))
    return state


def draw(game, state, size):
    surface = render_frame(frame_for(game, state), size)
    painter = painter_of(game, state)  # handed the rules' answers for this state, as the renderer does
    return surface, painter, Layout.for_board(painter.map_data(state).shaped(), *size)


def pixel(surface, at):
    return tuple(surface.get_at((round(at[0]), round(at[1]))))[:3]


def test_the_spec_names_this_painter(game):
    assert isinstance(painter_of(game), rail.Painter)


@pytest.mark.parametrize("size", SIZES)
def test_the_auction_under_way_is_in_the_side_panel(game, size):
    state = game.new_game({"players": 3})
    state = game.apply(state, Choice("bid", {"amount": 4}))
    state = game.apply(state, Choice("pass"))
    lines = painter_of(game).auction_lines(state)
    assert lines[1] == "Stock: C&O (red), base Richmond"
    assert lines[2] == "High bid: $4 by Player 1" and lines[3] == "Bidding now: Player 3"
    assert lines[4] == "Passed: Player 2"
    draw(game, state, size)  # the whole frame draws


@pytest.mark.parametrize("size", SIZES)
def test_track_in_its_railroads_colour_and_development_pips(game, size):
    state = offered(game)
    me = {"player": state.current + 1}
    state = game.apply(state, Choice("build_track", {**me, "railroad": "co"}))
    state = game.apply(state, Choice("build_from", {"location": "richmond"}))
    state = game.apply(state, Choice("build", {"railroad": "co", "link": ["richmond", "lynchburg"]}))
    state = game.apply(state, Choice("done_building"))
    me = {"player": state.current + 1}
    state = game.apply(state, Choice("develop_locations", me))
    state = game.apply(state, Choice("develop", {"location": "lynchburg"}))
    surface, painter, layout = draw(game, state, size)
    ((rr, a, b),) = painter.track_lines(layout, state)
    assert rr == "co" and painter.style("co").colour == rail.RAIL_COLOURS["red"]
    at = (a[0] + (b[0] - a[0]) * 0.2, a[1] + (b[1] - a[1]) * 0.2)
    assert pixel(surface, at) == rail.RAIL_COLOURS["red"]  # C&O's track, solid, in the group's red
    (filled,) = painter.pips(layout, "lynchburg")  # a settlement: capacity 1, developed once
    assert pixel(surface, filled) == palette.CITY
    empty = painter.pips(layout, "richmond")
    assert len(empty) == 3 and all(pixel(surface, p) != palette.CITY for p in empty)


@pytest.mark.parametrize("size", SIZES)
def test_the_next_automatic_metro_is_ringed(game, size):
    state = offered(game)
    surface, painter, layout = draw(game, state, size)
    assert painter.automatic_target(state) == "pittsburgh"
    x, y = layout.centre(Location("pittsburgh"))
    assert pixel(surface, (x + layout.unit * 0.85, y)) == rail.AUTO  # the ring's first dash


def test_the_ple_opens_when_a_railroad_reaches_pittsburgh(game):
    state = offered(game)
    me = {"player": state.current + 1}
    state = game.apply(state, Choice("build_track", {**me, "railroad": "bo"}))
    state = game.apply(state, Choice("build_from", {"location": "baltimore"}))
    state = game.apply(state, Choice("build", {"railroad": "bo", "link": ["baltimore", "cumberland"]}))
    state = game.apply(state, Choice("build_from", {"location": "cumberland"}))
    state = game.apply(state, Choice("build", {"railroad": "bo", "link": ["cumberland", "pittsburgh"]}))
    assert state.phase == "ple_auction"
    painter = painter_of(game)
    assert painter.auction_lines(state)[:2] == ["The P&LE opens", "Stock: P&LE (black), base Pittsburgh"]
    draw(game, state, (1280, 720))


@pytest.mark.parametrize("size", ["1280x720", "1920x1080"])
def test_the_snapshot_command_seeds_the_game_and_points_at_a_location(tmp_path, size, capsys):
    out = tmp_path / "a.png"
    assert main(["snapshot", "allegheny", "--seed", "1", "--events", "20", "--option", "players=4",
                 "--cursor", "Pittsburgh", "--size", size, "--out", str(out)]) == 0
    assert "Age of Rail: Allegheny, Initial offering" in capsys.readouterr().out
    assert main(["snapshot", "allegheny", "--cursor", "Atlantis", "--out", str(tmp_path / "x.png")]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "Atlantis" in err
