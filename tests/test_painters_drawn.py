"""Views draw, the session decides: the Kansas and Stormfury painters draw from the state and the frame's plain
data (the rules' answers the game's spec declares, worked out by the session once per state, and the seats'
names), never from the rules; the names the table gave its seats are said on the projector."""

from __future__ import annotations

from typing import Any

import pygame
import pytest

from companion.commands.snapshot import frame_for, seeded_state
from companion.dice import DiceSource
from companion.games import load_game
from companion.games.kansas.painter import KansasPainter
from companion.games.stormfury.painter import StormfuryPainter
from companion.journal import Journal
from companion.session import Session
from companion.session.drawn import drawn_of, painter_of
from companion.views.drawn import NOTHING, Drawn
from companion.views.projector import Layout
from companion.views.projector.renderer import ProjectorRenderer, side_inner

SIZE = (1280, 720)


class BoardOnly:
    """What a painter may read of its game besides the frame: the printed board and the title. Any other
    attribute (a rule: ``choices``, ``prompt``, ``turn_of``, ``summary``...) is an AttributeError."""

    def __init__(self, game: Any) -> None:
        self.board = game.board
        self.title = game.title
        self.key = game.key


def picture(painter: Any, state: Any) -> bytes:
    """The painter's marks and side panel for ``state``, as pixels."""
    layout = Layout.for_board(painter.map_data(state).shaped(), *SIZE)
    surface = pygame.Surface(SIZE)
    painter.paint_state(surface, layout, state)
    painter.paint_side(surface, layout, side_inner(layout, False), state)
    return pygame.image.tobytes(surface, "RGB")


def side_words(painter: Any, state: Any) -> str:
    layout = Layout.for_board(painter.map_data(state).shaped(), *SIZE)
    return " ".join(str(p.key[1]) for p in painter.side_pieces(layout, side_inner(layout, False), state)
                    if isinstance(p.key, tuple) and len(p.key) > 1 and isinstance(p.key[1], str))


@pytest.fixture(scope="module", autouse=True)
def fonts():
    pygame.font.init()


@pytest.mark.parametrize("key, painter_class, seed, events", [
    ("kansas", KansasPainter, 7, 3),  # a forecast being chosen: the ranked choices
    ("kansas", KansasPainter, 7, 60),
    ("stormfury", StormfuryPainter, 7, 14),  # the player phase: the forecast cards' paths, whose turn
    ("stormfury", StormfuryPainter, 7, 0),  # the end: the damage chart
])
def test_a_painter_draws_from_the_frames_data_alone(key, painter_class, seed, events):
    game = load_game(key, None)
    options = {"players": 4, "forecaster": 2} if key == "kansas" else {}
    state = seeded_state(game, seed, events, options)
    frame = frame_for(game, state)
    draws_from_data_alone(painter_class, BoardOnly, game, state, frame.drawn)


def draws_from_data_alone(painter_class: Any, printed: Any, game: Any, state: Any, drawn: Any) -> None:
    """A painter given only what is printed (``printed(game)``: no rule to call) and the frame's ``drawn`` data
    paints what the game's own painter paints; handed nothing, the rules' lines and figures are gone."""
    blind = painter_class(printed(game))
    blind.use(drawn)
    assert picture(blind, state) == picture(painter_of(game, state), state)
    bare = painter_class(printed(game))
    bare.use(NOTHING)
    assert picture(bare, state) != picture(blind, state)


def test_the_renderer_hands_the_painter_the_frames_data_with_each_state():
    game = load_game("stormfury", None)
    states = [seeded_state(game, 7, n) for n in (12, 13, 14)]
    renderer = ProjectorRenderer(SIZE)
    for state in states:
        frame = frame_for(game, state)
        renderer.render(frame)
        painter = renderer.board_for(game, state).painter
        assert painter.drawn is frame.drawn
        assert painter.forecast_paths() == frame.drawn.get("paths")


def test_the_session_works_the_extras_out_once_per_state():
    game = load_game("kansas", None)
    state = game.new_game({"players": 4, "forecaster": 2})
    first = drawn_of(game, state)
    assert drawn_of(game, state) is first  # the same state asked again: not ranked again
    assert first.get("ranked") and first.get("ranked") == tuple(sorted(first.get("ranked"), key=lambda r: r[1]))
    assert drawn_of(game, state, ("Ann", "Ben", "Cleo", "Dev")) is not first


