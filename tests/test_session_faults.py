"""No game can stop the box: an engine that raises while a game starts, resumes or is played is set aside (one
line on the OLED and in the log), stays in the journal to be resumed once fixed, and the box shows its menu with
the other games intact. Age of Industry's Japan display dealt by the box, whose 57-card deck is too large for
dice, is shuffled by ROLL instead of stopping the start."""

from __future__ import annotations

import logging

import pytest

from companion.dice import DiceRolled
from companion.games import registry
from companion.journal import Journal
from companion.session import Press, Roll, Session
from companion.views import oled
from tests.toygame import SPEC, faulty


@pytest.fixture
def games():
    """The toy game and its faulty twin in the registry for one test, no fault switched on."""
    removers = [registry.register(SPEC), registry.register(faulty.SPEC)]
    faulty.FAULTS.clear()
    yield
    faulty.FAULTS.clear()
    for remove in removers:
        remove()


@pytest.fixture
def journal(tmp_path):
    with Journal(tmp_path / "j.sqlite") as j:
        yield j


def roll(value: int) -> Roll:
    return Roll.of(DiceRolled.of(("d6", value)))


def choose(session: Session, start: str) -> None:
    """Move the open menu's cursor to the first item starting with ``start`` and press OK."""
    menu = session.panel.menu
    assert menu is not None, session.panel
    index = next(i for i, item in enumerate(menu.items) if item.startswith(start))
    for _ in range((index - menu.selected) % len(menu.items)):
        session.handle(Press("DOWN"))
    session.handle(Press("OK"))


def on_menu(session: Session) -> bool:
    return session.current is None and session.panel.menu is not None and session.panel.menu.title == "Menu"


def one_line_said(session: Session, caplog, what: str) -> None:
    """The OLED's footer and the log each say it in one line, no traceback."""
    assert "set aside" in session.message and "\n" not in session.message, session.message
    assert "Error" not in session.message and "(faulty" not in session.message  # a title, no class name or key
    oled.render(session.panel)  # the screen draws
    lines = [r for r in caplog.records if "set aside" in r.getMessage()]
    assert len(lines) == 1 and what in lines[0].getMessage() and lines[0].exc_info is None
    caplog.clear()


def test_a_game_failing_at_start_leaves_the_box_on_its_menu(journal, games, caplog):
    faulty.FAULTS.add("start")
    s = Session(journal, game_keys=("toy", "faulty"))
    with caplog.at_level(logging.ERROR):
        s.start(game="faulty")
        assert on_menu(s)
        one_line_said(s, caplog, "KeyError")
        choose(s, "New: Faulty")  # from the menu too
        choose(s, "2")
    assert on_menu(s) and "set aside" in s.message
    choose(s, "New: Toy")
    choose(s, "2")
    assert s.current is not None and s.current.game.key == "toy" and s.panel.prompt.dice == ("d6",)


def test_a_game_failing_mid_game_and_at_resume_is_set_aside_and_resumable_once_fixed(journal, games, caplog):
    s = Session(journal, game_keys=("toy", "faulty"))
    s.start(game="toy", options={"tiles": 3})
    s.handle(roll(1))
    toy_id = s.current.game_id
    s.start(game="faulty", options={"tiles": 3})
    s.handle(roll(2))
    s.handle(Press("OK"))  # the field laid
    faulty_id = s.current.game_id
    faulty.FAULTS.add("six")
    with caplog.at_level(logging.ERROR):
        s.handle(roll(6))  # the engine raises on this event: nothing journaled, the game set aside
        assert on_menu(s)
        one_line_said(s, caplog, "IndexError")
    assert len(journal.events(faulty_id)) == 2
    assert {g.id for g in journal.games() if not g.finished} == {toy_id, faulty_id}

    # Resuming it while its replay still fails: one line, the menu stays, nothing changes.
    faulty.FAULTS.add("apply")
    with caplog.at_level(logging.ERROR):
        choose(s, f"Resume #{faulty_id}")
        assert on_menu(s)
        one_line_said(s, caplog, "ZeroDivisionError")
    # The other game is intact and plays.
    choose(s, f"Resume #{toy_id}")
    assert s.current.game_id == toy_id and s.panel.menu.title == "Lay field"
    # Asked again from the game on the table: it stays on the table.
    with caplog.at_level(logging.ERROR):
        s.handle(Press("BACK"))
        choose(s, f"Resume #{faulty_id}")
        assert s.current.game_id == toy_id  # the failing resume did not replace the game on the table
        one_line_said(s, caplog, "ZeroDivisionError")

    faulty.FAULTS.clear()  # fixed: the set-aside game resumes where it was (the menu is still open)
    choose(s, f"Resume #{faulty_id}")
    assert s.current.game_id == faulty_id and s.current.state.laid == 1 and s.panel.prompt.dice == ("d6",)


def test_a_game_failing_while_drawn_and_at_the_box_start_is_set_aside(journal, games, caplog):
    s = Session(journal, game_keys=("toy", "faulty"))
    s.start(game="faulty", options={"tiles": 3})
    faulty_id = s.current.game_id
    faulty.FAULTS.add("prompt")
    with caplog.at_level(logging.ERROR):
        s.handle(roll(3))  # the prompt for the new state fails before the event is journaled
        assert on_menu(s)
        one_line_said(s, caplog, "AttributeError")
    assert journal.events(faulty_id) == []
    # The box restarts: the last unfinished game does not resume, the menu says why.
    with caplog.at_level(logging.ERROR):
        again = Session(journal, game_keys=("toy", "faulty"))
        again.start()
        assert on_menu(again)
        one_line_said(again, caplog, "AttributeError")
    assert any(item.startswith(f"Resume #{faulty_id}") for item in again.panel.menu.items)


def test_japan_with_the_display_dealt_by_the_box_starts_and_deals_on_roll(journal):
    s = Session(journal)
    s.start(game="industry", options={"map": "Japan", "players": 3, "display": "box"})
    assert s.current is not None and s.current.game.key == "industry" and s.message == ""
    assert s.wanted() == () and "ROLL" in s.panel.request
    oled.render(s.panel)
    s.handle(Roll.of(DiceRolled.of(("d8", 3), ("d6", 2))))
    assert s.message == "57 cards are too many to deal with dice: press ROLL" and not journal.events(s.current.game_id)
    s.handle(Press("ROLL"))
    state = s.current.state
    assert state.phase == "play" and all(slot.card for slot in state.display)
    assert len(state.box_deck) == state.deck == 57 - 3 * s.current.game.rules.hand - 6
