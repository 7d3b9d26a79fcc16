"""Views draw, the session decides, for the graph and square boards: the Age of Industry, Age of Rail Allegheny and
Carcassonne painters draw from the state, the printed map and the frame's plain data (the rules' answers the
game's spec declares, worked out by the session once per state), never from the rules."""

from __future__ import annotations

from typing import Any

import pygame
import pytest

from companion.commands.snapshot import frame_for, seeded_state
from companion.dice import Choice
from companion.games import load_game
from companion.games.allegheny.painter import Painter as AlleghenyPainter
from companion.games.carcassonne.painter import Painter as CarcassonnePainter
from companion.games.industry.painter import IndustryPainter
from companion.places import Link
from companion.session.drawn import drawn_of
from companion.views.drawn import NOTHING
from companion.views.projector.renderer import ProjectorRenderer
from tests.test_painters_drawn import draws_from_data_alone

SIZE = (1280, 720)


class MapsOnly:
    """What a painter may read of its game besides the frame: the printed map(s) (Carcassonne: the tile
    catalogue and the rules' figures, the seats' colours) and the title. Any other attribute (a rule:
    ``ledger_json``, ``last_round``, ``board_for``, ``railroad_rows``, ``analysis``, ``quake_zone``...) is an
    AttributeError."""

    def __init__(self, game: Any) -> None:
        printed = ("catalog", "rules") if game.key == "carcassonne" else ("board", "boards")
        for name in printed:  # Allegheny prints one map; Age of Industry two, the state names its own
            if name in vars(game):
                setattr(self, name, getattr(game, name))
        self.title = game.title
        self.key = game.key


@pytest.fixture(scope="module", autouse=True)
def fonts():
    pygame.font.init()


def japan_built(game: Any) -> Any:
    """Japan, three players: two ports with a live lane between them, two rail links, a card taken."""
    state = game.new_game({"map": "Japan", "players": 3})
    for action, args in [*(("deal", {"card": c}) for c in ("coal", "cotton", "port", "ship", "iron", "goods")),
                         ("industry", {"location": "kobe", "kind": "port", "owner": "Blue"}),
                         ("industry", {"location": "takamatsu", "kind": "port", "owner": "Green"}),
                         ("ship", {"space": "harima", "owner": "Green", "tech": 2}),
                         ("link", {"from": "osaka", "to": "kobe", "owner": "Red"}),
                         ("link", {"from": "okayama", "to": "hiroshima", "owner": "Red"}),
                         ("card", {"space": 1, "how": "paid", "player": "Blue"})]:
        state = game.apply(state, Choice(action, args))
    return state


@pytest.mark.parametrize("key, painter_class, seed, events, options", [
    ("industry", IndustryPainter, 5, 170, {}),  # Japan, the display and links built
    ("industry", IndustryPainter, 4, 60, {"map": "Minnesota"}),  # the markets, the Chicago area, face-up cards
    ("allegheny", AlleghenyPainter, 1, 20, {"players": 4}),  # an auction under way
    ("allegheny", AlleghenyPainter, 12, 136, {"players": 4}),  # track laid, railroads running, the P&LE
    ("carcassonne", CarcassonnePainter, 1, 106, {"players": 3, "river": "yes"}),  # the tornado's targets
    ("carcassonne", CarcassonnePainter, 1, 262, {"players": 3, "river": "yes"}),  # the cities the quake hits
    ("carcassonne", CarcassonnePainter, 2, 59, {"players": 3, "river": "yes"}),  # the meteor's landing tiles
    ("carcassonne", CarcassonnePainter, 3, 100, {"players": 3, "river": "yes"}),  # the flood's ring
])
def test_a_painter_draws_from_the_frames_data_alone(key, painter_class, seed, events, options):
    game = load_game(key, None)
    state = seeded_state(game, seed, events, options)
    frame = frame_for(game, state)
    draws_from_data_alone(painter_class, MapsOnly, game, state, frame.drawn)  # only the maps to read


