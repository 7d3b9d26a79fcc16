"""The camera source through the real session: a whole Kansas tornado thrown as a sequence of photographs (a
folder capture: each photograph decoded as a camera frame), sure reads played at once, an unsure read confirmed
with OK, a die the camera missed set with the arrows; and the source idle while no dice are asked for.

The D8 photographs are taught from burks_d8_01 (5) and burks_d8_04 (1) as they are, and thrown turned a quarter
and a half (so the read frame is not the taught one); the D6 photographs are skovy_01 cut to the floor round its
dice, as a tray's camera sees them (4, 3: sure; the corner of a black box beside them, out of the cut, reads as an
unsure 2), skovy_07 a third darker (2 and 1, the 1 seen in perspective and unsure: confirmed), a cut of byler_14
(a black 5, and a smoke 6 blurred by its motion: the 6 not seen, set by the table) and skovy_02 (4, 6).
"""

from __future__ import annotations

import queue
import threading
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest

from companion.dice import Die
from companion.inputs import Ask, Roll, SourceFault, SourceStatus
from companion.journal import Journal
from companion.read_confirm import ConfirmRead
from companion.session import Press, Session
from hardware.camera.capture import FolderCapture
from hardware.camera.reader import DieRead
from hardware.camera.source import CameraSource, verdict
from hardware.camera.taught import TaughtSet
from hardware.camera.teach import teach
from tests.test_camera_reader import image


def throws(folder: Path) -> Path:
    folder.mkdir()
    frames = [np.rot90(image("burks_d8_01.jpg")), np.rot90(image("burks_d8_04.jpg"), 2),
              image("skovy_01.jpg")[300:, 600:], cv2.convertScaleAbs(image("skovy_07.jpg"), alpha=0.7),
              image("byler_14.jpg")[180:343, 180:500], image("skovy_02.jpg")]
    for n, frame in enumerate(frames, 1):
        assert cv2.imwrite(str(folder / f"throw{n}.png"), np.ascontiguousarray(frame))
    return folder


def d8_set() -> TaughtSet:
    taught = TaughtSet("blue")
    teach(image("burks_d8_01.jpg"), "d8", 5, taught)
    teach(image("burks_d8_04.jpg"), "d8", 1, taught)
    return taught


class Table:
    """The session and the camera source turned by hand: the source's turns until it puts something on the
    queue, then the session handles it (no thread: each step is in order)."""

    def __init__(self, session: Session, source: CameraSource, inbox: queue.Queue[Any]) -> None:
        self.session, self.source, self.inbox = session, source, inbox

    def next_input(self, turns: int = 60) -> Any:
        for _ in range(turns):
            self.source.poll()
            while not self.inbox.empty():
                item = self.inbox.get_nowait()
                if not isinstance(item, SourceStatus):
                    self.session.handle(item)
                    return item
        raise AssertionError(f"the camera put nothing on the queue in {turns} frames")

    def press(self, *buttons: str) -> None:
        for button in buttons:
            self.session.handle(Press(button))
        while not self.inbox.empty():  # what OK on the question put back: the roll as played
            self.session.handle(self.inbox.get_nowait())


