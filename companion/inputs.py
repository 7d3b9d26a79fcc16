"""The input vocabulary every source speaks: dice rolls, button presses and holds, and a source's state.

The dice tower, the box's buttons, a gamepad, typed input and smart dice each put these on the
session's queue and nothing else, so the session matches no adapter's own types and a new source is
one module (plus its configuration section) that emits them. They are small frozen values: a source's
thread makes them, the session's single loop consumes them, no locks.

The service's own few (a decision from the command line or a phone, a lasting notice, a passing message, a part's
questions, a stop) are here too: one vocabulary, so the session, the sources and the tests speak the same words.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from companion.dice import DiceRolled, Die, Event

SOURCE_STATES = ("off", "waiting", "connected", "rolling", "away", "mismatch")
"""off: not configured; waiting: looking for it; connected: ready; rolling: dice in the air;
away: it was there and vanished (it comes back by itself); mismatch: it speaks another protocol."""


def source_name(source: str) -> str:
    """What players read for a source: "godice:Blue D6" is the die the group named "Blue D6", "tower" the tower."""
    return source.split(":", 1)[-1]


@dataclass(frozen=True)
class RollRef:
    """Which roll of a source went into a journaled event: kept with the entry, in the same commit, so a source
    that resends until acknowledged (the tower) can be told after a restart that the roll is on disk already.

    ``boot`` and ``seq`` are the source's own names for the roll (the tower's power-up and its number in it),
    ``dice`` the dice it sent under them, all of them (extra or refused ones included), as a resend repeats
    them. Never shown to players: the journal's bookkeeping, not the game's history."""

    source: str
    boot: str
    seq: int
    dice: tuple[tuple[str, int], ...]

    def to_dict(self) -> dict[str, Any]:
        return {"source": self.source, "boot": self.boot, "seq": self.seq, "dice": [list(d) for d in self.dice]}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> RollRef:
        """Inverse of :meth:`to_dict`; raises ValueError, TypeError or KeyError on a value it did not write."""
        dice = tuple((str(kind), int(value)) for kind, value in data["dice"])
        seq = data["seq"]
        if not isinstance(seq, int) or isinstance(seq, bool):
            raise ValueError(f"roll seq {seq!r} is not a number")
        return cls(str(data["source"]), str(data["boot"]), seq, dice)


@dataclass(frozen=True)
class Roll:
    """Settled dice from a source ("tower", "buttons", "typed", "godice:Blue D8"...).

    ``seq`` is the source's own number for the roll when it has one (the tower's). ``settle`` is how
    the source learns the roll is on disk: the session calls it once the journal has committed the
    event (or once the roll is refused for good), so a source that resends until acknowledged never
    loses a roll the box said it had. A source without that need leaves it None.
    """

    dice: tuple[Die, ...]
    source: str = "manual"
    seq: int | None = None
    settle: Callable[[], object] | None = field(default=None, compare=False, repr=False)

    @classmethod
    def of(cls, rolled: DiceRolled, seq: int | None = None) -> Roll:
        """The input for a :class:`DiceRolled` (a seed's, a test's)."""
        return cls(rolled.dice, rolled.source, seq)

    def ref(self) -> RollRef | None:
        """What the journal keeps of this roll with the event its dice go into; None for a source that does not
        resend (buttons, typed dice, smart dice): nothing of theirs can come twice."""
        return None

    @property
    def rolled(self) -> DiceRolled:
        """The event this roll becomes in the journal."""
        return DiceRolled(self.dice, self.source)


@dataclass(frozen=True)
class Press:
    """A button pressed and released without being held (gpiozero's ``when_released`` before ``when_held``)."""

    button: str


@dataclass(frozen=True)
class Hold:
    """A button held down past its hold time: BACK held asks to undo, ROLL held asks to re-roll the last roll,
    RIGHT held toggles the projector's risk overlay. A held button sends no Press."""

    button: str


@dataclass(frozen=True)
class SourceStatus:
    """A source's state changed: ``state`` is one of :data:`SOURCE_STATES`, ``detail`` says more
    ("v2", "battery 12 %"). The OLED header and the projector's strip show every source's state."""

    source: str
    state: str
    detail: str = ""


@dataclass(frozen=True)
class SourceFault:
    """A source reports a roll it could not read (a crooked die): said on the panel, the dice thrown again."""

    source: str
    text: str
    code: str = ""
    """The source's own name for the fault ("crooked"), for the log and ``tower listen``."""


# -- what the service itself says to the session (a decision from the command line or a phone, a notice,
# a passing message, a part's questions, a stop) --------------------------------------------------------

BUTTONS = ("ROLL", "UP", "DOWN", "LEFT", "RIGHT", "OK", "BACK", "OVERLAY")
"""Button names, as on the box (OVERLAY toggles the projector's risk map)."""


@dataclass(frozen=True)
class Decide:
    """A decision made elsewhere (command line, test): applied as if picked from the menu."""

    event: Event


@dataclass(frozen=True)
class Notice:
    """A lasting condition from an adapter ("projector: no display"), said once on the panel."""

    text: str


@dataclass(frozen=True)
class Say:
    """A passing message from an adapter, shown until the next input."""

    text: str


class AskModel(Protocol):
    """A few questions a part asks the table through the OLED's menu (pairing smart dice): a title, the
    options, and what OK and BACK do. The part's model holds its own state; the session only shows it."""

    message: str

    def title(self) -> str: ...

    def options(self) -> Sequence[str]: ...

    def pick(self, index: int) -> str:
        """OK on option ``index``: "stay" (ask the next question), "save" or "leave"."""
        ...

    def back(self) -> bool:
        """BACK: True when the model stepped back a question, False to leave."""
        ...


@dataclass(frozen=True)
class Ask:
    """Open ``model``'s questions as a menu; on "save", ``done(model)`` keeps the answers (off the game:
    nothing is journaled) and returns the sentence to show."""

    model: AskModel
    done: Callable[[AskModel], str] = field(compare=False)


@dataclass(frozen=True)
class Quit:
    """Stop the loop (window closed, SIGTERM, end of a demo)."""


InputEvent = Roll | Press | Hold | SourceStatus | SourceFault | Decide | Notice | Say | Ask | Quit
