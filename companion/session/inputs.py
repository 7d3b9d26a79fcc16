"""What the session listens to: the sources' vocabulary (:mod:`companion.inputs`) and the session's own few.

Every source (tower, buttons, keys, a gamepad, typed dice, smart dice) emits ``Roll``, ``Press``,
``Hold``, ``SourceStatus`` and ``SourceFault``; the rest here come from the service itself (a decision
made on the command line, a lasting notice, a passing message, a stop), so the session's loop knows one
language and can be driven by a test with no hardware at all.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Protocol

from companion.dice import Event
from companion.inputs import Hold, Press, Roll, SourceFault, SourceStatus

__all__ = ["BUTTONS", "Ask", "AskModel", "Decide", "Hold", "InputEvent", "Notice", "Press", "Quit", "Roll", "Say",
           "SourceFault", "SourceStatus"]

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
