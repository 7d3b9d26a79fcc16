"""A new input source added from this module alone: defined here, registered through the source registry (or
found through an entry point of a distribution put on the path here), named by its ``type`` in a configuration
file, and a whole game of the toy tile game played with it through ``build_table`` as ``companion run`` builds
the box. No file outside this module changes for it."""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path
from typing import ClassVar

import pytest

from companion import sources
from companion.cli import main
from companion.config import load_config, to_toml
from companion.dice import DiceRolled
from companion.errors import DataError
from companion.games import registry
from companion.inputs import Press, Roll
from companion.journal import Journal
from companion.sim import build_table, screen_config
from tests.toygame import SPEC as TOY

BUTTONS = ("ROLL", "UP", "DOWN", "LEFT", "RIGHT", "OK", "BACK")
QUIET = ("[tower]\nenabled = false\n[buttons]\nenabled = false\n[oled]\nenabled = false\n"
         "[projector]\nenabled = false\n")


@dataclass(frozen=True)
class ScriptOptions:
    """A scripted tray: ``script`` is what it puts on the queue in order, "d6:4" a die, "OK" a button."""

    script: tuple[str, ...]
    source: str = "scripted"
    """The name the dice carry into the journal."""

    def __post_init__(self) -> None:
        for step in self.script:
            kind, _, value = step.partition(":")
            if value and not (kind.startswith("d") and value.isdigit()):
                raise sources.OptionError("script", f"expected a die like 'd6:4', got {step!r}")
            if not value and step not in BUTTONS:
                raise sources.OptionError("script", f"expected a die like 'd6:4' or a button, got {step!r}")


class ScriptedTray:
    """Puts its script on the box's queue when started; closed when the box stops."""

    opened: ClassVar[list[ScriptedTray]] = []

    def __init__(self, options: ScriptOptions, context: sources.SourceContext) -> None:
        self.steps = options.script
        self.closed = False
        for step in options.script:
            kind, _, value = step.partition(":")
            if value:
                context.inbox.put(Roll.of(DiceRolled.of((kind, int(value)), source=options.source)))
            else:
                context.inbox.put(Press(step))
        ScriptedTray.opened.append(self)

    def close(self) -> None:
        self.closed = True


SCRIPTED = sources.SourceType("scripted", ScriptOptions, ScriptedTray,
                              describe=lambda options, tray: f"{len(tray.steps)} steps")


@dataclass(frozen=True)
class DeviceOptions:
    device: str = "/dev/nothing-here"


def _open_device(options: DeviceOptions, context: sources.SourceContext) -> ScriptedTray:
    raise OSError(f"{options.device}: no such device")


BROKEN = sources.SourceType("broken", DeviceOptions, _open_device)
INSTALLED = sources.SourceType("scripted-installed", ScriptOptions, ScriptedTray)
"""The same tray as a distribution would declare it in the ``companion.sources`` entry point group."""


@pytest.fixture
def plugged():
    """The scripted and broken types and the toy game registered for one test, and gone after."""
    removers = [sources.register(SCRIPTED), sources.register(BROKEN), registry.register(TOY)]
    ScriptedTray.opened.clear()
    yield
    for remove in removers:
        remove()
    assert "scripted" not in sources.names()


def _write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "config.toml"
    path.write_text(text)
    return path


def _play_toy(table, journal: Journal) -> list[str]:
    """Start a two-tile toy game and step the loop until the tray's script has played it to the end; the
    sources of the journaled dice."""
    session = table.session
    session.start("toy", {"tiles": 2})
    deadline = time.monotonic() + 10
    while not session.current.state.over:
        assert time.monotonic() < deadline, session.panel
        table.loop.step(timeout=0.05)
    [game] = journal.games()
    return [e.event.source for e in journal.events(game.id) if isinstance(e.event, DiceRolled)]


