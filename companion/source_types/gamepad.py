"""USB gamepads as a source: read from SDL's event queue (companion.session.gamepad), which the projector's screen
has started. The "screen" projector brings one along (the gamepads ride on its SDL); ``[sources.NAME] type =
"gamepad"`` names it where another output starts SDL. With no SDL video there is no gamepad, and the pump does
nothing."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from companion.sources import Opened, SourceContext


@dataclass(frozen=True)
class GamepadOptions:
    """Gamepads have no options: every pad SDL finds is read, its buttons named as the box's."""


def start(options: GamepadOptions, context: SourceContext) -> Opened:
    from companion.session.gamepad import GamepadPump  # pygame: only for a box that reads gamepads

    pads = GamepadPump(context.inbox)
    context.add_pump(pads, pads.polled)
    return Opened(pads, "sdl")


def describe(options: Any, opened: Opened) -> str:
    return opened.word
