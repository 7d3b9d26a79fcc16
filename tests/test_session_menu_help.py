"""Every open game can be resumed from the box's menu, and the menu has a help screen listing every button
and key, as the key maps in the code have them."""

from __future__ import annotations

import pytest

from companion.journal import Journal
from companion.session import Press, Session
from companion.session.core import HELP
from companion.session.gamepad import BUTTONS
from companion.views import oled
from hardware.keys import KEYMAP


@pytest.fixture
def journal(tmp_path):
    with Journal(tmp_path / "j.sqlite") as j:
        yield j


def test_every_open_game_is_in_the_menu(journal):
    ids = []
    for _ in range(6):
        s = Session(journal)
        s.start(game="kansas", options={"players": 4})
        ids.append(s.current.game_id)
    s = Session(journal)
    s.start(resume=False)
    items = s.panel.menu.items
    assert all(f"Resume #{i} kansas" in items for i in ids), items
    oldest = items.index(f"Resume #{ids[0]} kansas")
    for _ in range(oldest):
        s.handle(Press("DOWN"))
    s.handle(Press("OK"))
    assert s.current is not None and s.current.game_id == ids[0]


def test_the_help_screen_lists_every_button_and_key(journal):
    s = Session(journal)
    s.start(resume=False)
    items = s.panel.menu.items
    for _ in range(items.index("Help: buttons, keys")):
        s.handle(Press("DOWN"))
    s.handle(Press("OK"))
    assert s.panel.menu.title == "Buttons and keys" and s.panel.menu.items == HELP
    said = " ".join(HELP)
    for button in ("ROLL", "OK", "BACK", "UP", "DOWN", "LEFT", "RIGHT", "held: undo", "held: re-roll", "risk map",
                   "page/step"):
        assert button in said
    for key in {k for k, v in KEYMAP.items() if v in ("ROLL", "OK", "BACK")} - {"enter", "backspace"}:
        assert key.capitalize().replace("Return", "Enter").replace("Escape", "Esc") in said, key
    assert len(BUTTONS) == 6 and all(word in said for word in ("A OK", "B BACK", "X ROLL", "LB undo", "RB re-roll"))
    for index in range(len(HELP)):  # each line read whole on the OLED
        assert HELP[index] in " ".join(oled.oled_lines(s.panel))
        s.handle(Press("DOWN"))
    s.handle(Press("BACK"))
    assert s.panel.menu.title == "Menu"


def test_industry_asks_who_deals_the_display_only_for_japan(journal):
    for board, asked in (("Minnesota", False), ("Japan", True)):
        s = Session(journal, game_keys=("industry",))
        s.start(resume=False)
        s.handle(Press("OK"))  # New: Industry
        while s.panel.menu.items[s.panel.menu.selected] != board:
            s.handle(Press("DOWN"))
        s.handle(Press("OK"))
        s.handle(Press("OK"))  # players
        assert (s.current is None and "display" in s.panel.menu.title) == asked, s.panel.menu
        if asked:
            s.handle(Press("OK"))
        assert s.current is not None and s.current.state.map == board