def test_the_industry_data_are_the_ledgers_figures_and_the_cards_names():
    game = load_game("industry", None)
    state = japan_built(game)
    drawn = drawn_of(game, state)
    assert drawn.get("links") == ((Link("osaka", "kobe"), "Red", 4), (Link("okayama", "hiroshima"), "Red", 3))
    assert drawn.get("totals") == (("Red", 7), ("Blue", 0), ("Green", 0))
    assert [(link.a, link.b) for link in drawn.get("lanes")] == [("kobe", "takamatsu")]
    assert drawn.get("display")[1] == "Cotton mill" and drawn.get("last_round") is False
    painter = IndustryPainter(MapsOnly(game))
    painter.use(drawn)
    lines = [line for line, _ in painter.side_lines(state)]
    assert "Red: $7" in lines and "2  $2  Cotton mill - taken by Blue" in lines


def test_the_session_works_the_industry_data_out_once_per_state(monkeypatch):
    from companion.games.industry import ledger

    game = load_game("industry", None)
    state = japan_built(game)
    later = game.apply(state, Choice("link", {"from": "kyoto", "to": "osaka", "owner": "Blue"}))
    frames = [frame_for(game, state) for _ in range(3)] + [frame_for(game, later)]  # the engine's words first
    asked: list[Any] = []
    real = ledger.live_lanes
    monkeypatch.setattr(ledger, "live_lanes", lambda *a: asked.append(a[-1]) or real(*a))
    renderer = ProjectorRenderer(SIZE)
    for frame in frames[:3]:  # the same state in three frames (the status strip changing): worked out once
        renderer.render(frame)
    assert asked == [state]
    renderer.render(frames[3])
    assert asked == [state, later]
    assert renderer.board_for(game, later).painter.drawn is frames[3].drawn


def test_the_allegheny_data_are_the_networks_figures_and_the_engines_words():
    game = load_game("allegheny", None)
    state = seeded_state(game, 12, 136, {"players": 4})
    drawn = drawn_of(game, state)
    assert drawn is drawn_of(game, state)  # the same state asked again: not worked out again
    owned = [row for row in drawn.get("rows") if row["owner"]]
    assert owned and all(isinstance(row["value"], int) and isinstance(row["income"], int) for row in owned)
    assert set(drawn.get("open")) == {rr.key for rr in game.board.railroads if state.owner(rr.key) is not None}
    assert drawn.get("auto") in game.board.rules.automatic and drawn.get("automatic_line").startswith("next")
    painter = AlleghenyPainter(MapsOnly(game))
    painter.use(drawn)
    assert painter.automatic_target(state) == drawn.get("auto")
    painter.use(NOTHING)
    assert painter.automatic_target(state) == ""  # handed nothing, the painter has no rule to ask


def test_the_allegheny_auction_says_the_seats_from_the_printed_data():
    game = load_game("allegheny", None)
    state = game.apply(game.new_game({"players": 3}), Choice("bid", {"amount": 4}))
    state = game.apply(state, Choice("pass"))
    lines = AlleghenyPainter(MapsOnly(game)).auction_lines(state)  # the state's facts: no rule asked
    assert lines[2:4] == ["High bid: $4 by Player 1", "Bidding now: Player 3"] and "Passed: Player 2" in lines


def test_the_carcassonne_data_are_the_rules_answers_once_per_state():
    game = load_game("carcassonne", None)
    state = seeded_state(game, 1, 262, {"players": 3, "river": "yes"})
    drawn = drawn_of(game, state)
    assert drawn is drawn_of(game, state)  # the same state asked again: not worked out again
    assert drawn.get("quake_cell") == game.quake_cell(state) is not None
    assert drawn.get("quake_zone") == game.quake_zone(state) and drawn.get("quake_hits")
    painter = CarcassonnePainter(MapsOnly(game))
    painter.use(drawn)
    words = dict(painter.disaster_lines(state))["Earthquake"]
    assert f"it hits {len(drawn.get('quake_hits'))} cit" in words[0] and words[-1] == game.rules.readings()[2]
    painter.use(NOTHING)
    assert "Earthquake" not in dict(painter.disaster_lines(state))  # handed nothing, no rule to ask
