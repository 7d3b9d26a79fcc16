"""A USB gamepad as the box's buttons, through pygame's joystick events.

D-pad (hat) or left stick: UP/DOWN/LEFT/RIGHT; A: OK; B: BACK; X: ROLL; Y: OVERLAY;
left shoulder: BACK held (undo, asks first); right shoulder: ROLL held (re-roll, asks first).
The pump runs in the loop's thread (pygame's event queue belongs to the main thread) and only
turns pygame events into session inputs; gamepads plugged in later are opened as they appear.
"""

from __future__ import annotations

import queue
from typing import Any

from companion.inputs import Hold, InputEvent, Press

BUTTONS: dict[int, InputEvent] = {
    0: Press("OK"),
    1: Press("BACK"),
    2: Press("ROLL"),
    3: Press("OVERLAY"),
    4: Hold("BACK"),
    5: Hold("ROLL"),
}
"""pygame joystick button number -> input (the SDL game-controller layout: A, B, X, Y, LB, RB)."""

AXIS_THRESHOLD = 0.6


class Gamepads:
    """Keeps plugged gamepads open and translates their events; ``translate`` is pure apart from that."""

    def __init__(self) -> None:
        self._open: dict[int, Any] = {}
        self._stick: dict[tuple[int, int], int] = {}

    def open_count(self) -> int:
        """Gamepads open now."""
        return len(self._open)

    def translate(self, event: Any) -> InputEvent | None:
        import pygame

        if event.type == pygame.JOYDEVICEADDED:
            pad = pygame.joystick.Joystick(event.device_index)
            self._open[pad.get_instance_id()] = pad
            return None
        if event.type == pygame.JOYDEVICEREMOVED:
            self._open.pop(event.instance_id, None)
            return None
        if event.type == pygame.JOYBUTTONDOWN:
            return BUTTONS.get(event.button)
        if event.type == pygame.JOYHATMOTION:
            x, y = event.value
            if y == 1:
                return Press("UP")
            if y == -1:
                return Press("DOWN")
            if x == -1:
                return Press("LEFT")
            if x == 1:
                return Press("RIGHT")
            return None
        if event.type == pygame.JOYAXISMOTION and event.axis in (0, 1):
            # A stick acts like a D-pad: one press when it crosses the threshold, none while held there.
            key = (event.instance_id, event.axis)
            direction = 1 if event.value > AXIS_THRESHOLD else -1 if event.value < -AXIS_THRESHOLD else 0
            before = self._stick.get(key, 0)
            self._stick[key] = direction
            if direction == 0 or direction == before:
                return None
            if event.axis == 0:
                return Press("RIGHT" if direction > 0 else "LEFT")
            return Press("DOWN" if direction > 0 else "UP")
        return None


class GamepadPump:
    """On the box: gamepads read from SDL's event queue, which the projector's display has started.

    Only joystick events are taken off the queue (the projector's own pump keeps the rest); with no
    projector there is no SDL video and so no gamepad, and the pump does nothing. Called from the
    loop's thread after every turn, like the laptop window's pump.
    """

    def __init__(self, inbox: queue.Queue[Any]) -> None:
        import pygame

        self.inbox = inbox
        self._pads = Gamepads()
        self._types = (pygame.JOYDEVICEADDED, pygame.JOYDEVICEREMOVED, pygame.JOYBUTTONDOWN, pygame.JOYHATMOTION,
                       pygame.JOYAXISMOTION)
        pygame.joystick.init()

    def __call__(self) -> bool:
        """Hand every pending gamepad event on; True when one became an input (the loop keeps its short tick)."""
        import pygame

        if not pygame.display.get_init():
            return False
        try:
            events = pygame.event.get(eventtype=self._types)
        except pygame.error:
            return False
        acted = False
        for event in events:
            translated = self._pads.translate(event)
            if translated is not None:
                self.inbox.put(translated)
                acted = True
        return acted

    def polled(self) -> bool:
        """True while a gamepad is open: its presses wait on this pump, so a sleeping loop keeps polling
        often. With none, a gamepad plugged in is noticed at the loop's next turn (within its rest tick)."""
        return self._pads.open_count() > 0
