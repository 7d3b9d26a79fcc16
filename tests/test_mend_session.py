"""Mend through the real session, with real games: the main menu's "Mend an entry", the past entries in the
table's words, what was legal then, the later entries replayed, refused in one line when one no longer fits
(nothing written), journaled otherwise, what changed shown, and the mend surviving a restart."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from companion.dice import Choice, DiceRolled, DiceSource, Die
from companion.journal import Journal
from companion.session import Decide, Press, Roll, Session
from companion.session.mend import MARK

# Red lays a road bend east of the start in three steps (space, kind, turn), then Blue a road west of it.
TURNS: list[tuple[str, dict]] = [
    ("cell", {"x": 1, "y": 0}), ("kind", {"kind": "road_bend"}), ("rotate", {"quarters": 0}), ("pass", {}),
    ("lay", {"x": -1, "y": 0, "kind": "road", "quarters": 1}), ("pass", {}),
]


def decide(s: Session, action: str, **args) -> None:
    s.handle(Decide(Choice(action, args)))
    assert s.panel.message == "", s.panel.message


def pick(s: Session, label: str) -> None:
    """Move the OLED's menu to ``label`` with DOWN and pick it with OK, as a player does."""
    items = list(s.panel.menu.items)
    assert label in items, items
    while s.panel.menu.items[s.panel.menu.selected] != label:
        s.handle(Press("DOWN"))
    s.handle(Press("OK"))


def carcassonne(path: Path, turns: list[tuple[str, dict]]) -> Session:
    journal = Journal(path)
    s = Session(journal)
    s.start(game="carcassonne", options={"players": 2})
    for action, args in turns:
        decide(s, action, **args)
    return s


def rows(path: Path) -> list[tuple]:
    with sqlite3.connect(path) as db:
        return db.execute("SELECT game_id, idx, kind, event FROM entries ORDER BY game_id, idx").fetchall()


def open_mend(s: Session) -> None:
    s.handle(Press("BACK"))  # the main menu
    pick(s, "Mend an entry")
    assert s.panel.menu.title == "Mend which entry?"


def turn_third_tile(s: Session) -> None:
    """The table's one mend these tests share: entry 3's road turned from SW to NW through the menu."""
    open_mend(s)
    pick(s, "3. road SW")
    pick(s, "road NW")


def test_a_tiles_rotation_mended_three_entries_back_is_the_game_played_right(tmp_path):
    s = carcassonne(tmp_path / "j.sqlite", TURNS)
    try:
        open_mend(s)
        # newest first, in the words the table saw: the option labels, never action codes
        assert s.panel.menu.items == ("6. No follower", "5. Blue: Road on 1 west of the start", "4. No follower",
                                      "3. road SW", "2. Road bend", "1. 1 east")
        pick(s, "3. road SW")
        assert s.panel.menu.title == "Entry 3: instead"
        assert s.panel.menu.items == (f"{MARK}road SW", "road NW")  # what was legal then, the one taken marked
        assert s.panel.menu.items[s.panel.menu.selected] == f"{MARK}road SW"
        pick(s, "road NW")
        assert s.panel.menu.title == "Entry 3 mended" and s.panel.message == ""
        assert s.panel.menu.items == ("now: road NW", "was: road SW", "Nothing else changed")
        s.handle(Press("OK"))
        assert not s.menu_open and s.panel.prompt.short == "Red: lay a tile"
        mended = s.current
        right = carcassonne(tmp_path / "right.sqlite", [*TURNS[:2], ("rotate", {"quarters": 1}), *TURNS[3:]])
        try:
            assert mended.state == right.current.state
            assert s.digest() == right.digest()  # the same id, events, status and prompt: the same game
            assert mended.live.chain == right.current.live.chain
            assert s.current.game.status(mended.state) == right.current.game.status(right.current.state)
        finally:
            right.journal.close()
        assert rows(tmp_path / "j.sqlite")[-1][2] == "mend"
    finally:
        s.journal.close()


