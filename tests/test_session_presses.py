"""No single press ends anything by accident, through the real session and what the OLED and projector are
given: the cursor never starts on an option that ends a phase, a turn or the game (Stormfury's "End player
phase", Kansas's "End turn"), pressing past the top of a list does not wrap onto it, and ending a game asks first.
Stormfury's player phase offers and accepts only the actions of the player whose turn it is."""

from __future__ import annotations

import pytest

from companion.dice import Choice, DiceRolled
from companion.journal import Journal
from companion.session import Decide, Press, Roll, Session
from companion.session.choices import ends
from companion.views import oled


@pytest.fixture
def journal(tmp_path):
    with Journal(tmp_path / "j.sqlite") as j:
        yield j


def selected(s: Session) -> str:
    menu = s.panel.menu
    assert menu is not None
    return menu.items[menu.selected]


def stormfury_players_phase(s: Session) -> None:
    s.start(game="stormfury", options={"players": [{"role": "aquatic_engineer", "city": "houston"},
                                                   {"role": "relief_corps", "city": "new_orleans"}]})
    s.handle(Press("ROLL"))  # the forecast shuffled: the player phase
    assert s.current.state.phase == "players"


def test_stormfury_starts_on_the_players_action_and_ends_nothing_with_one_press(journal):
    s = Session(journal)
    stormfury_players_phase(s)
    labels = s.panel.menu.items
    assert not selected(s).startswith("End") and "done:" not in selected(s)
    assert labels[-1] == "End player phase"
    assert s.frame.cursor == s.options()[s.panel.menu.selected].place  # the projector's cursor with it
    s.handle(Press("UP"))  # on the board: up from the start, onto an option that ends nothing
    assert not ends(s.options()[s.panel.menu.selected])
    assert s.frame.cursor == s.options()[s.panel.menu.selected].place
    before = len(journal.events(s.current.game_id))
    for button in s.presses_to(s.panel.menu.selected):  # OK (a place with several options: its list, then OK)
        s.handle(Press(button))
    assert len(journal.events(s.current.game_id)) == before + 1 and s.current.state.phase == "players"
    # only the Aquatic Engineer's actions are offered in her turn, and the other's refused
    assert all(not label.startswith("Relief") for label in s.panel.menu.items)
    s.handle(Decide(Choice("move", {"player": "relief_corps", "to": "biloxi"})))
    assert s.message == "it is Aquatic Engineer's turn, not Relief Corps's"
    assert len(journal.events(s.current.game_id)) == before + 1
    oled.render(s.panel)


def test_kansas_starts_on_a_removal_not_on_end_turn(journal):
    s = Session(journal)
    s.start(game="kansas", options={"players": 4, "turn": 2})
    for _ in range(60):
        if s.options():
            break
        s.handle(Press("ROLL"))
    options = s.options()
    assert options and options[-1].label == "End turn" and selected(s) != "End turn"
    s.handle(Press("UP"))
    assert selected(s) != "End turn"  # no wrap onto it


def test_ending_a_game_asks_to_confirm(journal):
    s = Session(journal)
    s.start(game="kansas", options={"players": 4, "turn": 8})  # the last turn
    for _ in range(60):
        if s.options():
            break
        s.handle(Press("ROLL"))
    while selected(s) != "End game":
        s.handle(Press("DOWN"))
    s.handle(Press("OK"))
    assert s.panel.menu.title == "End game?" and not s.current.prompt().done
    s.handle(Press("BACK"))  # no: nothing ended
    assert not s.current.prompt().done and selected(s) == "End game"
    s.handle(Press("OK"))
    s.handle(Press("OK"))  # yes
    assert s.current.prompt().done and journal.games()[0].finished


def test_a_roll_thrown_while_the_end_is_asked_waits(journal):
    s = Session(journal)
    s.start(game="kansas", options={"players": 4, "turn": 8})
    for _ in range(60):
        if s.options():
            break
        s.handle(Press("ROLL"))
    while selected(s) != "End game":
        s.handle(Press("DOWN"))
    s.handle(Press("OK"))
    s.handle(Roll.of(DiceRolled.of(("d8", 3))))
    assert s.message == "roll waits for the answer"
