"""The ``[camera]`` section: its values checked by name, and an enabled camera assembled into the table as one
more source on the queue (a folder of photographs as the simulated table's camera)."""

from __future__ import annotations

import time
from pathlib import Path

import cv2
import pytest

from companion.config import CameraConfig, load_config
from companion.dice import DiceRolled
from companion.errors import DataError
from companion.inputs import Roll
from companion.journal import Journal
from companion.sim import build_table, screen_config
from tests.test_camera_reader import image


def _config(tmp_path: Path, text: str):
    path = tmp_path / "config.toml"
    path.write_text(text)
    return load_config(path)


def test_defaults_and_a_folder_camera(tmp_path):
    config = _config(tmp_path, '[camera]\nenabled = true\ncapture = "folder"\nfolder = "/srv/photos"\nfps = 5.0\n')
    assert (config.camera.enabled, config.camera.capture, config.camera.folder, config.camera.fps) == (
        True, "folder", "/srv/photos", 5.0)
    assert CameraConfig().enabled is False and CameraConfig().capture == "usb"


@pytest.mark.parametrize(("text", "named"), [
    ('capture = "webcam"', "camera.capture"),
    ('capture = "folder"', "camera.folder"),
    ("fps = 0.5", "camera.fps"),
    ("settle_frames = 1", "camera.settle_frames"),
    ('sets = ""', "camera.sets"),
    ("lens = 3", "lens"),
])
def test_bad_values_are_named(tmp_path, text, named):
    with pytest.raises(DataError, match=named.replace(".", r"\.")):
        _config(tmp_path, f"[camera]\n{text}\n")


def test_an_enabled_folder_camera_plays_a_roll_on_the_table(tmp_path):
    tray = tmp_path / "tray"
    tray.mkdir()
    cv2.imwrite(str(tray / "throw.png"), image("skovy_02.jpg"))
    config = _config(tmp_path, f'[camera]\nenabled = true\ncapture = "folder"\nfolder = "{tray}"\nfps = 50.0\n'
                               f'sets = "{tmp_path / "sets"}"\n'
                               "[tower]\nenabled = false\n[buttons]\nenabled = false\n[oled]\nenabled = false\n"
                               "[projector]\nenabled = false\n")
    with Journal(tmp_path / "j.sqlite") as journal, build_table(journal,
                                                                screen_config(config, headless=True)) as table:
        assert table.parts["camera"] == "folder"
        assert "Teach dice" in [label for label, _ in table.session.extras]
        session = table.session
        session.start("kansas", {"players": 4})
        session.handle(Roll.of(DiceRolled.of(("d8", 5), source="tower")))
        session.handle(Roll.of(DiceRolled.of(("d8", 4), source="tower")))
        assert session.wanted() == ("d6", "d6")
        deadline = time.monotonic() + 20
        while "move 2 of" not in session.panel.prompt.text:  # the camera's 4 and 6 moved the tornado
            assert time.monotonic() < deadline, session.panel
            table.loop.step(timeout=0.05)
        [game] = journal.games()
        sources = [e.event.source for e in journal.events(game.id) if hasattr(e.event, "source")]
    assert sources[-1] == "camera"