def test_a_named_seat_is_said_by_name_in_the_painters_words():
    named = Drawn({"prompt": "Player 2: forecast a tornado", "happened": ("P3 delivers Hays",)},
                  ("Ann", "Ben", "Cleo", "Dev"))
    assert named.seat(2) == "Ben" and named.seat(5) == "Player 5" and NOTHING.seat(2, "player") == "player 2"
    assert named.say(named.get("prompt")) == "Ben: forecast a tornado"
    assert named.say(named.get("happened")[0]) == "Cleo delivers Hays"


def test_the_projector_says_the_seats_the_table_named(tmp_path):
    with Journal(tmp_path / "j.sqlite") as journal:
        s = Session(journal, dice=DiceSource(seed=5), game_keys=("kansas",))
        s.start(game="kansas", options={"players": 4, "forecaster": 2, "seats": ["Ann", "Blue", "Cleo", "Red"]})
        frame = s.frame
        assert frame.seats == ("Ann", "Blue", "Cleo", "Red")
        assert frame.state.forecaster == 2  # "Player 2 holds a forecast", by her name
        painter = painter_of(frame.game, frame.state, frame.seats)
        words = side_words(painter, frame.state)
        assert "Blue" in words and "Player 2" not in words, words
        numbered = side_words(painter_of(frame.game, frame.state), frame.state)
        assert "Player 2" in numbered and "Blue" not in numbered, numbered
        # the renderer draws what the frame carries: the names
        renderer = ProjectorRenderer(SIZE)
        renderer.render(frame)
        shown = " ".join(str(p.key[1]) for p in renderer.shown_pieces if isinstance(p.key, tuple) and len(p.key) > 1)
        assert "Blue" in shown and "Player 2" not in shown


def test_the_forecast_paths_discs_say_the_cards_number_not_its_code():
    game = load_game("stormfury", None)
    state = seeded_state(game, 7, 14)
    frame = frame_for(game, state)
    renderer = ProjectorRenderer(SIZE)
    renderer.render(frame)
    discs = [p.key[1] for p in renderer.shown_pieces if p.key[0] == "forecast path"]
    names = [game.board.card(cid).name for cid, _ in frame.drawn.get("paths")]
    assert len(discs) == len(state.forecast) == len(names) and state.forecast
    assert discs == [name.split()[-1] for name in names]  # "Ocean 3" -> "3", as the side panel's row names it
    assert not set(discs) & set(state.forecast)  # never "O3"


def test_snapshot_names_the_seats_and_refuses_names_it_cannot_use(tmp_path, capsys):
    from companion.cli import main

    out = tmp_path / "named.png"
    assert main(["snapshot", "kansas", "--seed", "11", "--events", "0", "--seats", "Ann,Blue,Cleo,Red",
                 "--size", "640x360", "--out", str(out)]) == 0
    assert out.exists()
    for game, seats, said in (("kansas", "Ann,Blue", "expected 4 different names"),
                              ("kansas", "Ann,Ann,Cleo,Red", "expected 4 different names"),
                              ("stormfury", "Ann,Blue", "does not number its seats")):
        capsys.readouterr()
        assert main(["snapshot", game, "--seats", seats, "--out", str(tmp_path / "no.png")]) == 2
        err = capsys.readouterr().err.strip()
        assert said in err and "\n" not in err and "Traceback" not in err
        assert not (tmp_path / "no.png").exists()


def test_the_panel_and_the_frame_are_built_together_from_the_sessions_state(tmp_path):
    from companion.session import core, screens

    assert core.Frame is screens.Frame  # imported from where it always was
    with Journal(tmp_path / "j.sqlite") as journal:
        s = Session(journal, dice=DiceSource(seed=5), game_keys=("kansas",))
        s.start(game="kansas", options={"players": 4, "forecaster": 2, "seats": ["Ann", "Blue", "Cleo", "Red"]})
        panel, frame = s._compose()
        assert frame.panel == panel == s.panel and frame == s.frame
        assert frame.game is s.run.game and frame.state is s.run.state and frame.seats == ("Ann", "Blue", "Cleo", "Red")
        assert "Blue" in panel.status + " ".join(panel.menu.items if panel.menu else ()) + panel.request
        assert frame.cursor is None  # the forecast's choices name no place on the map
