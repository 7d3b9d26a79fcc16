"""Seats named by the table from the box, kept in the journal, said on the OLED instead of "P2"; Stormfury's
cards said by name ("Ocean 3") and its damage by city and space, not by code."""

from __future__ import annotations

import pytest

from companion.dice import DiceRolled, DiceSource
from companion.journal import Journal
from companion.session import Press, Roll, Session
from companion.views import oled


@pytest.fixture
def journal(tmp_path):
    with Journal(tmp_path / "j.sqlite") as j:
        yield j


def choose(s: Session, label: str) -> None:
    items = s.panel.menu.items
    assert label in items, items
    while s.panel.menu.items[s.panel.menu.selected] != label:
        s.handle(Press("DOWN"))
    s.handle(Press("OK"))


def words(s: Session) -> str:
    return " ".join(oled.oled_lines(s.panel))


def test_the_table_names_the_seats_and_the_box_says_the_names(journal):
    s = Session(journal, dice=DiceSource(seed=5), game_keys=("kansas", "allegheny"))
    s.start(resume=False)
    choose(s, "New: Kansas")
    choose(s, "4")
    choose(s, "Name each seat")
    assert s.panel.menu.title == "Seat 1 of 4: name" and s.panel.menu.items[:2] == ("Red", "Blue")
    for name in ("Ann", "Blue", "Cleo", "Red"):
        choose(s, name)
        assert s.current is not None or name not in s.panel.menu.items  # a name taken is not offered again
    assert s.current.options == {"players": 4, "seats": ["Ann", "Blue", "Cleo", "Red"]}
    for _ in range(80):  # to the actions: deliveries and emergencies name the seats
        if s.options():
            break
        s.handle(Press("ROLL"))
    items = s.panel.menu.items
    assert "Ann: Emergency/Forecast" in items and not any(i.startswith(("P1", "P2")) for i in items)
    assert "P1" not in words(s) and "Player 1" not in words(s)

    # the journal keeps them: a restart resumes with the names
    again = Session(journal)
    again.start()
    assert again.current.options["seats"] == ["Ann", "Blue", "Cleo", "Red"]
    assert "Cleo: Emergency/Forecast" in again.panel.menu.items


def test_allegheny_players_by_name(journal):
    s = Session(journal, game_keys=("allegheny",))
    s.start(resume=False)
    choose(s, "New: Allegheny")
    choose(s, "3")
    choose(s, "Name each seat")
    for name in ("Green", "Dev", "Hana"):
        choose(s, name)
    text = " ".join((s.panel.status, s.panel.request, *s.panel.result, *(s.panel.menu.items if s.panel.menu else ())))
    assert "Player" not in text and any(n in text for n in ("Green", "Dev", "Hana")), text


def test_stormfury_cards_and_damage_by_name(journal):
    s = Session(journal, dice=DiceSource(seed=1))
    s.start(game="stormfury", options={"players": [{"role": "architect", "city": "houston"}]})
    s.handle(Roll.of(DiceRolled.of(("d8", 1), ("d6", 1))))  # a deal by dice: the card picked is named
    assert s.panel.last[0].startswith("Card 1: Ocean ")
    s.handle(Press("ROLL"))
    assert s.panel.last[0].startswith("Forecast: Ocean ") and "O1" not in " ".join(s.panel.last)
    seen = []
    for _ in range(200):
        if s.current.prompt().done:
            break
        options = s.options()
        if options:
            while not s.options()[s.panel.menu.selected].event.action.startswith("end"):
                s.handle(Press("DOWN"))
            s.handle(Press("OK"))
        else:
            s.handle(Press("ROLL"))
        seen += s.panel.last
    drew = [line for line in seen if line.startswith("Drew ")]
    assert drew and all(line.split()[1] in ("Ocean", "Land") for line in drew)
    assert not any(code in " ".join(seen) for code in (" O1", " L1", "houston.", "_"))
    damaged = [line for line in seen if ": " in line and line.split(": ")[0] in
               {c.name for c in s.current.game.board.cities}]
    assert damaged, seen


def test_a_game_started_from_the_menu_is_shown(tmp_path):
    """The press that starts a new game (after its setup questions) reports a change, so the views draw the new
    game at once (a trial build of the new game's frame once hid it until the next press)."""
    from companion.inputs import Press
    from companion.journal import Journal
    from companion.session import Session

    with Journal(tmp_path / "j.sqlite") as journal:
        session = Session(journal)
        session.start("kansas", {"players": 4})
        first = session.current.game_id
        assert session.handle(Press("BACK"))
        for _ in range(session.panel.menu.items.index("New: Kansas")):
            assert session.handle(Press("DOWN"))
        assert session.handle(Press("OK"))  # how many players
        assert session.handle(Press("OK"))  # the seats' names: numbers
        assert session.current.game_id == first and "seat names" in session.panel.menu.title
        assert session.handle(Press("OK")) is True  # the new game starts: a change to show
        assert session.current.game_id != first and session.frame.game is session.current.game
