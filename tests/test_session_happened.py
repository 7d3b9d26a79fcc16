"""What just happened, on the OLED and the projector's side panel, in names: the meteor's landing and the
flood's spread in Carcassonne, a bid won and its price in Allegheny."""

from __future__ import annotations

import re

import pytest

from companion.dice import DiceSource
from companion.journal import Journal
from companion.session import Decide, Press, Session
from companion.views import oled
from companion.views.oled_fonts import compact

CODE = re.compile(r"\(-?\d+, ?-?\d+\)|\b[a-z]+_[a-z_]+\b|\bfeature -1\b")
"""A coordinate, a code key or an internal number: never on a screen."""


@pytest.fixture
def journal(tmp_path):
    with Journal(tmp_path / "j.sqlite") as j:
        yield j


def take(s: Session, prefix: str = "", last: bool = False) -> None:
    options = s.options()
    option = next(o for o in options if o.label.startswith(prefix)) if prefix else options[-1 if last else 0]
    s.handle(Decide(option.event))
    assert s.message == "", s.message


def side_words(s: Session) -> list[str]:
    from companion.session.drawn import painter_of
    from companion.views.projector.layout import Layout

    frame = s.frame
    painter = painter_of(frame.game)
    layout = Layout.for_board(frame.game.board_for(frame.state), 1280, 720)
    pieces = painter.side_pieces(layout, layout.side, frame.state)
    return [str(p.key) for p in pieces]


def test_carcassonne_meteor_landing_and_flood_spread_are_said_by_place(journal):
    s = Session(journal, dice=DiceSource(seed=1))
    s.start(game="carcassonne", options={"players": 2, "board": "cells", "river": "yes"})
    for _ in range(3):  # three tiles laid, no followers
        take(s)
        take(s, "Plain")
        take(s, "No follower")
    take(s, "Drew the meteor")
    seen: list[str] = []
    for _ in range(12):
        if any(line.startswith("The meteor lands on") for line in s.panel.last):
            break
        take(s)
        seen += s.panel.last
    landed = next(line for line in s.panel.last if line.startswith("The meteor lands on"))
    assert "of the start" in landed and not CODE.search(landed)
    assert landed in " ".join(oled.oled_lines(s.panel)) or any(landed.startswith(x.rstrip(".…"))
                                                               for x in oled.oled_lines(s.panel))
    assert any(landed in key for key in side_words(s)), "the projector's side panel says it too"


def test_allegheny_bid_winner_and_price_on_the_oled(journal):
    s = Session(journal, game_keys=("allegheny",))
    s.start(game="allegheny", options={"players": 3})
    for _ in range(12):
        if any(" wins the " in line for line in s.panel.last):
            break
        take(s, last=True)  # a bid, then everyone passes
    won = s.panel.last[0]
    assert re.search(r"Player \d wins the .+ for \$\d+", won) and not CODE.search(won)
    assert any(won in key for key in side_words(s))
    said = compact(won)  # "P1 wins C&O for $5": under the next auction's options, until the cursor moves
    assert said in oled.oled_lines(s.panel)
    s.handle(Press("DOWN"))
    assert said not in oled.oled_lines(s.panel)
