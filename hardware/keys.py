"""Keys for buttons on a laptop: key events drive gpiozero's mock pins, so the same Buttons code runs."""

from __future__ import annotations

from typing import Any

from hardware.buttons import ButtonPins

KEYMAP: dict[str, str] = {
    "space": "ROLL",
    "r": "ROLL",
    "up": "UP",
    "down": "DOWN",
    "left": "LEFT",
    "right": "RIGHT",
    "return": "OK",
    "enter": "OK",
    "escape": "BACK",
    "backspace": "BACK",
}
"""pygame key names (``pygame.key.name(event.key)``) to button names."""


class KeyboardButtons:
    """Presses the mock pins of a gpiozero MockFactory as keys go down and up.

    Buttons are wired to GND with pull-ups, so pressed is ``drive_low`` and released is
    ``drive_high``; holding a key holds the button (BACK held undoes, as on the box).
    """

    def __init__(self, factory: Any, pins: ButtonPins | None = None) -> None:
        self.factory = factory
        self.pins = dict((pins or ButtonPins()).items())

    def press(self, name: str) -> None:
        self.factory.pin(self.pins[name]).drive_low()

    def release(self, name: str) -> None:
        self.factory.pin(self.pins[name]).drive_high()

    def key_down(self, key_name: str) -> bool:
        """Press the button of pygame key ``key_name``; False when that key is no button."""
        name = KEYMAP.get(key_name.lower())
        if name is None:
            return False
        self.press(name)
        return True

    def key_up(self, key_name: str) -> bool:
        name = KEYMAP.get(key_name.lower())
        if name is None:
            return False
        self.release(name)
        return True
