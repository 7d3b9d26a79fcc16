"""What the tower link puts on the session's queue.

Small frozen values, so the session's single loop can consume them without locks. The link never
knows a game: a roll is a :class:`companion.dice.DiceRolled` with ``source="tower"``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from companion.dice import DiceRolled


def _nothing() -> None:
    """The settle of a roll made by hand (tests): there is no tower to tell."""


@dataclass(frozen=True)
class TowerRoll:
    """A roll delivered exactly once: ``seq`` numbers it within the tower's power-up ``boot``.

    The tower keeps the roll until it is acknowledged, and the link acknowledges it only when
    ``settle()`` is called: call it once the roll is safe (journaled, printed), or refused for good.
    A roll never settled is sent again by the tower after the box restarts; within one run the link
    never delivers it twice. ``settle`` may be called from any thread, more than once.
    """

    seq: int
    dice: DiceRolled
    boot: str = ""
    settle: Callable[[], None] = field(default=_nothing, compare=False, repr=False)


@dataclass(frozen=True)
class TowerState:
    """The link's state changed; ``state`` is one of companion.views.panel.TOWER_STATES."""

    state: str
    detail: str = ""


@dataclass(frozen=True)
class TowerFault:
    """The tower reported a fault (ERR frame), e.g. ``crooked``: a die that must be thrown again."""

    code: str
    text: str = ""
