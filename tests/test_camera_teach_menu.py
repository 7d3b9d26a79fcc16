""""Teach dice" from the box's menu, through the real session: the table shows faces in the tray (a folder of
photographs as the camera: burks_d8_04 shows the 1, burks_d8_01 the 5), skips the faces it has no picture of,
saves; the set is on disk and the camera reads a D8 with it at once (burks_d8_01 turned a quarter)."""

from __future__ import annotations

import queue
from typing import Any

import cv2
import numpy as np

from companion.dice import Die
from companion.inputs import Roll, SourceStatus
from companion.journal import Journal
from companion.session import Press, Session
from hardware.camera import taught as store
from hardware.camera.capture import FolderCapture
from hardware.camera.source import CameraSource
from hardware.camera.taught import TaughtSet
from hardware.camera.teach_menu import teach_action
from tests.test_camera_reader import image


def test_teach_dice_from_the_menu_then_read_with_it(tmp_path):
    tray = tmp_path / "tray"
    tray.mkdir()
    blank = np.full((480, 640, 3), 20, np.uint8)
    for name, frame in (("1_blank.png", blank), ("2_one.png", image("burks_d8_04.jpg")),
                        ("3_five.png", image("burks_d8_01.jpg")),
                        ("4_thrown.png", np.ascontiguousarray(np.rot90(image("burks_d8_01.jpg"))))):
        cv2.imwrite(str(tray / name), frame)
    inbox: queue.Queue[Any] = queue.Queue()
    sets = tmp_path / "sets"
    with Journal(tmp_path / "j.sqlite") as journal:
        session = Session(journal)
        session.start("kansas", {"players": 4})
        source = CameraSource(inbox, FolderCapture(tray, frames_each=1), session.wanted, TaughtSet("blue"))
        teach_action(source, sets, inbox)()
        session.handle(inbox.get_nowait())
        assert session.panel.menu.title == "Teach D8: 1 up"
        assert session.wanted() == ()  # the game's request waits while the table teaches

        session.handle(Press("OK"))  # the first picture shows no die
        assert session.panel.menu.title == "Teach D8: 1 up"
        assert session.panel.message == "no die found in the picture: show the 1 again"
        session.handle(Press("OK"))  # burks_d8_04: the 1
        assert session.panel.menu.title == "Teach D8: 2 up" and session.panel.message == "1 learned"
        for _ in range(3):  # no picture of the 2, 3, 4: skipped (each question starts at the top)
            session.handle(Press("DOWN"))
            session.handle(Press("OK"))
        assert session.panel.menu.title == "Teach D8: 5 up" and session.panel.message == "4 skipped"
        session.handle(Press("OK"))  # burks_d8_01: the 5
        session.handle(Press("DOWN"))
        session.handle(Press("DOWN"))
        session.handle(Press("OK"))  # save and leave
        assert session.panel.menu is None
        assert session.panel.message == "D8 taught: 1, 5, still to show 2, 3, 4, 6, 7, 8"
        assert store.load("blue", sets).missing("d8") == [2, 3, 4, 6, 7, 8]

        assert session.wanted() == ("d8",)
        for _ in range(20):
            source.poll()
        rolls = [item for item in list(inbox.queue) if not isinstance(item, SourceStatus)]
        assert rolls == [Roll((Die("d8", 5),), "camera")]  # the thrown 5, read with the set just taught
