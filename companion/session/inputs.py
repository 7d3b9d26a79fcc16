"""What the session listens to: one small vocabulary for every input source.

The tower link, the buttons, the keys, a gamepad and typed dice each speak their own types;
:mod:`companion.session.adapt` turns them into these, so the session's loop knows one language
and can be driven by a test with no hardware at all.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from companion.dice import DiceRolled, Event

BUTTONS = ("ROLL", "UP", "DOWN", "LEFT", "RIGHT", "OK", "BACK", "OVERLAY")
"""Button names, as on the box (OVERLAY toggles the projector's risk map)."""


@dataclass(frozen=True)
class Roll:
    """Dice from the tower, a typed value or a test; ``seq`` is the tower's roll number when known.

    ``settle`` (tower rolls) tells the tower it may forget the roll: the session calls it once the roll
    is on disk or refused for good, never before (the tower resends an unsettled roll after a restart).
    """

    dice: DiceRolled
    seq: int | None = None
    settle: Callable[[], object] | None = field(default=None, compare=False, repr=False)


@dataclass(frozen=True)
class Press:
    """A button pressed (and released before the hold time)."""

    button: str


@dataclass(frozen=True)
class Hold:
    """A button held down: BACK held asks to undo, ROLL held asks to re-roll the last roll."""

    button: str


@dataclass(frozen=True)
class TowerStatus:
    """The tower link's state, one of companion.views.panel.TOWER_STATES."""

    state: str
    detail: str = ""


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
    """A passing message from an adapter ("tower: die crooked, throw again"), shown until the next input."""

    text: str


@dataclass(frozen=True)
class Quit:
    """Stop the loop (window closed, SIGTERM, end of a demo)."""


InputEvent = Roll | Press | Hold | TowerStatus | Decide | Notice | Say | Quit
