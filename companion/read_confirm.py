"""Never a silent wrong roll: a camera read the box is not sure of is shown to the table before it is played.

The OLED asks "D8 3, D6 5?" with the dice as read: OK takes them; each die is also an option, whose OK steps
its face up by one (the arrows choose the die), so a misread die is mended in a press or two; BACK leaves the
dice unplayed (throw again). What is played says where it came from in the journal: the source is
"camera" for a read taken as it was, "camera, confirmed: D8 3, D6 5" when the table said OK to an unsure read,
and "camera, read D6 5, mended" when a die was changed, so the journal keeps the read and the mend.
"""

from __future__ import annotations

import logging
import queue
from collections.abc import Sequence
from typing import Any

from companion.dice import FACES, Die
from companion.inputs import Ask, AskModel, Roll

log = logging.getLogger(__name__)


Face = tuple[str, int]
"""A die on the question: kind and face, face 0 for a die asked for that the camera did not see ("D6 ?")."""


def say_dice(dice: Sequence[Die | Face]) -> str:
    faces = [(d.kind, d.value) if isinstance(d, Die) else d for d in dice]
    return ", ".join(f"{kind.upper()} {value or '?'}" for kind, value in faces) or "no dice"


def unseen(read: Sequence[Die], asked: Sequence[str]) -> list[str]:
    """The kinds asked for that are missing from ``read`` (one entry per missing die)."""
    left = [d.kind for d in read]
    missing = []
    for kind in asked:
        if kind in left:
            left.remove(kind)
        else:
            missing.append(kind)
    return missing


class ConfirmRead:
    """The question for one unsure read (an :class:`~companion.inputs.AskModel`). Dice the game asked
    for that the camera did not see are on it as "D6 ?", set by the table before OK plays them."""

    def __init__(self, read: Sequence[Die], asked: Sequence[str] = (), why: str = "") -> None:
        self.read = tuple(read)
        self.dice: list[Face] = [(d.kind, d.value) for d in read] + [(k, 0) for k in unseen(read, asked)]
        self.message = why
        self.cursor = 0
        """The option the cursor stays on when the question is shown again: the die being stepped."""

    def title(self) -> str:
        return f"{say_dice(self.dice)}?"

    def options(self) -> list[str]:
        return ["OK: play these", *(f"{kind.upper()} {value or '?'}: next face" for kind, value in self.dice)]

    def pick(self, index: int) -> str:
        if index == 0:
            if any(value == 0 for _, value in self.dice):
                self.message = "set each unseen die first"
                return "stay"
            return "save"
        kind, value = self.dice[index - 1]
        self.dice[index - 1] = (kind, value % FACES[kind] + 1)
        self.message = ""
        self.cursor = index
        return "stay"

    def back(self) -> bool:
        return False

    def played(self) -> tuple[Die, ...]:
        return tuple(Die(kind, value) for kind, value in self.dice)

    @property
    def mended(self) -> bool:
        return self.played() != self.read

    def source(self, name: str) -> str:
        """The roll's source as journaled: the read, and whether the table confirmed or mended it."""
        if self.mended:
            return f"{name}, read {say_dice(self.read)}, mended"
        return f"{name}, confirmed: {say_dice(self.read)}"


def cursor_of(model: object) -> int:
    """Where the menu's cursor starts when a part's question is shown: on the die being mended for this
    question (so OK steps it again), at the top for any other."""
    return model.cursor if isinstance(model, ConfirmRead) else 0


def confirm_ask(read: Sequence[Die], inbox: queue.Queue[Any], source: str = "camera", why: str = "",
                asked: Sequence[str] = ()) -> Ask:
    """The Ask the source puts on the queue; on OK the (mended) dice come back onto the queue as its Roll."""
    model = ConfirmRead(read, asked, why)

    def done(answered: AskModel) -> str:
        assert isinstance(answered, ConfirmRead)
        log.info("%s read %s, table %s %s", source, say_dice(answered.read),
                 "mended to" if answered.mended else "confirmed", say_dice(answered.dice))
        inbox.put(Roll(answered.played(), answered.source(source)))
        return f"{source}: {say_dice(answered.dice)}"

    return Ask(model, done)
