"""The projector's ring in the mend menus, through the real session with Kansas: while the table walks the past
entries and then what an entry could have been, the projector rings the place of the item under the OLED's cursor,
as it does in play (the place the OLED's line names)."""

from __future__ import annotations

import random

from companion.dice import Choice
from companion.journal import Journal
from companion.session import Press
from companion.session.mend import MARK
from tests.test_board_cursor import decisions, on_board, press, started


def test_the_projector_rings_the_place_under_the_cursor_in_the_mend_menus(tmp_path):
    with Journal(tmp_path / "j.sqlite") as journal:
        s = started(journal, "kansas")
        rng = random.Random(6)
        for _ in decisions(s, rng):
            assert on_board(s) is not None
            options = s.options()
            free = [o for o in options if o.place is not None and o.label.startswith("Free: ")]
            if free and len({o.place for o in options if o.place is not None}) >= 3:
                break
        board = s.current.game.board
        target = next(i for i, o in enumerate(options) if o.place is not None and o.label.startswith("Free: "))
        taken = options[target]
        press(s, *s.presses_to(target))
        last = s.current.live[-1].event
        assert isinstance(last, Choice) and last == taken.event
        count = len(s.current.live)

        press(s, "BACK")  # the main menu names no place: no ring
        assert s.menu_open and s.frame.cursor is None
        s.handle(Press("UP"))
        while s.panel.menu.items[s.panel.menu.selected] != "Mend an entry":
            s.handle(Press("DOWN"))
        assert s.frame.cursor is None
        press(s, "OK")
        menu = s.panel.menu
        assert menu.title == "Mend which entry?" and menu.selected == 0
        assert menu.items[0] == f"{count}. {taken.label}"  # the newest entry, in the words the table saw
        assert s.frame.cursor == taken.place  # rung while it is under the cursor
        assert board.name_of(taken.place) in menu.items[0]
        rolls = [i for i, item in enumerate(menu.items) if "Roll" in item]
        if rolls:  # a roll names no place: no ring while it is under the cursor
            while s.panel.menu.selected != rolls[0]:
                s.handle(Press("DOWN"))
            assert s.frame.cursor is None
            while s.panel.menu.selected != 0:
                s.handle(Press("UP"))
            assert s.frame.cursor == taken.place

        press(s, "OK")  # what that entry could have been: the one taken marked, the cursor on it, rung
        menu = s.panel.menu
        assert menu.title == f"Entry {count}: instead"
        assert menu.items[menu.selected] == f"{MARK}{taken.label}" and s.frame.cursor == taken.place
        rung = set()
        for _ in range(len(menu.items)):
            s.handle(Press("DOWN"))
            menu = s.panel.menu
            label = menu.items[menu.selected].removeprefix(MARK)
            option = next(o for o in options if o.label == label)
            assert s.frame.cursor == option.place  # the ring follows the OLED's line
            if option.place is not None:
                assert board.name_of(option.place) in label
                rung.add(option.place)
        assert len(rung) >= 3 and taken.place in rung

        press(s, "BACK", "BACK")  # back to the entries, then the main menu: nothing mended, no ring
        assert len(s.current.live) == count and s.current.live[-1].event == last
        assert s.panel.menu.title == "Menu" and s.frame.cursor is None
        press(s, "BACK")  # back in play: the ring on the decision's cursor again
        assert not s.menu_open and s.frame.cursor == s.options()[s.options().start].place
