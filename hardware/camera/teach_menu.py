""""Teach dice" in the box's menu: the table puts each face of its D8 up in the tray in turn and presses OK.

The question walks the faces 1 to 8: OK takes a picture of the tray and learns the face that is up (what went
wrong, or a tray too like the dice, is said on the OLED and the face asked again), "skip" leaves a face for
later, BACK goes back a face, "save" keeps what was taught. The set is written to the state folder and the
camera reads with it at once. The same as ``companion dice teach``, with the camera's own pictures.
"""

from __future__ import annotations

import copy
import queue
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from companion.inputs import Ask, AskModel
from hardware.camera import taught as store
from hardware.camera.taught import KINDS, TaughtSet
from hardware.camera.teach import TeachError, teach

KIND = "d8"


class TeachModel:
    """The questions (an :class:`~companion.inputs.AskModel`); ``look`` takes a picture of the tray."""

    def __init__(self, look: Callable[[], np.ndarray | None], taught: TaughtSet) -> None:
        self.look = look
        self.taught = copy.deepcopy(taught)  # the camera keeps reading with the old set until this one is saved
        self.face = 1
        self.learned: list[int] = []
        self.message = "put each face up in the tray in turn"

    def title(self) -> str:
        return f"Teach D8: {self.face} up"

    def options(self) -> list[str]:
        return [f"OK: the {self.face} is up", f"skip the {self.face}", "save and leave"]

    def pick(self, index: int) -> str:
        if index == 2:
            return "save"
        if index == 0:
            frame = self.look()
            if frame is None:
                self.message = "the camera gave no picture"
                return "stay"
            try:
                warnings = teach(frame, KIND, self.face, self.taught)
            except TeachError as exc:
                self.message = f"{exc}: show the {self.face} again"
                return "stay"
            self.learned.append(self.face)
            self.message = warnings[0] if warnings else f"{self.face} learned"
        else:
            self.message = f"{self.face} skipped"
        self.face += 1
        return "save" if self.face > KINDS[KIND] else "stay"

    def back(self) -> bool:
        if self.face > 1:
            self.face -= 1
            self.message = ""
            return True
        return False


def teach_action(source: Any, folder: Path, inbox: queue.Queue[Any]) -> Callable[[], None]:
    """What the menu's "Teach dice" does: ask the table face by face, then keep the set and read with it."""

    def done(model: AskModel) -> str:
        assert isinstance(model, TeachModel)
        if not model.learned:
            return "teach dice: nothing taught"
        try:
            store.save(model.taught, folder)
        except OSError as exc:
            return f"teach dice: cannot keep the set ({exc.strerror or exc})"
        source.taught = model.taught
        missing = model.taught.missing(KIND)
        still = f", still to show {', '.join(map(str, missing))}" if missing else ""
        return f"D8 taught: {', '.join(map(str, model.learned))}{still}"

    def start() -> None:
        taught = source.taught if source.taught is not None else TaughtSet()
        inbox.put(Ask(TeachModel(source.snapshot, taught), done))

    return start
