"""What the session listens to: the sources' vocabulary (:mod:`companion.inputs`) and the session's own few.

Every source (tower, buttons, keys, a gamepad, typed dice, smart dice) emits ``Roll``, ``Press``,
``Hold``, ``SourceStatus`` and ``SourceFault``; the rest here come from the service itself (a decision
made on the command line, a lasting notice, a passing message, a stop), so the session's loop knows one
language and can be driven by a test with no hardware at all.
"""

from __future__ import annotations

from dataclasses import dataclass

from companion.dice import Event
from companion.inputs import Hold, Press, Roll, SourceFault, SourceStatus

__all__ = ["BUTTONS", "Decide", "Hold", "InputEvent", "Notice", "Press", "Quit", "Roll", "Say", "SourceFault",
           "SourceStatus"]

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


@dataclass(frozen=True)
class Quit:
    """Stop the loop (window closed, SIGTERM, end of a demo)."""


InputEvent = Roll | Press | Hold | SourceStatus | SourceFault | Decide | Notice | Say | Quit
