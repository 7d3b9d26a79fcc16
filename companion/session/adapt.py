"""The tower link's own event types, turned into the input vocabulary until the link speaks it itself.

Transitional: every other source emits :mod:`companion.inputs` directly. Unknown items are ignored
(and counted), never a crash.
"""

from __future__ import annotations

import logging
from typing import Any

from companion.dice import Choice, DiceRolled, Shuffled
from companion.session.inputs import Decide, InputEvent, Roll, SourceFault, SourceStatus

log = logging.getLogger(__name__)

ignored = 0
"""Items the session did not understand (kept for the logs and tests)."""


def translate(item: Any) -> InputEvent | None:
    """The session input for ``item``, or None if it means nothing to the session."""
    global ignored
    if isinstance(item, InputEvent):
        return item
    if isinstance(item, DiceRolled):
        return Roll.of(item)
    if isinstance(item, Choice | Shuffled):
        return Decide(item)
    name = type(item).__name__
    if name == "TowerRoll":
        return Roll.of(item.dice, seq=item.seq)
    if name == "TowerState":
        return SourceStatus("tower", item.state, getattr(item, "detail", ""))
    if name == "TowerFault":
        return SourceFault("tower", item.text or item.code)
    ignored += 1
    log.debug("ignored input %r", item)
    return None
