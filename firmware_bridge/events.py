"""What the tower link puts on the session's queue.

Small frozen values, so the session's single loop can consume them without locks. The link never
knows a game: a roll is a :class:`companion.dice.DiceRolled` with ``source="tower"``.
"""

from __future__ import annotations

from dataclasses import dataclass

from companion.dice import DiceRolled


@dataclass(frozen=True)
class TowerRoll:
    """A roll accepted exactly once: ``seq`` numbers it within the tower's power-up ``boot``."""

    seq: int
    dice: DiceRolled
    boot: str = ""


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
