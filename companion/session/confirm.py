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
from companion.inputs import Roll
from companion.session.inputs import Ask, AskModel

log = logging.getLogger(__name__)


def say_dice(dice: Sequence[Die]) -> str:
    return ", ".join(f"{d.kind.upper()} {d.value}" for d in dice) or "no dice"


class ConfirmRead:
    """The question for one unsure read (an :class:`~companion.session.inputs.AskModel`)."""

    def __init__(self, read: Sequence[Die], why: str = "") -> None:
        self.read = tuple(read)
        self.dice = list(read)
        self.message = why

    def title(self) -> str:
        return f"{say_dice(self.dice)}?"

    def options(self) -> list[str]:
        return ["OK: play these", *(f"{d.kind.upper()} {d.value}: next face" for d in self.dice)]

    def pick(self, index: int) -> str:
        if index == 0:
            return "save"
        die = self.dice[index - 1]
        self.dice[index - 1] = Die(die.kind, die.value % FACES[die.kind] + 1)
        self.message = ""
        return "stay"

    def back(self) -> bool:
        return False

    @property
    def mended(self) -> bool:
        return tuple(self.dice) != self.read

    def source(self, name: str) -> str:
        """The roll's source as journaled: the read, and whether the table confirmed or mended it."""
        if self.mended:
            return f"{name}, read {say_dice(self.read)}, mended"
        return f"{name}, confirmed: {say_dice(self.read)}"


def confirm_ask(read: Sequence[Die], inbox: queue.Queue[Any], source: str = "camera", why: str = "") -> Ask:
    """The Ask the source puts on the queue; on OK the (mended) dice come back onto the queue as its Roll."""
    model = ConfirmRead(read, why)

    def done(answered: AskModel) -> str:
        assert isinstance(answered, ConfirmRead)
        log.info("%s read %s, table %s %s", source, say_dice(answered.read),
                 "mended to" if answered.mended else "confirmed", say_dice(answered.dice))
        inbox.put(Roll(tuple(answered.dice), answered.source(source)))
        return f"{source}: {say_dice(answered.dice)}"

    return Ask(model, done)
