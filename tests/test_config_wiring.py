"""Every section of the configuration reaches the part it names when the box is assembled (not the simulated
table): a disabled part is left out, the tower is looked for by the configured USB id at the configured speed,
the buttons sit on the configured pins, and the configured player count is the setup menu's first answer."""

from __future__ import annotations

import time
from pathlib import Path

from companion.config import load_config
from companion.journal import Journal
from companion.session import Press
from companion.sim import build_table, screen_config


def _config(tmp_path: Path, text: str):
    path = tmp_path / "config.toml"
    path.write_text(text)
    return load_config(path)


def test_disabled_parts_are_left_out(tmp_path):
    config = _config(tmp_path, "[tower]\nenabled = false\n[buttons]\nenabled = false\n[oled]\nenabled = false\n"
                               "[projector]\nenabled = false\n")
    with Journal(tmp_path / "j.sqlite") as journal, build_table(journal,
                                                                screen_config(config, headless=True)) as table:
        assert {k: table.parts[k] for k in ("tower", "buttons", "oled", "projector")} == {
            "tower": "disabled", "buttons": "disabled", "oled": "disabled", "projector": "disabled"}
        assert "link" not in table.parts and table.loop.views == []


def test_tower_port_usb_id_and_speed_reach_the_link(tmp_path):
    config = _config(tmp_path, '[tower]\nusb_id = "1209:abcd"\nbaud = 9600\n[oled]\nenabled = false\n'
                               "[projector]\nenabled = false\n[buttons]\nenabled = false\n")
    with Journal(tmp_path / "j.sqlite") as journal, build_table(journal,
                                                                screen_config(config, headless=True)) as table:
        link = table.parts["link"]
        assert (link.port, link.usb_id, link.baudrate) == (None, "1209:ABCD", 9600)
    named = _config(tmp_path, '[tower]\nport = "/dev/ttyACM7"\n[oled]\nenabled = false\n')
    with Journal(tmp_path / "k.sqlite") as journal, build_table(journal, screen_config(named, headless=True),
                                                                views=[]) as table:
        assert table.parts["link"].port == "/dev/ttyACM7" and table.parts["tower"] == "/dev/ttyACM7"


def test_buttons_on_the_configured_pins_and_the_configured_players_first(tmp_path, mock_factory):
    config = _config(tmp_path, '[game]\ndefault = "kansas"\nplayers = 5\n[buttons]\nok = 4\nbounce_ms = 0\n'
                               "[tower]\nenabled = false\n[oled]\nenabled = false\n[projector]\nenabled = false\n")
    with Journal(tmp_path / "j.sqlite") as journal, build_table(journal,
                                                                screen_config(config, headless=True)) as table:
        session = table.session
        session.start()
        assert session.panel.menu.items[0] == "New: Kansas"
        pin = mock_factory.pin(4)
        pin.drive_low()
        pin.drive_high()
        deadline = time.monotonic() + 5
        while session.panel.menu is None or session.panel.menu.title != "Kansas: players":
            assert time.monotonic() < deadline, session.panel
            table.loop.step(timeout=0.05)
        assert session.panel.menu.items[session.panel.menu.selected] == "5"
        session.handle(Press("OK"))
        session.handle(Press("OK"))  # seat names: numbers
        assert session.current.options == {"players": 5}


def test_a_new_game_from_the_command_line_takes_the_configured_players(tmp_path):
    config = _config(tmp_path, "[game]\nplayers = 6\n[tower]\nenabled = false\n[buttons]\nenabled = false\n"
                               "[oled]\nenabled = false\n[projector]\nenabled = false\n")
    with Journal(tmp_path / "j.sqlite") as journal, build_table(journal,
                                                                screen_config(config, headless=True)) as table:
        table.session.start("kansas", {})
        assert table.session.current.options == {"players": 6}
        table.session.start("kansas", {"players": 4})  # --players wins
        assert table.session.current.options == {"players": 4}
        table.session.start("stormfury", {})  # a game that does not ask for a count is not given one
        assert table.session.current.options == {}