def test_a_mend_a_later_entry_no_longer_fits_is_refused_and_nothing_is_written(tmp_path):
    path = tmp_path / "j.sqlite"
    s = carcassonne(path, TURNS)
    try:
        state, before = s.current.state, rows(path)
        open_mend(s)
        pick(s, "2. Road bend")
        assert s.panel.menu.items[s.panel.menu.selected] == f"{MARK}Road bend"
        pick(s, "Road")  # a straight road, laid in one step: the turn that followed has nothing to turn
        assert s.panel.message == "not mended: entry 3 (road SW) would no longer fit"
        assert "\n" not in s.panel.message
        assert not s.menu_open
        assert rows(path) == before and s.current.state is state
    finally:
        s.journal.close()


def test_a_mend_survives_a_restart(tmp_path):
    path = tmp_path / "j.sqlite"
    s = carcassonne(path, TURNS)
    with s.journal:
        turn_third_tile(s)
        state, digest = s.current.state, s.digest()
    with Journal(path) as journal:
        again = Session(journal)
        again.start()  # the box starts again: the open game resumed from the journal
        assert again.current.state == state and again.digest() == digest
        assert again.current.live[2].event == Choice("rotate", {"quarters": 1})


def test_undo_after_a_mend_takes_back_the_last_entry_of_the_mended_game(tmp_path):
    path = tmp_path / "j.sqlite"
    s = carcassonne(path, TURNS)
    with s.journal:
        turn_third_tile(s)
        s.handle(Press("OK"))
        s.undo()
        assert [x.event.action for x in s.current.live] == ["cell", "kind", "rotate", "pass", "lay"]
        assert s.current.live[2].event.args == {"quarters": 1}
        state = s.current.state
        # and a mend after the undo: the entries offered are what is live now
        open_mend(s)
        assert s.panel.menu.items[0] == "5. Blue: Road on 1 west of the start"
        pick(s, "3. road NW")
        assert s.panel.menu.items == ("road SW", f"{MARK}road NW")
        pick(s, "road SW")
        assert s.panel.menu.title == "Entry 3 mended"
        assert s.current.live[2].event.args == {"quarters": 0} and s.current.state != state
    with Journal(path) as journal:
        again = Session(journal)
        again.start()
        assert [x.event for x in again.current.live] == [Choice(a, b) for a, b in TURNS[:5]]


def test_an_old_game_resumes_as_before_and_its_menu_offers_mend(tmp_path):
    path = tmp_path / "j.sqlite"
    s = carcassonne(path, TURNS)
    with s.journal:
        state, game_id = s.current.state, s.current.game_id
    with Journal(path) as journal:
        again = Session(journal)
        again.resume(journal.game(game_id))  # a scripted game may have reached its end: resumed by hand
        assert again.current.state == state
        again.handle(Press("BACK"))
        assert "Mend an entry" in again.panel.menu.items


def test_a_mistyped_die_is_mended_as_dice_and_the_oled_says_what_changed(tmp_path):
    """Kansas: the first tornado's north-south D8 typed wrong. The mend offers the roll's dice to type again (UP/DOWN
    change the die under the cursor, OK enters), replays the rest and says what moved."""
    path = tmp_path / "j.sqlite"
    with Journal(path) as journal:
        s = Session(journal, dice=DiceSource(seed=4))
        s.start("kansas", {"players": 4})
        for dice in ([("d8", 2)], [("d8", 5)], [("d6", 3), ("d6", 4)]):
            s.handle(Roll.of(DiceRolled.of(*dice, source="typed")))
        assert s.current.live[0].event.dice == (Die("d8", 2),)
        before = s.current.state
        open_mend(s)
        assert s.panel.menu.items == ("3. Roll D6 3, D6 4", "2. Roll D8 5", "1. Roll D8 2")
        pick(s, "1. Roll D8 2")
        assert s.panel.menu.title == "Entry 1 was D8 2" and s.panel.menu.items == ("D8 2",)
        s.handle(Press("UP"))
        s.handle(Press("UP"))
        assert s.panel.menu.items == ("D8 4",)
        s.handle(Press("OK"))
        assert s.panel.menu.title == "Entry 1 mended"
        assert s.current.live[0].event.dice == (Die("d8", 4),)
        assert s.current.state != before
        changed = s.panel.menu.items
        assert changed[:2] == ("now: Roll D8 4", "was: Roll D8 2")
        assert len(changed) > 2 and all(line.startswith(("now: ", "was: ")) for line in changed)  # and what moved
        assert s.current.state == s.current.game.apply(
            s.current.game.apply(s.current.game.apply(s.current.game.new_game({"players": 4}),
                                                      DiceRolled.of(("d8", 4), source="typed")),
                                 DiceRolled.of(("d8", 5), source="typed")),
            DiceRolled.of(("d6", 3), ("d6", 4), source="typed"))


