"""Chained mends through the real session: a correction that makes a later entry illegal names that entry in the
table's words and asks, in the same go, what it becomes (another answer, "Drop it", or all left as it was); once
every later entry fits the box writes one mend row at a time in an order that always replays, and says what
changed. Age of Industry, entered step by step with the box's own options as a table does."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import pytest

from companion.dice import Choice
from companion.games.base import replay
from companion.journal import Journal
from companion.journal.entries import fold_entries
from companion.session import Decide, Press, Session
from tests.test_mend_session import pick

SIX = ("coal", "cotton", "location", "ship", "iron", "goods")


def decide(s: Session, action: str, **args: Any) -> None:
    s.handle(Decide(Choice(action, args)))
    assert s.panel.message == "", s.panel.message


def steps(s: Session, action: str, **args: Any) -> None:
    """An entry made step by step as the buttons make it: one event per step, each adding the next answer."""
    decide(s, action)
    given: dict[str, Any] = {}
    for key, value in args.items():
        given[key] = value
        assert s.current is not None
        if s.current.state.pending_args().get(key) == value:
            continue  # a step the box took itself
        decide(s, action, **given)


def rows(path: Path) -> list[tuple[Any, ...]]:
    with sqlite3.connect(path) as db:
        return db.execute("SELECT idx, kind, event FROM entries ORDER BY idx").fetchall()


def table(path: Path) -> Session:
    """Red builds an ironworks in Osaka and takes one of its cubes; Blue builds a port in Kobe."""
    s = Session(Journal(path))
    s.start(game="industry", options={"map": "Japan", "players": 3})
    for card in SIX:
        decide(s, "deal", card=card)
    steps(s, "industry", location="osaka", kind="iron", owner="Red")
    assert s.current is not None
    [iron] = s.current.state.at("osaka")
    steps(s, "take", source=f"osaka/{iron.space}")
    steps(s, "industry", location="kobe", kind="port", owner="Blue")
    return s


def open_entry(s: Session, label: str) -> None:
    s.handle(Press("BACK"))
    pick(s, "Mend an entry")
    pick(s, label)


def test_a_mend_that_breaks_two_later_entries_mends_one_drops_the_other_and_says_so(tmp_path: Path) -> None:
    path = tmp_path / "j.sqlite"
    s = table(path)
    try:
        assert s.current is not None
        live = [x.event for x in s.current.live]
        before = rows(path)
        open_entry(s, "9. Ironworks")  # the kind of Red's build: a cotton mill, not an ironworks
        assert s.panel.menu.title == "Entry 9: instead"
        pick(s, "Cotton mill")
        # the owner's step said "ironworks": it no longer fits, and is asked again in the same go
        assert s.panel.message == "entry 10 (Red: ironworks in Osaka, 2 cubes) no longer fits: mend it too, or drop it"
        assert s.panel.menu.title == "Entry 10 then?"
        assert s.panel.menu.items[:3] == ("Red", "Blue", "Green")
        assert s.panel.menu.items[-2:] == ("Drop it", "Leave all as it was")
        assert rows(path) == before  # nothing written while the chain is open
        pick(s, "Red")
        # the cube taken from the ironworks: a cotton mill carries none
        assert s.panel.message == "entry 12 (1 iron from Red's ironworks in Osaka) no longer fits: mend it too, " \
            "or drop it"
        pick(s, "Drop it")
        assert s.panel.menu.title == "Entry 9 mended"
        lines = s.panel.menu.items
        assert lines[:2] == ("now: Cotton mill", "was: Ironworks")
        assert lines[2:] == ("entry 10 now: Red: cotton mill in Osaka",
                             "entry 10 was: Red: ironworks in Osaka, 2 cubes",
                             "entry 12 dropped: 1 iron from Red's ironworks in Osaka")
        s.handle(Press("OK"))
        assert not s.menu_open
        state = s.current.state
        assert {(c.location, c.kind, c.owner, c.cubes) for c in state.counters} == {
            ("osaka", "cotton", "Red", 0), ("kobe", "port", "Blue", 0)}
        # the game is the one played right (the dropped entry changes nothing), and every row folds in order:
        # each mend row written left a game that replays
        mended = [x.event for x in s.current.live]
        assert mended[8] == Choice("industry", {"location": "osaka", "kind": "cotton"})
        assert mended[9] == Choice("industry", {"location": "osaka", "kind": "cotton", "owner": "Red"})
        assert mended[11] == Choice("dropped", {}) and mended[12:] == live[12:]
        right = [*mended[:10], *mended[12:]]  # played right: neither the cube's entry nor its step
        game, options = s.current.game, s.current.options
        played_right = replay(game, options, right)
        assert (played_right.counters, played_right.rails, played_right.display, played_right.deck) == (
            state.counters, state.rails, state.display, state.deck)
        entries = s.journal.entries(s.current.game_id)
        assert [e.kind for e in entries][-3:] == ["mend", "mend", "mend"]
        assert fold_entries(game.new_game(options), entries, game.apply) == state
    finally:
        s.journal.close()
    again = Session(Journal(path))  # a restart: the mended game
    try:
        again.start()
        assert again.current is not None and again.current.state == state
    finally:
        again.journal.close()


def test_leaving_a_chain_writes_nothing(tmp_path: Path) -> None:
    path = tmp_path / "j.sqlite"
    s = table(path)
    try:
        assert s.current is not None
        state, before = s.current.state, rows(path)
        open_entry(s, "9. Ironworks")
        pick(s, "Cotton mill")
        pick(s, "Red")
        pick(s, "Leave all as it was")
        assert s.panel.message == "not mended: all left as it was" and not s.menu_open
        assert rows(path) == before and s.current.state is state
    finally:
        s.journal.close()


def test_a_step_never_says_an_answer_given_before_otherwise(tmp_path: Path) -> None:
    """What makes the chain above honest: the owner's step of a build carries its kind; said otherwise than the
    kind's own step, it is refused in one line (a mended kind is never undone by the step after it)."""
    with Journal(tmp_path / "j.sqlite") as journal:
        s = Session(journal)
        s.start(game="industry", options={"map": "Japan", "players": 3})
        for card in SIX:
            decide(s, "deal", card=card)
        decide(s, "industry")
        decide(s, "industry", location="osaka")
        decide(s, "industry", location="osaka", kind="cotton")
        s.handle(Decide(Choice("industry", {"location": "osaka", "kind": "iron", "owner": "Red"})))
        assert s.panel.message == "'Build industry' is under way with other answers: cancel it first"
        decide(s, "industry", location="osaka", kind="cotton", owner="Red")
        assert s.current is not None and s.current.state.at("osaka")[0].kind == "cotton"



def test_a_dropped_entry_enters_nothing_ends_the_entry_under_way_and_stands_anywhere() -> None:
    from dataclasses import replace

    from companion.errors import RuleError
    from companion.games.registry import load_game

    game = load_game("industry")
    state = game.new_game({"map": "Japan", "players": 3})
    for card in SIX:
        state = game.apply(state, Choice("deal", {"card": card}))
    under_way = game.apply(game.apply(state, Choice("industry", {})), Choice("industry", {"location": "osaka"}))
    dropped = game.apply(under_way, game.dropped())
    assert dropped.pending == "" and dropped.counters == state.counters and dropped.display == state.display
    assert dropped.recent == ("An entry dropped at a mend",)
    over = replace(state, phase="over")  # a mend that ends the game sooner: the entries after it can be dropped
    assert game.apply(over, game.dropped()).phase == "over"
    with pytest.raises(RuleError, match=r"^an entry dropped at a mend takes no details$"):
        game.apply(state, Choice("dropped", {"space": 1}))
