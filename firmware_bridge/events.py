"""What the tower link puts on the session's queue: the input vocabulary every source speaks.

The link emits :class:`TowerRoll` (a :class:`companion.inputs.Roll` that also names the tower's
power-up), :class:`companion.inputs.SourceStatus` and :class:`companion.inputs.SourceFault`, all with
source "tower". Small frozen values, so the session's single loop consumes them without locks; the
link never knows a game.
"""

from __future__ import annotations

from dataclasses import dataclass

from companion.inputs import Roll, SourceFault, SourceStatus

__all__ = ["SOURCE", "SourceFault", "SourceStatus", "TowerRoll"]

SOURCE = "tower"


@dataclass(frozen=True)
class TowerRoll(Roll):
    """A roll delivered exactly once: ``seq`` numbers it within the tower's power-up ``boot``.

    The tower keeps the roll until it is acknowledged, and the link acknowledges it only when
    ``settle()`` is called: call it once the roll is safe (journaled, printed), or refused for good.
    A roll never settled is sent again by the tower after the box restarts; within one run the link
    never delivers it twice. ``settle`` may be called from any thread, more than once.
    """

    boot: str = ""