def test_a_source_named_in_the_configuration_plays_a_whole_game(tmp_path, plugged):
    path = _write(tmp_path, QUIET + '[sources.tray]\ntype = "scripted"\nscript = ["d6:1", "OK", "d6:6", "OK"]\n'
                                    'source = "felt tray"\n')
    config = load_config(path)
    [entry] = config.sources
    assert (entry.name, entry.type, entry.enabled) == ("tray", "scripted", True)
    assert entry.options == ScriptOptions(("d6:1", "OK", "d6:6", "OK"), "felt tray")
    with Journal(tmp_path / "j.sqlite") as journal:
        with build_table(journal, screen_config(config, headless=True)) as table:
            assert table.parts["tray"] == "4 steps"
            sources_played = _play_toy(table, journal)
            state = table.session.current.state
            [tray] = ScriptedTray.opened
            assert not tray.closed
        assert tray.closed  # the box closed it when it stopped
    assert sources_played == ["felt tray", "felt tray"]
    assert [kind for _, kind in state.tiles] == ["city", "field", "monastery"]


def test_the_options_take_their_defaults_and_read_back(tmp_path, plugged):
    path = _write(tmp_path, '[sources.tray]\ntype = "scripted"\nscript = ["d6:2"]\n'
                            '[sources.spare]\ntype = "scripted"\nenabled = false\nscript = []\n')
    config = load_config(path)
    assert [(e.name, e.enabled, e.options) for e in config.sources] == [
        ("tray", True, ScriptOptions(("d6:2",), "scripted")), ("spare", False, ScriptOptions((), "scripted"))]
    again = tmp_path / "again.toml"
    again.write_text(to_toml(config))
    assert load_config(again) == config


@pytest.mark.parametrize(("text", "named"), [
    ('type = "scripted"\nscript = ["d6:x"]', "sources.tray.script: expected a die like 'd6:4', got 'd6:x'"),
    ('type = "scripted"\nscript = ["d6:1", 4]', r"sources.tray.script\[1\]: expected a string, got 4"),
    ('type = "scripted"', "sources.tray.script: missing"),
    ('type = "scripted"\nscript = []\nspeed = 2', "sources.tray.speed: unknown key"),
    ('type = "scripted"\nscript = []\nsource = 3', "sources.tray.source: expected a string, got 3"),
    ('type = "scripted"\nscript = []\nenabled = "yes"', "sources.tray.enabled: expected true or false"),
    ('type = "smoke"', "sources.tray.type: unknown source type 'smoke' .known: .*scripted"),
    ("script = []", "sources.tray.type: missing"),
])
def test_a_bad_source_is_named_by_file_and_key(tmp_path, plugged, text, named):
    path = _write(tmp_path, f"[sources.tray]\n{text}\n")
    with pytest.raises(DataError, match=f"^{path}: {named}"):
        load_config(path)


