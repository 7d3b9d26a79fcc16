"""Faults at the table, through the whole simulated box (virtual tower on a pty, the real link, gpiozero's mock
pins, luma's dummy device, session, journal): the game goes on, nothing taken is lost, the log stays quiet."""

from __future__ import annotations

import logging
import sys
import time
from pathlib import Path

from companion.dice import DiceRolled
from companion.journal import Journal
from companion.session.views import OledView
from companion.sim import build_table, screen_config, sim_config

sys.path.insert(0, str(Path(__file__).resolve().parent))
from test_oled_display import FlakyDummy
from test_session import loader


def _step_until(table, condition, seconds: float = 10.0) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, table.session.panel
        table.loop.step(timeout=0.05)


def _table(journal):
    return build_table(journal, sim_config(headless=True), loader=loader, game_keys=("race",), tick=0.05)


def _our_lines(caplog) -> list[str]:
    return [f"{r.name}: {r.getMessage()}" for r in caplog.records
            if r.name.split(".")[0] in ("companion", "firmware_bridge", "hardware")]


def test_tower_unplugged_mid_roll_and_replugged_buttons_roll_meanwhile_and_the_log_stays_quiet(tmp_path, caplog):
    with Journal(tmp_path / "j.sqlite") as journal, _table(journal) as table:
        session, tower = table.session, table.parts["tower-device"]
        session.start("race", {})
        table.loop.show()
        _step_until(table, lambda: session.tower == "connected")
        with caplog.at_level(logging.INFO):
            tower.rolling()
            _step_until(table, lambda: session.tower == "rolling")
            tower.unplug()
            _step_until(table, lambda: session.tower == "away")
            table.driver.press("ROLL")  # a button roll on the mock pins while the tower is away
            _step_until(table, lambda: session.current.state.step == "move")
            tower.roll([("d6", 2), ("d6", 3)])  # the dice settle while the cable is out: kept in the tower
            for _ in range(8):  # the link looks for the tower again and again meanwhile
                table.loop.step(timeout=0.2)
            assert session.tower == "away" and session.current.state.step == "move"
            tower.replug()
            _step_until(table, lambda: session.current.state.step == "lane")
        assert session.tower == "connected"
        live = journal.events(session.current.game_id)
        assert [x.event.source for x in live] == ["os", "tower"]
        assert live[1].event == DiceRolled.of(("d6", 2), ("d6", 3), source="tower")
        lines = _our_lines(caplog)
        assert len(lines) == 2, lines  # the cable going and coming back, never once per retry
        assert "tower lost" in lines[0] and "tower back" in lines[1]


def test_oled_raising_oserror_mid_game_the_game_goes_on_and_the_panel_catches_up(tmp_path, caplog):
    with Journal(tmp_path / "j.sqlite") as journal, _table(journal) as table:
        session = table.session
        session.start("race", {})
        table.loop.show()
        oled = next(v for v in table.loop.views if isinstance(v, OledView))
        flaky = FlakyDummy(failures=10**6)  # every I2C write fails (a loose cable)
        oled.display.device = flaky
        with caplog.at_level(logging.INFO):
            table.driver.throw(DiceRolled.of(("d8", 6)))
            _step_until(table, lambda: session.current.state.pos == 6)
            table.driver.press("ROLL")
            _step_until(table, lambda: session.current.state.step == "lane")
            assert oled.display.failing and flaky.calls >= 2 and oled in table.loop.views
            flaky.failures = 0  # the cable is pushed back; nobody touches the table
            _step_until(table, lambda: not oled.display.failing)
        assert flaky.image.tobytes() == oled.image.convert("1").tobytes()  # the newest screen, not a stale one
        assert [x.event.source for x in journal.events(session.current.game_id)] == ["tower", "os"]
        lines = [line for line in _our_lines(caplog) if "tower connected" not in line]
        assert len(lines) == 2 and "failed" in lines[0] and "back" in lines[1], lines


def test_buttons_that_cannot_be_had_leave_the_box_running_and_are_said_once(tmp_path, mock_factory, caplog):
    """A pin already taken by another device (gpiozero's own GPIOPinInUse): no traceback, one log line."""
    from gpiozero import Button

    from companion.config import Config, ProjectorConfig, TowerConfig

    config = Config(tower=TowerConfig(type="disabled"), projector=ProjectorConfig(type="disabled"))
    squatter = Button(17, pin_factory=mock_factory)  # BCM 17 is ROLL's pin
    try:
        with caplog.at_level(logging.INFO), Journal(tmp_path / "j.sqlite") as journal, \
                build_table(journal, screen_config(config, headless=True), views=[], loader=loader,
                            game_keys=("race",)) as table:
            assert table.parts["buttons"] == "absent"
            table.session.start("race", {})
            table.driver.throw(DiceRolled.of(("d8", 3)))  # typed or tower dice still reach the game
            table.loop.step(timeout=0)
            assert table.session.current.state.pos == 3
            assert "buttons: not available (companion doctor says why)" in table.session.panel.notices
            assert not any("factory" in n or "GPIO" in n or "busy" in n for n in table.session.panel.notices)
        lines = [line for line in _our_lines(caplog) if "buttons" in line]
        assert len(lines) == 1 and "not available" in lines[0], lines
    finally:
        squatter.close()