def test_mending_a_die_to_the_same_value_writes_nothing(tmp_path):
    path = tmp_path / "j.sqlite"
    with Journal(path) as journal:
        s = Session(journal)
        s.start("kansas", {"players": 4})
        s.handle(Roll.of(DiceRolled.of(("d8", 2), source="typed")))
        before = rows(path)
        open_mend(s)
        pick(s, "1. Roll D8 2")
        s.handle(Press("UP"))
        s.handle(Press("DOWN"))
        s.handle(Press("OK"))
        assert s.panel.message == "entry 1 unchanged" and rows(path) == before


GAMES = {"kansas": {"players": 4, "forecaster": 1}, "stormfury": {"players": 2}, "carcassonne": {"players": 3},
         "industry": {}, "allegheny": {}}


def choose(s: Session, index: int) -> None:
    """Move the OLED's menu to item ``index`` with DOWN and pick it with OK."""
    while s.panel.menu.selected != index:
        s.handle(Press("DOWN"))
    s.handle(Press("OK"))


def a_mend_that_fits(game, options, events):
    """The newest decision more than a page back that some other legal option (not one that ends the game) can
    replace with every later event still fitting: its index, the option's position then, and the mended events."""
    from companion.errors import CompanionError
    from companion.games.base import replay
    from companion.session.choices import ends
    from companion.session.mend import offered, same_event

    states = [game.new_game(options)]
    for event in events:
        states.append(game.apply(states[-1], event))
    for index in range(len(events) - 13, -1, -1):  # far enough back to need the older page
        if not isinstance(events[index], Choice):
            continue
        for at, option in enumerate(offered(game, states[index])):
            if same_event(option.event, events[index]) or ends(option):  # not one that ends the game
                continue
            mended = [*events[:index], option.event, *events[index + 1:]]
            try:
                replay(game, options, mended)
            except CompanionError:
                continue
            return index, at, mended
    raise AssertionError(f"{game.key}: nothing to mend in {len(events)} events")


@pytest.mark.parametrize("key", list(GAMES))
def test_every_game_mends_a_past_decision_through_the_menus(tmp_path, key):
    """Generic: each of the five games, a scripted game, a decision more than a page back mended through the menus
    (the older page reached with "Older entries"); the game then equals the game played so from the start."""
    from benchmarks.bench_journal import scripted_events
    from companion.games.base import replay
    from companion.games.registry import load_game

    game = load_game(key, None)
    events = scripted_events(game, GAMES[key], 40, seed=7)
    index, at, mended = a_mend_that_fits(game, GAMES[key], events)
    path = tmp_path / "j.sqlite"
    with Journal(path) as journal:
        s = Session(journal)
        s.start(key, GAMES[key])
        for event in events:
            s.current.accept(event)
        s.refresh()
        open_mend(s)
        label = f"{index + 1}. "
        while not any(item.startswith(label) for item in s.panel.menu.items):
            assert s.panel.menu.items[-1] == "Older entries"
            choose(s, len(s.panel.menu.items) - 1)
        assert all(not item.split(". ", 1)[1].startswith(("{", "Choice(")) for item in s.panel.menu.items
                   if item != "Older entries")
        choose(s, next(i for i, item in enumerate(s.panel.menu.items) if item.startswith(label)))
        assert s.panel.menu.title == f"Entry {index + 1}: instead"
        assert s.panel.menu.items[s.panel.menu.selected].startswith(MARK)
        choose(s, at)
        assert s.panel.menu.title == f"Entry {index + 1} mended", s.panel.message
        assert [x.event for x in s.current.live] == mended
        assert s.current.state == replay(game, GAMES[key], mended)
        state, game_id = s.current.state, s.current.game_id
    with Journal(path) as journal:
        again = Session(journal)
        again.resume(journal.game(game_id))  # a scripted game may have reached its end: resumed by hand
        assert again.current.state == state


