"""What the tower link puts on the session's queue: the input vocabulary every source speaks.

The link emits :class:`TowerRoll` (a :class:`companion.inputs.Roll` that also names the tower's
power-up), :class:`companion.inputs.SourceStatus` and :class:`companion.inputs.SourceFault`, all with
source "tower". Small frozen values, so the session's single loop consumes them without locks; the
link never knows a game.
"""

from __future__ import annotations

from dataclasses import dataclass

from companion.inputs import Roll, RollRef, SourceFault, SourceStatus

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

    def ref(self) -> RollRef | None:
        """The tower's name for this roll (its power-up, its number, the dice it sent), journaled with the event
        its dice go into: the link, primed with it at the next start, acknowledges a resend instead of
        delivering the roll again."""
        if self.seq is None:
            return None
        return RollRef(self.source, self.boot, self.seq, tuple((d.kind, d.value) for d in self.dice))