def test_config_check_says_a_bad_source_in_one_line_and_exits_2(tmp_path, plugged, capsys):
    path = _write(tmp_path, '[sources.tray]\ntype = "scripted"\nscript = ["d6:x"]\n')
    assert main(["config", "check", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.strip().count("\n") == 0 and "sources.tray.script" in err and "Traceback" not in err


def test_a_source_that_does_not_open_is_disabled_and_the_rest_plays(tmp_path, plugged):
    path = _write(tmp_path, QUIET + '[sources.reader]\ntype = "broken"\ndevice = "/dev/ttyNone"\n'
                                    '[sources.tray]\ntype = "scripted"\nscript = ["d6:3", "OK", "d6:5", "OK"]\n')
    with Journal(tmp_path / "j.sqlite") as journal, build_table(
            journal, screen_config(load_config(path), headless=True)) as table:
        assert table.parts["reader"] == "disabled" and table.parts["tray"] == "4 steps"
        assert "reader: /dev/ttyNone: no such device" in table.session.notices
        assert _play_toy(table, journal) == ["scripted", "scripted"]


def test_an_installed_source_is_found_by_its_entry_point(tmp_path, plugged, monkeypatch):
    dist = tmp_path / "site" / "felt_tray-1.0.dist-info"
    dist.mkdir(parents=True)
    (dist / "METADATA").write_text("Metadata-Version: 2.1\nName: felt-tray\nVersion: 1.0\n")
    (dist / "entry_points.txt").write_text(
        f"[{sources.ENTRY_POINT_GROUP}]\nscripted-installed = tests.test_source_plugins:INSTALLED\n")
    path = _write(tmp_path, QUIET + '[sources.tray]\ntype = "scripted-installed"\n'
                                    'script = ["d6:1", "OK", "d6:2", "OK"]\n')
    with pytest.raises(DataError, match="unknown source type 'scripted-installed'"):
        load_config(path)  # not installed yet
    monkeypatch.syspath_prepend(str(tmp_path / "site"))
    sources.forget_installed()
    try:
        assert "scripted-installed" in sources.names()
        with Journal(tmp_path / "j.sqlite") as journal, build_table(
            journal, screen_config(load_config(path), headless=True)) as table:
            assert table.parts["tray"] == "scripted-installed"
            assert _play_toy(table, journal) == ["scripted", "scripted"]
    finally:
        monkeypatch.undo()
        sources.forget_installed()
    assert "scripted-installed" not in sources.names()


def test_the_camera_is_a_built_in_type_checked_as_its_section(tmp_path):
    path = _write(tmp_path, '[sources.overhead]\ntype = "camera"\ncapture = "folder"\nfolder = "/srv/tray"\n')
    [entry] = load_config(path).sources
    assert (entry.type, entry.options.capture, entry.options.folder, entry.options.fps) == (
        "camera", "folder", "/srv/tray", 10.0)
    again = tmp_path / "again.toml"
    again.write_text(to_toml(load_config(path)))
    assert load_config(again).sources == (entry,)
    bad = _write(tmp_path, '[sources.overhead]\ntype = "camera"\ncapture = "folder"\nfolder = "/srv/tray"\nfps = 0.5\n')
    with pytest.raises(DataError, match=r"sources\.overhead\.fps: expected 1\.\.60"):
        load_config(bad)


def test_a_camera_that_does_not_open_is_disabled_and_said(tmp_path):
    path = _write(tmp_path, QUIET + f'[camera]\nenabled = true\ncapture = "folder"\nfolder = "{tmp_path / "none"}"\n'
                                    f'sets = "{tmp_path / "sets"}"\ndice_set = "../up"\n')
    with Journal(tmp_path / "j.sqlite") as journal, build_table(
            journal, screen_config(load_config(path), headless=True)) as table:
        assert table.parts["camera"] == "disabled"
        assert [n for n in table.session.notices if n.startswith("camera: ")]
        assert "Teach dice" not in [label for label, _ in table.session.extras]


def test_smart_dice_are_a_built_in_type_offering_pairing(tmp_path):
    pairing = tmp_path / "dice.toml"
    path = _write(tmp_path, QUIET + f'[sources.pads]\ntype = "smartdice"\npairing = "{pairing}"\nretry_s = 5\n')
    [entry] = load_config(path).sources
    assert (entry.options.enabled, entry.options.pairing, entry.options.retry_s) == (True, str(pairing), 5.0)
    with Journal(tmp_path / "j.sqlite") as journal, build_table(
            journal, screen_config(load_config(path), headless=True)) as table:
        assert table.parts["pads"] == "off"  # no die paired yet: said by the source, pairing stays offered
        assert [label for label, _ in table.session.extras] == ["Pair dice"]
    bad = _write(tmp_path, '[sources.pads]\ntype = "smartdice"\npixels = "shout"\n')
    with pytest.raises(DataError, match=r"sources\.pads\.pixels: expected one of connect, advert"):
        load_config(bad)
