"""The box's parts chosen by configuration: each section's ``type`` found in the one registry, a part that does
not open said on the OLED and in the log while the box runs on, the simulated table as a configuration that
builds the table it always built, and a new output added from this module alone, named in a configuration file."""

from __future__ import annotations

import inspect
import logging
import time
from dataclasses import dataclass, fields
from pathlib import Path
from typing import ClassVar

import pytest
from test_session import loader

from companion import sources
from companion.config import (
    ButtonsConfig,
    Config,
    OledConfig,
    TowerConfig,
    load_config,
    to_toml,
)
from companion.dice import DiceRolled
from companion.errors import DataError
from companion.journal import Journal
from companion.session import Press
from companion.session.core import Frame
from companion.session.views import FrameFolder, OledView
from companion.sim import build_table, sim_config
from companion.views.oled import render
from companion.views.projector import ProjectorView
from firmware_bridge.link_options import TowerOptions
from hardware.buttons import ButtonPins, ButtonTiming
from hardware.oled import OledSettings


def _config(tmp_path: Path, text: str) -> Config:
    path = tmp_path / "config.toml"
    path.write_text(text)
    return load_config(path)


def _step_until(table, done, timeout: float = 5.0) -> None:
    deadline = time.monotonic() + timeout
    while not done():
        assert time.monotonic() < deadline, table.session.panel
        table.loop.step(timeout=0.05)


@dataclass(frozen=True)
class NoOptions:
    """The broken tower has no options of its own."""


def _broken_start(options, context):
    raise OSError("no such port /dev/ttyTEST9")


BROKEN_TOWER = sources.PartType("test-broken", TowerConfig, _broken_start, role="tower")


def test_a_part_that_fails_to_open_is_said_on_the_oled_and_in_the_log_and_the_box_runs(tmp_path, caplog):
    unregister = sources.register(BROKEN_TOWER)
    try:
        config = _config(tmp_path, '[tower]\ntype = "test-broken"\n[buttons]\ntype = "mock"\nbounce_ms = 0\n'
                                   '[oled]\ntype = "dummy"\n[projector]\ntype = "disabled"\n')
        with caplog.at_level(logging.WARNING), Journal(tmp_path / "j.sqlite") as journal, \
                build_table(journal, config, loader=loader, game_keys=("race",)) as table:
            assert table.parts["tower"] == "disabled" and "link" not in table.parts
            assert table.parts["buttons"] == "mock pins (keys)" and table.parts["oled"] == "dummy"
            table.session.start("race", {})
            table.loop.show()
            oled = next(v for v in table.loop.views if isinstance(v, OledView))
            panel = table.session.frame.panel
            said = "tower: no such port /dev/ttyTEST9"
            assert said in panel.notices
            assert oled.image.tobytes() == render(panel).tobytes()  # what the OLED shows is that panel
            table.driver.press("ROLL")  # the buttons still roll: the game goes on without the tower
            _step_until(table, lambda: table.session.current.state.pos > 0)
        lines = [r.getMessage() for r in caplog.records if r.getMessage().startswith("tower:")]
        assert lines == ["tower: did not open", "tower: disabled: no such port /dev/ttyTEST9"]
    finally:
        unregister()


def test_the_sim_configuration_builds_the_table_it_always_built(tmp_path):
    out = tmp_path / "frames"
    out.mkdir()
    with Journal(tmp_path / "j.sqlite") as journal, \
            build_table(journal, sim_config(headless=True, out=out), loader=loader, game_keys=("race",)) as table:
        parts = {k: v for k, v in table.parts.items() if isinstance(v, str)}
        assert parts.pop("tower").endswith("dice-tower")
        assert parts == {"buttons": "mock pins (keys)", "oled": "dummy", "projector": "headless",
                         "frames": str(out)}
        assert [type(v) for v in table.loop.views] == [OledView, ProjectorView, FrameFolder]
        assert table.loop.views[1].renderer.size == (960, 540)  # the headless size without a configuration
        assert {"link", "keys", "tower-device"} <= set(table.parts)
        assert table.session.preferred == {}  # no count preferred: scripts answer the setup menu themselves
        table.session.start("race", {})
        table.driver.throw(DiceRolled.of(("d8", 5)))  # into the virtual tower, through the real link
        _step_until(table, lambda: table.session.current.state.pos == 5)
        assert sorted(p.name.split("-")[0] for p in out.iterdir())  # frames written
    config = sim_config()
    assert (config.tower.type, config.buttons.type, config.oled.type, config.projector.type) == (
        "virtual", "mock", "dummy", "window")
    assert config.buttons.bounce_ms == 0 and not config.dice.enabled


def test_the_sim_configuration_keeps_a_files_pins_and_sizes(tmp_path):
    base = _config(tmp_path, "[buttons]\nok = 4\n[projector]\nwidth = 640\nheight = 360\n")
    config = sim_config(base, headless=True, out=tmp_path)
    assert config.buttons.ok == 4 and config.buttons.type == "mock"
    assert (config.projector.type, config.projector.width, config.projector.frames) == ("frames", 640, str(tmp_path))
    disabled = sim_config(_config(tmp_path, "[projector]\nenabled = false\n"), headless=True)
    assert disabled.projector.type == "disabled"


def test_each_default_is_declared_once_by_its_part():
    """The sections add only their ``type``: every other field, and its default, is the part's own."""
    for section, *parts in ((ButtonsConfig, ButtonPins, ButtonTiming), (OledConfig, OledSettings),
                            (TowerConfig, TowerOptions)):
        assert set(inspect.get_annotations(section)) == {"type"}, section
        inherited = {f.name: f.default for part in parts for f in fields(part)}
        assert {f.name: f.default for f in fields(section) if f.name != "type"} == inherited