def test_a_roll_is_mended_with_dice_thrown_on_the_tower_and_its_roll_is_settled(tmp_path):
    path = tmp_path / "j.sqlite"
    settled = []
    with Journal(path) as journal:
        s = Session(journal)
        s.start("kansas", {"players": 4})
        for dice in ([("d8", 2)], [("d8", 5)], [("d6", 3), ("d6", 4)]):
            s.handle(Roll.of(DiceRolled.of(*dice, source="typed")))
        open_mend(s)
        pick(s, "3. Roll D6 3, D6 4")
        s.handle(Roll(DiceRolled.of(("d8", 1)).dice, "tower", 7))  # no D8 here: refused, the dice stay
        assert s.panel.message == "need D6 + D6, got D8=1" and s.panel.menu.items == ("D6 3", "D6 4")
        s.handle(Roll((Die("d6", 6), Die("d6", 1)), "tower", 8, settle=lambda: settled.append(8)))
        assert s.panel.menu.items == ("D6 6", "D6 1") and settled == [8]
        s.handle(Press("OK"))
        assert s.panel.menu.title == "Entry 3 mended"
        assert s.current.live[2].event == DiceRolled((Die("d6", 6), Die("d6", 1)), "tower")
    with Journal(path) as journal:
        again = Session(journal)
        again.start()
        assert again.current.live[2].event.dice == (Die("d6", 6), Die("d6", 1))


def test_back_from_an_entry_returns_to_its_page_and_back_again_to_the_menu(tmp_path):
    path = tmp_path / "j.sqlite"
    with Journal(path) as journal:
        s = Session(journal, dice=DiceSource(seed=5))
        s.start("kansas", {"players": 4})
        for _ in range(11):
            s.handle(Press("ROLL"))  # the box rolls what is asked
        count = len(s.current.live)
        assert count > 8
        before = rows(path)
        open_mend(s)
        assert len(s.panel.menu.items) == 9 and s.panel.menu.items[-1] == "Older entries"
        choose(s, 8)
        older = s.panel.menu.items
        assert older[0].startswith(f"{count - 8}. ")
        choose(s, 0)
        s.handle(Press("BACK"))  # from the entry: its page again, not the newest
        assert s.panel.menu.items == older
        s.handle(Press("BACK"))
        assert s.panel.menu.title == "Menu"
        assert rows(path) == before  # looking writes nothing


def test_a_mend_is_on_disk_before_its_screen_is_shown(tmp_path):
    """As the box runs (the COMMIT finishing behind while the frame is drawn): once the loop has settled the write,
    the step before any frame is shown, the mend row is in the file, read by a connection of its own."""
    path = tmp_path / "j.sqlite"
    s = carcassonne(path, TURNS)
    with s.journal:
        s.journal.write_behind = True
        turn_third_tile(s)
        s.settle_writes()
        assert s.panel.menu.title == "Entry 3 mended"
        assert rows(path)[-1][2] == "mend" and '"quarters": 1' in rows(path)[-1][3]