def test_a_kansas_tornado_read_from_photographs(tmp_path):
    inbox: queue.Queue[Any] = queue.Queue()
    capture = FolderCapture(throws(tmp_path / "tray"), frames_each=4)
    with Journal(tmp_path / "j.sqlite") as journal:
        session = Session(journal)
        session.start("kansas", {"players": 4})
        table = Table(session, CameraSource(inbox, capture, session.wanted, d8_set()), inbox)

        assert table.next_input() == Roll((Die("d8", 5),), "camera")
        assert session.panel.result == ("North-south line 5",)
        assert table.next_input() == Roll((Die("d8", 1),), "camera")
        assert session.current.state.tornadoes[0].start is not None
        roll = table.next_input()
        assert isinstance(roll, Roll) and sorted(d.value for d in roll.dice) == [3, 4]
        assert session.panel.result[-1].startswith("4+3=7") or session.panel.result[-1].startswith("3+4=7")

        ask = table.next_input()  # skovy_07 darker: the red 1 is read, but not surely
        assert isinstance(ask, Ask) and isinstance(ask.model, ConfirmRead)
        assert session.panel.menu.title in ("D6 2, D6 1?", "D6 1, D6 2?")
        assert session.wanted() == ()  # no frame is read while the table answers
        table.press("OK")
        assert session.panel.menu is None and session.panel.prompt.text.endswith("move 3 of 4: roll 2D6 for the path")

        ask = table.next_input()  # byler_14's cut: only the 5 is seen
        assert session.panel.menu.title == "D6 5, D6 ??"
        table.press("OK")
        assert session.panel.message == "set each unseen die first"
        table.press("DOWN", "DOWN", *["OK"] * 6)  # the unseen die: ? -> 1 -> ... -> 6
        assert session.panel.menu.title == "D6 5, D6 6?"
        table.press("UP", "UP", "OK")
        assert session.panel.prompt.text.endswith("move 4 of 4: roll 2D6 for the path")

        roll = table.next_input()
        assert isinstance(roll, Roll) and sorted(d.value for d in roll.dice) == [4, 6] and roll.source == "camera"
        assert session.panel.result[-2].startswith("Path:")  # the tornado's four moves are done

        [game] = journal.games()
        played = [(e.event.source, tuple(d.value for d in e.event.dice)) for e in journal.events(game.id)
                  if hasattr(e.event, "dice")]
    sources = [source for source, _ in played]
    assert sources[:3] == ["camera"] * 3 and sources[5] == "camera"
    assert sources[3] in ("camera, confirmed: D6 2, D6 1", "camera, confirmed: D6 1, D6 2")
    assert sources[4] == "camera, read D6 5, mended" and sorted(played[4][1]) == [5, 6]


def test_a_crooked_die_is_thrown_again_and_a_short_count_is_asked():
    inbox: queue.Queue[Any] = queue.Queue()
    verdict([DieRead("d6", 3, 0.9, (0, 0, 30, 44), crooked=True), DieRead("d6", 5, 1.0, (50, 0, 30, 30))],
            ("d6", "d6"), inbox)
    fault = inbox.get_nowait()
    assert isinstance(fault, SourceFault) and fault.code == "crooked" and inbox.empty()
    verdict([DieRead("d8", 3, 1.0, (0, 0, 30, 30))], ("d8", "d6"), inbox)
    ask = inbox.get_nowait()
    assert isinstance(ask, Ask) and ask.model.title() == "D8 3, D6 ??"
    verdict([DieRead("d8", 3, 1.0, (0, 0, 30, 30)), DieRead("d6", 2, 0.95, (40, 0, 30, 30))], ("d6", "d8"), inbox)
    assert inbox.get_nowait() == Roll((Die("d8", 3), Die("d6", 2)), "camera")


class CountingCapture(FolderCapture):
    """The folder capture, counting the times it is opened and its frames taken."""

    def __init__(self, folder: Path) -> None:
        super().__init__(folder, frames_each=4)
        self.opened = 0
        self.frames = 0
        self.first_frame = threading.Event()

    def open(self) -> None:
        self.opened += 1
        super().open()

    def frame(self) -> np.ndarray | None:
        self.frames += 1
        self.first_frame.set()
        return super().frame()


def test_the_thread_reads_only_while_dice_are_asked(tmp_path):
    folder = tmp_path / "tray"
    folder.mkdir()
    cv2.imwrite(str(folder / "a.png"), image("skovy_02.jpg"))
    capture = CountingCapture(folder)
    inbox: queue.Queue[Any] = queue.Queue()
    asked: list[tuple[str, ...]] = [()]
    source = CameraSource(inbox, capture, lambda: asked[0], fps=100)
    with source:
        assert inbox.get(timeout=5) == SourceStatus("camera", "connected")
        assert not capture.first_frame.wait(0.6)  # a whole idle turn and more: not one frame
        assert capture.opened == 0 and not source.capturing
        asked[0] = ("d6", "d6")
        roll = inbox.get(timeout=20)
    assert isinstance(roll, Roll) and sorted(d.value for d in roll.dice) == [4, 6]
    assert capture.opened == 1 and not source.capturing


@pytest.mark.parametrize("missing", ["no-such-folder", "empty"])
def test_a_camera_that_is_not_there_says_so(tmp_path, missing):
    (tmp_path / "empty").mkdir()
    inbox: queue.Queue[Any] = queue.Queue()
    source = CameraSource(inbox, FolderCapture(tmp_path / missing), lambda: ("d6",))
    source.poll()
    status = inbox.get_nowait()
    assert status.state == "away" and str(tmp_path / missing) in status.detail