@pytest.mark.parametrize(("text", "said"), [
    ('[oled]\ntype = "hdmi"\n', "oled.type: expected one of dummy, luma, disabled, got 'hdmi'"),
    ('[projector]\ntype = "virtual"\n', "projector.type: expected one of frames, screen, window, disabled"),
    ('[outputs.strip]\ntype = "virtual"\n', "outputs.strip.type: unknown output type 'virtual'"),
    ('[oled]\nport = 1\ni2c_port = 2\n', "oled.port: give the port once: 'port' or 'i2c_port'"),
])
def test_a_type_not_known_for_its_section_is_one_line_naming_file_and_field(tmp_path, text, said):
    with pytest.raises(DataError) as caught:
        _config(tmp_path, text)
    message = str(caught.value)
    assert "\n" not in message and message.startswith(str(tmp_path / "config.toml")) and said in message


def test_files_written_before_types_still_read(tmp_path):
    """``enabled = false`` is "disabled"; the OLED's ``port`` and ``address`` are its bus and I2C address."""
    old = _config(tmp_path, '[tower]\nenabled = false\n[oled]\ndriver = "sh1106"\nport = 0\naddress = 0x3D\n'
                            '[projector]\nenabled = false\ndriver = "fbdev"\n')
    assert (old.tower.type, old.projector.type, old.projector.driver) == ("disabled", "disabled", "fbdev")
    assert (old.oled.type, old.oled.driver, old.oled.i2c_port, old.oled.i2c_address) == ("luma", "sh1106", 0, 0x3D)
    assert (old.oled.port, old.oled.address) == (0, 0x3D)
    again = tmp_path / "again.toml"
    again.write_text(to_toml(old))
    assert load_config(again) == old


# A new output, from this module alone: its options dataclass, its start, registered, named in a file.

@dataclass(frozen=True)
class TapeOptions:
    """A paper tape of the prompts shown: each line starts with ``mark``; ``every`` keeps every n-th frame."""

    mark: str = ">"
    every: int = 1

    def __post_init__(self) -> None:
        if self.every < 1:
            raise sources.OptionError("every", f"expected 1 or more, got {self.every}")


class Tape:
    """The output: a view on the loop writing each frame's OLED line for the prompt."""

    opened: ClassVar[list[Tape]] = []

    def __init__(self, options: TapeOptions) -> None:
        self.options = options
        self.lines: list[str] = []
        self.closed = False
        self._count = 0

    def show(self, frame: Frame) -> None:
        self._count += 1
        if self._count % self.options.every == 0:
            self.lines.append(f"{self.options.mark} {frame.panel.prompt}")

    def close(self) -> None:
        self.closed = True


def _start_tape(options: TapeOptions, context: sources.SourceContext) -> Tape:
    tape = Tape(options)
    context.add_view(tape)
    Tape.opened.append(tape)
    return tape


TAPE = sources.PartType("test-tape", TapeOptions, _start_tape, describe=lambda o, t: f"tape {o.mark}",
                        role="output")


def test_an_output_added_from_a_test_module_is_used_through_the_configuration_alone(tmp_path):
    unregister = sources.register(TAPE)
    Tape.opened.clear()
    try:
        config = _config(tmp_path, '[outputs.paper]\ntype = "test-tape"\nmark = "#"\n'
                                   '[tower]\ntype = "disabled"\n[buttons]\ntype = "mock"\nbounce_ms = 0\n'
                                   '[oled]\ntype = "dummy"\n[projector]\ntype = "disabled"\n')
        assert [(e.name, e.type, e.options) for e in config.outputs] == [("paper", "test-tape", TapeOptions("#"))]
        with Journal(tmp_path / "j.sqlite") as journal, \
                build_table(journal, config, loader=loader, game_keys=("race",)) as table:
            assert table.parts["paper"] == "tape #"
            (tape,) = Tape.opened
            assert tape in table.loop.views
            table.session.start("race", {})
            table.loop.show()
            table.driver.press("ROLL")
            _step_until(table, lambda: table.session.current.state.pos > 0)
            table.inbox.put(Press("OK"))
            table.loop.step(timeout=1)
            assert len(tape.lines) >= 2 and all(line.startswith("# ") for line in tape.lines)
            assert len(set(tape.lines)) >= 2  # the prompts the game moved through
        assert tape.closed  # closed with the box
        with pytest.raises(DataError, match=r"outputs\.paper\.every: expected 1 or more"):
            _config(tmp_path, '[outputs.paper]\ntype = "test-tape"\nevery = 0\n')
    finally:
        unregister()
    with pytest.raises(DataError, match="unknown output type 'test-tape'"):
        _config(tmp_path, '[outputs.paper]\ntype = "test-tape"\n')


def test_stand_in_parts_need_no_device_and_real_ones_are_looked_for(tmp_path, monkeypatch):
    """``companion run`` without ``--sim`` looks for the devices of the real types only: a file naming the
    stand-ins (the simulated table written out as a configuration) needs none."""
    from companion.commands import run

    monkeypatch.setattr(run, "DEVICES", tmp_path)  # a machine with no devices at all
    assert run.missing_parts(sim_config(headless=True)) == []
    real = _config(tmp_path, '[tower]\nport = "/dev/ttyTEST9"\n')
    assert run.missing_parts(real) == [f"buttons (no {tmp_path / 'gpiochip0'})", f"OLED (no {tmp_path / 'i2c-1'})",
                                       "tower (no /dev/ttyTEST9)"]
