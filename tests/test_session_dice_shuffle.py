"""A Stormfury shuffle answered with dice: pick by pick from the tower (or typed dice), the finished
permutation journaled once as the event, ROLL still shuffling at once, BACK dropping a deal; and the
same through the real parts (virtual tower on a pty -> link -> session)."""

from __future__ import annotations

import time

import pytest

from companion.dice import DiceRolled, DiceSource, Die, Shuffled
from companion.dice_shuffle import DiceShuffle
from companion.journal import Journal
from companion.session import Press, Roll, Session

PICK = (("d8", 2), ("d6", 3))
"""One throw for a pick among 9..48 cards: (2 - 1) * 6 + 3 = 9."""


@pytest.fixture
def journal(tmp_path):
    with Journal(tmp_path / "j.sqlite") as j:
        yield j


@pytest.fixture
def session(journal):
    s = Session(journal, dice=DiceSource(seed=3))
    s.start("stormfury", {})
    prompt = s.prompt()
    assert prompt.shuffle > 8 and prompt.deal == 5 and s.panel.prompt.short.startswith("Shuffle")
    return s


def throw(*pairs, source="tower"):
    return Roll.of(DiceRolled.of(*pairs, source=source))


def expected_deal(size: int, deal: int, throws) -> Shuffled:
    state = DiceShuffle.start(size, deal)
    for pairs in throws:
        state = state.feed(tuple(Die(k, v) for k, v in pairs))
    return state.result("tower")


def test_the_forecast_is_dealt_by_five_throws_and_journaled_once(session, journal):
    game = session.current.game
    size = session.prompt().shuffle
    deck = game.board.decks[session.current.state.deck]
    for n in range(1, 5):
        session.handle(throw(*PICK))
        assert journal.events(session.current.game_id) == []  # nothing journaled mid-deal
        assert session.panel.prompt.short == f"Card {n + 1}/5: D8 + D6"
        assert session.panel.prompt.dice == ("d8", "d6") and f"card {n} of 5 picked" in session.panel.message
    session.handle(throw(*PICK))
    events = [x.event for x in journal.events(session.current.game_id)]
    assert events == [expected_deal(size, 5, [PICK] * 5)]
    order = events[0].order
    assert session.current.state.forecast == tuple(deck[i].id for i in order[:5])
    assert session.current.state.phase == "players"


def test_a_deal_takes_its_dice_as_they_come_and_refuses_others(session):
    session.handle(throw(("d6", 3)))  # half a pick: waits for the D8
    assert session.panel.prompt.dice == ("d8",) and [d.value for d in session.panel.dice] == [3]
    session.handle(throw(("d8", 2), ("d8", 5)))
    assert "extra ignored: D8=5" in session.panel.message
    assert session.panel.prompt.short == "Card 2/5: D8 + D6"


def test_an_uneven_throw_is_thrown_again(session):
    size = session.prompt().shuffle
    assert size * (48 // size) < 48  # this deck has throws that cannot be read evenly
    d8, d6 = divmod(48 - 1, 6)  # the highest throw, 8 and 6: above every even reading
    session.handle(throw(("d8", d8 + 1), ("d6", d6 + 1)))
    assert "throw again" in session.panel.message
    assert session.panel.prompt.short == "Card 1/5: D8 + D6"


def test_roll_shuffles_at_once_and_back_drops_a_deal(session, journal):
    session.handle(throw(*PICK))
    assert session.panel.prompt.short == "Card 2/5: D8 + D6"
    session.handle(Press("BACK"))
    assert session.panel.prompt.short.startswith("Shuffle") and session.panel.message == "cleared"
    session.handle(throw(*PICK))
    session.handle(Press("ROLL"))  # the box's generator (seeded here) shuffles the whole deck; the deal is dropped
    events = [x.event for x in journal.events(session.current.game_id)]
    assert len(events) == 1 and isinstance(events[0], Shuffled) and events[0].source == "seed"
    assert session.current.state.phase == "players"


def test_a_deal_through_the_virtual_tower_and_the_real_link(tmp_path):
    from companion.sim import build_table, sim_config

    with Journal(tmp_path / "j.sqlite") as journal, build_table(journal, sim_config(headless=True)) as table:
        table.session.start("stormfury", {})
        size = table.session.prompt().shuffle
        for n in range(5):
            table.driver.throw(DiceRolled.of(*PICK))
            deadline = time.monotonic() + 10
            while not (journal.events(table.session.current.game_id) if n == 4 else
                       table.session.panel.prompt.short == f"Card {n + 2}/5: D8 + D6"):
                assert time.monotonic() < deadline, table.session.panel
                table.loop.step(timeout=0.2)
        events = [x.event for x in journal.events(table.session.current.game_id)]
        assert events == [expected_deal(size, 5, [PICK] * 5)]
        assert table.session.current.state.phase == "players"
