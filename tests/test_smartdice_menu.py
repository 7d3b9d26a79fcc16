"""Pairing from the box: "Pair dice" in the main menu scans off the loop, asks on the OLED, saves, restarts."""

from __future__ import annotations

import queue
from types import SimpleNamespace

from companion.inputs import Ask, Say
from companion.journal import Journal
from companion.session import Press, Session
from hardware.smartdice.fakeble import FakeRadio
from hardware.smartdice.menu import DiceSourceHolder, pair_action
from hardware.smartdice.store import load_pairing


class Source:
    def __init__(self, log: list[str]) -> None:
        self.log = log
        log.append("started")

    def close(self) -> None:
        self.log.append("closed")


def test_pair_dice_from_the_menu_with_the_buttons(tmp_path):
    radio = FakeRadio()
    radio.add_godice("AA:00:00:00:00:01", "GoDice_0A1B2C_K_v04", battery=80)
    section = SimpleNamespace(pairing=str(tmp_path / "dice.toml"))
    inbox: queue.Queue = queue.Queue()
    log: list[str] = []
    holder = DiceSourceHolder(lambda: Source(log))
    with Journal(tmp_path / "j.sqlite") as journal:
        session = Session(journal)
        session.extras.append(("Pair dice", pair_action(section, inbox, holder, 0.01,
                                                        scanner_backend=radio.scanner_backend,
                                                        client_backend=radio.client_backend)))
        session.start("kansas", {"players": 4})
        session.handle(Press("BACK"))  # the main menu
        items = session.panel.menu.items
        while session.panel.menu.items[session.panel.menu.selected] != "Pair dice":
            session.handle(Press("DOWN"))
        session.handle(Press("OK"))
        assert session.panel.menu is None and session.panel.message == "Pair dice: working..."
        ask = inbox.get(timeout=10)  # the scan ran on its own thread
        assert isinstance(ask, Ask)
        session.handle(ask)
        assert session.panel.menu.title == "Pair dice: pick one"
        assert session.panel.menu.items[0].startswith("GoDice_0A1B2C_K_v04")
        session.handle(Press("OK"))  # the die
        assert session.panel.menu.items[:2] == ("D6", "D8")
        session.handle(Press("DOWN"))
        session.handle(Press("OK"))  # a D8
        assert "which colour?" in session.panel.menu.title
        session.handle(Press("OK"))  # the first colour
        save = session.panel.menu.items.index("Save")
        for _ in range(save):
            session.handle(Press("DOWN"))
        session.handle(Press("OK"))
        assert session.panel.menu is None and "1 dice paired" in session.panel.message
        assert [d.kind for d in load_pairing(section.pairing)] == ["d8"]
        assert log == ["started", "closed", "started"]  # the source runs on the new pairing
        assert session.current.live == [] and "Pair dice" in items  # the game below was untouched


def test_no_bluetooth_is_one_line(tmp_path):
    radio = FakeRadio(adapter=False)
    inbox: queue.Queue = queue.Queue()
    holder = DiceSourceHolder(lambda: Source([]))
    action = pair_action(SimpleNamespace(pairing=str(tmp_path / "dice.toml")), inbox, holder, 0.01,
                         scanner_backend=radio.scanner_backend, client_backend=radio.client_backend)
    action()
    said = inbox.get(timeout=10)
    assert isinstance(said, Say) and said.text.startswith("pair dice: ") and "\n" not in said.text
