"""Turn what each input source puts on the queue into the session's own inputs.

The tower link, the buttons and the pygame pump are written by their own modules with their own
event types; this is the one thin seam that knows them. Unknown items are ignored (and counted),
never a crash.
"""

from __future__ import annotations

import logging
from typing import Any

from companion.dice import Choice, DiceRolled, Shuffled
from companion.session.inputs import Decide, Hold, InputEvent, Notice, Press, Quit, Roll, Say, TowerStatus

log = logging.getLogger(__name__)

_OWN = (Roll, Press, Hold, TowerStatus, Decide, Notice, Say, Quit)
ignored = 0
"""Items the session did not understand (kept for the logs and tests)."""


def translate(item: Any) -> InputEvent | None:
    """The session input for ``item``, or None if it means nothing to the session."""
    global ignored
    if isinstance(item, _OWN):
        return item
    if isinstance(item, DiceRolled):
        return Roll(item)
    if isinstance(item, Choice | Shuffled):
        return Decide(item)
    # The parts' own event types, matched by name and shape so the session imports no adapter.
    name = type(item).__name__
    if name == "TowerRoll":
        return Roll(item.dice, seq=item.seq, settle=getattr(item, "settle", None))
    if name == "TowerState":
        return TowerStatus(item.state, getattr(item, "detail", ""))
    if name == "TowerFault":
        return Say(f"tower: {item.text or item.code}, throw again")
    if name == "ButtonPress":
        return Press(item.name)
    if name == "ButtonHold":
        return Hold(item.name)
    ignored += 1
    log.debug("ignored input %r", item)
    return None
